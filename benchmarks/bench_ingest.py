"""Ingest throughput: timestamped N-Triples → per-instant fact sets, Spark vs in process.

For each size the stream is made by ``replay_csrbench.py`` (kept in ``--workdir`` for reuse),
then sliced as ``lars run`` reads it: in process, and by the Spark job
(:func:`ingest.slicing.iter_slice_stream`) on ``local[2]``. Each measurement runs in a fresh
Python process, so peak memory (``ru_maxrss``, the Python process) is its own; Spark's JVM,
which in local mode also runs the executors, is reported apart (``JVM MB``). The Spark figure
excludes the session start, reported separately. Run:

    .venv/bin/python benchmarks/bench_ingest.py                          # 10^5 triples
    .venv/bin/python benchmarks/bench_ingest.py --sizes 100000 1000000 10000000
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from processes import descendants_peak_mb, last_line
from replay_csrbench import stream_file



def measure(mode: str, path: str, master: str) -> dict:
    """One measurement in this process: seconds, slices, triples, peak memory.

    The slices come from :func:`ingest.lazy.rdf_slices`, the reader ``lars run`` uses
    (``--spark never`` or ``always``): lazy in both modes, so they are counted and dropped and
    the peak memory is what reading holds, not the stream.
    """

    from ingest.lazy import rdf_slices
    from ingest.options import ReadOptions
    from ingest.policy import ReadReport
    from solver import spark

    startup = 0.0
    if mode == "spark":
        started = time.perf_counter()
        with spark.spark_context(master):
            pass
        startup = time.perf_counter() - started
    started = time.perf_counter()
    slices = triples = 0
    options = ReadOptions("http://ex.org/streams/test", spark="always" if mode == "spark" else "never",
                          master=master)
    for _, elements in rdf_slices(path, options, ReadReport()):
        slices += 1
        triples += len(elements)
    seconds = time.perf_counter() - started
    return {"mode": mode, "seconds": round(seconds, 2), "startup": round(startup, 2),
            "slices": slices, "triples": triples,
            "triples_per_second": round(triples / seconds), "peak_rss_mb":
            round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "jvm_mb": descendants_peak_mb() if mode == "spark" else "-"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--modes", nargs="+", default=["in-process", "spark"], choices=["in-process", "spark"])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/lars-bench-ingest"))
    parser.add_argument("--one", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one[0], args.one[1], args.master)))
        return 0
    print(f"{'triples':>10} {'mode':>10} {'seconds':>8} {'triples/s':>10} {'startup':>8} {'peak MB':>8}"
          f" {'JVM MB':>8}")
    for size in args.sizes:
        path = stream_file(size, args.workdir)
        for mode in args.modes:
            done = subprocess.run([sys.executable, __file__, "--master", args.master, "--one", mode,
                                   str(path)], capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{size:>10,} {mode:>10} failed: {last_line(done.stderr)}", flush=True)
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{size:>10,} {mode:>10} {row['seconds']:>8} {row['triples_per_second']:>10,}"
                  f" {row['startup']:>8} {row['peak_rss_mb']:>8} {row['jvm_mb']:>8}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
