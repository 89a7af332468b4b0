"""The cheaper pieces of the N-Triples fast path (ingest/rdffiles.py): the listed white space
of its IRI class and its memo of IRI terms. The differential tests of the fast path against
rdflib's reader are in test_ntriples_fast.py."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from ingest import rdffiles
from ingest.rdffiles import parse_ntriples_line


def test_listed_white_space_is_exactly_python_white_space_above_0x20():
    """``_WHITE`` stands for ``\\s`` above ``\\x20``: a character missing from it would let an
    IRI holding it through the fast path (rdflib refuses it), one too many would send good
    lines to the slow path."""
    listed = re.compile(f"[{rdffiles._WHITE}]")
    for code in range(0x21, 0x110000):
        char = chr(code)
        assert bool(listed.fullmatch(char)) == char.isspace(), hex(code)


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=60), st.integers(1, 8))
def test_iri_memo_gives_the_terms_and_stays_bounded(numbers, kept):
    """Whatever the memo held and however often it is emptied, each line's terms are the IRIs
    written on it, and the memo never holds more than its bound."""
    saved, saved_old, bound = dict(rdffiles._IRIS), dict(rdffiles._OLD_IRIS), rdffiles.IRIS_KEPT
    rdffiles._IRIS.clear()
    rdffiles._OLD_IRIS.clear()
    rdffiles.IRIS_KEPT = kept
    try:
        for n in numbers:
            line = f"<http://ex.org/s{n}> <http://ex.org/p{n % 3}> <http://ex.org/o{n}> <http://ex.org/g> {n}"
            time, [element] = parse_ntriples_line(line, "s.nt", 1)
            assert time == n
            assert element.triple == (URIRef(f"http://ex.org/s{n}"), URIRef(f"http://ex.org/p{n % 3}"),
                                      URIRef(f"http://ex.org/o{n}"))
            assert all(type(term) is URIRef for term in element.triple)
            assert element.stream == URIRef("http://ex.org/g")
            assert len(rdffiles._IRIS) <= kept and len(rdffiles._OLD_IRIS) <= kept
    finally:
        rdffiles.IRIS_KEPT = bound
        rdffiles._IRIS.clear()
        rdffiles._IRIS.update(saved)
        rdffiles._OLD_IRIS.clear()
        rdffiles._OLD_IRIS.update(saved_old)


def test_parse_lines_decodes_as_decode_line():
    """:func:`ingest.policy.parse_lines` decodes the common line in place: the byte-order mark
    is still dropped on line 1 only, and a bad byte is still placed at its line and column."""
    import pytest

    from ingest.policy import ReadPolicy, ReadReport, parse_lines
    from lars.errors import ParseError

    seen = []

    def parser(line, source, number):
        seen.append(line)
        return number, [line]

    lines = ["\ufeffa".encode(), "\ufeffb".encode(), b"c", "d\ufeff"]
    assert [entry.elements for entry in parse_lines(lines, "s.nt", parser, ReadPolicy(), ReadReport())] \
        == [("a",), ("\ufeffb",), ("c",), ("d\ufeff",)]
    for number in (1, 3):
        bad = [b"x"] * (number - 1) + [b"ab\xe9"]
        with pytest.raises(ParseError) as caught:
            list(parse_lines(bad, "s.nt", parser, ReadPolicy(), ReadReport()))
        assert str(caught.value) == f"s.nt:{number}:3: error: the line is not UTF-8 text (byte 0xe9)"
    report = ReadReport()
    kept = list(parse_lines([b"a", b"\xff", b"b"], "s.nt", parser, ReadPolicy(on_error="skip"), report))
    assert [entry.time for entry in kept] == [1, 3]
    assert (report.records, report.skipped, report.elements) == (3, 1, 2)
