"""End to end ``lars run`` on CSRBench Q1 over long replayed streams: time and driver memory.

Each configuration runs ``lars run QUERY --stream FILE --output ANSWERS.jsonl`` (the command's
own code path, :func:`agreement.cli.app`) in a fresh Python process and reports:

* ``points``, ``answers``: time points with answers, solutions written;
* ``wall_s``, ``cpu_s``: wall-clock and CPU seconds of the driver (reading, translating,
  slicing, encoding, solving, writing; with ``--spark always`` also the Spark session's start);
* ``points_per_s``, ``triples_per_s``: over the wall time; ``triples_per_cpu_s`` over the CPU
  time (the figure that does not depend on what else the machine runs);
* ``driver_mb``: the peak resident memory of the driver process (``ru_maxrss``), the figure that
  must not grow with the stream's length for a fixed window;
* ``jvm_mb``: the peak resident memory of Spark's JVM, the driver's child (``--spark always``
  only; in local mode the executors, and so the cached parsed lines, live in it too).

A configuration that fails prints its last line of stderr instead of figures.

Streams come from ``replay_csrbench.py`` (kept in ``--workdir`` for reuse): CSRBench replayed
round after round with renamed sensors, observations and measurements, 15,188 triples per 34 s,
so every time point holds about 450 triples and Q1's 10 s window about 4,900. Queries:
``examples/csrbench/queries/q1-cqels.rq`` and ``q1-csparql.rq``. Run:

    .venv/bin/python benchmarks/bench_pipeline.py                               # 10^5 and 10^6
    .venv/bin/python benchmarks/bench_pipeline.py --sizes 1000000 10000000 --spark never always
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import descendants_peak_mb, last_line
from replay_csrbench import stream_file

HERE = Path(__file__).parent
QUERIES = HERE.parent / "examples" / "csrbench" / "queries"
COLUMNS = ("triples", "form", "spark", "points", "answers", "wall_s", "cpu_s", "points_per_s",
           "triples_per_s", "triples_per_cpu_s", "driver_mb", "jvm_mb")


def measure(query: Path, stream: Path, spark: str, master: str) -> dict:
    """One ``lars run`` in this process; the figures of :data:`COLUMNS` (less the first three)."""
    from agreement.cli.app import main
    from solver.spark import stop_spark

    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "answers.jsonl"
        started = time.perf_counter()
        status = main(["run", str(query), "--stream", str(stream), "--quiet", "--spark", spark,
                       "--master", master, "--output", str(output), "--output-format", "jsonl"])
        jvm_mb = descendants_peak_mb()
        stop_spark()
        wall = time.perf_counter() - started
        if status != 0:
            raise SystemExit(f"lars run exited with {status}")
        times, answers = set(), 0
        with output.open(encoding="utf-8") as lines:
            for line in lines:  # a query's answers: one solution (time, binding) per line
                times.add(json.loads(line)["time"])
                answers += 1
        points = len(times)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {"points": points, "answers": answers, "wall_s": round(wall, 1),
            "cpu_s": round(own.ru_utime + own.ru_stime, 1),
            "driver_mb": round(own.ru_maxrss / 1024), "jvm_mb": jvm_mb}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--forms", nargs="+", default=["cqels", "csparql"], choices=["cqels", "csparql"])
    parser.add_argument("--spark", nargs="+", default=["never"], choices=["never", "always"])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/lars-bench-ingest"))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        config = json.loads(args.one)
        print(json.dumps(measure(Path(config["query"]), Path(config["stream"]), config["spark"], args.master)))
        return 0
    print(" ".join(f"{name:>13}" for name in COLUMNS), flush=True)
    for size in args.sizes:
        stream = stream_file(size, args.workdir)
        for form in args.forms:
            for spark in args.spark:
                config = {"query": str(QUERIES / f"q1-{form}.rq"), "stream": str(stream), "spark": spark}
                done = subprocess.run([sys.executable, __file__, "--master", args.master, "--one",
                                       json.dumps(config)], capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"{size:>13} {form:>13} {spark:>13} failed: {last_line(done.stderr)}", flush=True)
                    continue
                row = json.loads(done.stdout.strip().splitlines()[-1])
                row.update(triples=size, form=form, spark=spark,
                           points_per_s=round(row["points"] / row["wall_s"], 1),
                           triples_per_s=round(size / row["wall_s"]),
                           triples_per_cpu_s=round(size / row["cpu_s"]))
                if spark == "never":
                    row["jvm_mb"] = "-"
                print(" ".join(f"{row[name]:>13}" for name in COLUMNS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
