"""A brute-force oracle for witness minimality: every smaller stream over the same candidates.

It enumerates the streams over the search's own candidate triples and time points that are
smaller than a witness (fewer triples, or as many with an earlier last timestamp) and asks
``lars agree``'s check (:func:`agreement.agree.modes.check_query`, the per-time-point solver) whether
the engines disagree on any of them; a minimal witness leaves none.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from agreement.agree.modes import check_query
from lars.errors import Position
from lars.streams import Timeline
from ingest.rdffiles import StreamTriple


def disagrees(query, graphs, period: int, horizon: int, stream: list[tuple]) -> bool:
    """Whether ``lars agree`` finds a disagreement on ``stream``: ``((triple, iri), time)`` pairs."""
    elements = [StreamTriple(t, iri, triple, Position("oracle", k))
                for k, ((triple, iri), t) in enumerate(sorted(stream, key=lambda p: (p[1], repr(p[0]))), 1)]
    return not check_query(query, elements, graphs, period, timeline=Timeline(0, horizon)).agree


def smaller_streams(candidates, times, size: int, last: int) -> Iterator[list[tuple]]:
    """Streams with fewer than ``size`` triples (the empty one too), or ``size`` triples ending
    before ``last``."""
    points = [(c, t) for c in candidates for t in times]
    for k in range(size + 1):
        for stream in combinations(points, k):
            if k < size or max((t for _, t in stream), default=0) < last:
                yield list(stream)


def smaller_witnesses(query, graphs, period: int, horizon: int, candidates, times, size: int,
                      last: int) -> list[list[tuple]]:
    """Every stream smaller than ``(size, last)`` on which the engines disagree (none if minimal)."""
    return [s for s in smaller_streams(candidates, times, size, last)
            if disagrees(query, graphs, period, horizon, s)]


def count_smaller(candidates: int, times: int, size: int) -> int:
    """An upper bound on how many streams :func:`smaller_streams` yields."""
    return sum(comb(candidates * times, k) for k in range(size + 1))
