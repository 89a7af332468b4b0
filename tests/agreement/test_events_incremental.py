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
    BGPS, END, FIGURE_LIKE, NODES, STREAMS, W1, W2, X, Y, Z, elements, evaluations, queries,
    times_of,
)
from translate.eventprofiles import EventProfile
from translate.eventreader import read_event_query
from translate.eventrules import Evaluation, translate_events
from translate.events import SELECTIONS, Basic, EventQuery, NamedWindow, Seq
from translate.rsp import AllWindow, RangeWindow

FIGURE_QUERY = read_event_query(
    (Path(__file__).parents[2] / "examples" / "events" / "figure1.rq").read_text())

policies = st.sampled_from((None,) + SELECTIONS)
LONG_END = 24
long_elements = st.lists(st.tuples(
    st.tuples(st.sampled_from(NODES), st.sampled_from((iri("p"), iri("q"), iri("r"))),
              st.sampled_from(NODES)),
    st.integers(0, LONG_END), st.sampled_from(STREAMS)), min_size=5, max_size=30)


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
@given(queries(), long_elements, st.sampled_from((Evaluation("push"), Evaluation("pull", period=1),
                                                   Evaluation("pull", period=3))),
       st.sampled_from(("chronological", "recent")), st.booleans())
def test_long_streams_under_consumption_agree_with_the_oracle(query, stream, evaluation,
                                                              selection, consume):
    """Many evaluation times: state carried across them (windows sliding, items consumed)."""
    check(query, stream, evaluation, selection, consume, "all", LONG_END)


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
