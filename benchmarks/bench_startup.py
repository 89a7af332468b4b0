"""Start-up cost of the ``lars`` command: CPU seconds and peak memory of whole fresh processes.

Each command runs ``--runs`` times in a fresh interpreter (``python -c 'from agreement.cli import
main; main()' ARGS``), with the checkout on ``PYTHONPATH`` and a scratch folder as working
directory (so that the checkout, not the working directory, is imported); a run's CPU time is
its user + system seconds and its peak the resident maximum, both from ``os.wait4``. With
``--before DIR`` (another checkout, e.g. a worktree of ``main``) the two run in turn, this one
first, and the ratio after/before is taken pair by pair, so that a machine whose speed drifts
still compares like with like. Medians are printed. ``PYTHONDONTWRITEBYTECODE`` is removed from
the children's environment: modules load from the bytecode cache the uncounted first round
writes, as in an installed package (compiling every module of ours again on each start costs
about 0.15 s more: ``--compile`` keeps the variable, for a tree whose caches were never written).
The commands (issue 17):

* ``import`` — ``import agreement.cli``, the floor of every command;
* ``help`` — ``lars --help``;
* ``translate`` — CSRBench Q1 (C-SPARQL), pull mode;
* ``run-program`` — the bundled LARS program over its atom stream (``examples/coupons``);
* ``run-query`` — CSRBench Q1 (CQELS) over the bundled CSRBench stream, ``--format json``;
* ``agree`` — Q1's CQELS and C-SPARQL forms on the bundled stream, ``--period 10s``.

    python benchmarks/bench_startup.py --runs 9 --before ../main-worktree
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
MAIN = "from agreement.cli import console; console()"


def commands(root: Path) -> dict[str, list[str]]:
    """Each command's arguments after ``python``, reading the examples of checkout ``root``."""
    q, coupons = root / "examples" / "csrbench", root / "examples" / "coupons"
    return {
        "import": ["-c", "import agreement.cli"],
        "help": ["-c", MAIN, "--help"],
        "translate": ["-c", MAIN, "translate", str(q / "queries" / "q1-csparql.rq"), "--mode", "pull",
                      "--period", "10s"],
        "run-program": ["-c", MAIN, "run", str(coupons / "program.lars"), "--stream",
                        str(coupons / "stream.txt"), "--background", str(coupons / "background.lars")],
        "run-query": ["-c", MAIN, "run", str(q / "queries" / "q1-cqels.rq"), "--stream",
                      str(q / "stream"), "--format", "json"],
        "agree": ["-c", MAIN, "agree", str(q / "queries" / "q1-cqels.rq"), "--csparql",
                  str(q / "queries" / "q1-csparql.rq"), "--stream", str(q / "stream"), "--period",
                  "10s", "--format", "json"],
    }


def measure(root: Path, arguments: list[str], scratch: str, compile: bool) -> tuple[float, float]:
    """CPU seconds (user + system) and peak MiB of one run of ``python ARGUMENTS``."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    if not compile:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
    process = subprocess.Popen([sys.executable, *arguments], cwd=scratch, env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # lars agree exits 1 when the engines disagree
        raise SystemExit(f"{root}: python {' '.join(arguments)} exited {process.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each command")
    parser.add_argument("--before", type=Path, help="another checkout to compare with")
    parser.add_argument("--only", nargs="*", help="these commands only")
    parser.add_argument("--compile", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE if set (no bytecode cache written)")
    options = parser.parse_args()
    roots = [HERE] + ([options.before.resolve()] if options.before else [])
    names = options.only or list(commands(HERE))
    before = f" {'before s':>7} {'MiB':>6} {'after/before':>12}" if options.before else ""
    print(f"{'command':12} {'cpu s':>7} {'MiB':>6}{before}")
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            runs: list[list[tuple[float, float]]] = [[] for _ in roots]
            for index in range(options.runs + 1):  # the first round warms the caches, uncounted
                for k, root in enumerate(roots):
                    figure = measure(root, commands(root)[name], scratch, options.compile)
                    if index:
                        runs[k].append(figure)
            line = f"{name:12}"
            for figures in runs:
                cpu, peak = (statistics.median(column) for column in zip(*figures))
                line += f" {cpu:7.3f} {peak:6.1f}"
            if options.before:
                ratio = statistics.median(a[0] / b[0] for a, b in zip(runs[0], runs[1]))
                line += f" {ratio:12.2f}"
            print(line, flush=True)
    print(f"median of {options.runs} fresh processes each; CPU = user + system seconds")


if __name__ == "__main__":
    main()
