"""The RDF ↔ LARS encoding: constants (exact, without memory), triples, rows, chop."""

from __future__ import annotations

import pytest
from rdflib import BNode, Graph, Literal, URIRef

from lars.atoms import Atom
from lars.errors import InputError
from lars.terms import Iri, Name, Number, String
from translate.rdf import (
    DEFAULT_GRAPH, NULL, STREAMS, RdfTermEncoder, chop, graph_atoms, rows, stream_atom,
    to_constant,
)

EX = "http://ex.org/"


def xsd(name: str) -> URIRef:
    return URIRef("http://www.w3.org/2001/XMLSchema#" + name)


DOUBLE = "http://www.w3.org/2001/XMLSchema#double"


@pytest.mark.parametrize(("term", "constant"), [
    pytest.param(URIRef(EX + "a"), Iri(EX + "a"), id="iri"),
    pytest.param(BNode("b0"), Iri("_:b0"), id="blank-node"),
    pytest.param(Literal(83), Number(83), id="integer"),
    pytest.param(Literal(-7), Number(-7), id="negative-integer"),
    pytest.param(Literal(2 ** 40), String(f'"{2 ** 40}"^^<{xsd("integer")}>'), id="big-integer"),
    pytest.param(Literal("83", datatype=xsd("double")), String(f'"83"^^<{DOUBLE}>'), id="double"),
    pytest.param(Literal("83.5", datatype=xsd("decimal")), String(f'"83.5"^^<{xsd("decimal")}>'),
                 id="decimal"),
    pytest.param(Literal("-7", datatype=xsd("int")), String(f'"-7"^^<{xsd("int")}>'), id="int-subtype"),
    pytest.param(Literal("NaN", datatype=xsd("double")), String(f'"NaN"^^<{DOUBLE}>'), id="nan"),
    pytest.param(Literal("rayban"), String("rayban"), id="plain-string"),
    pytest.param(Literal('"quoted" text'), String('"\\"quoted\\" text"'), id="leading-quote"),
    pytest.param(Literal("chat", lang="fr"), String('"chat"@fr'), id="language-tagged"),
    pytest.param(Literal("x", datatype=URIRef(EX + "dt")), String(f'"x"^^<{EX}dt>'), id="other-datatype"),
    pytest.param(Literal("abc", datatype=xsd("integer")), String(f'"abc"^^<{xsd("integer")}>'),
                 id="ill-typed"),
    pytest.param(Literal(True), Name("true"), id="boolean"),
    pytest.param(Literal("2004-08-08T06:10:00", datatype=xsd("dateTime")),
                 String(f'"2004-08-08T06:10:00"^^<{xsd("dateTime")}>'), id="date-time"),
])
def test_constants(term, constant) -> None:
    encoder = RdfTermEncoder()
    assert encoder.encode(term) == constant
    assert encoder.decode(constant) == term


def test_simple_literals_are_xsd_strings() -> None:
    """RDF 1.1: ``"a"`` and ``"a"^^xsd:string`` are one term (rdflib keeps them apart)."""
    assert to_constant(Literal("a", datatype=xsd("string"))) == to_constant(Literal("a")) == String("a")


def test_language_tags_are_one_term_whatever_their_case() -> None:
    assert to_constant(Literal("xyz", lang="EN")) == to_constant(Literal("xyz", lang="en"))


@pytest.mark.parametrize("terms", [
    pytest.param((Literal("83", datatype=xsd("double")), Literal(83)), id="double-vs-integer"),
    pytest.param((Literal("1.0", datatype=xsd("decimal")), Literal(1)), id="decimal-vs-integer"),
    pytest.param((Literal("true", datatype=xsd("boolean")), Literal("true")), id="boolean-vs-string"),
])
def test_different_terms_get_different_constants(terms) -> None:
    """RDF term equality, not value equality, decides the constant (values compare by function)."""
    assert len({to_constant(t) for t in terms}) == len(terms)


@pytest.mark.parametrize(("term", "message"), [
    pytest.param(URIRef("_:b0"), "starts with '_:'", id="iri-like-blank"),
    pytest.param(URIRef("http://ex.org/a b"), "white space", id="iri-with-space"),
    pytest.param(Literal("a\x00b"), "holds NUL", id="nul"),
])
def test_refused_terms(term, message: str) -> None:
    with pytest.raises(InputError, match=message):
        RdfTermEncoder().encode(term)


# --- triples, rows, chop --------------------------------------------------------------------

def test_graph_and_stream_atoms() -> None:
    graph = Graph()
    graph.add((URIRef(EX + "a"), URIRef(EX + "p"), Literal(1)))
    encoder = RdfTermEncoder()
    assert graph_atoms(graph, encoder) == [
        Atom("triple", (Iri(EX + "a"), Iri(EX + "p"), Number(1), DEFAULT_GRAPH))]
    assert graph_atoms(graph, encoder, URIRef(EX + "g"))[0].args[3] == Iri(EX + "g")
    assert stream_atom((URIRef(EX + "a"), URIRef(EX + "p"), Literal(1)), URIRef(EX + "s"), encoder) \
        == Atom("striple", (Iri(EX + "a"), Iri(EX + "p"), Number(1), Iri(EX + "s")))


def test_rows_decode_original_terms_and_null() -> None:
    encoder = RdfTermEncoder()
    double = Literal("83", datatype=xsd("double"))
    atoms = [Atom("ans_1", (encoder.encode(double), NULL, DEFAULT_GRAPH, STREAMS)),
             Atom("ans_2", (Number(1), DEFAULT_GRAPH, STREAMS))]
    assert rows(atoms, "ans_1", ("v", "w"), encoder) == [{"v": double, "w": None}]
    assert rows(chop(atoms), "ans_1", ("v", "w"), encoder, chopped=True) == [{"v": double, "w": None}]


def test_chop_projects_the_stream_argument_of_answer_predicates_only() -> None:
    atoms = [Atom("ans_3_prime", (Number(1), DEFAULT_GRAPH, STREAMS)), Atom("triple", (Name("a"),) * 4)]
    assert chop(atoms) == {Atom("ans_3_prime", (Number(1), DEFAULT_GRAPH)), atoms[1]}


def test_to_constant_is_pure() -> None:
    assert to_constant(Literal(5)) == to_constant(Literal("5", datatype=xsd("integer"))) == Number(5)
