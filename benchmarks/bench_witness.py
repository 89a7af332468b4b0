"""``lars witness`` on the examples of README.md and docs/witness.md: wall time and peak memory of
whole fresh processes (issue 29, item 3: each under 5 s and 200 MB with default options).

Each example runs once in a child process (``python -c 'from agreement.cli import console; console()'``)
with a checkout on ``PYTHONPATH``; its wall seconds, CPU seconds (user + system, from
``os.wait4``, which counts the search's own child process too) and peak resident memory
(``ru_maxrss``: the largest of the processes) are printed with the first line of its
report, so a changed verdict shows beside the figures. With ``--before DIR`` (another checkout,
e.g. the main branch) the same examples run there too, each after this checkout's run; a run
past ``--timeout`` seconds is stopped and printed as such (the exhaustive search refuting three
triples for CSRBench Q1 ran past 150 s).

The examples (default options except those the docs give):

* ``q1-earliest`` — README.md and docs/witness.md: CSRBench Q1, ``--period 10s --earliest 1``;
* ``q1-default`` — the same without ``--earliest`` (the witness at the timeline's start);
* ``q1-three`` — docs/witness.md: ``--max-triples 3``, no witness;
* ``q1-csparql`` — ``lars witness --help``: Q1 in C-SPARQL, ``--earliest 1``;
* ``coupons`` — docs/witness.md's measured running example (the paper's coupons query, 30 min).

    python benchmarks/bench_witness.py --before /path/to/main-checkout --timeout 60
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

HERE = Path(__file__).resolve().parents[1]
MAIN = "from agreement.cli import console; console()"


def examples(root: Path) -> dict[str, list[str]]:
    """Each example's ``lars witness`` arguments, reading the files of checkout ``root``."""
    queries, coupons = root / "examples" / "csrbench" / "queries", root / "examples" / "coupons" / "rdf"
    q1 = str(queries / "q1-cqels.rq")
    return {
        "q1-earliest": [q1, "--period", "10s", "--earliest", "1"],
        "q1-default": [q1, "--period", "10s"],
        "q1-three": [q1, "--period", "10s", "--max-triples", "3"],
        "q1-csparql": [str(queries / "q1-csparql.rq"), "--earliest", "1"],
        "coupons": [str(coupons / "cqels.rq"), "--period", "30m", "--unit", "1m",
                    "--static", str(coupons / "static.ttl")],
    }


def measure(root: Path, arguments: list[str], scratch: str, timeout: float) -> tuple[str, str]:
    """The figures of one run of ``lars witness ARGUMENTS`` and the first line of its report."""
    environment = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}  # leave the checkouts as they are
    began = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([sys.executable, "-c", MAIN, "witness", *arguments, "--quiet"],
                                   cwd=scratch, env=environment, stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - began > timeout:
                process.kill()
                _, status, usage = os.wait4(process.pid, 0)
                return f"{'>' + format(timeout, 'g'):>7} {'-':>7} {'-':>6}", "stopped (timeout)"
            time.sleep(0.05)
        wall = time.monotonic() - began
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        first = (out.readline().strip() if code in (0, 1) else f"exit {code}: {last_line(err.read())}")
    figures = f"{wall:7.2f} {usage.ru_utime + usage.ru_stime:7.2f} {usage.ru_maxrss / 1024:6.0f}"
    return figures, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="another checkout to compare with")
    parser.add_argument("--only", nargs="*", help="these examples only")
    parser.add_argument("--timeout", type=float, default=60, help="seconds before a run is stopped")
    options = parser.parse_args()
    roots = [("after", HERE)] + ([("before", options.before.resolve())] if options.before else [])
    print(f"{'example':12} {'run':6} {'wall s':>7} {'cpu s':>7} {'MiB':>6}  report")
    with tempfile.TemporaryDirectory() as scratch:
        for name in options.only or list(examples(HERE)):
            for label, root in roots:
                figures, first = measure(root, examples(root)[name], scratch, options.timeout)
                print(f"{name:12} {label:6} {figures}  {first}", flush=True)
    print("one fresh process per run; wall and CPU (user + system) seconds, peak resident MiB")


if __name__ == "__main__":
    main()
