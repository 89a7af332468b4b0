"""Write a large timestamped N-Triples stream by replaying the CSRBench stream.

Round 0 is CSRBench itself (34 seconds, 15,188 triples); round ``r`` repeats it ``34·r`` seconds
later with its sensors, observations and measurements renamed (``System_C1192`` →
``System_C1192_r3``, ``Observation_…`` and ``MeasureData_…`` likewise), so each round adds
new individuals rather than duplicates. Lines are written as they are made (only the 15,188
base triples are held in memory); the last round is cut to give exactly ``N`` lines. Run:

    .venv/bin/python benchmarks/replay_csrbench.py 1000000 /tmp/csrbench-1e6.nt

Each line is ``<s> <p> <o> <http://ex.org/streams/test> t`` (``--no-stream`` leaves the stream
IRI out), ``t`` in seconds; the file reads with
:func:`ingest.rdffiles.read_timestamped_ntriples`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from ingest.rdffiles import CSRBENCH_STREAM, read_turtle_folder

CSRBENCH = Path(__file__).parents[1] / "examples" / "csrbench" / "stream"
MARK = "\x00"
"""Where a round's suffix goes in a line template."""
_RENAMED = re.compile(r"(<http://knoesis\.wright\.edu/ssw/(?:System|Observation|MeasureData)_[^>]*)>")


def templates(folder: Path, with_stream: bool) -> tuple[list[tuple[int, str]], int]:
    """The base stream as ``(t, line template)`` pairs in arrival order, and its length in time."""
    stream = f" {CSRBENCH_STREAM.n3()}" if with_stream else ""
    base = []
    for element in read_turtle_folder(folder):
        text = " ".join(term.n3() for term in element.triple)
        base.append((element.time, _RENAMED.sub(rf"\1{MARK}>", text) + stream))
    period = max(time for time, _ in base) + 1
    return base, period


def replay(base: list[tuple[int, str]], period: int, count: int) -> Iterator[str]:
    """``count`` lines: round after round of ``base``, shifted in time and renamed."""
    written, round_ = 0, 0
    while written < count:
        suffix, shift = (f"_r{round_}" if round_ else ""), round_ * period
        for time_, template in base:
            if written == count:
                return
            yield f"{template.replace(MARK, suffix)} {time_ + shift}\n"
            written += 1
        round_ += 1


def stream_file(count: int, workdir: Path) -> Path:
    """``workdir/csrbench-replay-<count>.nt``, written (by :func:`main`, in a child process)
    if it is not there yet: the benchmarks share the streams they replay."""
    path = workdir / f"csrbench-replay-{count}.nt"
    if not path.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, __file__, str(count), str(path)], check=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help="number of triples (lines) to write, e.g. 100000")
    parser.add_argument("output", type=Path, help="the timestamped N-Triples file to write")
    parser.add_argument("--source", type=Path, default=CSRBENCH, help="the CSRBench stream folder")
    parser.add_argument("--no-stream", action="store_true", help="leave the stream IRI out of each line")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    base, period = templates(args.source, not args.no_stream)
    with open(args.output, "w", encoding="utf-8") as out:
        out.writelines(replay(base, period, args.count))
    seconds = time.perf_counter() - started
    print(f"wrote {args.count:,} triples to {args.output} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
