"""``lars agree`` keys a time point's triples straight from their terms (agreement/agree/termkeys.py).

The keys must be those of the atoms :func:`translate.api.slice_atoms` makes of the same triples
(:func:`solver.keys.key_of` of each argument): on generated triples of IRIs, blank nodes and
literals of many datatypes (ill-typed ones too), read twice through one memory (found, then
remembered), and a triple naming no stream or holding an IRI that cannot be encoded gives
``None`` (left to ``slice_atoms``, which says why).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

from agreement.agree.termkeys import TermKeys
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from solver.keys import KeyedSlice
from translate.api import slice_atoms
from translate.rdf import RdfTermEncoder

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals

IRIS = st.sampled_from(["http://e/a", "http://e/b", "urn:x", "http://e/é", "http://e/a#b"]).map(URIRef)
LEXICAL = st.sampled_from(["0", "7", "-3", "1.5", "1e3", "abc", "", "true", "2004-08-08T06:05:00", "00012"])
DATATYPES = st.sampled_from([XSD.integer, XSD.double, XSD.decimal, XSD.string, XSD.boolean,
                             XSD.dateTime, XSD.int, URIRef("http://e/type")])
LITERALS = st.one_of(st.builds(lambda text, datatype: Literal(text, datatype=datatype), LEXICAL, DATATYPES),
                     st.builds(lambda text, lang: Literal(text, lang=lang), LEXICAL, st.sampled_from(["en", "EN-gb"])),
                     LEXICAL.map(Literal))
TERMS = st.one_of(IRIS, LITERALS, st.sampled_from(["b1", "b2"]).map(BNode))
STREAMS = st.sampled_from(["http://ex.org/s", "http://ex.org/r"]).map(URIRef)


@st.composite
def elements(draw):
    triples = draw(st.lists(st.tuples(st.one_of(IRIS, st.sampled_from(["b1"]).map(BNode)), IRIS, TERMS,
                                      STREAMS), min_size=1, max_size=6))
    return [StreamTriple(3, stream, (s, p, o), Position("s.nt", n)) for n, (s, p, o, stream) in enumerate(triples)]


@settings(max_examples=300, deadline=None)
@given(elements())
def test_the_keys_are_those_of_the_atoms(found):
    encoder = RdfTermEncoder()
    keys = TermKeys(encoder)
    expected = KeyedSlice(slice_atoms(found, encoder)).keys()
    assert keys.slice_keys(found) == expected
    assert keys.slice_keys(found) == expected  # remembered now


def test_no_stream_or_a_term_that_cannot_be_encoded_is_left_to_slice_atoms():
    keys = TermKeys(RdfTermEncoder())
    p = URIRef("http://e/p")
    assert keys.slice_keys([StreamTriple(0, None, (p, p, p), Position("s.nt", 1))]) is None
    bad = URIRef("http://e/a b")  # white space: not encodable
    assert keys.slice_keys([StreamTriple(0, URIRef("http://e/s"), (bad, p, p), Position("s.nt", 1))]) is None
