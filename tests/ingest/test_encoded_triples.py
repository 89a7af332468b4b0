"""Lines read once into stream triples that carry their atoms (``ingest.encoded.EncodedTriples``,
``lars agree``'s reader) against reading them (``parse_ntriples_line``) and encoding after
(``translate.api.slice_atoms``), which is what ``lars agree`` did before: the same elements, the
same errors, and each element's atom the one encoding it gives.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from ingest import encoded
from ingest.encoded import EncodedTriples, carried_atoms
from ingest.rdffiles import StreamTriple, parse_ntriples_line
from lars.errors import LarsError, Position
from tests.ingest.test_ntriples_fast import (
    fast_lines, mutated_lines, pooled_lines, readable_lines, same_term,
)
from translate.api import slice_atoms
from translate.rdf import RdfTermEncoder

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals
STREAM_CHOICES = st.sampled_from([None, "http://ex.org/s"])


def outcome(read) -> tuple:
    try:
        return "ok", read()
    except LarsError as error:
        return "error", (type(error), str(error), error.position)


def atoms_outcome(elements) -> tuple:
    """What encoding the elements gives: their atoms, or the error (``None``: no stream to
    encode them on, given later by the caller)."""
    if any(e.stream is None for e in elements):
        return "no stream", None
    return outcome(lambda: slice_atoms(elements, RdfTermEncoder()))


def assert_reads_like_parse_then_encode(reader: EncodedTriples, line: str, default) -> None:
    expected = outcome(lambda: parse_ntriples_line(line, "s.nt", 7, default_stream=default))
    found = outcome(lambda: reader(line, "s.nt", 7))
    assert found[0] == expected[0]
    if found[0] == "error" or expected[1] is None:
        assert found == expected
        return
    (time, elements), (expected_time, expected_elements) = found[1], expected[1]
    assert time == expected_time and type(time) is int
    assert elements == expected_elements
    for element, other in zip(elements, expected_elements, strict=True):
        assert (element.time, element.stream, element.position) == (other.time, other.stream, other.position)
        assert type(element.stream) is type(other.stream)
        for term, other_term in zip(element.triple, other.triple, strict=True):
            same_term(term, other_term)
    kind, atoms = atoms_outcome(expected_elements)
    if kind == "ok":
        assert [e.atom for e in elements] == atoms
    else:  # no stream, or a term that cannot be encoded: no atom, the error where atoms are taken
        assert [e.atom for e in elements] == [None]
    if kind != "no stream":
        assert outcome(lambda: carried_atoms(elements, RdfTermEncoder())) == (kind, atoms)


@settings(max_examples=600, derandomize=True)
@given(st.one_of(readable_lines(), mutated_lines(), fast_lines()), STREAM_CHOICES)
@example('<_:x> <http://ex.org/p> <http://ex.org/o> 5', None)  # an IRI like a blank node: no atom
@example('<_:x> <http://ex.org/p> <http://ex.org/o> <http://ex.org/g> 5', None)
@example('<http://ex.org/a> <http://ex.org/p> "a\x00b" 5', "http://ex.org/s")  # NUL: no atom
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5', None)  # no stream at all
@example('<http://ex.org/a> <http://ex.org/p> "9999999999"^^<http://www.w3.org/2001/XMLSchema#integer> 5',
         "http://ex.org/s")
@example('<http://ex.org/\\u00e9> <http://ex.org/p> <http://ex.org/o> <http://ex.org/g> 1', None)  # the general route
def test_encoded_triples_read_what_parsing_then_encoding_gives(line, default):
    default = None if default is None else URIRef(default)
    reader = EncodedTriples(RdfTermEncoder(), default)
    assert_reads_like_parse_then_encode(reader, line, default)
    assert_reads_like_parse_then_encode(reader, line, default)  # now from the memo


@settings(max_examples=200, derandomize=True)
@given(st.lists(pooled_lines, max_size=12), STREAM_CHOICES)
def test_one_reader_over_many_lines(lines, default):
    """Terms met again (and texts shared by terms of different kinds) come from the memo right."""
    default = None if default is None else URIRef(default)
    reader = EncodedTriples(RdfTermEncoder(), default)
    for line in lines:
        assert_reads_like_parse_then_encode(reader, line, default)


def test_the_memo_forgets_when_full(monkeypatch):
    monkeypatch.setattr(encoded, "MEMO_SIZE", 3)
    reader = EncodedTriples(RdfTermEncoder(), URIRef("http://ex.org/s"))
    for n in range(20):
        assert_reads_like_parse_then_encode(
            reader, f'<http://ex.org/o{n % 7}> <http://ex.org/p> "{n % 5}" {n}', URIRef("http://ex.org/s"))
        assert len(reader.iris) <= 3 and len(reader.literals) <= 3


def test_elements_of_other_readers_get_their_atoms():
    """Turtle folders and Spark slices are read by other readers, then encoded (``encode``)."""
    s, p = URIRef("http://ex.org/s"), URIRef("http://ex.org/p")
    elements = [StreamTriple(3, s, (s, p, p), Position("f.ttl")),
                StreamTriple(3, None, (s, p, p), Position("f.ttl")),
                StreamTriple(3, s, (URIRef("_:x"), p, p), Position("f.ttl"))]
    found = EncodedTriples(RdfTermEncoder()).encode(3, elements)
    assert found == elements
    assert found[0].atom == slice_atoms(elements[:1], RdfTermEncoder())[0]
    assert found[1].atom is None and found[2].atom is None  # no stream; an IRI that cannot be encoded
    with pytest.raises(LarsError, match="cannot encode the IRI <_:x>"):
        carried_atoms(found[2:], RdfTermEncoder())


def test_the_atom_takes_no_part_in_equality_hashing_printing_or_pickling():
    import pickle
    [element] = EncodedTriples(RdfTermEncoder())('<http://ex.org/a> <http://ex.org/p> "7" <http://ex.org/s> 3',
                                                 "s.nt", 1)[1]
    [plain] = parse_ntriples_line('<http://ex.org/a> <http://ex.org/p> "7" <http://ex.org/s> 3', "s.nt", 1)[1]
    assert element.atom is not None and plain.atom is None
    assert element == plain and hash(element) == hash(plain) and repr(element) == repr(plain)
    assert pickle.loads(pickle.dumps(element)) == plain
    assert pickle.loads(pickle.dumps(element)).atom is None
