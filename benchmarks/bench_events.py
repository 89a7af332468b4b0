"""Event queries under the EP-SPARQL profiles: CPU time and peak memory against the number of
evaluation times (issue 29, "event policies in linear time").

The workload of the issue (``figure1``): ``examples/events/figure1.rq`` (``E1 SEQ E2``, ``E1``
over a landmark window, ``E2`` over ``W^τ(5, 1)``) on a random stream of 2 triples per time
point (one ``:p`` triple ``:a_i :p :b_j`` and one ``:q`` triple ``:b_k :q :c_l``, ``i, j, k, l``
drawn from 5 values with a fixed seed), evaluated whenever input arrives (push, the profiles' own
mode): ``N`` time points give ``N`` evaluation times. ``landmark`` is the same query with ``E2``
over ``[LND 1]`` too: ``:q`` triples no ``:p`` precedes stay in the window for good. Each run is
a fresh ``lars run`` process (``python -c`` with the checkout on ``PYTHONPATH``); its CPU time is
user + system seconds and its peak the resident maximum, both from ``os.wait4``. The start-up
of the interpreter and its imports is in every process figure (about a second, the same for
every size); ``command`` is the process figure minus the CPU seconds the child spent before the
command (it prints them first): the command's reading, translating, evaluating and printing,
with its clingo worker process. The ratio of sizes ten times apart is printed for both.

    python benchmarks/bench_events.py                        # 100, 200, 1000, 10000 evaluation times
    python benchmarks/bench_events.py --sizes 50 --root ../main --queries figure1   # before
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
MAIN = ("import os, sys; from agreement.cli import console; import agreement.events.pipeline; "
        "t = os.times(); print(t.user + t.system, file=sys.stderr, flush=True); console()")
"""``lars``, first printing on standard error the CPU seconds spent before the command (start-up)."""
PROFILES = ("epsparql-chronological", "epsparql-recent")
"""The consuming profiles. ``epsparql-unrestricted`` (``--profiles``) reports every pair of a
``:p`` and a later ``:q`` triple on the same ``:b``: its answers grow with the square of the
stream (100,125 events for 1,000 time points), so no evaluation of it can be linear."""


def write_stream(path: Path, points: int, seed: int = 29) -> None:
    """``points`` time points (1 … points) of one ``:p`` and one ``:q`` triple each."""
    rng = random.Random(seed)
    ex = "http://ex.org/"
    lines = []
    for t in range(1, points + 1):
        lines.append(f"<{ex}a{rng.randrange(5)}> <{ex}p> <{ex}b{rng.randrange(5)}> <{ex}S> {t}")
        lines.append(f"<{ex}b{rng.randrange(5)}> <{ex}q> <{ex}c{rng.randrange(5)}> <{ex}S> {t}")
    path.write_text("\n".join(lines) + "\n")


def measure(root: Path, arguments: list[str], scratch: str,
            timeout: float) -> tuple[float, float, float, int] | None:
    """CPU seconds of the process and of the command alone, peak MiB and the number of output
    lines of one ``lars`` run; ``None`` past ``timeout`` seconds (its process group is then
    ended)."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([sys.executable, "-c", MAIN, *arguments], cwd=scratch,
                                   env=environment, stdout=out, stderr=err,
                                   start_new_session=True)
        timer = threading.Timer(timeout, os.killpg, (process.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode == -signal.SIGKILL:
            return None
        if process.returncode != 0:
            raise SystemExit(f"lars {' '.join(arguments)} exited {process.returncode}")
        out.seek(0)
        lines = sum(1 for _ in out)
        err.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        command = cpu - float(err.readline())
    return cpu, command, usage.ru_maxrss / 1024, lines


def queries(root: Path) -> dict[str, str]:
    """``figure1``: the issue's workload; ``landmark``: the same with ``E2`` over ``[LND 1]`` too,
    where every ``:q`` triple stays in its window unless consumed."""
    text = (root / "examples" / "events" / "figure1.rq").read_text()
    return {"figure1": text, "landmark": text.replace("[RANGE 5]", "[LND 1]")}


def measure_sizes(root: Path, query: Path, name: str, profile: str, sizes: list[int],
                  scratch: str, timeout: float) -> None:
    """One line per size, then the ratios of sizes ten times apart."""
    figures: dict[int, tuple] = {}
    for size in sizes:
        stream = Path(scratch) / f"stream-{size}.nt"
        if not stream.exists():
            write_stream(stream, size)
        figure = measure(root, ["run", str(query), "--stream", str(stream), "--profile", profile],
                         scratch, timeout)
        if figure is None:
            print(f"{name:9} {profile:24} {size:11} {'>' + str(int(timeout)):>8}", flush=True)
            continue
        figures[size] = figure
        cpu, command, peak, lines = figure
        print(f"{name:9} {profile:24} {size:11} {cpu:8.2f} {command:9.2f} {peak:7.1f} {lines - 2:7}",
              flush=True)
    for small in sizes:
        if small in figures and 10 * small in figures:
            (cpu1, command1, *_), (cpu2, command2, *_) = figures[small], figures[10 * small]
            print(f"{name:9} {profile:24} {10 * small}/{small} evaluations: cpu ratio "
                  f"{cpu2 / cpu1:.2f}, command ratio {command2 / command1:.2f} "
                  "(linear growth: at most 10)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 200, 1000, 10000],
                        help="numbers of time points (= evaluation times)")
    parser.add_argument("--profiles", nargs="*", default=list(PROFILES))
    parser.add_argument("--queries", nargs="*", default=["figure1", "landmark"])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to run")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per run")
    options = parser.parse_args()
    print(f"{'query':9} {'profile':24} {'evaluations':>11} {'cpu s':>8} {'command s':>9} "
          f"{'MiB':>7} {'events':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        for name, text in queries(options.root).items():
            if name not in options.queries:
                continue
            query = Path(scratch) / f"{name}.rq"
            query.write_text(text)
            for profile in options.profiles:
                measure_sizes(options.root, query, name, profile, options.sizes, scratch,
                              options.timeout)
    print("cpu = user + system seconds of a fresh `lars run` process (start-up included); "
          "command = cpu minus the seconds before the command ran; events = answer lines")


if __name__ == "__main__":
    main()
