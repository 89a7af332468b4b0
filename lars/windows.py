"""Window operators and the window functions that select a substream (SPEC section 3).

* :class:`TimeWindow` ``⊞^{l,u,d}``: at reference time ``t`` let ``t' = floor(t/d)*d``; the
  window is the substream on ``[max(t_min, t'-l), min(t_max, t'+u)]``. ``⊞^l`` is
  ``⊞^{l,0,1}``, ``⊞^0`` (also ``⊞^now``) is ``[t, t]`` and ``⊞^∞`` (``length=None``) reaches
  back to ``t_min``.
* :class:`TupleWindow` ``⊞^{#n}``: the shortest suffix of the stream up to ``t`` that holds the
  latest ``n`` atoms, counted in arrival order; at its earliest time point only the latest atoms
  that fit are kept.

>>> [time_window_range(TimeWindow(3, 1, 3), t, Timeline(0, 9)) for t in (2, 5, 8)]
[(0, 1), (0, 4), (3, 7)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from lars.streams import Stream, Timeline


@dataclass(frozen=True)
class TimeWindow:
    """``⊞^{length, ahead, step}``; ``length=None`` is ``∞`` (back to the start of the timeline)."""

    length: int | None
    ahead: int = 0
    step: int = 1

    def __post_init__(self) -> None:
        if self.length is not None and self.length < 0:
            raise ValueError("a window length cannot be negative")
        if self.ahead < 0:
            raise ValueError("a window cannot reach a negative distance ahead")
        if self.step < 1:
            raise ValueError("a window step must be at least 1")


@dataclass(frozen=True)
class TupleWindow:
    """``⊞^{#size}``: the latest ``size`` input atoms (``size >= 1``)."""

    size: int

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a tuple window holds at least one atom")


Window = Union[TimeWindow, TupleWindow]

NOW = TimeWindow(0)
"""``⊞^0``: the current time point only."""

UNBOUNDED = TimeWindow(None)
"""``⊞^∞``: everything from the start of the timeline up to now."""


def time_window_range(window: TimeWindow, t: int, timeline: Timeline) -> tuple[int, int]:
    """The interval ``(lo, hi)`` that ``window`` selects at ``t``; empty when ``lo > hi``."""
    pivot = (t // window.step) * window.step
    lo = timeline.start if window.length is None else max(timeline.start, pivot - window.length)
    return lo, min(timeline.end, pivot + window.ahead)


def tuple_window_selection(window: TupleWindow, stream: Stream, t: int) -> Stream:
    """The substream ``⊞^{#n}`` selects from ``stream`` at ``t`` (arrival order breaks ties).

    Its timeline is ``[t'', t]`` with ``t''`` the time of the ``n``-th latest atom, or the start
    of the timeline when the stream up to ``t`` holds fewer than ``n`` atoms.
    """
    remaining = window.size
    selected: dict[int, tuple] = {}
    earliest = stream.timeline.start
    for point in reversed(stream.time_points()):
        if point > t:
            continue
        atoms = stream.at(point)
        if len(atoms) >= remaining:
            selected[point] = atoms[len(atoms) - remaining:]
            earliest = point
            break
        selected[point] = atoms
        remaining -= len(atoms)
    timeline = Timeline(earliest, t)
    return Stream(timeline, tuple(sorted(selected.items())))


def select(window: Window, stream: Stream, t: int) -> Stream:
    """The window function: the substream of ``stream`` that ``window`` selects at ``t``."""
    if isinstance(window, TupleWindow):
        return tuple_window_selection(window, stream, t)
    lo, hi = time_window_range(window, t, stream.timeline)
    return stream.restrict(lo, hi)
