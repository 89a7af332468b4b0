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
  and the wall-time speed-up is then not what an idle machine gives).

Run:

    .venv/bin/python benchmarks/bench_partitions.py                     # 10^6 triples, 1 vs 2, median of 3
    .venv/bin/python benchmarks/bench_partitions.py --size 100000 --parts 2 4
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import last_line
from replay_csrbench import stream_file

HERE = Path(__file__).parent
ROOT = HERE.parent
QUERIES = ROOT / "examples" / "csrbench" / "queries"
CLI = "import sys; from agreement.cli import main; sys.exit(main())"
COLUMNS = ("form", "partitions", "wall_s", "cpu_s", "speedup", "answers", "load")


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
    args = parser.parse_args(argv)
    stream = stream_file(args.size, args.workdir)
    counts = [1, *[parts for parts in args.parts if parts != 1]]
    print(f"# {args.size:,} triples, {os.cpu_count()} cores, median of {args.repeat}", flush=True)
    print(" ".join(f"{name:>12}" for name in COLUMNS), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for form in args.forms:
            load_before = os.getloadavg()[0]
            runs = measure_form(QUERIES / f"q1-{form}.rq", stream, counts, args.repeat, Path(folder))
            load = f"{load_before:.1f}-{os.getloadavg()[0]:.1f}"
            base_wall = statistics.median(runs[1][0])
            (base_digest,) = runs[1][2]
            for parts in counts:
                walls, cpus, digests = runs[parts]
                wall = statistics.median(walls)
                same = "identical" if digests == {base_digest} else "DIFFERENT"
                row = (form, parts, f"{wall:.1f}", f"{statistics.median(cpus):.1f}",
                       f"{base_wall / wall:.2f}x", same, load)
                print(" ".join(f"{value:>12}" for value in row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
