"""LARS atom stream files (ingest/larsfile.py) and the shared reading policy (ingest/policy.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.errors import InputError, ParseError, Position
from ingest.policy import (
    Entry, ReadPolicy, ReadReport, TimeOrder, combine_orders, group_by_time, parse_lines, read_lines,
)
from ingest.larsfile import read_stream, read_stream_entries, stream_reader
from lars.streams import Timeline, distinct
from lars.terms import Name, Number, String


def write(tmp_path: Path, text: str, name: str = "s.stream") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_read_stream_running_example(tmp_path):
    path = write(tmp_path, '# paper 004, Example 1\n10: offer(a, "mbt", 30)\n15: offer(b, "rayban", 25)\n\n'
                           "18: isNear(a), isNear(b)\n")
    stream = read_stream(path, Timeline(0, 50))
    assert stream.timeline == Timeline(0, 50)
    assert stream.at(10) == (Atom("offer", (Name("a"), String("mbt"), Number(30))),)
    assert stream.at(18) == (Atom("isNear", (Name("a"),)), Atom("isNear", (Name("b"),)))


def test_lines_with_one_time_point_join_in_line_order(tmp_path):
    path = write(tmp_path, "3: p(1)\n3: q(a), p(2)\n4:\n")
    stream = read_stream(path)
    assert stream.timeline == Timeline(3, 4)
    assert [str(atom.predicate) for atom in stream.at(3)] == ["p", "q", "p"]
    assert stream.time_points() == [3]


def test_entries_carry_positions(tmp_path):
    path = write(tmp_path, "\n3: p(1)\r\n# c\n5: q(a)\n")
    entries = list(read_stream_entries(path))
    assert [(entry.time, entry.position) for entry in entries] == [
        (3, Position(path, 2)), (5, Position(path, 4))]


def test_empty_stream(tmp_path):
    assert read_stream(write(tmp_path, "# nothing\n")).timeline == Timeline(0, 0)


def test_bad_line_is_a_parse_error_with_position(tmp_path):
    path = write(tmp_path, "3: p(1)\n4 q(a)\n")
    with pytest.raises(ParseError) as caught:
        read_stream(path)
    assert str(caught.value) == f"{path}:2:3: error: expected ':' but found 'q'"


def test_backwards_timestamp_names_both_lines(tmp_path):
    path = write(tmp_path, "3: p(1)\n7: p(2)\n7: p(3)\n5: p(4)\n")
    with pytest.raises(InputError) as caught:
        read_stream(path)
    assert str(caught.value) == f"{path}:4:1: error: timestamp 5 goes back in time (line 3 had 7)"


def test_skip_mode_counts_bad_lines(tmp_path):
    path = write(tmp_path, "3: p(1)\n4 q(a)\n2: p(0)\n5: p(5)\n")
    report = ReadReport()
    stream = read_stream(path, policy=ReadPolicy(on_error="skip"), report=report)
    assert stream.time_points() == [3, 5]
    assert (report.records, report.elements, report.skipped) == (4, 2, 2)
    assert report.messages == [f"{path}:2:3: error: expected ':' but found 'q'",
                               f"{path}:3:1: error: timestamp 2 goes back in time (line 1 had 3)"]
    assert report.summary() == ["warning: skipped 2 bad records:", f"  {report.messages[0]}",
                                f"  {report.messages[1]}"]


def test_sort_mode_sorts_and_warns(tmp_path):
    path = write(tmp_path, "7: a\n5: b\n7: c\n5: d\n")
    report = ReadReport()
    stream = read_stream(path, policy=ReadPolicy(order="sort"), report=report)
    assert [[str(atom.predicate) for atom in stream.at(t)] for t in (5, 7)] == [["b", "d"], ["a", "c"]]
    assert report.summary() == [f"{path}:2:1: warning: timestamp 5 goes back in time (line 1 had 7); "
                                "2 lines out of time order were sorted"]


def test_time_point_outside_the_timeline(tmp_path):
    path = write(tmp_path, "3: p(1)\n60: p(2)\n")
    with pytest.raises(InputError) as caught:
        read_stream(path, Timeline(0, 50))
    assert str(caught.value) == f"{path}:2: error: time point 60 is outside the timeline [0, 50]"
    report = ReadReport()
    stream = read_stream(path, Timeline(0, 50), policy=ReadPolicy(on_error="skip"), report=report)
    assert (stream.time_points(), report.skipped, report.elements) == ([3], 1, 1)


def test_missing_file(tmp_path):
    with pytest.raises(InputError) as caught:
        read_stream(tmp_path / "none.stream")
    assert str(caught.value) == f"{tmp_path / 'none.stream'}: error: cannot read the file: No such file or directory"


def test_line_not_utf8(tmp_path):
    path = tmp_path / "s.stream"
    path.write_bytes(b'3: p(1)\n4: q("\xe9t\xe9")\n')
    with pytest.raises(ParseError) as caught:
        read_stream(path)
    assert str(caught.value) == f"{path}:2:7: error: the line is not UTF-8 text (byte 0xe9)"


# --- the reading policy ------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    pytest.param({"on_error": "ignore"}, "error: unknown on_error 'ignore': expected 'stop' or 'skip'",
                 id="on-error"),
    pytest.param({"order": "sorted"}, "error: unknown order 'sorted': expected 'strict' or 'sort' "
                                      "(did you mean 'sort'?)", id="order"),
])
def test_policy_refuses_unknown_options(options, message):
    with pytest.raises(InputError) as caught:
        ReadPolicy(**options)
    assert str(caught.value) == message


def test_report_without_notes_is_silent():
    assert ReadReport().summary() == []


def test_parse_lines_with_a_custom_parser():
    def parse(line, source, number):
        if not line:
            return None
        if not line[0].isdigit():
            raise ParseError("expected a digit", Position(source, number, 1))
        return int(line[0]), list(line[1:])

    report = ReadReport()
    entries = list(parse_lines(["1ab", "", "x", "2c"], "mem", parse, ReadPolicy(on_error="skip"), report))
    assert group_by_time(entries) == [(1, ("a", "b")), (2, ("c",))]
    assert report.messages == ["mem:3:1: error: expected a digit"]


def test_group_by_time_keeps_empty_time_points():
    assert group_by_time([Entry(4, (), Position())]) == [(4, ())]


def sequential_state(times: list[int], first_line: int = 1):
    order = TimeOrder("s")
    for line, time in enumerate(times, start=first_line):
        order.check(time, line)
    return order.state


@given(st.lists(st.integers(0, 5), max_size=20), st.data())
def test_order_states_combine_over_any_split(times, data):
    """The Spark job checks partitions separately: folding their end states equals one pass."""
    cut = data.draw(st.integers(0, len(times)))
    head = sequential_state(times[:cut])
    tail = sequential_state(times[cut:], first_line=cut + 1)
    assert combine_orders(head, tail) == sequential_state(times)


@given(st.lists(st.integers(0, 5), max_size=20), st.data())
def test_checking_from_a_combined_state_flags_the_same_lines(times, data):
    cut = data.draw(st.integers(0, len(times)))
    whole = TimeOrder("s")
    expected = [str(whole.check(time, line)) for line, time in enumerate(times, start=1)]
    first = TimeOrder("s")
    flags = [str(first.check(time, line)) for line, time in enumerate(times[:cut], start=1)]
    second = TimeOrder("s", combine_orders(None, first.state))
    flags += [str(second.check(time, line)) for line, time in enumerate(times[cut:], start=cut + 1)]
    assert flags == expected


# --- the lazy reader of lars run (stream_reader) against read_stream -----------------------------

STREAM_LINES = st.one_of(
    st.builds(lambda t, atoms: f"{t}: {atoms}", st.integers(-3, 6),
              st.sampled_from(["", "p(1)", "p(1), q(a)", 'r("s")', "p( 2 ) , p(1)"])),
    st.sampled_from(["", "# comment", "   ", "2: p(", "x: p(1)"]))


def outcome_of(read) -> tuple:
    try:
        return "ok", read()
    except (InputError, ParseError) as error:
        return "error", (type(error), str(error))


@given(st.lists(STREAM_LINES, max_size=8), st.booleans())
def test_lazy_reader_gives_what_read_stream_gives(tmp_path_factory, lines, crlf):
    """Same slices and ends for well-formed files; the same error for a bad line or one going
    back in time, if not at once then when reading reaches it."""
    path = write(tmp_path_factory.mktemp("lazy"), ("\r\n" if crlf else "\n").join(lines))

    def eager():
        stream = read_stream(path)
        return stream.timeline.start, stream.timeline.end, [(t, tuple(a)) for t, a in stream.items]

    def lazy():
        read, first, last = stream_reader(path, ReadReport())
        items = list(read())
        return (0 if first is None else first, 0 if last is None else last,  # a Stream lists no
                [(t, distinct(a)) for t, a in items if a])  # empty time point, no atom twice at one

    assert outcome_of(lazy) == outcome_of(eager)


def test_lazy_reader_reads_at_each_call_and_not_before(tmp_path):
    path = write(tmp_path, "0: p(1)\n1: q\n2: oops(\n5: p(2)\n")
    read, first, last = stream_reader(path, ReadReport())
    assert (first, last) == (0, 5)
    got = []
    with pytest.raises(ParseError, match=r"s\.stream:3:"):
        for item in read():
            got.append(item)
    assert got == [(0, (Atom("p", (Number(1),)),))]  # the slice at 1 ends where line 3 is read


@given(st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"xy", b"\xc3\xa9"]), max_size=20),
       st.integers(1, 8))
def test_read_lines_in_blocks_gives_the_lines_one_by_one(tmp_path_factory, pieces, block):
    """Blocks of any size give what reading line by line and trimming LF, then CR, gives."""
    path = tmp_path_factory.mktemp("lines") / "f"
    path.write_bytes(b"".join(pieces))
    with open(path, "rb") as file:
        expected = [raw.rstrip(b"\n").removesuffix(b"\r") for raw in file]
    assert list(read_lines(path, block=block)) == expected
