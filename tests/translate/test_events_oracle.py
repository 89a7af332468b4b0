"""The LARS translation of event queries against the direct reading of equations (4)–(11)
(``tests/oracles/events.py``) on random small streams, patterns, windows and policies."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.oracles.events import answers
from tests.translate.eventdata import iri, solve
from translate.eventprofiles import EventProfile
from translate.eventrules import Evaluation, translate_events
from translate.events import (
    SELECTIONS, Basic, EventQuery, First, LandmarkWindow, Last, NamedWindow, Seq,
    pattern_variables,
)
from translate.rsp import BGP, AllWindow, RangeWindow, TriplePattern, Var

END = 7
STREAMS = (iri("S"), iri("S2"))
W1, W2 = iri("w1"), iri("w2")
X, Y, Z = Var("x"), Var("y"), Var("z")
P, Q, R = iri("p"), iri("q"), iri("r")
BGPS = (
    BGP((TriplePattern(X, P, Y),)),
    BGP((TriplePattern(Y, Q, Z),)),
    BGP((TriplePattern(Z, R, X),)),
    BGP((TriplePattern(X, P, Y), TriplePattern(Y, Q, Z))),
    BGP((TriplePattern(X, Q, iri("a")),)),
)

windows = st.one_of(
    st.builds(LandmarkWindow, st.integers(0, 3)),
    st.builds(RangeWindow, st.integers(1, 4), st.integers(1, 2)),
    st.just(AllWindow()),
)
basics = st.builds(Basic, st.sampled_from((W1, W2)), st.sampled_from(BGPS))
patterns = st.recursive(
    basics,
    lambda inner: st.one_of(
        st.builds(First, inner), st.builds(Last, inner),
        st.builds(Seq, inner, inner, st.sampled_from(SELECTIONS))),
    max_leaves=3)
NODES = [iri(n) for n in "ab"]
elements = st.lists(st.tuples(
    st.tuples(st.sampled_from(NODES), st.sampled_from((P, Q, R)), st.sampled_from(NODES)),
    st.integers(0, END), st.sampled_from(STREAMS)), min_size=2, max_size=10)


@st.composite
def queries(draw) -> EventQuery:
    pattern = draw(patterns)
    named = (NamedWindow(W1, STREAMS[0], draw(windows)),
             NamedWindow(W2, draw(st.sampled_from(STREAMS)), draw(windows)))
    return EventQuery(tuple(Var(n) for n in sorted(pattern_variables(pattern))), named, pattern)


FIGURE_LIKE = [((iri("a"), P, iri("b")), 1, STREAMS[0]), ((iri("b"), Q, iri("c")), 3, STREAMS[0]),
               ((iri("b"), Q, iri("c")), 4, STREAMS[0])]


evaluations = st.one_of(
    st.sets(st.integers(0, END), max_size=3).map(lambda s: Evaluation("at", tuple(sorted(s | {END})))),
    st.just(Evaluation("push")),
    st.builds(lambda u: Evaluation("pull", period=u), st.integers(1, 3)))


def times_of(evaluation: Evaluation, query: EventQuery, stream) -> set[int]:
    """``ET`` on the timeline ``[0, END]``, computed apart from the translation."""
    if evaluation.kind == "at":
        return set(evaluation.times)
    if evaluation.kind == "pull":
        return set(range(0, END + 1, evaluation.period))
    streams = {w.stream for w in query.windows}
    return {t for _, t, s in stream if s in streams}


@settings(max_examples=60)
@given(queries(), elements, evaluations, st.booleans(), st.sampled_from(("all", "new")))
@example(EventQuery((X, Y, Z), (NamedWindow(W1, STREAMS[0], AllWindow()),
                                NamedWindow(W2, STREAMS[0], RangeWindow(3, 1))),
                    Seq(Basic(W1, BGPS[0]), Basic(W2, BGPS[1]), "recent")),
         FIGURE_LIKE, Evaluation("at", (3, 4)), True, "all")
def test_translation_agrees_with_the_equations(query, stream, evaluation, consume, report):
    report = "all" if consume else report  # consumption reports every event found (issue 27)
    profile = EventProfile("random", None, consume, report, "given", "")
    translation = translate_events(query, profile, evaluation)
    times = times_of(evaluation, query, stream)
    expected = answers(query, [(tr, s, t) for tr, t, s in stream], times, consume, report)
    assert solve(translation, stream, END) == {t: rows for t, rows in expected.items() if rows}
