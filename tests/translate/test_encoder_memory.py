"""The encoder's two-generation memory (translate/rdf.py, issue 29): a term met all the time
(a stream's predicates and its IRI) is encoded once however many fresh IRIs pass, and the
memory stays bounded."""

from __future__ import annotations

from rdflib import Literal, URIRef

import translate.rdf as rdf
from translate.rdf import ENCODED_KEPT, RdfTermEncoder


def test_a_term_met_all_the_time_is_encoded_once_and_memory_stays_bounded(monkeypatch):
    made: list = []
    real = rdf.to_constant
    monkeypatch.setattr(rdf, "to_constant", lambda term: made.append(term) or real(term))
    encoder = RdfTermEncoder()
    for i in range(5 * ENCODED_KEPT):
        encoder.encode(URIRef(f"http://e/s{i}"))
        assert encoder.encode(URIRef("http://e/p")) == rdf.Iri("http://e/p")  # a new object each time
        assert len(encoder.encoded) <= ENCODED_KEPT and len(encoder.older) <= ENCODED_KEPT
    assert made.count(URIRef("http://e/p")) == 1


def test_the_recent_generation_is_keyed_by_the_object_met_last():
    encoder, first, second = RdfTermEncoder(), URIRef("http://e/p"), URIRef("http://e/p")
    encoder.encode(first)
    for i in range(ENCODED_KEPT):
        encoder.encode(URIRef(f"http://e/s{i}"))
    encoder.encode(second)
    assert any(key is second for key in encoder.encoded)


def test_equal_terms_share_a_constant_and_unequal_ones_do_not():
    encoder = RdfTermEncoder()
    assert encoder.encode(Literal("1", datatype=URIRef("http://www.w3.org/2001/XMLSchema#integer"))) != encoder.encode(Literal("1"))
    assert encoder.encode(URIRef("http://e/a")) is encoder.encode(URIRef("http://e/a"))
