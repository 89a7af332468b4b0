"""Window operators and the window functions that select a substream (SPEC section 3).

* :class:`TimeWindow` ``⊞^{l,u,d}``: at reference time ``t`` let ``t' = floor(t/d)*d``; the
  window is the substream on ``[max(t_min, t'-l), min(t_max, t'+u)]``. ``⊞^l`` is
  ``⊞^{l,0,1}``, ``⊞^0`` (also ``⊞^now``) is ``[t, t]`` and ``⊞^∞`` (``length=None``) reaches
  back to ``t_min``.
* :class:`TupleWindow` ``⊞^{#n}``: the shortest suffix of the stream up to ``t`` that holds the
  latest ``n`` atoms, counted in arrival order; at its earliest time point only the latest atoms
  that fit are kept. ``⊞^{#n, q(c,_)}`` is the same window on the substream of the atoms that
  match the pattern ``q(c,_)`` (one partition of the partition-based window of Beck, Dao-Tran,
  Eiter, Fink, AAAI 2015): only those atoms are counted and selected. RSP's ``[TRIPLES n]`` on
  stream ``s`` is ``⊞^{#n, striple(_,_,_,s)}``: it counts the triples of its own stream.

>>> [time_window_range(TimeWindow(3, 1, 3), t, Timeline(0, 9)) for t in (2, 5, 8)]
[(0, 1), (0, 4), (3, 7)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from lars.atoms import Atom
from lars.streams import Stream, Timeline
from lars.terms import Variable


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


ANY = Variable("_")
"""The wildcard of a substream pattern."""


@dataclass(frozen=True)
class TupleWindow:
    """``⊞^{#size}``: the latest ``size`` input atoms (``size >= 1``); with ``substream``, the
    latest ``size`` input atoms that match it (``⊞^{#size, substream}``).

    ``substream`` is a pattern atom whose arguments are constants or the wildcard ``_``; it
    binds nothing (the window's own atom, after the modality, does).
    """

    size: int
    substream: Atom | None = None

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a tuple window holds at least one atom")
        if self.substream is not None and any(
                isinstance(arg, Variable) and arg != ANY for arg in self.substream.args):
            raise ValueError("a substream pattern has constants and the wildcard _ only")

    def counts(self, atom: Atom) -> bool:
        """Whether ``atom`` is in the substream this window counts (every atom without one).

        >>> from lars.parser import parse_atom
        >>> window = TupleWindow(1, parse_atom("q(c,_)"))
        >>> [window.counts(parse_atom(a)) for a in ("q(c,d)", "q(d,d)", "q(c)", "p(c,d)")]
        [True, False, False, False]
        """
        pattern = self.substream
        if pattern is None:
            return True
        return (atom.predicate == pattern.predicate and len(atom.args) == len(pattern.args)
                and all(p == ANY or p == a for p, a in zip(pattern.args, atom.args)))


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
    of the timeline when the stream up to ``t`` holds fewer than ``n`` atoms. With a substream
    pattern only the atoms that match it are counted and selected.
    """
    remaining = window.size
    selected: dict[int, tuple] = {}
    earliest = stream.timeline.start
    for point in reversed(stream.time_points()):
        if point > t:
            continue
        atoms = tuple(atom for atom in stream.at(point) if window.counts(atom))
        if not atoms:
            continue
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
