"""Event time with a watermark: lines that arrive out of order by at most ``D`` are put back in
order, later ones are set apart as late (issue 31, ``--max-delay D``).

The *watermark* is the largest time point seen so far minus ``D``. A line whose time point is
before the watermark when it arrives is *late*: what it belongs to may already have been
judged, so it is handed back at once, marked, for the caller to report (never dropped). The
others are held until the watermark passes them and then handed on in time order (lines of
one time point in their arrival order); a time point at the watermark waits, since more lines
of it may still come. Each stream keeps its own order (the RSP-QL model): the largest time
point is that of the line's own stream, and the watermark of the whole is the least of the
streams' watermarks, so that a stream that lags behind another is not made late by it (a
stream first seen after the watermark passed its first lines cannot be waited for: those
lines are late).

>>> order = Reorder(2)
>>> [(item.time, item.late) for t in (3, 1, 2, 6, 1, 9) for item in order.push(t, f"x{t}")]
[(1, False), (2, False), (3, False), (1, True), (6, False)]
>>> [item.time for item in order.flush()]
[9]
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Timed:
    """One line handed on: its time point, what it holds, and whether it came late."""

    time: int
    item: Any
    late: bool = False


@dataclass
class Reorder:
    """The lines seen so far that the watermark has not passed (see the module docstring).

    Args:
        max_delay: ``D``, in the time points' unit (0: in order, one time point held).
    """

    max_delay: int
    largest: dict[Hashable, int] = field(default_factory=dict)
    held: list[tuple[int, int, Any]] = field(default_factory=list)
    passed: int | None = None
    """The watermark every held line has been compared with: lines before it were handed on."""
    counter: Iterator[int] = field(default_factory=itertools.count)

    @property
    def watermark(self) -> int | None:
        """The least over the streams of their largest time point minus ``D`` (``None``:
        nothing seen yet); it never goes back."""
        if not self.largest:
            return self.passed
        mark = min(self.largest.values()) - self.max_delay
        return mark if self.passed is None else max(mark, self.passed)

    def push(self, time: int, item: Any, stream: Hashable = None) -> Iterator[Timed]:
        """Take one line of ``stream``; hand on a late line at once, and the lines the watermark
        has now passed, in time order."""
        mark = self.watermark
        if mark is not None and time < mark:
            yield Timed(time, item, late=True)
            return
        self.largest[stream] = max(time, self.largest.get(stream, time))
        heapq.heappush(self.held, (time, next(self.counter), item))
        yield from self.release()

    def advance(self, time: int, stream: Hashable = None) -> Iterator[Timed]:
        """Note that ``stream`` has reached ``time`` without a line to hand on (a heartbeat)."""
        self.largest[stream] = max(time, self.largest.get(stream, time))
        yield from self.release()

    def release(self) -> Iterator[Timed]:
        """The held lines before the watermark, in time order."""
        mark = self.watermark
        if mark is None:
            return
        self.passed = mark
        while self.held and self.held[0][0] < mark:
            time, _, item = heapq.heappop(self.held)
            yield Timed(time, item)

    def flush(self) -> Iterator[Timed]:
        """Every line still held, in time order (the input has ended)."""
        while self.held:
            time, _, item = heapq.heappop(self.held)
            self.passed = time
            yield Timed(time, item)
