"""The event oracle itself on paper 001's Figure 1: the table of the figure and Example 10,
independently of the LARS translation (which ``tests/translate`` checks against this oracle)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracles.events import answers
from tests.translate.eventdata import EVENTS, FIGURE_1, short
from translate.eventreader import read_event_query
from translate.events import EventQuery, with_selection

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "events"
QUERY = read_event_query((EXAMPLES / "figure1.rq").read_text())
STREAM = [(triple, stream, t) for triple, t, stream in FIGURE_1]


def events(*names):
    return {EVENTS[n] for n in names}


@pytest.mark.parametrize("selection, consume, report, at_8, at_10", [
    pytest.param("unrestricted", False, "new", events("e1", "e2", "e3"), events("e4"), id="unrestricted"),
    pytest.param("chronological", True, "all", events("e1", "e2"), set(), id="chronological"),
    pytest.param("recent", True, "all", events("e2", "e3"), set(), id="recent"),
    pytest.param("naive", False, "all", events("e3"), set(), id="naive-landmark"),
    pytest.param("unrestricted", False, "all", events("e1", "e2", "e3"),
                 events("e1", "e2", "e3", "e4"), id="equation-7-holds-all-at-10"),
])
def test_figure_1(selection, consume, report, at_8, at_10):
    pattern = with_selection(QUERY.pattern, selection)
    found = answers(QUERY, STREAM, [8, 10], consume, report, pattern)
    assert {t: short(rows) for t, rows in found.items()} == {8: at_8, 10: at_10}


def test_csparql_window_7():
    query = read_event_query((EXAMPLES / "csparql-seq.rq").read_text())
    found = answers(query, STREAM, [8, 10])
    assert {t: short(rows) for t, rows in found.items()} == {8: events("e3"), 10: set()}


def test_recent_over_all_competitors_would_miss_example_10():
    """The reading of (11) the docs choose: competitors share the join values. Over *all*
    competitors, the b1 event at 6 would lose to the b2 event at 8 and (a1 b1 c1, 2, 6) would
    not be an answer, contrary to Example 10; the chosen reading keeps it."""
    query = EventQuery(QUERY.variables, QUERY.windows, with_selection(QUERY.pattern, "recent"))
    assert EVENTS["e2"] in short(answers(query, STREAM, [8])[8])
