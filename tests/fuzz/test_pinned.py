"""Defects the fuzzer found, shrunk and pinned (issue 27, item 1).

Each test is one case of :mod:`tests.fuzz.cases` run through the whole differential check
(:func:`tests.fuzz.cases.differences`). A defect not fixed yet is a strict xfail naming it, so
the test fails the day it is fixed (then drop the mark, and its line in
:func:`tests.fuzz.cases.known_defect`).
"""

from __future__ import annotations

import pytest
from rdflib import Literal, URIRef

from tests.fuzz.cases import Case, differences
from tests.fuzz.drive import Refused
from tests.fuzz.model import EX, Block, Query, Window
from tests.fuzz.oracle import Item

A, P = URIRef(EX + "a"), URIRef(EX + "p")
ONE_AT_0 = (Item(0, 0, (A, P, Literal(1))),)


@pytest.mark.xfail(strict=True, reason="lars agree on a C-SPARQL query alone derives the CQELS "
                   "side without its STREAM block when the query has an aggregate: CQELS counts 0 "
                   "where the window holds :a :p 1 (issue 27 item 2, being fixed on another branch)")
def test_derived_cqels_side_of_a_plain_count_reads_the_stream():
    query = Query((Window(1, 1),), ("(COUNT(?a) AS ?agg)",), (Block(0, (("?a", ":p", "?v"),)),))
    assert differences(Case(query, "derived", ONE_AT_0, (), 1)) == []


@pytest.mark.xfail(strict=True, reason="as above, with GROUP BY: the derived CQELS side answers "
                   "nothing where the hand-written one gives (:a, 1) (issue 27 item 2)")
def test_derived_cqels_side_of_a_grouped_count_reads_the_stream():
    query = Query((Window(1, 1),), ("a", "(COUNT(?v) AS ?agg)"),
                  (Block(0, (("?a", ":p", "?v"),)),), group_by=("a",))
    assert differences(Case(query, "derived", ONE_AT_0, (), 1)) == []


@pytest.mark.xfail(strict=True, reason="a projected variable neither grouped nor aggregated "
                   "(SELECT ?a (COUNT(?v) AS ?agg) without GROUP BY) is answered instead of "
                   "refused; SPARQL 1.1 section 11.4 rejects the query (issue 27 item 5)")
@pytest.mark.parametrize("route", ["hand", "derived", "rspql"])
def test_the_grouping_rule_is_enforced(route):
    query = Query((Window(1, 1),), ("a", "(COUNT(?v) AS ?agg)"), (Block(0, (("?a", ":p", "?v"),)),))
    assert isinstance(differences(Case(query, route, ONE_AT_0, (), 1)), Refused)
