"""``window-boundary`` is the reason of an answer the other engine gave exactly at an edge of the
interval explained, ``other-interval`` of one it gave elsewhere (agreement/agree/explain.py).

Newcomer finding D5: a row only C-SPARQL gave at the pull at 33, in ``(30,33]``, which CQELS gave
at 34 and 36, was explained as "CQELS gave it at an interval edge (36)": 36 is a multiple of the
period, but the end of the next interval; nothing about the boundary of ``(30,33]`` is involved
(CQELS's windows at 31-32 had not slid yet, the push at 34 read them). The edge is the interval's
own: its end (the pull's instant) or its start (the pull before).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.compare import AnswerSeries, compare
from agreement.agree.explain import shifted_answers

ROW = ("car2", 106)
PERIOD = 3


def reasons(csparql: dict[int, bool], cqels: dict[int, bool], start: int, end: int) -> list[str]:
    """The reasons :func:`shifted_answers` gives ``ROW`` on ``(start, end]``, each side giving it
    at the time points of its dict."""
    cs = AnswerSeries(("car", "speed"), {t: frozenset({ROW}) for t in csparql})
    cq = AnswerSeries(("car", "speed"), {t: frozenset({ROW}) for t in cqels})
    [verdict] = [v for v in compare(cs, cq, PERIOD, (0, 99)) if (v.start, v.end) == (start, end)]
    return [e.condition for e in shifted_answers(verdict, cs, cq, PERIOD, str)]


@pytest.mark.parametrize(("csparql", "cqels", "interval", "expected"), [
    pytest.param([33], [34, 36], (30, 33), ["other-interval"], id="newcomer-next-interval-end-is-no-reason"),
    pytest.param([33], [30], (30, 33), ["window-boundary"], id="cqels-at-the-start-edge"),
    pytest.param([36], [33], (30, 33), ["window-boundary"], id="cqels-at-the-end-edge-csparql-later"),
    pytest.param([36], [32], (30, 33), ["other-interval"], id="cqels-inside-csparql-later"),
    pytest.param([33], [99], (30, 33), ["other-interval"], id="a-far-multiple-of-the-period"),
])
def test_the_edge_is_the_interval_s_own(csparql, cqels, interval, expected):
    assert reasons(dict.fromkeys(csparql, True), dict.fromkeys(cqels, True), *interval) == expected


@settings(max_examples=80, derandomize=True)
@given(st.sets(st.integers(1, 30).map(lambda k: k * PERIOD), min_size=1, max_size=4),
       st.sets(st.integers(1, 90), min_size=1, max_size=5))
def test_window_boundary_iff_the_boundary_convention_moves_a_cqels_answer_into_or_out_of_it(pulls, pushes):
    """A reading of the definition independent of the code: CQELS's answer at ``t`` is on this
    interval's boundary exactly when the two conventions, ``(s,e]`` and ``[s,e)``, disagree on
    whether ``t`` is in it; the answers at stake are CQELS's in the interval for a row only
    CQELS gave there, all of CQELS's for a row only C-SPARQL gave."""
    cs = AnswerSeries(("car", "speed"), {t: frozenset({ROW}) for t in pulls})
    cq = AnswerSeries(("car", "speed"), {t: frozenset({ROW}) for t in pushes})
    for verdict in compare(cs, cq, PERIOD, (0, 99)):
        s, e = verdict.start, verdict.end
        at_stake = verdict.only_cqels.get(ROW, pushes)
        on_edge = [t for t in at_stake if (s < t <= e) != (s <= t < e)]
        for explanation in shifted_answers(verdict, cs, cq, PERIOD, str):
            assert (explanation.condition == "window-boundary") == bool(on_edge), (s, e, pulls, pushes)


TABLE = re.compile(r"<!-- reasons table -->\n(.*?)<!-- end of reasons table -->", re.S)
ROOT = Path(__file__).resolve().parents[2]


def test_the_reasons_documented_are_those_the_report_can_give():
    schema = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
    named = schema["$defs"]["explanation"]["properties"]["condition"]["enum"]
    table = TABLE.search((ROOT / "docs" / "formats.md").read_text()).group(1)
    documented = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert sorted(documented) == sorted(named)
