"""Which pushed answers a pulling interval compares (SPEC section 4): ``(end - U, end]`` by
default, ``[end - U, end)`` for right-open pulling windows (a survivor of the mutation run: the
default was never pinned)."""

from __future__ import annotations

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.compare import AnswerSeries, compare, interval_verdict


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
       st.integers(1, 5))
def test_the_streaming_verdict_is_compares(pulled, pushed, period):
    """``interval_verdict`` (lars agree's streaming check) decides each interval as ``compare``."""
    csparql, cqels = AnswerSeries(("x",), pulled), AnswerSeries(("x",), pushed)
    for verdict in compare(csparql, cqels, period, (0, 12)):
        pushes = [(t, pushed[t]) for t in range(verdict.start + 1, verdict.end + 1) if t in pushed]
        assert interval_verdict(verdict.end, period, pulled.get(verdict.end, frozenset()), pushes) == verdict
