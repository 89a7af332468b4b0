"""The incremental evaluation of event queries (:mod:`agreement.events.incremental`) against the
direct reading of paper 001's equations (4)–(11) and its consumption policies
(``tests/oracles/events.py``): random streams, patterns (FIRST, LAST, the four SEQ, nested),
windows (``W^τ``, ``W^λ``, ``W^id``, two streams), each selection policy as a profile setting,
with and without consumption, evaluation times given, push or pull."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from agreement.events.incremental import evaluate_incrementally
from agreement.events.pipeline import solve_events
from ingest.rdffiles import StreamTriple
from tests.oracles.events import answers
from tests.translate.eventdata import FIGURE_1, iri, short
from tests.translate.test_events_oracle import (
    BGPS, END, FIGURE_LIKE, NODES, STREAMS, W1, W2, X, Y, Z, basics, elements, evaluations,
    queries, times_of, windows,
)
from translate.eventprofiles import EventProfile
from translate.eventreader import read_event_query
from translate.eventrules import Evaluation, translate_events
from translate.events import SELECTIONS, Basic, EventQuery, NamedWindow, Seq, pattern_variables
from translate.rsp import AllWindow, RangeWindow, Var

FIGURE_QUERY = read_event_query(
    (Path(__file__).parents[2] / "examples" / "events" / "figure1.rq").read_text())

policies = st.sampled_from((None,) + SELECTIONS)
LONG_END = 16
long_elements = st.lists(st.tuples(
    st.tuples(st.sampled_from(NODES), st.sampled_from((iri("p"), iri("q"), iri("r"))),
              st.sampled_from(NODES)),
    st.integers(0, LONG_END), st.sampled_from(STREAMS)), min_size=5, max_size=40)
long_evaluations = st.one_of(
    st.sampled_from((Evaluation("push"), Evaluation("pull", period=1), Evaluation("pull", period=3))),
    st.sets(st.integers(0, LONG_END), min_size=1, max_size=4).map(
        lambda s: Evaluation("at", tuple(sorted(s)))))


def stream_triples(stream) -> list[StreamTriple]:
    return [StreamTriple(t, s, triple, None) for triple, t, s in stream]


def check(query, stream, evaluation, selection, consume, report, end) -> None:
    report = "all" if consume else report  # consumption reports every event found (issue 27)
    profile = EventProfile("random", selection, consume, report, "given", "")
    translation = translate_events(query, profile, evaluation)
    times = {t for t in times_of(evaluation, query, stream) if t <= end} if evaluation.kind != "pull" \
        else set(range(0, end + 1, evaluation.period))
    expected = answers(query, [(tr, s, t) for tr, t, s in stream], times, consume, report,
                       pattern=translation.query.pattern)
    run = evaluate_incrementally(translation, stream_triples(stream), (0, end))
    assert run.rows == {t: rows for t, rows in expected.items() if rows}


@settings(max_examples=80, derandomize=True, deadline=None)
@given(queries(), elements, evaluations, policies, st.booleans(), st.sampled_from(("all", "new")))
@example(FIGURE_QUERY, FIGURE_1, Evaluation("at", (8, 10)), "recent", True, "all")
def test_incremental_evaluation_agrees_with_the_oracle(query, stream, evaluation, selection,
                                                       consume, report):
    check(query, stream, evaluation, selection, consume, report, max(END, 10))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(queries(), long_elements, long_evaluations, st.sampled_from(("chronological", "recent")),
       st.booleans())
def test_long_streams_under_consumption_agree_with_the_oracle(query, stream, evaluation,
                                                              selection, consume):
    """Many evaluation times: state carried across them (windows sliding, items consumed)."""
    check(query, stream, evaluation, selection, consume, "all", LONG_END)


THREE = [iri(n) for n in "abc"]
dense_elements = st.lists(st.tuples(
    st.tuples(st.sampled_from(THREE), st.sampled_from((iri("p"), iri("q"))), st.sampled_from(THREE)),
    st.integers(0, 10), st.just(STREAMS[0])), min_size=4, max_size=30)
top_selections = st.builds(
    Seq, st.one_of(basics, st.builds(Seq, basics, basics, st.sampled_from(SELECTIONS))), basics,
    st.sampled_from(("chronological", "recent")))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(top_selections, st.tuples(windows, windows), dense_elements,
       st.sets(st.integers(0, 10), min_size=1, max_size=4), st.booleans())
def test_top_level_selection_over_a_basic_pattern_agrees_with_the_oracle(
        pattern, spans, stream, times, consume):
    """The shape :meth:`_Evaluator.points_chosen` takes (``SEQ^c``/``SEQ^r`` at the top over a
    basic ``E2``), on dense streams over three values, so that several groups of shared values
    compete at the same time points."""
    query = EventQuery(tuple(Var(n) for n in sorted(pattern_variables(pattern))),
                       (NamedWindow(W1, STREAMS[0], spans[0]), NamedWindow(W2, STREAMS[0], spans[1])),
                       pattern)
    check(query, stream, Evaluation("at", tuple(sorted(times))), None, consume, "all", 10)


def test_each_group_of_shared_values_is_chosen_on_its_own():
    """``SEQ^c`` at 5 on ``a q c@0, x p a@1, a q c@3, b q c@3, x p b@4, b q c@5``: the group
    ``?y = a`` (met first, at 0) chooses its candidate at 3; the group ``?y = b`` has an event
    at 3 with no ``p`` before it and its first candidate at 5 (a walk of the groups that stopped
    at the other group's time would miss it)."""
    x, a, b, c = (iri(n) for n in "xabc")
    p, q = iri("p"), iri("q")
    stream = [((a, q, c), 0, STREAMS[0]), ((x, p, a), 1, STREAMS[0]), ((a, q, c), 3, STREAMS[0]), ((b, q, c), 3, STREAMS[0]),
              ((x, p, b), 4, STREAMS[0]), ((b, q, c), 5, STREAMS[0])]
    query = EventQuery((X, Y, Z), (NamedWindow(W1, STREAMS[0], AllWindow()),
                                   NamedWindow(W2, STREAMS[0], AllWindow())),
                       Seq(Basic(W1, BGPS[0]), Basic(W2, BGPS[1]), "chronological"))
    for consume in (False, True):
        check(query, stream, Evaluation("at", (5,)), None, consume, "all", 5)
    translation = translate_events(query, "rsep", Evaluation("at", (5,)))
    run = evaluate_incrementally(translation, stream_triples(stream), (0, 5))
    assert {t: short(rows) for t, rows in run.rows.items()} == {
        5: {(("x", "a", "c"), 1, 3), (("x", "b", "c"), 4, 5)}}


def test_the_figure_like_stream_under_recent_selection():
    """``tests/translate/test_events_oracle.py``'s pinned case: ``SEQ^r`` with consumption on
    ``a p b@1, b q c@3, b q c@4`` at 3 and 4 (the second ``q`` finds the ``p`` consumed)."""
    query = EventQuery((X, Y, Z), (NamedWindow(W1, STREAMS[0], AllWindow()),
                                   NamedWindow(W2, STREAMS[0], RangeWindow(3, 1))),
                       Seq(Basic(W1, BGPS[0]), Basic(W2, BGPS[1]), "recent"))
    translation = translate_events(query, EventProfile("r", None, True, "all", "given", ""),
                                   Evaluation("at", (3, 4)))
    run = evaluate_incrementally(translation, stream_triples(FIGURE_LIKE), (0, 4))
    assert {t: short(rows) for t, rows in run.rows.items()} == {3: {(("a", "b", "c"), 1, 3)}}
    assert [(str(tr[1]).removeprefix("http://ex.org/"), t, at) for _, tr, t, at in run.consumed] \
        == [("p", 1, 3), ("q", 3, 3)]


def test_consuming_profiles_run_incrementally_and_the_others_through_lars():
    """The pipeline's dispatch: the LARS program for ``P^u``, the incremental evaluation for
    ``P^c``/``P^r``; both give the paper's table on Figure 1 (docs/events.md)."""
    query, at = FIGURE_QUERY, Evaluation("at", (8, 10))
    stream = stream_triples(FIGURE_1)
    recent = solve_events(translate_events(query, "epsparql-recent", at), stream, (0, 10))
    assert recent.consumed  # only the incremental evaluation records what it consumed
    assert {t: short(rows) for t, rows in recent.rows.items()} == {
        8: {(("a1", "b1", "c1"), 2, 6), (("a2", "b2", "c2"), 4, 8)}}
    unrestricted = solve_events(translate_events(query, "epsparql-unrestricted", at), stream, (0, 10))
    assert not unrestricted.consumed
    assert {t: short(rows) for t, rows in unrestricted.rows.items()} == {
        8: {(("a2", "b2", "c2"), 4, 6), (("a1", "b1", "c1"), 2, 6), (("a2", "b2", "c2"), 4, 8)},
        10: {(("a1", "b1", "c1"), 2, 10)}}
