"""A query checked over a stream that is still being written (issue 31, ``lars agree QUERY
--stream ws://… --follow``): both sides computed by our translations, as ``lars agree`` does
over a file (:class:`agreement.agree.streaming.ComputedCheck`), from timestamped N-Triples lines
as they arrive (:class:`ingest.liveslices.LiveSlices`).

The lines pass through a watermark (:class:`ingest.watermark.Reorder`, ``--max-delay D``, per
stream): lines at most ``D`` out of order are put back in order, and each time point is handed
to the solver as one slice once the watermark has passed it (every line of it has then come:
a later one would be late). A line that comes after the watermark passed its time point is
*late*: the solver has gone past it, so it is left out of the computation, reported at once
with the pulling interval it belongs to, and counted. An interval's verdict is written when
the solver has reached the end of the next one (the check explains one interval late,
:mod:`agreement.agree.streaming`), that is once the watermark has passed it.

The timeline's end is not known while the stream runs: the check runs on a timeline as long as
``--max-time-points`` allows and stops, when the stream ends, after the pulling interval
holding its last time point, as the timeline of ``lars agree`` on the finished file would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar


@dataclass
class StreamTally:
    """What the summary of a live computed check counts (as :class:`agreement.agree.live.LiveCheck`
    does for recorded answers): late triples (each might change a verdict) and triples before
    the timeline."""

    period: int
    start: int
    end: int | None = None
    late: int = 0
    uncompared: int = 0
    source: ClassVar[str] = "computed"

    @property
    def late_changing(self) -> int:
        return self.late

    def timeline(self) -> tuple[int, int]:
        return self.start, max(self.start, self.end if self.end is not None else self.start)


@dataclass
class LateNotes:
    """Which intervals' verdicts a late triple could change, noted after their verdict lines.

    A triple at ``t`` is in the windows of the time points ``t … t + reach``, so the verdicts
    of every pulling interval holding one of them leave it out (``reach`` ``None``: every
    interval from ``t``'s on). A note for an interval already written is due at once; one for
    a later interval is held until its verdict is written, and comes right after it.
    """

    period: int
    reach: int | None
    held: dict[int, list[int]] = field(default_factory=dict)
    forever: list[int] = field(default_factory=list)

    def late(self, time: int, written: int | None) -> Iterator[tuple[int, tuple[int, ...]]]:
        """``(interval end, late times)`` due now for a late triple at ``time``, the last
        interval written ending at ``written``; the later ones are held."""
        first = -(-time // self.period) * self.period
        if self.reach is None:
            self.forever.append(time)
            last = written if written is not None else first - self.period
        else:
            last = -(-(time + self.reach) // self.period) * self.period
        for end in range(first, last + 1, self.period):
            if written is not None and end <= written:
                yield end, (time,)
            else:
                self.held.setdefault(end, []).append(time)

    def after(self, end: int) -> tuple[int, ...]:
        """The late times to note after the verdict on the interval ending at ``end``."""
        return tuple(sorted({*self.held.pop(end, ()), *(t for t in self.forever if t <= end)}))
