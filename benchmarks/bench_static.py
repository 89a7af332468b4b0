"""Static data at scale (issue 29, item 5): a query joining a small stream with 10^6 static triples.

It writes, in a temporary folder, an N-Triples file of ``--triples`` static triples (default
10^6, about 75 MB: sensors' rooms, labels, weights), of which ``--matching`` (default 1%) are the
``:locatedIn`` triples the query joins; the same triples alone in a second file; and a stream
of 5 readings a second for 60 seconds, of sensors that have a room. Then, each in a fresh
process, it runs:

* ``lars run`` of the C-SPARQL query with the whole static file, and with the matching triples
  alone: the difference is what the other 99% cost (reading and checking them); the answers
  must be equal;
* ``lars agree`` with the whole file (the CQELS side derived from the C-SPARQL query; the two
  sides disagree, and ``--max-explanations 0`` leaves the explanations out: the search for
  witnesses re-evaluates with the background many times, which is not what is measured here);
* with ``--baseline DIR`` (a checkout of the code before this change, e.g. the main branch),
  ``lars run`` of that code and of this one on a small version (``--small`` triples): the
  answers must be equal (the old code held static data in an rdflib graph; at 10^6 triples it
  grew past 1.8 GB and did not load in a minute).

It prints per run: wall and CPU seconds (user + system of the finished child), peak resident
memory, the number of answer rows, and whether the answers are equal. Run:

    .venv/bin/python benchmarks/bench_static.py
    .venv/bin/python benchmarks/bench_static.py --triples 1000000 --baseline ../main
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import last_line

ROOT = Path(__file__).parent.parent
CLI = "from agreement.cli import console; console()"
EX = "http://ex.org/"
QUERY = f"""PREFIX : <{EX}>
REGISTER QUERY rooms AS
SELECT ?sensor ?room ?v
FROM STREAM <{EX}s> [RANGE 10s STEP 10s]
WHERE {{ ?sensor :value ?v . ?sensor :locatedIn ?room . }}
"""
SECONDS, PER_SECOND = 60, 5


def static_lines(triples: int, matching: float):
    """The static triples as N-Triples lines: every ``1/matching``-th a sensor's room."""
    every = max(1, round(1 / matching))
    for i in range(triples):
        if i % every == 0:
            yield f"<{EX}sensor{i}> <{EX}locatedIn> <{EX}room{i % 997}> .\n"
        elif i % 3 == 0:
            yield f'<{EX}thing{i}> <{EX}label> "thing {i} of the building"@en .\n'
        elif i % 3 == 1:
            yield f'<{EX}thing{i}> <{EX}weight> "{i}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
        else:
            yield f"<{EX}thing{i}> <{EX}partOf> <{EX}thing{i // 7}> .\n"


def write_data(folder: Path, triples: int, matching: float, tag: str) -> tuple[Path, Path, Path]:
    """The whole static file, its matching triples alone, and the stream."""
    whole, alone, stream = folder / f"static-{tag}.nt", folder / f"matching-{tag}.nt", folder / f"stream-{tag}.nt"
    located = []
    with open(whole, "w") as out, open(alone, "w") as only:
        for line in static_lines(triples, matching):
            out.write(line)
            if "locatedIn" in line:
                only.write(line)
                located.append(line.split()[0])
    with open(stream, "w") as out:
        for t in range(SECONDS):
            for k in range(PER_SECOND):
                sensor = located[(t * PER_SECOND + k) * 7919 % len(located)]
                out.write(f'{sensor} <{EX}value> "{t + k}"^^<http://www.w3.org/2001/XMLSchema#integer> '
                          f"<{EX}s> {t}\n")
    return whole, alone, stream


def measured(argv: list[str], root: Path) -> dict:
    """Run ``argv`` with ``root`` first on the path: wall and CPU seconds, peak MB, status."""
    environment = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    error = child.stderr.read()
    child.stderr.close()
    figures = {"wall_s": time.perf_counter() - start, "cpu_s": usage.ru_utime + usage.ru_stime,
               "mb": usage.ru_maxrss // 1024, "status": os.waitstatus_to_exitcode(status)}
    if figures["status"] not in (0, 1):
        figures["error"] = last_line(error)
    return figures


def run_answers(query: Path, stream: Path, static: Path, output: Path, root: Path = ROOT) -> tuple[dict, list]:
    """``lars run`` (of the code at ``root``): figures and the answers (JSON lines, one row
    each, sorted)."""
    figures = measured([sys.executable, "-c", CLI, "run", str(query), "--stream", str(stream),
                        "--static", str(static), "--unit", "1s", "--quiet", "--output", str(output),
                        "--output-format", "jsonl"], root)
    answers = sorted(output.read_text().splitlines()) if output.exists() else []
    figures["rows"] = len(answers)
    return figures, answers


def show(name: str, figures: dict, equal: str = "") -> None:
    print(f"{name:<34} {figures['wall_s']:7.2f} {figures['cpu_s']:7.2f} {figures['mb']:6d} "
          f"{figures.get('rows', '–')!s:>6} {equal:>6}  {figures.get('error', '')}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triples", type=int, default=1_000_000, help="static triples (default 10^6)")
    parser.add_argument("--matching", type=float, default=0.01, help="share of :locatedIn triples")
    parser.add_argument("--small", type=int, default=20_000, help="static triples of the baseline comparison")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code before this change")
    parser.add_argument("--no-agree", action="store_true", help="leave out lars agree")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        query = folder / "q.rq"
        query.write_text(QUERY)
        whole, alone, stream = write_data(folder, args.triples, args.matching, "big")
        print(f"static file: {args.triples:,} triples, {whole.stat().st_size / 1e6:.1f} MB; "
              f"{sum(1 for _ in open(alone)):,} matching; stream {SECONDS * PER_SECOND} triples")
        print("load average (1, 5, 15 min): " + ", ".join(f"{v:.1f}" for v in os.getloadavg())
              + f" on {os.cpu_count()} cores (wall time grows with it; CPU time does not)")
        print(f"{'run':<34} {'wall_s':>7} {'cpu_s':>7} {'MB':>6} {'rows':>6} {'equal':>6}")
        big, big_answers = run_answers(query, stream, whole, folder / "big.jsonl")
        show("lars run, whole static file", big)
        few, few_answers = run_answers(query, stream, alone, folder / "few.jsonl")
        show("lars run, matching triples only", few, str(big_answers == few_answers))
        print(f"{'  the other triples cost':<34} {big['wall_s'] - few['wall_s']:7.2f} "
              f"{big['cpu_s'] - few['cpu_s']:7.2f}")
        if not args.no_agree:
            show("lars agree, whole static file", measured(
                [sys.executable, "-c", CLI, "agree", str(query), "--stream", str(stream), "--static",
                 str(whole), "--unit", "1s", "--period", "10s", "--format", "json", "--max-explanations", "0"], ROOT))
        if args.baseline is not None:
            small, _, small_stream = write_data(folder, args.small, args.matching, "small")
            new, new_answers = run_answers(query, small_stream, small, folder / "new.jsonl")
            old, old_answers = run_answers(query, small_stream, small, folder / "old.jsonl", args.baseline)
            show(f"lars run {args.small:,}, this code", new)
            show(f"lars run {args.small:,}, baseline", old, str(new_answers == old_answers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
