"""Window states of the incremental engine against a direct reading of the window semantics.

SPEC section 3 and the README's "Semantics, in brief": the window of ``⊞^{l,u,d}`` at ``t`` is
``[max(t_min, t'-l), min(t_max, t'+u)]`` with ``t' = floor(t/d)·d``; input is visible up to
``t`` only; background atoms hold at every point of a non-empty window; ``□`` over an empty
window holds for every tuple of the active domain. Each state is fed slices in time order and
advanced at an increasing selection of time points (the engine skips idle ones); after each
advance its relation must equal the direct reading, and its delta the change since the last one.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.streams import Timeline
from lars.terms import Name, Number, Variable
from lars.windows import TimeWindow, time_window_range
from solver.incremental.relations import Pattern
from solver.keys import key_of
from solver.incremental.windowstate import (
    AtConstantState, AtVariableState, BoxState, DiamondState, DomainTracker,
)

VALUES = [Number(1), Number(2), Name("a")]


def atom(value) -> Atom:
    return Atom("p", (value,))


@st.composite
def cases(draw):
    start = draw(st.integers(-2, 2))
    timeline = Timeline(start, start + draw(st.integers(0, 12)))
    window = TimeWindow(draw(st.none() | st.integers(0, 5)), draw(st.integers(0, 2)),
                        draw(st.integers(1, 4)))
    stream = {t: sorted(draw(st.sets(st.sampled_from(VALUES), max_size=2)), key=str)
              for t in timeline}
    background = draw(st.sets(st.sampled_from(VALUES), max_size=1))
    points = [t for t in timeline if draw(st.booleans()) or t == timeline.end]
    return timeline, window, stream, sorted(background, key=str), points


def window_at(window: TimeWindow, t: int, timeline: Timeline) -> tuple[int, int]:
    pivot = (t // window.step) * window.step
    lo = timeline.start if window.length is None else max(timeline.start, pivot - window.length)
    return lo, min(timeline.end, pivot + window.ahead)


def drive(state, timeline, stream, points, expected):
    """Feed and advance ``state``; check its relation and delta at each selected point."""
    before: set = set()
    fed = timeline.start
    for t in points:
        while fed <= t:
            state.ingest(fed, [atom(v) for v in stream[fed]])
            fed += 1
        added, removed = state.advance(t)
        now = set(state.tuples)
        assert now == expected(t), f"relation at {t}"
        assert (set(added), set(removed)) == (now - before, before - now), f"delta at {t}"
        before = now


def test_the_direct_reading_is_lars_windows_range() -> None:
    for window in (TimeWindow(3), TimeWindow(2, 1, 3), TimeWindow(None, 0, 2)):
        for t in range(0, 9):
            assert window_at(window, t, Timeline(0, 8)) == time_window_range(window, t, Timeline(0, 8))


@settings(max_examples=150)
@given(cases())
def test_diamond(case) -> None:
    timeline, window, stream, background, points = case
    pattern = Pattern(atom_pattern(), ("X",))

    def expected(t):
        lo, hi = window_at(window, t, timeline)
        seen = {(key_of(v),) for s in range(lo, min(hi, t) + 1) for v in stream[s]}
        return seen | ({(key_of(v),) for v in background} if lo <= hi else set())

    state = DiamondState(lambda t: window_at(window, t, timeline), pattern,
                         [atom(v) for v in background], window.length is None)
    drive(state, timeline, stream, points, expected)


@settings(max_examples=150)
@given(cases())
def test_at_variable(case) -> None:
    timeline, window, stream, background, points = case
    pattern = Pattern(atom_pattern(), ("T", "X"), time_variable="T")

    def expected(t):
        lo, hi = window_at(window, t, timeline)
        seen = {(s, key_of(v)) for s in range(lo, min(hi, t) + 1) for v in stream[s]}
        return seen | {(s, key_of(v)) for s in range(lo, hi + 1) for v in background}

    state = AtVariableState(lambda t: window_at(window, t, timeline), pattern,
                            [atom(v) for v in background], window.length is None)
    drive(state, timeline, stream, points, expected)


@settings(max_examples=150)
@given(cases(), st.integers(-2, 14))
def test_at_constant(case, at) -> None:
    timeline, window, stream, background, points = case
    pattern = Pattern(atom_pattern(), ("X",))

    def expected(t):
        lo, hi = window_at(window, t, timeline)
        seen = {(key_of(v),) for v in stream.get(at, ())} if lo <= at <= min(hi, t) else set()
        return seen | ({(key_of(v),) for v in background} if lo <= at <= hi else set())

    state = AtConstantState(lambda t: window_at(window, t, timeline), pattern,
                            [atom(v) for v in background], at)
    drive(state, timeline, stream, points, expected)


@settings(max_examples=150)
@given(cases())
def test_box(case) -> None:
    timeline, window, stream, background, points = case
    pattern = Pattern(atom_pattern(), ("X",))
    domain = DomainTracker(set(VALUES), timeline.end + 1)

    def expected(t):
        lo, hi = window_at(window, t, timeline)
        found = {(key_of(v),) for v in background}
        if lo > hi:
            return found | {(key_of(v),) for v in domain.values()}
        if hi > t:  # the window reaches past the input seen so far
            return found
        return found | {(key_of(v),) for v in VALUES
                        if all(v in stream[s] for s in range(lo, hi + 1))}

    state = BoxState(lambda t: window_at(window, t, timeline), pattern,
                     [atom(v) for v in background], domain)
    drive(state, timeline, stream, points, expected)


def test_box_over_an_empty_window_holds_for_the_whole_domain() -> None:
    """A hopping window whose pivot is before the timeline selects nothing: □ holds vacuously."""
    timeline = Timeline(1, 3)
    window = TimeWindow(0, 0, 4)  # pivot 0 < start 1 until t = 4
    state = BoxState(lambda t: window_at(window, t, timeline), Pattern(atom_pattern(), ("X",)), [],
                     DomainTracker({Number(1), Name("a")}, 4))
    state.ingest(1, [])
    state.advance(1)
    assert set(state.tuples) == {(1,), ("a",)}


def test_diamond_background_needs_a_non_empty_window() -> None:
    """◇ over an empty window is false even for a background atom."""
    timeline = Timeline(1, 3)
    window = TimeWindow(0, 0, 4)
    state = DiamondState(lambda t: window_at(window, t, timeline), Pattern(atom_pattern(), ("X",)),
                         [atom(Number(1))])
    state.ingest(1, [])
    state.advance(1)
    assert set(state.tuples) == set()


def atom_pattern() -> Atom:
    return Atom("p", (Variable("X"),))
