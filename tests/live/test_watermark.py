"""The watermark (issue 31, ``--max-delay D``; :mod:`ingest.watermark`): lines shuffled by at
most ``D`` come out in time order, none late; a line more than ``D`` behind the newest is handed
back at once as late; per-stream order: a stream that lags another is not made late by it."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from ingest.watermark import Reorder

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None)


def arrival(times: list[int], jitters: list[int]) -> list[tuple[int, int]]:
    """``(time, index)`` in the order they arrive when each is delayed by its jitter."""
    return sorted(((t, i) for i, t in enumerate(times)),
                  key=lambda item: (item[0] + jitters[item[1]], item[1]))


@SETTINGS
@given(st.integers(0, 5), st.lists(st.integers(0, 30), max_size=40), st.data())
def test_lines_shuffled_within_d_come_out_sorted_and_none_late(delay, times, data):
    times.sort()
    jitters = data.draw(st.lists(st.integers(0, delay), min_size=len(times), max_size=len(times)))
    order = Reorder(delay)
    out = [item for t, i in arrival(times, jitters) for item in order.push(t, i)]
    out += list(order.flush())
    assert not any(item.late for item in out)
    assert [item.time for item in out] == times
    by_time = {}
    for item in out:  # within a time point, arrival order
        by_time.setdefault(item.time, []).append(item.item)
    arrived = [i for _, i in arrival(times, jitters)]
    assert all(group == sorted(group, key=arrived.index) for group in by_time.values())


@SETTINGS
@given(st.integers(0, 5), st.integers(0, 20), st.integers(1, 10))
def test_a_line_more_than_d_behind_is_late_at_once(delay, time, behind):
    order = Reorder(delay)
    list(order.push(time + delay + behind, "new"))
    [item] = order.push(time, "old")
    assert item.late and item.time == time and item.item == "old"
    assert [i.item for i in order.flush()] == ["new"]


def test_a_line_exactly_d_behind_is_in_time():
    order = Reorder(3)
    list(order.push(10, "a"))
    assert [i.late for i in order.push(7, "b")] == []
    assert [i.item for i in order.flush()] == ["b", "a"]


def test_each_stream_keeps_its_own_order():
    """Stream s2 lags s1 by more than D; its lines are not late, since the watermark is the
    least of the streams' (the RSP-QL model: order within a stream)."""
    order = Reorder(1)
    lines = [(1, "s1"), (1, "s2"), (10, "s1"), (2, "s2"), (3, "s2"), (12, "s1"), (11, "s2")]
    out = [i for t, s in lines for i in order.push(t, f"{s}@{t}", stream=s)]
    out += list(order.flush())
    assert not any(i.late for i in out)
    assert [i.time for i in out] == [1, 1, 2, 3, 10, 11, 12]


def test_a_stream_first_seen_behind_the_watermark_is_late():
    """Nothing tells that a stream is yet to come: its lines before the watermark are late."""
    order = Reorder(1)
    list(order.push(10, "a", stream="s1"))
    assert [i.late for i in order.push(2, "b", stream="s2")] == [True]
