"""Window functions exactly as SPEC section 3 defines them (LARS, AAAI 2015 examples)."""

import pytest

from lars.atoms import Atom
from lars.streams import Stream, Timeline
from lars.terms import Name
from lars.windows import NOW, UNBOUNDED, TimeWindow, TupleWindow, select, time_window_range, tuple_window_selection


@pytest.mark.parametrize("t, expected", [
    pytest.param(0, (0, 1), id="t0"), pytest.param(1, (0, 1), id="t1"), pytest.param(2, (0, 1), id="t2"),
    pytest.param(3, (0, 4), id="t3"), pytest.param(4, (0, 4), id="t4"), pytest.param(5, (0, 4), id="t5"),
    pytest.param(6, (3, 7), id="t6"), pytest.param(7, (3, 7), id="t7"), pytest.param(8, (3, 7), id="t8"),
])
def test_hopping_window_3_1_3_on_0_9(t, expected):
    assert time_window_range(TimeWindow(3, 1, 3), t, Timeline(0, 9)) == expected


@pytest.mark.parametrize("window, t, expected", [
    pytest.param(TimeWindow(5), 11, (6, 11), id="range-5-at-11"),
    pytest.param(TimeWindow(5), 2, (0, 2), id="range-5-clamped-at-start"),
    pytest.param(TimeWindow(0), 7, (7, 7), id="now"),
    pytest.param(TimeWindow(None), 7, (0, 7), id="unbounded"),
    pytest.param(TimeWindow(2, 3, 1), 12, (10, 13), id="ahead-clamped-at-end"),
    pytest.param(TimeWindow(None, 0, 5), 12, (0, 10), id="unbounded-step-5"),
    pytest.param(TimeWindow(4, 0, 4), 7, (0, 4), id="tumbling-4"),
])
def test_time_window_ranges(window, t, expected):
    assert time_window_range(window, t, Timeline(0, 13)) == expected


def test_window_before_an_unaligned_timeline_start_is_empty():
    lo, hi = time_window_range(TimeWindow(0, 1, 5), 4, Timeline(3, 9))
    assert lo > hi


def letters(*names):
    return tuple(Atom(n) for n in names)


STREAM = Stream(Timeline(0, 9), ((1, letters("a", "b")), (4, letters("c", "d", "e")), (6, letters("f"))))


@pytest.mark.parametrize("size, t, timeline, items", [
    pytest.param(1, 9, (6, 9), ((6, letters("f")),), id="latest-one"),
    pytest.param(2, 9, (4, 9), ((4, letters("e")), (6, letters("f"))), id="cut-inside-a-time-point"),
    pytest.param(4, 9, (4, 9), ((4, letters("c", "d", "e")), (6, letters("f"))), id="whole-time-point"),
    pytest.param(5, 9, (1, 9), ((1, letters("b")), (4, letters("c", "d", "e")), (6, letters("f"))),
                 id="latest-of-earliest-point"),
    pytest.param(9, 9, (0, 9), STREAM.items, id="fewer-atoms-than-n"),
    pytest.param(2, 5, (4, 5), ((4, letters("d", "e")),), id="only-up-to-t"),
    pytest.param(1, 0, (0, 0), (), id="nothing-yet"),
])
def test_tuple_window_keeps_latest_atoms_in_arrival_order(size, t, timeline, items):
    selected = tuple_window_selection(TupleWindow(size), STREAM, t)
    assert selected.timeline == Timeline(*timeline)
    assert selected.items == items


def test_select_time_window_is_the_substream():
    stream = Stream(Timeline(0, 13), ((2, (Atom("tr", (Name("a"), Name("p1"))),)),
                                      (8, (Atom("tr", (Name("d"), Name("p2"))),))))
    window = select(TimeWindow(5), stream, 11)
    assert window.timeline == Timeline(6, 11)
    assert window.items == ((8, (Atom("tr", (Name("d"), Name("p2"))),)),)


@pytest.mark.parametrize("kwargs", [
    pytest.param(dict(length=-1), id="negative-length"),
    pytest.param(dict(length=3, ahead=-1), id="negative-ahead"),
    pytest.param(dict(length=3, step=0), id="zero-step"),
])
def test_invalid_time_windows_are_refused(kwargs):
    with pytest.raises(ValueError):
        TimeWindow(**kwargs)


def test_tuple_window_holds_at_least_one_atom():
    with pytest.raises(ValueError):
        TupleWindow(0)


@pytest.mark.parametrize("t", [0, 3, 9])
def test_now_is_the_current_time_point_and_unbounded_reaches_the_start(t):
    """``⊞^now`` selects ``[t, t]`` and ``⊞^∞`` selects ``[t_min, t]`` (the paper's windows)."""
    assert time_window_range(NOW, t, Timeline(0, 9)) == (t, t)
    assert time_window_range(UNBOUNDED, t, Timeline(0, 9)) == (0, t)
