"""Reading a timestamped N-Triples stream: CPU µs a line, line by line against block by block.

The two readers of a stream file, each both ways, in one process, in turns:

* **elements** (``lars agree``, ``lars check``): :class:`~ingest.rdffiles.StreamTriple`
  elements, :func:`ingest.rdffiles.read_timestamped_ntriples`;
* **atoms** (``lars run``): ``striple`` atoms straight from the lines,
  :class:`ingest.encoded.EncodedLines`;

*by lines* is :func:`ingest.policy.parse_lines` over :func:`~ingest.policy.read_lines` (each
line parsed and checked on its own, the reading before blocks); *by blocks* is
:func:`ingest.policy.parse_blocks` over :func:`~ingest.policy.read_blocks`, what the commands
read with now. Each measurement starts with the term memos empty (as a command does) and
consumes every element; the figure is the least CPU time (user + system of this process) of
``--rounds`` rounds, divided by the lines, and the ratio is taken in the same run. Run:

    .venv/bin/python benchmarks/bench_reading.py                   # the 10^5 CSRBench replay
    .venv/bin/python benchmarks/bench_reading.py --size 1000000 --rounds 1
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from ingest import rdffiles, rdfterms
from ingest.encoded import EncodedLines
from ingest.policy import Entry, ReadPolicy, ReadReport, parse_blocks, parse_lines, read_blocks, read_lines
from ingest.rdffiles import NTriplesLines
from replay_csrbench import stream_file
from translate.rdf import RdfTermEncoder

READERS: dict[str, Callable[[str], Iterable[Entry]]] = {
    "elements by lines": lambda path: parse_lines(
        read_lines(path), path, NTriplesLines(), ReadPolicy(), ReadReport()),
    "elements by blocks": lambda path: parse_blocks(
        read_blocks(path), path, NTriplesLines(), ReadPolicy(), ReadReport()),
    "atoms by lines": lambda path: parse_lines(
        read_lines(path), path, EncodedLines(RdfTermEncoder()), ReadPolicy(), ReadReport()),
    "atoms by blocks": lambda path: parse_blocks(
        read_blocks(path), path, EncodedLines(RdfTermEncoder()), ReadPolicy(), ReadReport()),
}


def cpu_seconds(path: str, reader: Callable[[str], Iterable[Entry]]) -> tuple[float, int]:
    """The CPU seconds of reading ``path`` whole with ``reader`` from empty memos, and the
    number of elements read."""
    rdffiles._IRIS.clear()
    rdffiles._OLD_IRIS.clear()
    rdfterms.iri_term.cache_clear()
    rdfterms.literal_term.cache_clear()
    started = os.times()
    count = sum(1 for _ in itertools.chain.from_iterable(entry.elements for entry in reader(path)))
    ended = os.times()
    return (ended.user - started.user) + (ended.system - started.system), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000, help="lines of the CSRBench replay")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each reader")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench")
    args = parser.parse_args()
    path = str(stream_file(args.size, args.workdir))
    best: dict[str, float] = {}
    counts = set()
    for _ in range(args.rounds):
        for name, reader in READERS.items():
            seconds, count = cpu_seconds(path, reader)
            best[name] = min(best.get(name, seconds), seconds)
            counts.add(count)
    if counts != {args.size}:
        raise SystemExit(f"the readers read {sorted(counts)} elements, not {args.size}")
    print(f"{args.size} lines, least CPU of {args.rounds} rounds ({time.strftime('%Y-%m-%d')})")
    for kind in ("elements", "atoms"):
        lines, blocks = best[f"{kind} by lines"], best[f"{kind} by blocks"]
        print(f"  {kind:8}  by lines {lines / args.size * 1e6:5.1f} µs/line   by blocks "
              f"{blocks / args.size * 1e6:5.1f} µs/line   ({lines / blocks:.2f}x)")


if __name__ == "__main__":
    main()
