"""Defects the fuzzer found, shrunk and pinned (issue 27, item 1).

Each test is one case of :mod:`tests.fuzz.cases` run through the whole differential check
(:func:`tests.fuzz.cases.differences`). A defect not fixed yet is a strict xfail naming it, so
the test fails the day it is fixed (then drop the mark, and its line in
:func:`tests.fuzz.cases.known_defect`). The tests without a mark pin defects fixed on main by
the issue-27 semantics branch (merged as 89c1db2); on this branch's base they fail.
"""

from __future__ import annotations

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from tests.fuzz.cases import Case, differences
from tests.fuzz.drive import Refused
from tests.fuzz.model import EX, Bind, Block, Query, Window
from tests.fuzz.oracle import Item

A, P = URIRef(EX + "a"), URIRef(EX + "p")
ONE_AT_0 = (Item(0, 0, (A, P, Literal(1))),)


def test_derived_cqels_side_of_a_plain_count_reads_the_stream():
    """Derived CQELS once lost its STREAM block under an aggregate and counted 0 (issue 27 item 2)."""
    query = Query((Window(1, 1),), ("(COUNT(?a) AS ?agg)",), (Block(0, (("?a", ":p", "?v"),)),))
    assert differences(Case(query, "derived", ONE_AT_0, (), 1)) == []


def test_derived_cqels_side_of_a_grouped_count_reads_the_stream():
    """The same with GROUP BY: the derived side answered nothing (issue 27 item 2)."""
    query = Query((Window(1, 1),), ("a", "(COUNT(?v) AS ?agg)"),
                  (Block(0, (("?a", ":p", "?v"),)),), group_by=("a",))
    assert differences(Case(query, "derived", ONE_AT_0, (), 1)) == []


@pytest.mark.parametrize("route", ["hand", "derived", "rspql"])
def test_the_grouping_rule_is_enforced(route):
    """SELECT ?a (COUNT(?v) AS ?agg) without GROUP BY must be refused (SPARQL 1.1 section 11.4;
    issue 27 item 5); it was answered with an arbitrary ?a."""
    query = Query((Window(1, 1),), ("a", "(COUNT(?v) AS ?agg)"), (Block(0, (("?a", ":p", "?v"),)),))
    assert isinstance(differences(Case(query, route, ONE_AT_0, (), 1)), Refused)


@pytest.mark.parametrize("route", ["hand", "derived", "rspql"])
def test_a_tuple_window_reads_a_time_point_as_a_set(route):
    """[TRIPLES 2] over b, c, a, b at 2 holds c and a: the atoms at a time point are a set
    (SPEC section 2; issue 27 item 7); the repeated b was counted as a new tuple."""
    b, c = URIRef(EX + "b"), URIRef(EX + "c")
    items = tuple(Item(2, 0, (s, P, Literal(1))) for s in (b, c, A, b))
    query = Query((Window(1, 1, 2),), ("a",), (Block(0, (("?a", ":p", "?v"),)),))
    assert differences(Case(query, route, items, (), 1)) == []


@pytest.mark.parametrize("route", ["hand", "derived", "rspql"])
def test_a_tuple_window_counts_the_triples_of_its_own_stream_only(route):
    """Found by the fuzzer: [RANGE TRIPLES 1] on :s1 became ⊞^{#1} ◇ striple(…, :s1) over the
    whole LARS stream, so a triple of :s2 arriving after :b :d … on :s1 pushed it out of :s1's
    window and neither side answered :b (both should, at 8). Now ⊞^{#1, striple(_,_,_,:s1)}."""
    b, d, r = URIRef(EX + "b"), URIRef(EX + "d"), URIRef(EX + "r")
    items = (Item(8, 0, (b, d, Literal("2020-01-01", datatype=XSD.date))),
             Item(8, 1, (b, r, Literal(2))), Item(8, 1, (A, r, Literal(1))))
    query = Query((Window(1, 1, 1), Window(2, 2)), ("a",),
                  (Block(0, (("?a", ":d", "?t"),)), Block(1, (("?a", ":r", "?w"),))))
    assert differences(Case(query, route, items, (), 2)) == []


def test_derived_cqels_side_of_a_bind_reads_the_stream():
    """Found by the fuzzer: the derived CQELS side of a query with a BIND lost its STREAM block,
    answered nothing, warned that the two sides differ and reported DISAGREE anyway."""
    query = Query((Window(1, 1),), ("a",), (Block(0, (("?a", ":p", "?v"),)), Bind("?v * 2", "v2")))
    assert differences(Case(query, "derived", ONE_AT_0, (), 1)) == []
