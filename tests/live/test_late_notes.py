"""Which verdicts a late triple of a live stream could change (issue 31, a newcomer's report):
every pulling interval holding a time point whose window reaches the triple, not only the
interval of its own time point; notes for intervals not yet written wait for their verdict."""

from __future__ import annotations

from agreement.agree.livestream import LateNotes
from translate.reports import window_reach
from agreement.facade import query_pair
from agreement.options import QueryOptions


def reach_of(text: str) -> int | None:
    given, other = query_pair(text, "q.rq", QueryOptions("cqels", None, "1s", None, None))
    return window_reach([given, *([other] if other else [])])


def cqels(window: str) -> str:
    return ("SELECT ?s WHERE { STREAM <http://e/s> [" + window + "] { ?s <http://e/p> ?o } }")


def test_the_reach_is_the_longest_range():
    assert reach_of(cqels("RANGE 5s")) == 5
    assert reach_of(cqels("NOW")) == 0
    assert reach_of(cqels("TRIPLES 3")) is None


def test_a_5s_window_carries_a_late_triple_into_the_next_interval():
    notes = LateNotes(period=5, reach=5)
    assert list(notes.late(3, written=5)) == [(5, (3,))]  # (0,5] written: noted at once
    assert notes.after(10) == (3,)  # (5,10]: its windows at 5..8 hold the triple at 3
    assert notes.after(15) == ()


def test_an_unbounded_window_notes_every_later_interval():
    notes = LateNotes(period=5, reach=None)
    assert list(notes.late(3, written=10)) == [(5, (3,)), (10, (3,))]
    assert notes.after(15) == (3,) and notes.after(20) == (3,)
