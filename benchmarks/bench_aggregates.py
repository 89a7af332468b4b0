"""``lars run`` of aggregate queries over one window: wall time and peak memory (issue 29 item 4).

A C-SPARQL query ``[RANGE W STEP 1]`` over a stream of ``--triples`` triples spread over
``--points`` time points, the window as wide as the stream, so at the last time point it holds
them all; each case is one aggregate (COUNT, SUM, AVG over integers, GROUP_CONCAT over
literals of ``--literal`` bytes). Each run is a fresh process (``lars run`` through
``agreement.cli``, its answers written to a file); the operating system's accounting of it is
reported. ``--strategy reference`` measures the clingo reading of the fold (its plain chain
rules, quadratic to cubic in the window), which was the only one before folds. Run:

    .venv/bin/python benchmarks/bench_aggregates.py                     # 10^4 triples, 10 points
    .venv/bin/python benchmarks/bench_aggregates.py --triples 300 --strategy reference
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from processes import last_line

ROOT = Path(__file__).parent.parent
CLI = "from agreement.cli import console; console()"
EX = "http://example.org/"
CASES = {
    "count": ("COUNT(?v)", "integer"),
    "sum": ("SUM(?v)", "integer"),
    "avg": ("AVG(?v)", "integer"),
    "group_concat": ('GROUP_CONCAT(?v; SEPARATOR=",")', "literal"),
}
"""Case → (the aggregate, the values of ``?v``)."""


def query(aggregate: str, points: int) -> str:
    return (f"REGISTER QUERY q AS PREFIX : <{EX}> SELECT ({aggregate} AS ?a) "
            f"FROM STREAM <{EX}s> [RANGE {points}s STEP 1s] WHERE {{ ?o :v ?v }}\n")


def stream(kind: str, triples: int, points: int, size: int) -> str:
    """``triples`` triples ``:o<i> :v value`` spread evenly over the time points ``1..points``."""
    lines = []
    for i in range(triples):
        value = f'"{i}"^^<http://www.w3.org/2001/XMLSchema#integer>' if kind == "integer" \
            else '"' + f"{i:08d}".ljust(size, "x") + '"'
        lines.append(f"<{EX}o{i}> <{EX}v> {value} {1 + i * points // triples}")
    return "\n".join(lines) + "\n"


def measure(text: str, data: str, folder: Path, strategy: str,
            limit: float) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (user + system), peak MB and the last answer (its start) of one
    ``lars run`` in a fresh process."""
    (folder / "q.rq").write_text(text)
    (folder / "s.nt").write_text(data)
    argv = [sys.executable, "-c", CLI, "run", str(folder / "q.rq"), "--stream", str(folder / "s.nt"),
            "--strategy", strategy, "--output", str(folder / "out.jsonl")]
    start = time.perf_counter()
    child = subprocess.Popen(argv, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(limit, child.kill)
    timer.start()
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    wall, peak = time.perf_counter() - start, usage.ru_maxrss // 1024
    cpu = usage.ru_utime + usage.ru_stime
    if wall >= limit:
        return wall, cpu, peak, f"killed after {limit:.0f} s"
    if os.waitstatus_to_exitcode(status) != 0:
        return wall, cpu, peak, "failed: " + last_line(child.stderr.read().decode())
    answers = (folder / "out.jsonl").read_text().strip().splitlines()
    return wall, cpu, peak, answers[-1][:60] if answers else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--triples", type=int, default=10_000)
    parser.add_argument("--points", type=int, default=10)
    parser.add_argument("--literal", type=int, default=1024, help="bytes of a GROUP_CONCAT literal")
    parser.add_argument("--strategy", default="auto")
    parser.add_argument("--limit", type=float, default=120, help="seconds before a run is killed")
    args = parser.parse_args(argv)
    print("case | triples | points | strategy | wall_s | cpu_s | peak_mb | last answer")
    for name in args.cases:
        aggregate, kind = CASES[name]
        with tempfile.TemporaryDirectory() as folder:
            wall, cpu, peak, last = measure(query(aggregate, args.points),
                                       stream(kind, args.triples, args.points, args.literal),
                                       Path(folder), args.strategy, args.limit)
        print(f"{name} | {args.triples:,} | {args.points} | {args.strategy} | {wall:.2f} | {cpu:.2f} | {peak} | {last}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
