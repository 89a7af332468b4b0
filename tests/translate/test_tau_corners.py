"""Corners of τ the mutation run found untested (scripts/mutation.py): where an EXISTS pattern's
rules are numbered, and the bound on the EXISTS of one FILTER.

Answers are compared with rdflib's SPARQL engine on the same data (an independent evaluation).
"""

from __future__ import annotations

import pytest
from rdflib import Dataset

from lars.errors import UnsupportedError
from tests.translate.solving import answer_rows, row_set
from translate import background_atoms, parse_query, translate

PREFIX = "PREFIX : <http://ex.org/>\n"
DATA = """@prefix : <http://ex.org/> .
:a :p 1 ; :q 1 ; :r 2 .
:b :p 2 ; :r 3 ; :t 4 .
:c :r 5 .
:d :p 3 ; :q 2 .
"""


def ours(query: str) -> frozenset:
    data = Dataset()
    data.parse(data=DATA, format="trig")
    translation = translate(parse_query(PREFIX + query), "sparql")
    encoder = translation.encoder()
    rows = answer_rows(translation, encoder, background_atoms(data, encoder))
    return frozenset(frozenset((k, v) for k, v in row if v is not None) for row in row_set(rows))


def rdflibs(query: str) -> frozenset:
    data = Dataset()
    data.parse(data=DATA, format="trig")
    result = data.query(PREFIX + query)
    return frozenset(frozenset((str(k), v) for k, v in row.asdict().items() if v is not None)
                     for row in result)


@pytest.mark.parametrize("query", [
    pytest.param("SELECT ?s ?o WHERE { { ?s :p ?o FILTER EXISTS { ?s :q ?z } } UNION "
                 "{ { ?s :r ?o } OPTIONAL { ?s :t ?w } } }", id="exists-left-of-union"),
    pytest.param("SELECT ?s ?o WHERE { { ?s :p ?o FILTER EXISTS { ?s :q ?z } } UNION "
                 "{ { { ?s :r ?o } OPTIONAL { ?s :t ?w } } OPTIONAL { ?s :q ?v } } }",
                 id="exists-beside-a-deep-branch"),
    pytest.param("SELECT ?s ?o WHERE { { { ?s :r ?o } OPTIONAL { ?s :t ?w } } UNION "
                 "{ ?s :p ?o FILTER NOT EXISTS { ?s :q ?z } } }", id="not-exists-right-of-union"),
    pytest.param("SELECT ?s WHERE { { ?s :p ?o FILTER (EXISTS { ?s :q ?z } || EXISTS { ?s :t ?z }) } UNION "
                 "{ { ?s :r ?o } OPTIONAL { { ?s :q ?w } UNION { ?s :t ?w } } } }", id="two-exists"),
    pytest.param("SELECT ?s WHERE { ?s :p ?o FILTER EXISTS { ?s :q ?z FILTER (?z >= 1 && isIRI(?s)) } }",
                 id="exists-filter-over-all-its-variables"),
])
def test_exists_beside_other_nodes_answers_as_rdflib(query):
    """The EXISTS pattern's nodes are numbered off the tree (a spine of free indices); numbered
    into it, they would share predicates with other nodes and mix their solutions."""
    assert ours(query) == rdflibs(query)


MAX_EXISTS = 4
"""τ's bound (its refusal names it): one rule per combination of the EXISTS outcomes, 2^4."""


@pytest.mark.parametrize("query", [
    pytest.param("SELECT ?s ?x WHERE { { ?s :p ?o BIND (?o + 1 AS ?x) } UNION { ?s :r ?o BIND (?o + 10 AS ?x) } }",
                 id="bind-in-both-branches"),
    pytest.param("SELECT ?s ?x ?y WHERE { { { ?s :p ?o BIND (?o + 1 AS ?x) } BIND (?x + 2 AS ?y) } UNION "
                 "{ ?s :r ?o } }", id="nested-binds"),
    # BIND at node 2: a child numbered 3i = 6 would share its predicate with the UNION's left
    # branch (node 6 of node 3), both over (?o, ?s)
    pytest.param("SELECT ?s ?o ?b WHERE { { ?s :p ?o BIND (1 AS ?b) } { { ?s :q ?o } UNION { ?s :r ?o } } }",
                 id="bind-beside-a-union"),
    # GROUP at node 16 (under the sub-select's projection and two BINDs): a child numbered
    # 3i = 48 would share its predicate with the triple pattern under four BINDs (3, 6, 12, 24)
    pytest.param("SELECT ?s ?n WHERE { { SELECT ?s (COUNT(?o) AS ?n) WHERE { ?s :p ?o } GROUP BY ?s } "
                 "{ ?s :q ?o BIND (1 AS ?a) BIND (2 AS ?b) BIND (3 AS ?c) BIND (4 AS ?d) } }",
                 id="group-beside-binds"),
])
def test_binds_and_groups_beside_other_nodes_answer_as_rdflib(query):
    """A BIND's or GROUP's child is node 2i, its own number; any other numbering mixes it with
    others (additions only: rdflib makes the product of two integers a decimal)."""
    assert ours(query) == rdflibs(query)


def test_at_most_four_exists_in_one_filter():
    def query(count: int) -> str:
        tests = " || ".join(f"EXISTS {{ ?s :q {k} }}" for k in range(count))
        return f"SELECT ?s WHERE {{ ?s :p ?o FILTER ({tests}) }}"
    assert ours(query(MAX_EXISTS)) == rdflibs(query(MAX_EXISTS))
    with pytest.raises(UnsupportedError, match=f"more than {MAX_EXISTS} EXISTS"):
        translate(parse_query(PREFIX + query(MAX_EXISTS + 1)), "sparql")
