"""The fuzzer's oracles can fail: each one catches a deliberately wrong answer.

A differential test whose oracle agrees with everything tests nothing. On one small case
(worked out by hand below) the true oracle matches the tool; an oracle with an off-by-one
window does not (a); a report with one interval's verdict flipped is caught (b); a derived
CQELS side with one answer missing is caught (c); and each engine profile's oracle with its
windows moved by one tick disagrees with the tool.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from rdflib import Literal, URIRef

from tests.fuzz import drive, model
from tests.fuzz.cases import Case, differences
from tests.fuzz.model import EX, Block, Query, Window
from tests.fuzz.oracle import Item, variables
from tests.fuzz.profiles import PROFILES, profile_answers

A, B, P = URIRef(EX + "a"), URIRef(EX + "b"), URIRef(EX + "p")
QUERY = Query((Window(2, 1),), ("a",), (Block(0, (("?a", ":p", "?v"),)),))
ITEMS = (Item(1, 0, (A, P, Literal(1))), Item(3, 0, (B, P, Literal(2))))
"""``[RANGE 2s SLIDE 1s]``, ``:a :p 1`` at 1 and ``:b :p 2`` at 3, period 2, timeline [0,4]:
C-SPARQL pulls {} at 0, {a} at 2 (window [0,2]), {b} at 4 ([2,4]); CQELS pushes {a} at 1
([0,1]), {a, b} at 3 ([1,3]); they agree on (0,2] and not on (2,4] (only CQELS gave a)."""


def case(route: str = "hand") -> Case:
    return Case(QUERY, route, ITEMS, (), 2)


A_ROW, B_ROW = (A.n3(),), (B.n3(),)


def test_the_hand_worked_case_is_what_the_tool_and_the_oracle_say():
    got = drive.agree(model.cqels(QUERY), ITEMS, QUERY.streams, (), 2, 4, ["a"], model.csparql(QUERY))
    assert got.csparql == {2: {A_ROW}, 4: {B_ROW}}
    assert got.cqels == {1: {A_ROW}, 3: {A_ROW, B_ROW}}
    assert [(i.start, i.end, i.agree, i.only_cqels) for i in got.intervals] \
        == [(0, 2, True, frozenset()), (2, 4, False, {A_ROW})]
    assert differences(case()) == []


def test_a_an_off_by_one_window_in_the_oracle_is_caught():
    found = differences(case(), shift=-1)
    assert any(line.startswith("(a) C-SPARQL") for line in found)
    assert any(line.startswith("(a) CQELS") for line in found)


def _tampered(monkeypatch, change) -> None:
    real = drive.agree

    def agree(*args, **options):
        return change(real(*args, **options))
    monkeypatch.setattr(drive, "agree", agree)


def test_b_a_flipped_interval_verdict_is_caught(monkeypatch):
    _tampered(monkeypatch, lambda got: replace(
        got, intervals=(got.intervals[0], replace(got.intervals[1], agree=True))))
    assert any(line.startswith("(b) intervals") for line in differences(case()))


def test_b_a_wrong_overall_verdict_is_caught(monkeypatch):
    _tampered(monkeypatch, lambda got: replace(got, agree=True))
    assert differences(case()) == ["(b) verdict True != oracle False"]


def test_c_a_derived_cqels_side_missing_an_answer_is_caught(monkeypatch):
    assert differences(case("derived")) == []
    _tampered(monkeypatch, lambda got: replace(got, cqels={**got.cqels, 3: frozenset({A_ROW})}))
    assert any(line.startswith("(c) derived CQELS") for line in differences(case("derived")))


SPELLING = {"rsp4j": model.rspql, "csparql": model.csparql, "sparqlstream": model.csparql,
            "cqels": model.cqels}


LATER = (*ITEMS, Item(4, 0, (A, P, Literal(1))))
"""``:a`` again at 4: under CQELS's Istream the content-change scope at 4 is [3,4], {a, b}
against {b} at 3, so ``a`` is new; a scope starting one tick early ([2,4] against [1,3]) reports
nothing new."""


@pytest.mark.parametrize("name", PROFILES)
def test_each_profile_oracle_with_a_moved_window_disagrees_with_the_tool(name):
    got = drive.run_profile(SPELLING[name](QUERY), LATER, QUERY.streams, (), name, 6, variables(QUERY))
    assert got == profile_answers(name, QUERY, LATER, (), 6)
    assert got != profile_answers(name, QUERY, LATER, (), 6, shift=-1)
