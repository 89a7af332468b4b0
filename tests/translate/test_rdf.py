"""The RDF ↔ LARS encoding: constants, collisions, kind ranges, triples, rows, chop."""

from __future__ import annotations

import pytest
from rdflib import BNode, Graph, Literal, URIRef

from lars.atoms import Atom, Comparison
from lars.errors import InputError
from lars.rules import Literal as BodyLiteral
from lars.rules import Program, Rule
from lars.terms import Iri, Name, Number, String, Variable
from tests.translate.solving import solve
from translate import parse_query, translate
from translate.rdf import (
    DEFAULT_GRAPH, NULL, STREAMS, RdfTermEncoder, chop, graph_atoms, kind_guards, rows,
    stream_atom, to_constant,
)

EX = "http://ex.org/"


def xsd(name: str) -> URIRef:
    return URIRef("http://www.w3.org/2001/XMLSchema#" + name)


@pytest.mark.parametrize(("term", "constant"), [
    pytest.param(URIRef(EX + "a"), Iri(EX + "a"), id="iri"),
    pytest.param(BNode("b0"), Iri("_:b0"), id="blank-node"),
    pytest.param(Literal(83), Number(83), id="integer"),
    pytest.param(Literal("83", datatype=xsd("double")), Number(83), id="double-integral"),
    pytest.param(Literal("83.0", datatype=xsd("decimal")), Number(83), id="decimal-integral"),
    pytest.param(Literal("-7", datatype=xsd("int")), Number(-7), id="int-subtype"),
    pytest.param(Literal("2.5e1", datatype=xsd("float")), Number(25), id="float-integral"),
    pytest.param(Literal("rayban"), String("rayban"), id="plain-string"),
    pytest.param(Literal("rayban", datatype=xsd("string")), String("rayban"), id="xsd-string"),
    pytest.param(Literal("chat", lang="fr"), String('"chat"@fr'), id="language-tagged"),
    pytest.param(Literal("x", datatype=URIRef(EX + "dt")), String(f'"x"^^<{EX}dt>'), id="other-datatype"),
    pytest.param(Literal("abc", datatype=xsd("integer")), String(f'"abc"^^<{xsd("integer")}>'),
                 id="ill-typed"),
    pytest.param(Literal(True), String(f'"true"^^<{xsd("boolean")}>'), id="boolean"),
])
def test_constants(term, constant) -> None:
    encoder = RdfTermEncoder()
    assert encoder.encode(term) == constant
    assert encoder.decode(constant) == term


@pytest.mark.parametrize(("term", "message"), [
    pytest.param(Literal("83.5", datatype=xsd("decimal")), "cannot keep numeric comparisons exact for "
                 '"83.5"', id="non-integral"),
    pytest.param(Literal("NaN", datatype=xsd("double")), "cannot keep numeric comparisons exact", id="nan"),
    pytest.param(Literal(2 ** 40), "outside clingo's 32-bit integers", id="too-big"),
    pytest.param(Literal('"quoted" text'), "clash with the encoding of other literals", id="leading-quote"),
    pytest.param(URIRef("_:b0"), "starts with '_:'", id="iri-like-blank"),
    pytest.param(URIRef("http://ex.org/a b"), "white space", id="iri-with-space"),
])
def test_refused_terms(term, message: str) -> None:
    with pytest.raises(InputError, match=message):
        RdfTermEncoder().encode(term)


@pytest.mark.parametrize(("first", "second", "shown"), [
    pytest.param(Literal("83", datatype=xsd("double")), Literal(83), "83", id="double-vs-integer"),
    pytest.param(Literal("83", datatype=xsd("decimal")), Literal(83), "83", id="decimal-vs-integer"),
    pytest.param(Literal("a"), Literal("a", datatype=xsd("string")), "'a'", id="plain-vs-xsd-string"),
])
def test_collisions_are_refused(first, second, shown: str) -> None:
    encoder = RdfTermEncoder()
    encoder.encode(first)
    with pytest.raises(InputError, match=f"would both be the constant {shown}"):
        encoder.encode(second)


