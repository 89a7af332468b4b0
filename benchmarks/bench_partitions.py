"""``lars run --partitions``: the speed-up of 2 partitions over 1, in one run, answers compared.

For each form of CSRBench Q1 (CQELS and C-SPARQL) over the CSRBench stream replayed
(``replay_csrbench.py``), the same command

    lars run QUERY --stream FILE --partitions P --spark never --quiet --output A.jsonl --output-format jsonl

runs in a fresh process with ``P`` = 1 and with each further count of ``--parts``, alternately
(1, 2, 1, 2, ...: both see the same load), ``--repeat`` times each. It prints per form and ``P``:

* ``wall_s``: the median wall-clock seconds (start-up, reading, solving and writing included);
* ``cpu_s``: the median CPU seconds of the command and its worker processes (user + sys): the
  work done, which partitioning should not raise much;
* ``speedup``: median wall time with 1 partition over that with ``P``;
* ``answers``: whether the answer file is byte-identical to the one partition's;
* ``load``: the machine's 1-minute load average when the form started and ended (on a 2-core
  machine shared with other work, a load near or above 2 leaves the partitions no free core,
  and the wall-time speed-up is then not what an idle machine gives: with Linux's autogroup
  scheduling, a command's processes share one session's part of the CPU however many they are);
* ``critical_s``, ``est_speedup`` (with ``--critical-path``): the same run once more, in a
  fresh process calling the library as ``lars run`` does, with each range's CPU seconds taken in
  its worker; ``critical_s`` is the driver's CPU (start-up, planning, merging the answers) plus
  the busiest range's, the wall time on as many free cores as ranges, and ``est_speedup`` the
  one-partition run's CPU over it: an estimate that does not depend on the machine's load.

Run:

    .venv/bin/python benchmarks/bench_partitions.py                     # 10^6 triples, 1 vs 2, median of 3
    .venv/bin/python benchmarks/bench_partitions.py --size 100000 --parts 2 4 --critical-path
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from processes import last_line
from replay_csrbench import stream_file

import agreement.runplan
from agreement.facade import prepare_run
from solver.partition import answers_of, evaluate_range, range_answers

HERE = Path(__file__).parent
ROOT = HERE.parent
QUERIES = ROOT / "examples" / "csrbench" / "queries"
CLI = "from agreement.cli import console; console()"
COLUMNS = ("form", "partitions", "wall_s", "cpu_s", "speedup", "answers", "load")
CRITICAL_COLUMNS = ("critical_s", "est_speedup", "range_cpu_s")


def children_cpu() -> float:
    """CPU seconds (user + sys) of every child and grandchild waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(query: Path, stream: Path, parts: int, output: Path) -> tuple[float, float, str]:
    """One ``lars run`` in a fresh process: wall seconds, CPU seconds, digest of its answers."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", CLI, "run", str(query), "--stream", str(stream),
               "--partitions", str(parts), "--spark", "never", "--quiet",
               "--output", str(output), "--output-format", "jsonl"]
    cpu, started = children_cpu(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"lars run --partitions {parts} failed: {last_line(done.stderr)}")
    return wall, cpu, hashlib.sha256(output.read_bytes()).hexdigest()


def timed_range(task):
    """:func:`solver.partition.evaluate_range` in a worker, with the CPU seconds it took."""
    started = time.process_time()
    result = evaluate_range(task)
    return time.process_time() - started, result


def critical_path(query: Path, stream: Path, parts: int) -> dict:
    """``lars run``'s plan solved in this process, each range in a worker of its own (one range:
    in this process, as ``lars run`` does): this process's CPU seconds and each range's."""
    ranges: list[float] = []

    def runner(tasks, notes):
        if len(tasks) == 1:
            started = time.process_time()
            yield tuple(range_answers(tasks[0], notes))
            ranges.append(time.process_time() - started)
            return
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(len(tasks), mp_context=context) as pool:
            for cpu, result in pool.map(timed_range, tasks):
                ranges.append(cpu)
                yield answers_of(result, notes)

    agreement.runplan.process_runner = runner
    plan = prepare_run(query, stream=stream, partitions=parts, spark="never")
    points = sum(1 for _ in plan.answers())
    own = resource.getrusage(resource.RUSAGE_SELF)
    driver = own.ru_utime + own.ru_stime - (ranges[0] if parts == 1 else 0)
    return {"points": points, "driver_cpu_s": driver, "range_cpu_s": ranges}


def measure_critical(query: Path, stream: Path, parts: int) -> dict:
    """:func:`critical_path` in a fresh process."""
    environment = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{HERE}"}
    config = json.dumps({"query": str(query), "stream": str(stream), "parts": parts})
    done = subprocess.run([sys.executable, __file__, "--one", config], capture_output=True,
                          text=True, env=environment, check=False)
    if done.returncode != 0:
        raise SystemExit(f"critical path of {parts} partitions failed: {last_line(done.stderr)}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_form(query: Path, stream: Path, counts: list[int], repeat: int, folder: Path) -> dict:
    """``{partitions: (wall times, CPU times, digests)}``, the counts run alternately."""
    runs: dict[int, tuple[list, list, set]] = {parts: ([], [], set()) for parts in counts}
    for _ in range(repeat):
        for parts in counts:
            wall, cpu, digest = run_once(query, stream, parts, folder / f"answers-{parts}.jsonl")
            runs[parts][0].append(wall)
            runs[parts][1].append(cpu)
            runs[parts][2].add(digest)
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="triples in the replayed stream")
    parser.add_argument("--parts", type=int, nargs="+", default=[2], help="partition counts besides 1")
    parser.add_argument("--forms", nargs="+", default=["cqels", "csparql"], choices=["cqels", "csparql"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per partition count (median)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/lars-bench-ingest"))
    parser.add_argument("--critical-path", action="store_true",
                        help="also estimate the wall time on free cores from each range's CPU time")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        config = json.loads(args.one)
        print(json.dumps(critical_path(Path(config["query"]), Path(config["stream"]), config["parts"])))
        return 0
    stream = stream_file(args.size, args.workdir)
    counts = [1, *[parts for parts in args.parts if parts != 1]]
    print(f"# {args.size:,} triples, {os.cpu_count()} cores, median of {args.repeat}", flush=True)
    columns = COLUMNS + (CRITICAL_COLUMNS if args.critical_path else ())
    print(" ".join(f"{name:>12}" for name in columns), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for form in args.forms:
            query = QUERIES / f"q1-{form}.rq"
            load_before = os.getloadavg()[0]
            runs = measure_form(query, stream, counts, args.repeat, Path(folder))
            critical = {parts: measure_critical(query, stream, parts)
                        for parts in (counts if args.critical_path else [])}
            load = f"{load_before:.1f}-{os.getloadavg()[0]:.1f}"
            base_wall = statistics.median(runs[1][0])
            (base_digest,) = runs[1][2]
            for parts in counts:
                walls, cpus, digests = runs[parts]
                wall = statistics.median(walls)
                same = "identical" if digests == {base_digest} else "DIFFERENT"
                row = (form, parts, f"{wall:.1f}", f"{statistics.median(cpus):.1f}",
                       f"{base_wall / wall:.2f}x", same, load)
                if critical:
                    one = critical[1]["driver_cpu_s"] + critical[1]["range_cpu_s"][0]
                    path = critical[parts]["driver_cpu_s"] + max(critical[parts]["range_cpu_s"])
                    row += (f"{path:.1f}", f"{one / path:.2f}x",
                            "/".join(f"{cpu:.1f}" for cpu in critical[parts]["range_cpu_s"]))
                print(" ".join(f"{value:>12}" for value in row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
