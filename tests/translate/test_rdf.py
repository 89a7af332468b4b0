"""The RDF ↔ LARS encoding: constants (exact, without memory), triples, rows, chop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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


# --- the encoder's memory ---------------------------------------------------------------------

_lexical = st.sampled_from(["1", "01", "1.0", "1.0E0", "true", "x", "X", "", " 1"])
_terms = st.one_of(
    st.builds(lambda s: URIRef(EX + s), st.sampled_from(["a", "A", "b", "1"])),
    st.builds(BNode, st.sampled_from(["a", "b"])),
    st.builds(lambda v, t: Literal(v, datatype=xsd(t) if t else None), _lexical,
              st.sampled_from([None, "integer", "decimal", "double", "boolean", "string"])),
    st.builds(lambda v, lang: Literal(v, lang=lang), _lexical, st.sampled_from(["en", "EN", "en-US", "fr"])),
)


@pytest.mark.filterwarnings("ignore:Serializing weird", "ignore:Parsing weird")  # ill-typed on purpose
@settings(max_examples=200, deadline=None)
@given(st.lists(_terms, max_size=30))
def test_the_remembered_constant_is_the_terms_own(terms) -> None:
    """Whatever was encoded before (a term equal in rdflib, one with the same text), each term
    gets :func:`to_constant`'s constant, also once the memory was emptied for being full."""
    encoder = RdfTermEncoder()
    for round in range(2):
        assert [encoder.encode(t) for t in terms] == [to_constant(t) for t in terms]


def test_a_full_memory_is_emptied_and_a_copy_starts_empty(monkeypatch) -> None:
    import pickle
    import translate.rdf
    monkeypatch.setattr(translate.rdf, "ENCODED_KEPT", 3)
    encoder = RdfTermEncoder()
    for name in "abcd":
        encoder.encode(URIRef(EX + name))
    assert list(encoder.encoded) == [URIRef(EX + "d")]
    copy = pickle.loads(pickle.dumps(encoder))
    assert copy.encoded == {} and copy.encode(Literal(1)) == Number(1)