def test_iris_and_blank_nodes_are_decoded_without_being_remembered() -> None:
    """A stream of ever new IRIs must not grow the encoder; literals are remembered to print back."""
    encoder = RdfTermEncoder()
    terms = [URIRef(f"http://ex.org/obs{i}") for i in range(1000)] + [BNode("b1"), BNode("b2")]
    assert [encoder.decode(encoder.encode(term)) for term in terms] == terms
    assert len(encoder) == 0
    double = Literal("83", datatype=xsd("double"))
    assert encoder.decode(encoder.encode(double)) == double and len(encoder) == 1


def test_value_typed_literals_refused_when_the_query_compares() -> None:
    assert RdfTermEncoder().encode(Literal(True))
    with pytest.raises(InputError, match="cannot compare .* by value"):
        RdfTermEncoder(compares_values=True).encode(Literal(True))


def test_translation_encoder_knows_the_query_constants() -> None:
    translation = translate(parse_query("SELECT ?x WHERE { ?x <http://ex.org/p> 83 }"), "sparql")
    encoder = translation.encoder()
    with pytest.raises(InputError, match="would both be the constant 83"):
        encoder.encode(Literal("83", datatype=xsd("double")))


def test_translation_encoder_compares_values_only_with_filter_comparisons() -> None:
    plain = translate(parse_query("SELECT ?x WHERE { ?x ?p ?o }"), "sparql")
    compared = translate(parse_query("SELECT ?x WHERE { ?x ?p ?o FILTER (?o > 1) }"), "sparql")
    assert (plain.compares_values, compared.compares_values) == (False, True)


# --- kind ranges, checked by the solver -----------------------------------------------------

TERMS = {
    "iri": URIRef(EX + "a"), "iri-upper": URIRef("HTTP://EX.ORG/A"), "iri-z": URIRef("zzz:z"),
    "blank": BNode("b0"), "number": Literal(-3), "zero": Literal(0), "string": Literal("x"),
    "empty-string": Literal(""), "hash-string": Literal("#x"), "lang": Literal("x", lang="en"),
    "typed": Literal("x", datatype=URIRef(EX + "dt")),
}
KINDS = {
    "number": {"number", "zero"},
    "plain": {"string", "empty-string", "hash-string"},
    "iri": {"iri", "iri-upper", "iri-z"},
    "blank": {"blank"},
    "resource": {"iri", "iri-upper", "iri-z", "blank"},
    "literal": {"number", "zero", "string", "empty-string", "hash-string", "lang", "typed"},
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kind_ranges(kind: str) -> None:
    encoder = RdfTermEncoder()
    facts = [Atom("v", (encoder.encode(term), String(name))) for name, term in TERMS.items()]
    x, n = Variable("X"), Variable("N")
    program = Program(tuple(
        Rule(Atom("k", (n,)), (BodyLiteral(Atom("v", (x, n))), *map(BodyLiteral, conj)))
        for conj in kind_guards(x)[kind]))
    (found,) = solve(program, facts)
    assert {a.args[0].value for a in found} == KINDS[kind]


@pytest.mark.parametrize("kind", ["iri", "blank", "literal"])
def test_negated_kind_ranges_exclude_null(kind: str) -> None:
    encoder = RdfTermEncoder()
    values = {name: encoder.encode(term) for name, term in TERMS.items()} | {"null": NULL}
    facts = [Atom("v", (value, String(name))) for name, value in values.items()]
    x, n = Variable("X"), Variable("N")
    program = Program(tuple(
        Rule(Atom("k", (n,)), (BodyLiteral(Atom("v", (x, n))), *map(BodyLiteral, conj)))
        for conj in kind_guards(x)["not_" + kind]))
    (found,) = solve(program, facts)
    assert {a.args[0].value for a in found} == set(TERMS) - KINDS[kind]


def test_numbers_sort_by_value() -> None:
    encoder = RdfTermEncoder()
    a, b = encoder.encode(Literal("83", datatype=xsd("double"))), encoder.encode(Literal(80))
    assert Comparison(">", a, b).holds({})


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
