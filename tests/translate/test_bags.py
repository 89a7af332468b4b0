"""SPARQL's multisets (``bags=True``, translate/bags.py): each way SPARQL repeats a row, on a
hand-made case whose count is worked out by hand."""

from __future__ import annotations

from collections import Counter

import pytest
from rdflib import Dataset

from tests.translate.solving import answer_rows
from translate import background_atoms, parse_query, translate
from translate.bags import needs_witnesses

PREFIX = "PREFIX : <http://ex.org/>\n"
# a p b, a p c, a q b, b p d, c p d; a r b, a s b
DATA = """@prefix : <http://ex.org/> .
:a :p :b , :c . :a :q :b . :b :p :d . :c :p :d . :a :r :b . :a :s :b ."""


def counts(query: str) -> Counter:
    data = Dataset()
    data.parse(data=DATA, format="trig")
    translation = translate(parse_query(PREFIX + query), "sparql", bags=True)
    encoder = translation.encoder()
    rows = answer_rows(translation, encoder, background_atoms(data, encoder))
    return Counter(tuple(str(v).rsplit("/", 1)[-1] for v in row.values()) for row in rows)


@pytest.mark.parametrize(("query", "expected"), [
    # the projection drops ?m: a reaches d through b and through c
    ("SELECT ?x ?y WHERE { ?x :p ?m . ?m :p ?y }", {("a", "d"): 2}),
    # a sequence path is the same BGP with a hidden middle node
    ("SELECT ?y WHERE { :a :p/:p ?y }", {("d",): 2}),
    # a blank node counts its matches too
    ("SELECT ?x WHERE { ?x :p [] }", {("a",): 2, ("b",): 1, ("c",): 1}),
    # UNION adds both branches, an alternative path too
    ("SELECT ?o WHERE { { :a :p ?o } UNION { :a :q ?o } }", {("b",): 2, ("c",): 1}),
    ("SELECT ?o WHERE { :a :p|:q ?o }", {("b",): 2, ("c",): 1}),
    # a negated property set matches each predicate that is not excluded
    ("SELECT ?o WHERE { :a !:p ?o }", {("b",): 3}),
    # VALUES rows count, and so do the hidden variables of a subquery
    ("SELECT ?v WHERE { VALUES ?v { :a :a :b } }", {("a",): 2, ("b",): 1}),
    ("SELECT ?x WHERE { { SELECT ?x WHERE { ?x :p ?o } } }", {("a",): 2, ("b",): 1, ("c",): 1}),
    # * and + give each pair once (SPARQL 1.1, 18.4)
    ("SELECT ?y WHERE { :a :p+ ?y }", {("b",): 1, ("c",): 1, ("d",): 1}),
    # DISTINCT: sets
    ("SELECT DISTINCT ?y WHERE { :a :p/:p ?y }", {("d",): 1}),
])
def test_rows_repeat_as_sparql_counts_them(query: str, expected: dict) -> None:
    assert counts(query) == Counter(expected)


def test_distinct_reduced_and_ask_need_no_witnesses() -> None:
    assert not needs_witnesses(parse_query("SELECT DISTINCT ?s { ?s ?p ?o }"))
    assert not needs_witnesses(parse_query("SELECT REDUCED ?s { ?s ?p ?o }"))
    assert not needs_witnesses(parse_query("ASK { ?s ?p ?o }"))
    assert needs_witnesses(parse_query("SELECT ?s { ?s ?p ?o }"))


def test_without_bags_answers_stay_sets_and_the_program_is_the_papers() -> None:
    query = parse_query(PREFIX + "SELECT ?y WHERE { :a :p/:p ?y }")
    assert translate(query, "sparql").answer.variables == ("y",)
    assert translate(query, "sparql", bags=True).answer.variables == ("_lars_w1", "y")
