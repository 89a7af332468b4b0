"""``translate.monotone.grows_with_windows`` against rdflib's SPARQL engine.

Differential: over generated queries and graphs G ⊆ G', a query the function calls growing must
have every answer over G among its answers over G' (rdflib evaluates both). And each construct
it calls not growing has a case here where an answer is lost when a triple comes in, so that
calling it growing would make ``lars check``'s boundary tolerance accept relations no engine
can report.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef

from translate.api import parse_query
from translate.monotone import grows_with_windows

EX = "http://ex.org/"
PREFIX = f"PREFIX : <{EX}> "

ATOMS = ["?x :p ?y", "?y :q ?z", "?x :p :b", "?x :q ?z"]
GROWING = [
    lambda a, b: f"{{ {a} . {b} }}",
    lambda a, b: f"{{ {{ {a} }} UNION {{ {b} }} }}",
    lambda a, b: f"{{ {a} . {b} FILTER(?x != :c) }}",
    lambda a, b: f"{{ {a} . {b} BIND(STR(?x) AS ?w) }}",
]
SHRINKING = [
    lambda a, b: f"{{ {a} OPTIONAL {{ {b} }} }}",
    lambda a, b: f"{{ {a} MINUS {{ {b} }} }}",
    lambda a, b: f"{{ {a} FILTER NOT EXISTS {{ {b} }} }}",
]

triples = st.sets(st.tuples(st.sampled_from("abc"), st.sampled_from("pq"), st.sampled_from("abc")),
                  max_size=6)


def answers(query: str, graph_triples) -> set:
    graph = Graph()
    for s, p, o in graph_triples:
        graph.add((URIRef(EX + s), URIRef(EX + p), URIRef(EX + o)))
    return {tuple(row) for row in graph.query(query)}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(GROWING + SHRINKING), st.sampled_from(ATOMS), st.sampled_from(ATOMS),
       triples, triples)
def test_a_growing_query_keeps_its_answers_when_triples_come_in(shape, a, b, small, more):
    query = PREFIX + "SELECT * WHERE " + shape(a, b)
    if grows_with_windows(parse_query(query), "rstream"):
        assert answers(query, small) <= answers(query, small | more)


@pytest.mark.parametrize("query, before, added", [
    ("SELECT ?x ?z WHERE { ?x :p ?y OPTIONAL { ?y :q ?z } }", {("a", "p", "b")}, ("b", "q", "c")),
    ("SELECT ?x WHERE { ?x :p ?y MINUS { ?y :q ?z } }", {("a", "p", "b")}, ("b", "q", "c")),
    ("SELECT ?x WHERE { ?x :p ?y FILTER NOT EXISTS { ?y :q ?z } }", {("a", "p", "b")}, ("b", "q", "c")),
    ("SELECT (COUNT(?x) AS ?n) WHERE { ?x :p ?y }", {("a", "p", "b")}, ("b", "p", "c")),
    ("SELECT ?x WHERE { ?x :p ?y } ORDER BY ?x LIMIT 1", {("b", "p", "b")}, ("a", "p", "c")),
])
def test_each_shrinking_construct_loses_an_answer(query, before, added):
    text = PREFIX + query
    assert not grows_with_windows(parse_query(text), "rstream")
    assert not answers(text, before) <= answers(text, before | {added})


def test_istream_and_dstream_do_not_grow():
    query = parse_query(PREFIX + "SELECT ?x WHERE { ?x :p ?y }")
    assert grows_with_windows(query, "rstream")
    assert not grows_with_windows(query, "istream") and not grows_with_windows(query, "dstream")
