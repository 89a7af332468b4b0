"""``lars agree`` against the independent per-window rdflib checker, and its memory as streams grow.

For CSRBench Q1 (CQELS query, C-SPARQL query for its side, period ``U = 10 s``) on the bundled
CSRBench stream and on the stream replayed to each ``--sizes`` triples
(``replay_csrbench.py``), it runs, each in a fresh process:

* ``lars agree … --format json`` (the command's own code path);
* ``window_oracle.py`` (rdflib on every window snapshot, sharing no code with the solver);
* with ``--memory``, ``lars run`` of both query forms, for the peak memory ``lars agree`` is
  measured against;
* with ``--bare``, ``lars agree … --max-explanations 0`` too, printed beside the measured
  figure (which is always that of the default options, explanations included);

and prints per stream: the CPU seconds (user + system, the operating system's accounting of
the finished child) of ``lars agree`` (the median of ``--runs``, default 3) and of the oracle
(one run), their ratio; the same less each
one's start-up (a process that only imports its modules, ``import agreement.cli`` and
``import window_oracle``, median of three, measured in the same run) and the ratio of what is
left, the work itself (what either imports later, such as rdflib's SPARQL engine, counts as
work); whether the verdicts are
identical (per interval: agree or not, the answers only CQELS gave, those only C-SPARQL gave)
and the peak resident memory of ``lars agree`` and of ``lars run``. Every child runs with its
modules' bytecode compiled once (:func:`processes.compiled_environment`), as an installed
package has it: where ``PYTHONDONTWRITEBYTECODE`` is set, each ``lars agree`` compiled about a
hundred of our modules from source again, half a second of CPU that the checker, which
imports only rdflib (compiled when it was installed), never pays. Run:

    .venv/bin/python benchmarks/bench_agree.py --sizes 100000 1000000
    .venv/bin/python benchmarks/bench_agree.py --sizes 1000000 10000000 --memory --no-oracle
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from processes import compiled_environment, measured
from replay_csrbench import stream_file

HERE = Path(__file__).parent
ROOT = HERE.parent
QUERIES = ROOT / "examples" / "csrbench" / "queries"
BUNDLED = ROOT / "examples" / "csrbench" / "stream"
CLI = "from agreement.cli import console; console()"


def startup_cpu_s(module: str) -> float:
    """CPU seconds of a process that only imports ``module`` (median of three)."""
    environment = child_environment()
    times = []
    for _ in range(3):
        child = subprocess.Popen([sys.executable, "-c", f"import {module}"], env=environment)
        _, _, usage = os.wait4(child.pid, 0)
        times.append(usage.ru_utime + usage.ru_stime)
    return sorted(times)[1]


def child_environment() -> dict[str, str]:
    """The children's environment: :func:`processes.compiled_environment` with this folder on
    the path too (``window_oracle.py``'s own imports)."""
    environment = compiled_environment()
    return {**environment, "PYTHONPATH": os.pathsep.join([environment["PYTHONPATH"], str(HERE)])}


def lars(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]


def agree_verdicts(document: dict) -> dict:
    """Per interval: agree or not, and the answers only each side gave, as ``(v1, v2, ...)``."""
    variables = document["variables"]

    def text(answer: dict) -> str:
        return "(" + ", ".join(answer["binding"].get(v, "null") for v in variables) + ")"
    return {(i["start"], i["end"]): (i["agree"], sorted(text(a) for a in i["only_cqels"]),
                                     sorted(text(a) for a in i["only_csparql"]))
            for i in document["intervals"]}


def oracle_verdicts(lines: list[str]) -> dict:
    found = [json.loads(line) for line in lines if line.strip()]
    return {(v["start"], v["end"]): (v["agree"], v["only_cqels"], v["only_csparql"]) for v in found}


def median_of(runs: int, argv: list[str], output: Path) -> tuple[float, int]:
    """The median CPU seconds of ``runs`` runs of a ``lars agree`` command and their largest
    peak MB (a run of seconds is at the mercy of a slow moment of the machine; the checker's
    run of minutes, once, evens its own out)."""
    found = []
    for _ in range(runs):
        cpu, mb, status = measured(argv, output, child_environment())
        if status not in (0, 1):
            raise SystemExit(f"lars agree exited with {status}")
        found.append((cpu, mb))
    return sorted(cpu for cpu, _ in found)[len(found) // 2], max(mb for _, mb in found)


def measure(stream: Path, oracle: bool, memory: bool, folder: Path, prepare: bool = False,
            bare: bool = False, runs: int = 3) -> dict:
    """Every process first, their outputs read after: a child's peak memory (``ru_maxrss``)
    starts from this process's size when it forks, so reading a 10^7 report (~200 MB of JSON)
    before the next run would be counted as that run's."""
    cqels, csparql = QUERIES / "q1-cqels.rq", QUERIES / "q1-csparql.rq"
    report, lines = folder / "agree.json", folder / "oracle.jsonl"
    figures: dict = {}
    agree = lars("agree", str(cqels), "--csparql", str(csparql), "--stream", str(stream), "--period", "10s",
                 "--format", "json")
    figures["agree_cpu_s"], figures["agree_mb"] = median_of(runs, agree, report)
    if bare:
        figures["bare_cpu_s"], _ = median_of(runs, agree + ["--max-explanations", "0"], folder / "bare.json")
    if memory:
        for form, query in (("cqels", cqels), ("csparql", csparql)):
            _, figures[f"run_{form}_mb"], _ = measured(
                lars("run", str(query), "--stream", str(stream), "--quiet", "--output",
                     str(folder / "answers.jsonl"), "--output-format", "jsonl"), folder / "out.txt",
                child_environment())
    if oracle:
        figures["oracle_cpu_s"], figures["oracle_mb"], _ = measured(
            [sys.executable, str(HERE / "window_oracle.py"), str(cqels), str(stream), "--csparql",
             str(csparql), "--period", "10", *(["--prepare"] if prepare else [])], lines,
            child_environment())
        figures["ratio"] = figures["oracle_cpu_s"] / figures["agree_cpu_s"]
        figures["agree_startup_s"] = startup_cpu_s("agreement.cli")
        figures["oracle_startup_s"] = startup_cpu_s("window_oracle")
        figures["work_ratio"] = ((figures["oracle_cpu_s"] - figures["oracle_startup_s"])
                                 / (figures["agree_cpu_s"] - figures["agree_startup_s"]))
    ours = agree_verdicts(json.loads(report.read_text()))
    figures["intervals"] = len(ours)
    figures["disagreeing"] = sum(not v[0] for v in ours.values())
    if oracle:
        figures["identical"] = oracle_verdicts(lines.read_text().splitlines()) == ours
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100000, 1000000],
                        help="replayed stream sizes in triples (the bundled stream is always first)")
    parser.add_argument("--no-bundled", action="store_true", help="leave out the bundled stream")
    parser.add_argument("--no-oracle", action="store_true", help="only lars agree (memory runs)")
    parser.add_argument("--memory", action="store_true", help="also lars run's peak memory")
    parser.add_argument("--prepare", action="store_true",
                        help="the checker parses each query once (window_oracle.py --prepare)")
    parser.add_argument("--bare", action="store_true",
                        help="also lars agree --max-explanations 0 (printed beside, not measured against)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of lars agree, the median CPU taken (the checker runs once)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench")
    args = parser.parse_args(argv)
    streams = ([] if args.no_bundled else [("bundled (15,188)", BUNDLED)]) + [
        (f"{size:,}", stream_file(size, args.workdir)) for size in args.sizes]
    columns = ["triples", "intervals", "disagreeing", "agree_cpu_s", "bare_cpu_s", "oracle_cpu_s", "ratio",
               "agree_startup_s", "oracle_startup_s", "work_ratio", "identical", "agree_mb", "run_cqels_mb", "run_csparql_mb"]
    print(" | ".join(columns))
    for name, stream in streams:
        with tempfile.TemporaryDirectory() as folder:
            figures = measure(stream, not args.no_oracle, args.memory, Path(folder), args.prepare, args.bare,
                              args.runs)
        figures["triples"] = name
        print(" | ".join(f"{figures[c]:.2f}" if isinstance(figures.get(c), float) else str(figures.get(c, "–"))
                         for c in columns), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
