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

The explanations compare, collect and look up the triples of many overlapping window snapshots
(:mod:`agreement.agree.conditions`), which by value would hash every stream triple (and its
rdflib literal) again and again. Two equal stream triples have the same time point, so they can
only meet in one slice; a history keeps one object for each value of a slice it gives out
(equal elements after the first are replaced by it when the slice is first read), so among the
triples read from a history two are equal exactly when they are the same object, and identity
(``id``, ``is``) decides what equality would, without hashing a triple.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from operator import attrgetter

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
        self.streams: list[dict | None] = []  # per slice, once read: stream → its triples (_read)
        self.first = 0  # index of the oldest slice kept (lists are compacted now and then)

    def add(self, t: int, elements: Sequence[StreamTriple]) -> None:
        """The slice at ``t``, after every slice added before (``t`` ascending); when it is first
        read, an element equal to an earlier one of the slice is replaced by that one (:meth:`_read`)."""
        if elements:
            self.times.append(t)
            self.slices.append(tuple(elements))
            self.streams.append(None)

    def _read(self, i: int) -> dict:
        """The slice at index ``i`` by stream (:func:`by_stream`), made when it is first read, when
        also its equal elements are made one object (:func:`one_object_per_value`; the module doc
        says why). Only the windows of the disagreeing intervals explained are read: the other
        slices, nearly all of a long stream, are kept and dropped unexamined (finding equal
        elements of every slice on its way in cost ``lars agree`` 0.35 s CPU at 10^6 triples)."""
        split = self.streams[i]
        if split is None:
            self.slices[i] = one_object_per_value(self.slices[i])
            split = self.streams[i] = by_stream(self.slices[i])
        return split

    def prune(self, before: int) -> None:
        """Forget the slices before ``before``."""
        first = max(self.first, bisect_left(self.times, before, self.first))
        for i in range(self.first, first):
            self.slices[i], self.streams[i] = (), None  # the triples go at once, the entries in bulk below
        self.first = first
        if first > 64 and first * 2 > len(self.times):
            del self.times[:first], self.slices[:first], self.streams[:first]
            self.first = 0

    def _range(self, lo: int, hi: int) -> range:
        return range(bisect_left(self.times, lo, self.first), bisect_right(self.times, hi, self.first))

    def times_between(self, lo: int, hi: int) -> list[int]:
        """The time points in ``[lo, hi]`` with triples."""
        return [self.times[i] for i in self._range(lo, hi)]

    def between(self, lo: int, hi: int) -> list[StreamTriple]:
        """The triples at ``[lo, hi]``, in time and arrival order."""
        found: list[StreamTriple] = []
        for i in self._range(lo, hi):
            self._read(i)
            found += self.slices[i]
        return found

    def count_at(self, t: int) -> int:
        """The number of triples at ``t``."""
        return sum(len(self.slices[i]) for i in self._range(t, t))

    def of_stream(self, i: int, stream) -> list[StreamTriple]:
        """The triples of ``stream`` in the slice at index ``i``, in arrival order."""
        return self._read(i).get(stream, [])

    def on(self, stream, lo: int, hi: int) -> list[StreamTriple]:
        """The triples of ``stream`` at ``[lo, hi]``, in time and arrival order: ``between``
        filtered, each slice split by stream once however many windows read it."""
        found: list[StreamTriple] = []
        for i in self._range(lo, hi):
            found += self.of_stream(i, stream)
        return found

    def last(self, stream, count: int, upto: int) -> list[StreamTriple]:
        """The latest ``count`` triples of ``stream`` at or before ``upto``, in arrival order; a
        triple repeated at one time point counts once, at its first arrival (SPEC section 2)."""
        found: list[StreamTriple] = []
        for i in reversed(range(self.first, bisect_right(self.times, upto, self.first))):
            first = {}
            for element in self.of_stream(i, stream):
                first.setdefault(element.triple, element)
            for element in reversed(first.values()):
                found.append(element)
                if len(found) == count:
                    return found[::-1]
        return found[::-1]

    def __len__(self) -> int:
        """The number of triples kept."""
        return sum(len(self.slices[i]) for i in range(self.first, len(self.slices)))


def one_object_per_value(elements: Sequence[StreamTriple]) -> tuple[StreamTriple, ...]:
    """``elements`` with each element equal to an earlier one replaced by that one.

    Equal elements have equal positions, so when no two share a line number (the lines of one
    file) none is equal to another and the elements are kept as they are, unhashed; else
    (Turtle files, whose triples have no line) they are looked up by value.

    >>> from lars.errors import Position
    >>> a, b = (StreamTriple(1, None, ("s", "p", "o"), Position("x.ttl")) for _ in range(2))
    >>> kept = one_object_per_value([a, b])
    >>> kept == (a, b), kept[1] is a
    (True, True)
    """
    lines = {e.position.line for e in elements}
    if len(lines) == len(elements) and None not in lines:
        return tuple(elements)
    first: dict[StreamTriple, StreamTriple] = {}
    return tuple(first.setdefault(e, e) for e in elements)


def by_stream(elements: Sequence[StreamTriple]) -> dict:
    """``elements`` by stream (``None`` for an element without one), each stream's in their
    order.

    Looked up in a dict, not compared one by one: rdflib's ``==`` on IRIs is a Python call, and
    filtering every slice of the windows with it was a third of what finding the windows'
    triples cost (CSRBench Q1 at 10^5 triples). A reader gives each stream one object, so a
    slice is nearly always on one stream, found in one pass over it.

    >>> from lars.errors import Position
    >>> a, b, c = (StreamTriple(0, s, ("s", "p", n), Position("x", n)) for n, s in enumerate("aba"))
    >>> by_stream([a, b, c]) == {"a": [a, c], "b": [b]}, by_stream([a, c]) == {"a": [a, c]}
    (True, True)
    """
    streams = set(map(attrgetter("stream"), elements))
    if len(streams) == 1:
        return {streams.pop(): list(elements)}
    split: dict = {}
    for element in elements:
        split.setdefault(element.stream, []).append(element)
    return split


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
