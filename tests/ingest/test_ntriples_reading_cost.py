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
    saved, bound = dict(rdffiles._IRIS), rdffiles.IRIS_KEPT
    rdffiles._IRIS.clear()
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
            assert len(rdffiles._IRIS) <= kept
    finally:
        rdffiles.IRIS_KEPT = bound
        rdffiles._IRIS.clear()
        rdffiles._IRIS.update(saved)
