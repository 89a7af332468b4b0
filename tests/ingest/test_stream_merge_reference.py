"""``ingest.timeorder.StreamMerge`` against a direct reading of its definition.

Its docstring: an entry is held until every stream seen so far has passed its time point (the
watermark is the least of their latest time points), then handed on in (time, line) order; a
line going back within its stream, or a new stream starting before what was handed on, is
refused. The reference below does exactly that with a sorted list, push by push; the merge
takes a shortcut while one stream has been seen (no heap), which must not show: the same
entries handed on at each push, the same refusals with the same messages.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.timeorder import Entry, StreamMerge, TimeOrder
from lars.errors import InputError, Position


class ReferenceMerge:
    """The definition, read directly: every push recomputes the watermark and hands on all
    held entries before it, sorted by (time, line)."""

    def __init__(self) -> None:
        self.latest: dict[str, tuple[int, int]] = {}
        self.held: list[Entry] = []
        self.handed: tuple[int, int] | None = None

    def check(self, time: int, line: int, stream: str) -> str | None:
        if stream not in self.latest:
            if self.handed is not None and time < self.handed[0]:
                return f"new stream behind {self.handed}"
        elif time < self.latest[stream][0]:
            return f"back within {stream}"
        self.latest[stream] = (time, line)
        return None

    def push(self, entry: Entry) -> list[Entry]:
        self.held.append(entry)
        watermark = min(time for time, _ in self.latest.values())
        released = sorted((e for e in self.held if e.time < watermark),
                          key=lambda e: (e.time, e.position.line))
        self.held = [e for e in self.held if e.time >= watermark]
        if released:
            self.handed = (released[-1].time, released[-1].position.line)
        return released

    def flush(self) -> list[Entry]:
        return sorted(self.held, key=lambda e: (e.time, e.position.line))


lines = st.lists(st.tuples(st.integers(0, 6), st.sampled_from("aab c")), max_size=30)


@settings(max_examples=400, derandomize=True)
@given(lines)
@example([(1, "a"), (1, "a"), (2, "a"), (1, "b"), (2, "b"), (3, "a")])  # a second stream joins
@example([(2, "a"), (2, "a"), (3, "a"), (1, "b")])  # joins behind what was handed on: refused
@example([(3, "a"), (2, "a"), (4, "a")])  # one stream going back
def test_the_merge_hands_on_what_the_definition_does(records):
    merge, reference = StreamMerge("s.nt"), ReferenceMerge()
    for number, (time, stream) in enumerate(records, start=1):
        error, expected_error = merge.check(time, number, stream), reference.check(time, number, stream)
        assert (error is None) == (expected_error is None), (number, error, expected_error)
        if error is not None:
            continue
        entry = Entry(time, (stream,), Position("s.nt", number))
        assert merge.push(entry) == reference.push(entry)
        assert merge.handed == reference.handed
    assert list(merge.flush()) == reference.flush()


def test_a_stream_joining_behind_the_one_stream_names_the_line_handed_on():
    """The shortcut of one stream keeps what was handed on, for the refusal's message."""
    merge = StreamMerge("s.nt")
    for number, (time, stream) in enumerate([(1, "a"), (1, "a"), (2, "a")], start=1):
        assert merge.check(time, number, stream) is None
        merge.push(Entry(time, (), Position("s.nt", number)))
    error = merge.check(0, 4, "b")
    assert isinstance(error, InputError)
    assert str(error).startswith("s.nt:4: error: timestamp 0 of a stream first seen here goes back "
                                 "in time (line 2 had 1, already read)")


def test_one_stream_checks_like_a_time_order():
    merge, order = StreamMerge("s.nt"), TimeOrder("s.nt")
    for number, time in enumerate([1, 1, 3, 2, 5], start=1):
        error, expected = merge.check(time, number, None), order.check(time, number)
        assert str(error) == str(expected)
