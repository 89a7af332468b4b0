"""The recent stream triples, by time point: what the snapshots of the open pulling intervals need.

``lars agree`` explains a disagreeing interval ``(s, e]`` with the window snapshots of the pull
at ``e`` and of the pushes inside it (:mod:`agreement.agree.conditions`), so it needs the triples those
windows select, and nothing older: :class:`StreamHistory` keeps the slices from a lower bound on
(:meth:`StreamHistory.prune`), and :func:`keep_from` says which bound the windows of a query
need for an interval. The whole stream is never held (SPEC section 9; the memory of an agreement
check follows its windows, as a run's does).

>>> from ingest.rdffiles import StreamTriple
>>> from lars.errors import Position
>>> h = StreamHistory()
>>> for t in (1, 3, 7):
...     h.add(t, (StreamTriple(t, None, ("s", "p", t), Position("x")),))
>>> [e.time for e in h.between(2, 7)], h.times_between(0, 5)
([3, 7], [1, 3])
>>> h.prune(3); h.times_between(0, 9)
[3, 7]
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from ingest.rdffiles import StreamTriple
from lars.streams import Timeline
from lars.windows import time_window_range
from translate.rsp import AllWindow, NowWindow, RspQuery, TriplesWindow
from translate.rspwindows import tau_window


class StreamHistory:
    """Slices ``(t, triples in arrival order)`` in ascending ``t``, the oldest droppable."""

    def __init__(self) -> None:
        self.times: list[int] = []
        self.slices: list[tuple[StreamTriple, ...]] = []
        self.first = 0  # index of the oldest slice kept (lists are compacted now and then)

    def add(self, t: int, elements: Sequence[StreamTriple]) -> None:
        """The slice at ``t``, after every slice added before (``t`` ascending)."""
        if elements:
            self.times.append(t)
            self.slices.append(tuple(elements))

    def prune(self, before: int) -> None:
        """Forget the slices before ``before``."""
        first = max(self.first, bisect_left(self.times, before, self.first))
        for i in range(self.first, first):
            self.slices[i] = ()  # the triples go at once, the list entries in bulk below
        self.first = first
        if first > 64 and first * 2 > len(self.times):
            del self.times[:first], self.slices[:first]
            self.first = 0

    def _range(self, lo: int, hi: int) -> range:
        return range(bisect_left(self.times, lo, self.first), bisect_right(self.times, hi, self.first))

    def times_between(self, lo: int, hi: int) -> list[int]:
        """The time points in ``[lo, hi]`` with triples."""
        return [self.times[i] for i in self._range(lo, hi)]

    def between(self, lo: int, hi: int) -> list[StreamTriple]:
        """The triples at ``[lo, hi]``, in time and arrival order."""
        return [e for i in self._range(lo, hi) for e in self.slices[i]]

    def last(self, stream, count: int, upto: int) -> list[StreamTriple]:
        """The latest ``count`` triples of ``stream`` at or before ``upto``, in arrival order; a
        triple repeated at one time point counts once, at its first arrival (SPEC section 2)."""
        found: list[StreamTriple] = []
        for i in reversed(range(self.first, bisect_right(self.times, upto, self.first))):
            first = {}
            for element in self.slices[i]:
                if element.stream == stream:
                    first.setdefault(element.triple, element)
            for element in reversed(first.values()):
                found.append(element)
                if len(found) == count:
                    return found[::-1]
        return found[::-1]

    def __len__(self) -> int:
        """The number of triples kept."""
        return sum(len(self.slices[i]) for i in range(self.first, len(self.slices)))


def keep_from(query: RspQuery, history: StreamHistory, start: int, timeline: Timeline,
              reading: str) -> int:
    """The earliest time point the snapshots of the interval ``(start, end]`` can select from
    (any ``end``): per stream window, where its window at ``start + 1`` begins, the windows of
    later time points beginning no earlier (a triple window: where its latest ``n`` triples
    begin); ``⊞^∞`` (``ALL``) keeps everything."""
    bounds = [start + 1]
    for spec in query.streams:
        window = spec.window
        if isinstance(window, AllWindow):
            return timeline.start
        if isinstance(window, TriplesWindow):
            kept = history.last(spec.stream, window.count, start + 1)
            bounds.append(kept[0].time if kept else start + 1)
        elif not isinstance(window, NowWindow):
            bounds.append(time_window_range(tau_window(window, reading), start + 1, timeline)[0])
    return min(bounds)
