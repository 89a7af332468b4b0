"""``lars check`` against ``lars run`` of the same query, profile and stream (issue 29, item 1).

For every CSRBench recording (C-SPARQL, CQELS and SPARQLstream, queries Q1–Q7, the answers in
``examples/csrbench/engine-answers``; SPARQLstream ran C-SPARQL's query text), it runs, each in
a fresh process:

* ``lars check QUERY --stream STREAM --answers RECORDING --profile ENGINE`` with the command's
  defaults (whole bindings compared, profile changes suggested when INCORRECT), plus
  ``--merge-same-time`` for CQELS's Q3 as the command's own example does;
* ``lars run QUERY --stream STREAM --profile ENGINE --quiet --output FILE`` (one run at the
  profile's t0, answers written one time point at a time);

and prints per recording the verdict, the CPU seconds (user + system, the operating system's
accounting of the finished child) of each, their ratio, the peak resident memory of each, and
whether the ratio meets the target (at most 2). With ``--study``, also the recordings of the
2023 study (``examples/csrbench-2023``: YASPER, C-SPARQL 2.0, RDFox under the oracle's
comparison, as its README judges them). ``--replay N`` adds the CSRBench stream replayed to
``N`` triples (``replay_csrbench.py``) with a recording of that stream (``--relations``
relations written by ``lars run --format sparql-json`` of Q1 under the C-SPARQL profile, kept
as a CSRBench document with its empty relations, so the recording is correct). Run:

    .venv/bin/python benchmarks/bench_check.py
    .venv/bin/python benchmarks/bench_check.py --only csparql-q5 cqels-q4
    .venv/bin/python benchmarks/bench_check.py --no-bundled --replay 1000000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from processes import measured

HERE = Path(__file__).parent
ROOT = HERE.parent
CSRBENCH = ROOT / "examples" / "csrbench"
STUDY = ROOT / "examples" / "csrbench-2023"
CLI = "from agreement.cli import console; console()"
TARGET = 2.0
VERDICTS = {0: "correct", 1: "incorrect"}


@dataclass(frozen=True)
class Case:
    """One recording: its name, the query, the stream, the answers, the profile and the options
    ``lars check`` takes besides them."""

    name: str
    query: Path
    stream: Path
    answers: Path
    profile: str
    options: tuple[str, ...] = ()


def csrbench_cases() -> list[Case]:
    """The 21 recordings of the CSRBench paper's engines."""
    cases = []
    for engine in ("csparql", "cqels", "sparqlstream"):
        syntax = "csparql" if engine == "sparqlstream" else engine
        for number in range(1, 8):
            merge = ("--merge-same-time",) if (engine, number) == ("cqels", 3) else ()
            cases.append(Case(f"{engine}-q{number}", CSRBENCH / "queries" / f"q{number}-{syntax}.rq",
                              CSRBENCH / "stream",
                              CSRBENCH / "engine-answers" / f"{engine}-answer-{number}.json",
                              engine, merge))
    return cases


def study_cases() -> list[Case]:
    """The 2023 study's recordings, judged as its README says (``--csrbench``, ``--select``)."""
    select = {2: ("--select", "sensor,obs"), 3: ("--select", "sensor,obs,value")}
    cases = []
    for answers in sorted((STUDY / "answers").glob("*-answer-*.json")):
        engine, number = answers.stem.split("-answer-")[0], int(answers.stem.rsplit("-", 1)[1])
        name = "q1-10s" if (engine, number) == ("rdfox", 1) else f"q{number}"
        cases.append(Case(f"{engine}-q{number}", STUDY / "queries" / f"{name}.rspql",
                          CSRBENCH / "stream", answers, engine,
                          ("--csrbench", *select.get(number, ()))))
    return cases


def lars(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]


