"""Which pushed answers a pulling interval compares (SPEC section 4): ``(end - U, end]`` by
default, ``[end - U, end)`` for right-open pulling windows (a survivor of the mutation run: the
default was never pinned)."""

from __future__ import annotations

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.compare import AnswerSeries, compare


@pytest.mark.parametrize("half_open, at_end, at_start", [
    pytest.param(None, True, False, id="default-left-open"),
    pytest.param(False, True, False, id="left-open"),
    pytest.param(True, False, True, id="right-open"),
])
def test_the_interval_ends_of_the_pushed_answers(half_open, at_end, at_start):
    pulled = AnswerSeries(("x",), {10: frozenset({("a",)}), 20: frozenset({("b",)})})
    pushed = AnswerSeries(("x",), {10: frozenset({("a",)}), 20: frozenset({("b",)})})
    options = {} if half_open is None else {"half_open": half_open}
    verdicts = {v.end: v for v in compare(pulled, pushed, 10, (0, 20), **options)}
    assert (("a",) in verdicts[10].both) == at_end  # pushed at 10, the end of [0,10]
    assert (("a",) in verdicts[20].only_cqels) == at_start  # pushed at 10, the start of [10,20]


ROWS = st.frozensets(st.sampled_from([("a",), ("b",), ("c",)]), max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(0, 12), ROWS), st.dictionaries(st.integers(0, 12), ROWS),
       st.integers(1, 5), st.booleans())
def test_verdicts_are_the_specs_union_of_pushes_against_the_pull(pulled, pushed, period, half_open):
    """SPEC section 9, read directly: on ``(e - U, e]`` (``[e - U, e)`` when half open) the
    answers CQELS pushed, as a set, against those C-SPARQL pulled at ``e``; ``only_cqels``
    keeps the push time points of each row in order."""
    csparql, cqels = AnswerSeries(("x",), pulled), AnswerSeries(("x",), pushed)
    verdicts = compare(csparql, cqels, period, (0, 12), half_open=half_open)
    assert [v.end for v in verdicts] == list(range(period, 13, period))
    for verdict in verdicts:
        e, shift = verdict.end, int(half_open)
        times = [t for t in range(e - period + 1 - shift, e + 1 - shift) if t in pushed]
        union = {row for t in times for row in pushed[t]}
        pull = pulled.get(e, frozenset())
        assert verdict.start == e - period
        assert verdict.only_cqels == {row: tuple(t for t in times if row in pushed[t])
                                      for row in union - pull}
        assert verdict.only_csparql == pull - union and verdict.both == pull & union
        assert verdict.agree == (union == pull)
