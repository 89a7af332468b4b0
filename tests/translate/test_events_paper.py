"""Paper 001's running example (Figure 1, Examples 7–11) through the LARS translation.

Evaluations at 8 and 10 (paper §2). Expected, with the events of :mod:`tests.translate.eventdata`:
unrestricted e1, e2, e3 at 8 and e4 at 10; chronological e1, e2 at 8 and nothing at 10; recent e2,
e3 at 8 and nothing at 10; C-SPARQL (window 7 sliding by 1) e3 at 8 and nothing at 10; and the
operators SEQ^n, SEQ^c, SEQ^r at 8 (Example 10).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracles.events import answers
from tests.translate.eventdata import EVENTS, FIGURE_1, S, iri, short, solve
from translate.eventprofiles import EventProfile
from translate.eventreader import read_event_query
from translate.eventrules import Evaluation, translate_events
from translate.events import EventQuery, Seq, pattern_text, with_selection

EXAMPLES = Path(__file__).parents[2] / "examples" / "events"
QUERY = read_event_query((EXAMPLES / "figure1.rq").read_text(), "figure1.rq")
CSPARQL = read_event_query((EXAMPLES / "csparql-seq.rq").read_text(), "csparql-seq.rq")
AT_8_10 = Evaluation("at", (8, 10))


def events(*names: str) -> set[tuple]:
    return {EVENTS[n] for n in names}


def run(query, profile, evaluation=AT_8_10):
    return short_by_time(solve(translate_events(query, profile, evaluation), FIGURE_1, 10))


def short_by_time(found):
    return {t: short(rows) for t, rows in found.items()}


def test_the_reconstructed_stream_gives_example_7():
    """``⟨⟨E2⟩⟩^8`` over ``W^id`` = ``(μ2,6,6), (μ'2,6,6), (μ'2,8,8)``: E2's window [RANGE 5] at 8
    is (3, 8] (Example 2)."""
    text = (EXAMPLES / "figure1.rq").read_text().replace("SELECT ?x ?y ?z", "SELECT ?y ?z")
    only_e2 = read_event_query(text.replace("MATCH { E1 SEQ E2 }", "MATCH { E2 }"))
    expected = {(("b1", "c1"), 6, 6), (("b2", "c2"), 6, 6), (("b2", "c2"), 8, 8)}
    assert run(only_e2, "rsep", Evaluation("at", (8,))) == {8: expected}
    oracle = answers(only_e2, [(tr, s, t) for tr, t, s in FIGURE_1], [8])
    assert short(oracle[8]) == expected


@pytest.mark.parametrize("profile, at_8, at_10", [
    pytest.param("epsparql-unrestricted", events("e1", "e2", "e3"), events("e4"), id="unrestricted"),
    pytest.param("epsparql-chronological", events("e1", "e2"), set(), id="chronological"),
    pytest.param("epsparql-recent", events("e2", "e3"), set(), id="recent"),
])
def test_figure_1_epsparql(profile, at_8, at_10):
    assert run(QUERY, profile) == {t: rows for t, rows in ((8, at_8), (10, at_10)) if rows}


def test_figure_1_csparql_window_7_sliding_by_1():
    """C-SPARQL sees (1, 8] at 8 and (3, 10] at 10: the latest p and q triples at 10 are
    ``a3 p b3`` and ``b1 q c1``, which do not join (paper §2, R3.2)."""
    assert run(CSPARQL, "csparql-seq") == {8: events("e3")}


def test_csparql_seq_profile_pulls_every_window_step():
    translation = translate_events(CSPARQL, "csparql-seq")
    assert translation.evaluation == Evaluation("pull", period=1)
    found = short_by_time(solve(translation, FIGURE_1, 10))
    assert found[8] == events("e3") and 10 not in found


@pytest.mark.parametrize("selection, expected", [
    pytest.param("naive", events("e3"), id="SEQ^n"),
    pytest.param("chronological", events("e2", "e1"), id="SEQ^c"),
    pytest.param("recent", events("e2", "e3"), id="SEQ^r"),
    pytest.param("unrestricted", events("e1", "e2", "e3"), id="SEQ-example-8"),
])
def test_example_10_selection_operators_at_8(selection, expected):
    query = EventQuery(QUERY.variables, QUERY.windows, with_selection(QUERY.pattern, selection))
    assert run(query, "rsep", Evaluation("at", (8,))) == {8: expected}


def test_example_9_match_drops_the_times():
    rows = run(QUERY, "rsep", Evaluation("at", (8,)))[8]
    assert {values for values, _, _ in rows} == {("a1", "b1", "c1"), ("a2", "b2", "c2")}


def test_consumption_is_what_empties_recent_at_10():
    """Without ``P^r``, SEQ^r at 10 pairs the new ``b1 q c1`` with ``a1 p b1`` (e4); consuming
    ``a1 p b1`` at 8 (Example 11) is what removes it."""
    query = EventQuery(QUERY.variables, QUERY.windows, with_selection(QUERY.pattern, "recent"))
    no_consumption = EventProfile("recent-pu", None, False, "new", "given", "")
    assert run(query, no_consumption)[10] == events("e4")
    assert 10 not in run(query, "epsparql-recent")


def test_push_evaluation_makes_recent_equal_chronological_here():
    """Evaluated whenever input arrives (EP-SPARQL's own report policy), both settings find e1
    and e2 at 6, which consume everything the later q triples could match."""
    push = Evaluation("push")
    chronological = run(QUERY, "epsparql-chronological", push)
    assert chronological == run(QUERY, "epsparql-recent", push) == {6: events("e1", "e2")}


def test_every_evaluation_agrees_with_the_oracle_on_figure_1():
    stream = [(tr, s, t) for tr, t, s in FIGURE_1]
    for selection in ("unrestricted", "naive", "chronological", "recent"):
        pattern = with_selection(QUERY.pattern, selection)
        for consume in (False, True):
            report = "all" if consume else "new"
            expected = answers(QUERY, stream, range(0, 11), consume, report, pattern)
            profile = EventProfile("x", selection, consume, report, "given", "")
            found = solve(translate_events(QUERY, profile, Evaluation("at", tuple(range(11)))),
                          FIGURE_1, 10)
            assert found == {t: rows for t, rows in expected.items() if rows}, (selection, consume)


def test_the_csparql_reader_makes_seq_n_over_one_window():
    assert pattern_text(CSPARQL.pattern) == "E1 SEQ^n E2"
    assert isinstance(CSPARQL.pattern, Seq) and CSPARQL.windows[0].stream == S
    assert CSPARQL.pattern.left.pattern.triples[0].predicate == iri("p")


@pytest.mark.parametrize("strategy", ["reference", "incremental"])
@pytest.mark.parametrize("profile", ["epsparql-unrestricted", "epsparql-recent", "csparql-seq"])
def test_every_strategy_gives_the_same_answers(profile, strategy):
    translation = translate_events(QUERY, profile, AT_8_10)
    assert solve(translation, FIGURE_1, 10, strategy) == solve(translation, FIGURE_1, 10)


@pytest.mark.parametrize("profile", ["epsparql-unrestricted", "csparql-seq", "rsep"])
def test_programs_without_consumption_are_stratified_and_solved_bottom_up(profile):
    translation = translate_events(QUERY, profile, AT_8_10)
    assert solve(translation, FIGURE_1, 10, "stratified") == solve(translation, FIGURE_1, 10, "reference")
