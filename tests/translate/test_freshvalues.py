"""RAND, UUID, STRUUID and BNODE (translate.freshvalues): what SPARQL 1.1 §17.4 asks of them
within one query execution, and the same values on every run and in every strategy."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from rdflib import BNode, Dataset, Literal, URIRef
from rdflib.namespace import XSD

from lars.errors import UnsupportedError
from lars.streams import Stream, Timeline
from solver.strategies import STRATEGIES, evaluate, slices_of
from tests.translate.solving import answer_rows
from tests.translate.sparql_gen import PREFIX, datasets
from translate import background_atoms, chop, parse_query, translate

DATA = """@prefix ex: <http://ex.org/> .
ex:s1 ex:str "foo" . ex:s2 ex:str "bar" . ex:s3 ex:str "foo" ."""


def rows(query: str, text: str = DATA, bags: bool = True) -> list[dict]:
    data = Dataset()
    data.parse(data=text, format="trig")
    translation = translate(parse_query(PREFIX + query), "sparql", bags=bags)
    encoder = translation.encoder()
    return answer_rows(translation, encoder, background_atoms(data, encoder))


def test_bnode_of_a_string_is_one_per_string_and_solution() -> None:
    """bnode01 of the W3C suite: BNODE(?s1) = BNODE(?s2) exactly when ?s1 = ?s2, in one
    solution; different solutions never share a blank node."""
    found = rows("SELECT ?a ?b ?s1 ?s2 (BNODE(?s1) AS ?b1) (BNODE(?s2) AS ?b2) WHERE "
                 "{ ?a ex:str ?s1 . ?b ex:str ?s2 }")
    assert len(found) == 9
    for row in found:
        assert isinstance(row["b1"], BNode) and (row["b1"] == row["b2"]) == (row["s1"] == row["s2"])
    nodes = [frozenset((row["b1"], row["b2"])) for row in found]
    for k, these in enumerate(nodes):
        assert all(not these & other for other in nodes[k + 1:])


def test_bnode_without_argument_is_new_at_every_call() -> None:
    (row,) = rows("SELECT (BNODE() AS ?b1) (BNODE() AS ?b2) WHERE {}")
    assert isinstance(row["b1"], BNode) and row["b1"] != row["b2"]


def test_bnode_of_a_language_string_is_an_error() -> None:
    assert rows('SELECT (BNODE("x"@en) AS ?b) WHERE {}') == [{"b": None}]


def test_uuid_and_struuid_have_the_urn_form_and_differ_per_call_and_solution() -> None:
    found = rows("SELECT ?a (UUID() AS ?u) (UUID() AS ?v) (STRUUID() AS ?w) WHERE { ?a ex:str ?s }")
    pattern = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    values = [row[k] for row in found for k in ("u", "v", "w")]
    assert len(set(map(str, values))) == 9
    for row in found:
        assert isinstance(row["u"], URIRef) and re.fullmatch("urn:uuid:" + pattern, row["u"])
        assert isinstance(row["w"], Literal) and re.fullmatch(pattern, str(row["w"]))


def test_rand_is_a_double_in_the_unit_interval() -> None:
    found = rows("SELECT ?a (RAND() AS ?r) WHERE { ?a ex:str ?s }")
    assert {row["r"].datatype for row in found} == {XSD.double}
    assert all(0 <= row["r"].toPython() < 1 for row in found)
    assert len({row["r"] for row in found}) == 3


def test_the_same_query_gives_the_same_values_again() -> None:
    query = "SELECT ?a (RAND() AS ?r) (UUID() AS ?u) (BNODE() AS ?b) WHERE { ?a ex:str ?s }"
    assert rows(query) == rows(query)


def test_every_strategy_gives_the_same_values() -> None:
    data = Dataset()
    data.parse(data=DATA, format="trig")
    translation = translate(parse_query(PREFIX + "SELECT ?a (UUID() AS ?u) (BNODE(?s) AS ?b) "
                                         "WHERE { ?a ex:str ?s }"), "sparql")
    encoder = translation.encoder()
    background = frozenset(background_atoms(data, encoder))
    stream = Stream.from_mapping(Timeline(0, 0), {})
    found = set()
    for strategy in STRATEGIES:
        (answer,) = evaluate(translation.program, slices_of(stream), stream.timeline, background,
                             strategy, shown={translation.answer.predicate})
        atoms = chop([atom for atom, _ in answer.streams[0]])
        found.add(frozenset(frozenset(r.items()) for r in translation.rows(atoms, encoder,
                                                                             chopped=True)))
    assert len(found) == 1


def test_now_stays_refused() -> None:
    with pytest.raises(UnsupportedError, match="function NOW"):
        parse_query(PREFIX + "SELECT (NOW() AS ?n) WHERE {}")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True, database=None)
@given(data=datasets())
def test_bnode_is_a_function_of_string_and_solution_and_nothing_else(data: Dataset) -> None:
    """Over random data: one blank node per (solution, string), never shared otherwise."""
    translation = translate(parse_query(PREFIX + "SELECT ?x ?y ?z (BNODE(STR(?y)) AS ?b) "
                                        "(BNODE(STR(?z)) AS ?c) WHERE { ?x ex:p ?y . ?x ?q ?z }"),
                            "sparql", bags=True)
    encoder = translation.encoder()
    found = answer_rows(translation, encoder, background_atoms(data, encoder))
    owner: dict = defaultdict(set)
    for k, row in enumerate(found):
        for name, value in (("b", row["y"]), ("c", row["z"])):
            if row[name] is not None:
                owner[row[name]].add((k, str(value)))
        if row["b"] is not None and row["c"] is not None:
            assert (row["b"] == row["c"]) == (str(row["y"]) == str(row["z"]))
    assert all(len({k for k, _ in owners}) == 1 for owners in owner.values())
