"""``⊞□`` kept as cohorts of unbroken runs (:class:`solver.incremental.windowstate.Runs`, used by
:class:`~solver.incremental.windowstate.BoxState`) against a direct reading of SPEC section 3:
``□a`` holds in a window if ``a`` holds at every point of the window's timeline.

Generated streams with gaps (time points without a slice, which is how the engine feeds a state:
it hands a state nothing at a time point without atoms of its signature), values that come and
go, and windows wider than a run; asked at start points that only move forward, as a window's
start does. The cohorts stay within the window: at most one per time point of ``[lo, time]``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.streams import Timeline
from lars.terms import Number, Variable
from lars.windows import TimeWindow, time_window_range
from solver.incremental.relations import Pattern
from solver.incremental.windowstate import BoxState, DomainTracker, Runs

VALUES = range(6)


STEPS = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 63), st.integers(0, 63)), max_size=40)
"""Per time point ``(kind, leaving, coming)``: kind 0 is no slice (every run ends); under 3 the
values of the bit mask ``leaving`` leave; from 5 those of ``coming`` come."""


def bits(mask: int) -> set[int]:
    return {v for v in VALUES if mask >> v & 1}


def stream_of(start: int, steps: list[tuple[int, int, int]]) -> dict[int, set[int]]:
    """Slices at ascending time points from ``start``, some missing; values stay for several
    points (runs of many lengths side by side, so many cohorts)."""
    stream, present = {}, set()
    for t, (kind, leaving, coming) in enumerate(steps, start=start):
        if kind == 0:
            present = set()
            continue
        if kind < 3:
            present -= bits(leaving)
        if kind >= 5:
            present |= bits(coming)
        stream[t] = set(present)
    return stream


def lasting(stream: dict[int, set[int]], lo: int, hi: int) -> set[tuple[int]]:
    """The values present at every point of ``[lo, hi]`` (a point without a slice holds none)."""
    return {(v,) for v in VALUES if all(v in stream.get(s, ()) for s in range(lo, hi + 1))}


@settings(max_examples=200, derandomize=True)
@given(st.integers(-3, 3), STEPS, st.lists(st.integers(0, 3), min_size=40, max_size=40))
def test_runs_are_the_values_present_at_every_point_since(start, steps, moves) -> None:
    """``lo`` starts up to 12 points before the first slice and moves forward by ``moves``
    (never past the latest time point)."""
    stream, runs = stream_of(start, steps), Runs()
    lo = min(stream, default=0) - 12
    for (time, values), move in zip(stream.items(), moves):
        runs.take(time, [(v,) for v in sorted(values)])
        lo = min(lo + move, time)
        assert runs.since(lo) == lasting(stream, lo, time), f"[{lo}, {time}]"
        assert len(runs.cohorts) <= time - lo + 1
        assert sum(len(members) for _, members in runs.cohorts) == len(values)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(STEPS, st.integers(0, 10), st.integers(1, 3), st.booleans())
def test_box_state_fed_as_the_engine_feeds_it(steps, length, step, unbounded) -> None:
    """The relation of ``⊞^{l,0,d} □ p(X)`` at every time point, slices given only where the
    stream has atoms, against the window's range and :func:`lasting` (the window must lie
    within the input seen so far; background and empty windows are tested in test_windowstate)."""
    stream = stream_of(0, steps)
    timeline = Timeline(0, max(stream, default=0) + 3)
    window = TimeWindow(None if unbounded else length, 0, step)
    state = BoxState(lambda t: time_window_range(window, t, timeline),
                     Pattern(Atom("p", (Variable("X"),)), ("X",)), [], DomainTracker(set(), 0))
    for t in timeline:
        if stream.get(t):
            state.ingest(t, [Atom("p", (Number(v),)) for v in sorted(stream[t])])
        state.advance(t)
        lo, hi = time_window_range(window, t, timeline)
        assert set(state.tuples) == lasting(stream, lo, hi), f"t={t}, window [{lo}, {hi}]"
