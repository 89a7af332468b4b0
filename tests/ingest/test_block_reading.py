"""Reading a stream file a block of lines at a time (ingest/policy.py ``parse_blocks``,
``read_blocks``; the block parsers of ingest/rdffiles.py and ingest/encoded.py) against reading
it line by line (``parse_lines`` over ``read_lines``, each line parsed on its own).

On generated files (common and unusual lines, bad ones, blank and comment lines, CRLF, a
byte-order mark, bytes that are not UTF-8, several streams, timestamps going back in time),
under every reading policy, with blocks of any size: the same elements in the same order at
the same times and positions, the same report, and the same first error after the same
elements.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from ingest.encoded import EncodedLines
from ingest.policy import ReadPolicy, ReadReport, parse_blocks, parse_lines, read_blocks, read_lines
from ingest.rdffiles import ASCII_LINES, FAST_LINE, FAST_LINES, NTriplesLines, read_timestamped_ntriples
from lars.errors import LarsError
from tests.ingest.test_ntriples_fast import (
    blank_nodes, fast_blank_nodes, fast_iris, iris, literals, mutated_lines, readable_lines,
)
from translate.rdf import RdfTermEncoder

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals

STREAMS = ["", "", " <http://ex.org/s1>", " <http://ex.org/s1>", " <http://ex.org/s2>"]
SPACE = st.sampled_from([" ", " ", "\t", "  "])


@st.composite
def stream_lines(draw, time: int, stream: str | None) -> str:
    """One line of a stream at ``time``: with ``stream``, a line of the common shape on it (or
    a blank or comment line); else any line: common, unusual, bad, blank or a comment."""
    kinds = ["fast"] * 6 + ["blank", "comment"]
    kinds += [] if stream is not None else ["odd", "readable", "mutated"]
    kind = draw(st.sampled_from(kinds))
    if kind == "readable":
        return draw(readable_lines())
    if kind == "mutated":
        return draw(mutated_lines())
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t ", "\r"]))
    if kind == "comment":
        return draw(st.sampled_from(["#", "# a comment", "  #\tx", "#\r"]))
    fast = kind == "fast"
    subject = draw(st.one_of(fast_iris(), fast_blank_nodes) if fast else st.one_of(iris, blank_nodes))
    predicate = draw(fast_iris() if fast else iris)
    obj = draw(st.one_of(fast_iris(), fast_blank_nodes, literals()) if fast else
               st.one_of(iris, blank_nodes, literals()))
    dot = draw(st.sampled_from(["", " ."]))
    tail = draw(st.sampled_from(["", "", " ", " # c"]))
    on = stream if stream is not None else draw(st.sampled_from(STREAMS))
    return f"{subject}{draw(SPACE)}{predicate} {obj}{on}{dot} {time}{tail}"


@st.composite
def stream_files(draw) -> bytes:
    """A stream file: half of them plain (lines of the common shape on one stream, ascending in
    time: read a block at a time; sometimes one more line going back), the others anything
    (lines of any kind on several streams, time mostly ascending, sometimes going back,
    sometimes a byte that is not UTF-8)."""
    plain = draw(st.booleans())
    stream = draw(st.sampled_from(STREAMS)) if plain else None
    steps = [0, 0, 0, 1, 1, 2] + ([] if plain else [-1, -5])
    time, lines = draw(st.integers(-3, 3)), []
    for _ in range(draw(st.integers(0, 14))):
        time += draw(st.sampled_from(steps))
        lines.append(draw(stream_lines(time, stream)).encode())
    if lines and plain and draw(st.booleans()):  # then one going back, maybe on another stream
        back = time - draw(st.integers(1, 3))
        lines.append(f"<a:s> <a:p> <a:o>{draw(st.sampled_from(STREAMS))} {back}".encode())
    if lines and not plain and draw(st.booleans()):
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] += draw(st.sampled_from([b"\xe9", b"\xff x", b"\xc3"]))  # not UTF-8
    ends = [draw(st.sampled_from([b"\n", b"\n", b"\r\n"])) for _ in lines]
    data = b"".join(line + end for line, end in zip(lines, ends))
    if data and draw(st.booleans()):
        data = data.removesuffix(ends[-1])  # no line end at the end
    return draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf"])) + data


POLICIES = [ReadPolicy(), ReadPolicy(on_error="skip"), ReadPolicy(order="sort"),
            ReadPolicy(on_error="skip", order="sort")]


def outcome(entries) -> tuple:
    """What a reading gave: each element with its time and representation (terms and their
    kinds, position), then the error that stopped it, if any."""
    read = []
    try:
        for entry in entries:
            read.extend((entry.time, element, repr(element)) for element in entry.elements)
    except LarsError as error:
        return read, (type(error), str(error), error.position)
    return read, None


def report_fields(report: ReadReport) -> tuple:
    return (report.records, report.elements, report.skipped, report.messages, report.reordered,
            report.first_reorder, report.notes)


def counted(parser):
    """``parser`` whose blocks read at once are counted as an event (the tests' statistics
    show that both routes of :func:`parse_blocks` are taken)."""
    block = parser.block

    def read(text, source, first):
        runs = block(text, source, first)
        event("a block read at once" if runs is not None and runs.runs else "a block read line by line")
        return runs
    parser.block = read
    return parser


def both_ways(data: bytes, parser: Callable[[], object], policy: ReadPolicy, block: int,
              first_number: int, per_stream: bool) -> None:
    """Line by line and block by block give the same outcome and report."""
    with tempfile.NamedTemporaryFile(suffix=".nt", delete=False) as file:
        file.write(data)
    try:
        by_lines = ReadReport()
        expected = outcome(parse_lines(read_lines(file.name), "s.nt", parser(), policy, by_lines,
                                       first_number, per_stream))
        lines_report = report_fields(by_lines)
        by_blocks = ReadReport()
        got = outcome(parse_blocks(read_blocks(file.name, block), "s.nt", counted(parser()), policy,
                                   by_blocks, first_number, per_stream))
    finally:
        os.unlink(file.name)
    event("an error" if expected[1] else "no error")
    assert got == expected
    assert report_fields(by_blocks) == lines_report


DEFAULTS = st.sampled_from([None, URIRef("http://ex.org/d")])


@settings(max_examples=150, derandomize=True, deadline=None)
@given(stream_files(), st.sampled_from(POLICIES), st.integers(1, 400), st.sampled_from([1, 5]),
       st.booleans(), DEFAULTS)
@example(b"<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> 0\n", ReadPolicy(), 1000, 1, True, None)
@example(b"<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> 0\n", ReadPolicy(), 40, 1, True,
         None)  # a block of two lines at time 1, then a line going back: 'line 2 had 1'
@example(b"<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> 0\n", ReadPolicy(order="sort"),
         40, 1, False, None)
@example(b"<a:s> <a:p> <a:o> <a:g> 1\n<a:s> <a:p> <a:o> <a:h> 0\n<a:s> <a:p> <a:o> <a:g> 2\n",
         ReadPolicy(), 1000, 1, True, None)                       # two streams, one block
@example(b"\xef\xbb\xbf<a:s> <a:p> <a:o> 1\r\n\r\n# c\r\n<a:s> <a:p> \"x\" 1", ReadPolicy(), 1000, 1,
         True, None)
@example(b"<a:s> <a:p> <a:o> 2\n<a:s> <a:p> <a:o> 1\n", ReadPolicy(on_error="skip", order="sort"),
         1000, 5, False, None)
def test_elements_by_blocks_as_by_lines(data, policy, block, first_number, per_stream, default):
    both_ways(data, lambda: NTriplesLines(default), policy, block, first_number, per_stream)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(stream_files(), st.sampled_from(POLICIES), st.integers(1, 400), st.booleans(), DEFAULTS, DEFAULTS)
@example(b"<a:s> <a:p> <a:o> 1\n<a:s> <a:p> <a:o> <a:g> 2\n", ReadPolicy(), 1000, True, None,
         URIRef("a:g"))                                           # a named and an assigned stream
@example(b"<a:s> <a:p> <a:o> 1\n<_:x> <a:p> <a:o> <a:g> 2\n", ReadPolicy(on_error="skip"), 1000, True,
         URIRef("a:g"), None)                                     # an IRI that cannot be encoded
@example(b'<a:s> <a:p> "a\x00b" 1\n', ReadPolicy(), 1000, True, URIRef("a:g"), None)  # nor a NUL
@example(b"<a:s> <a:p> <a:o> 1\n", ReadPolicy(), 1000, True, None, URIRef("a:g"))  # noted
def test_atoms_by_blocks_as_by_lines(data, policy, block, per_stream, default, assigned):
    notes: dict[str, int] = {}

    def parser(way: str) -> Callable[[], EncodedLines]:
        return lambda: EncodedLines(RdfTermEncoder(), default, assigned,
                                    lambda: notes.__setitem__(way, notes.get(way, 0) + 1))

    with tempfile.NamedTemporaryFile(suffix=".nt", delete=False) as file:
        file.write(data)
    try:
        results = []
        for way, lines in (("lines", lambda: read_lines(file.name)),
                           ("blocks", lambda: read_blocks(file.name, block))):
            report = ReadReport()
            read, make = (parse_lines, parser(way)) if way == "lines" else (
                parse_blocks, lambda: counted(parser(way)()))
            results.append((outcome(read(lines(), "s.nt", make(), policy, report, 1, per_stream)),
                            report_fields(report)))
    finally:
        os.unlink(file.name)
    assert results[0] == results[1]
    assert ("lines" in notes) == ("blocks" in notes)  # the note that lines got the query's stream


def test_a_block_of_common_lines_is_one_match_per_line():
    """``FAST_LINES`` takes a line of a block when ``FAST_LINE`` takes the line (its CR left
    out), with the same groups; blank and comment lines too, with no groups."""
    lines = ['<a:s> <a:p> "x"@en <a:g> 3 # c', "_:b <a:p> <a:o> . -4\r", "", "  # c\r", '<a:s> <a:p> "" 0']
    rows = FAST_LINES.findall("\n".join(lines))
    assert len(rows) == len(lines)
    for line, row in zip(lines, rows):
        match = FAST_LINE.fullmatch(line.removesuffix("\r"))
        assert tuple(group or "" for group in match.groups()) == row if match else not any(row)


@pytest.mark.parametrize("code", range(0x80))
def test_the_ascii_pattern_takes_an_ascii_iri_as_the_block_pattern_does(code):
    """``ASCII_LINES``, tried first on a block, is ``FAST_LINES`` for IRIs in ASCII: each ASCII
    character in the scheme and after the colon, taken by both or by neither, with the same row."""
    c = chr(code)
    for line in (f"<a{c}b:x> <a:p> <a:o> 1", f"<a:x{c}y> <a:p> <a:o> 1", f'<a:s> <a:p> "v"^^<a:d{c}> 1'):
        assert ASCII_LINES.findall(line) == FAST_LINES.findall(line), repr(line)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(readable_lines(), mutated_lines()).filter(lambda line: "\n" not in line),
                min_size=1, max_size=3))
def test_the_ascii_pattern_gives_the_block_patterns_rows_where_it_takes_every_line(lines):
    """On generated lines (IRIs in and out of ASCII, near misses): where ``ASCII_LINES`` takes
    every line of a block, ``FAST_LINES`` does too, with the same rows."""
    text = "\n".join(lines)
    rows = ASCII_LINES.findall(text)
    event("ascii" if len(rows) == len(lines) else "not ascii")
    if len(rows) == len(lines):
        assert FAST_LINES.findall(text) == rows


def test_a_line_the_fast_pattern_refuses_sends_its_block_line_by_line():
    text = '<a:s> <a:p> <a:o> 1\n<a:s> <a:p> "\\u0041" 2\n<a:s> <a:p> <a:o> 3'
    assert NTriplesLines().block(text, "s.nt", 1) is None
    assert NTriplesLines().block(text.replace('"\\u0041"', '"A"'), "s.nt", 1).last == 3


@pytest.mark.parametrize("streams", [1, 2])
def test_a_file_reads_the_same_whatever_its_blocks(tmp_path, streams):
    """Lines of one stream (read a block at a time) or of two interleaved (line by line)."""
    path = tmp_path / "s.nt"
    lines = [f"<http://ex.org/s{n % 7}> <http://ex.org/p> \"{n}\" <http://ex.org/g{n % streams}> {n // 3}"
             for n in range(300)]
    path.write_text("\n".join(lines) + "\n")
    entries = parse_lines(read_lines(path), str(path), NTriplesLines(), ReadPolicy(), ReadReport())
    expected = [(e.time, e.triple, e.stream, e.position) for entry in entries for e in entry.elements]
    assert [position.line for *_, position in expected] == list(range(1, 301))
    assert [(e.time, e.triple, e.stream, e.position) for e in read_timestamped_ntriples(path)] == expected
    for block in (1, 64, 1000, 1 << 20):
        entries = parse_blocks(read_blocks(path, block), str(path), NTriplesLines(), ReadPolicy(),
                               ReadReport())
        assert [(e.time, e.triple, e.stream, e.position) for entry in entries
                for e in entry.elements] == expected