def measure(case: Case, folder: Path) -> dict:
    """``lars check`` and ``lars run`` of one case, each in its own process."""
    figures: dict = {"recording": case.name}
    figures["check_cpu_s"], figures["check_mb"], status = measured(
        lars("check", str(case.query), "--stream", str(case.stream), "--answers", str(case.answers),
             "--profile", case.profile, *case.options), folder / "verdict.txt")
    if status not in VERDICTS:
        raise SystemExit(f"lars check {case.name} exited with {status}: "
                         f"{(folder / 'verdict.txt').read_text()[:200]}")
    figures["verdict"] = VERDICTS[status]
    figures["run_cpu_s"], figures["run_mb"], status = measured(
        lars("run", str(case.query), "--stream", str(case.stream), "--profile", case.profile,
             "--quiet", "--output", str(folder / "answers.jsonl")), folder / "run.txt")
    if status != 0:
        raise SystemExit(f"lars run {case.name} exited with {status}")
    figures["ratio"] = figures["check_cpu_s"] / figures["run_cpu_s"]
    figures["mem_ratio"] = figures["check_mb"] / figures["run_mb"]
    figures["target"] = "pass" if figures["ratio"] <= TARGET else "FAIL"
    return figures


def replay_case(size: int, relations: int, workdir: Path) -> Case:
    """The CSRBench stream replayed to ``size`` triples, and a recording of Q1 (C-SPARQL's
    profile) over it cut to its first ``relations`` relations."""
    sys.path.insert(0, str(HERE))
    from replay_csrbench import stream_file

    stream = stream_file(size, workdir)
    query = CSRBENCH / "queries" / "q1-csparql.rq"
    answers = workdir / f"csrbench-replay-{size}-q1-csparql-{relations}.json"
    if not answers.exists():
        lines = workdir / "answers.tmp"
        with open(lines, "w") as out:
            subprocess.run(lars("run", str(query), "--stream", str(stream), "--profile", "csparql",
                                "--format", "sparql-json", "--quiet"), stdout=out, check=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.DEVNULL)
        with open(lines) as read, open(answers, "w") as out:
            out.write('{"relations": [\n')
            for count, line in enumerate(read):
                if count == relations:
                    break
                out.write((",\n" if count else "") + json.dumps(csrbench_relation(json.loads(line))))
            out.write("\n]}\n")
        lines.unlink()
    return Case(f"replay-{size:,}", query, stream, answers, "csparql")


def csrbench_relation(line: dict) -> dict:
    """One line of ``lars run --format sparql-json`` (times in seconds) as a CSRBench relation,
    an empty one included: read back, a line without bindings is no report
    (:func:`agreement.recorded.sparql_json_lines`), while the C-SPARQL profile emits the empty
    relations of windows with input, so a recording of those lines would skip them and be
    judged INCORRECT (every t0 and every profile change tried)."""
    return {"head": line["results"]["head"], "timestamp": line["time"] * 1000,
            "results": {"bindings": [{"timestamp": line["time"] * 1000, "binding": binding}
                                     for binding in line["results"]["results"]["bindings"]]}}


COLUMNS = ["recording", "verdict", "check_cpu_s", "run_cpu_s", "ratio", "target", "check_mb",
           "run_mb", "mem_ratio"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="these recordings only, e.g. csparql-q5")
    parser.add_argument("--study", action="store_true", help="also the 2023 study's recordings")
    parser.add_argument("--no-bundled", action="store_true", help="leave out the CSRBench recordings")
    parser.add_argument("--replay", type=int, nargs="*", default=[],
                        help="replayed stream sizes in triples (with a recording of each)")
    parser.add_argument("--relations", type=int, default=10000,
                        help="the relations of a replayed stream's recording (default %(default)s)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench")
    args = parser.parse_args(argv)
    cases = ([] if args.no_bundled else csrbench_cases()) + (study_cases() if args.study else [])
    if args.only:
        cases = [case for case in cases if case.name in args.only]
    cases += [replay_case(size, args.relations, args.workdir) for size in args.replay]
    print(" | ".join(COLUMNS))
    failed = 0
    for case in cases:
        with tempfile.TemporaryDirectory() as folder:
            figures = measure(case, Path(folder))
        failed += figures["target"] != "pass"
        print(" | ".join(f"{figures[c]:.2f}" if isinstance(figures[c], float) else str(figures[c])
                         for c in COLUMNS), flush=True)
    print(f"{len(cases) - failed} of {len(cases)} within {TARGET:g}× lars run's CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
