"""Comparisons that are not integer arithmetic remember their verdicts by the keys of their own
variables (:func:`solver.incremental.joins._remembered_test`): the bindings kept are those
:func:`solver.incremental.joins.holds` accepts one by one, whatever the other columns, the
order of the bindings and the memory's clears."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

import solver.incremental.joins as joins
from lars.atoms import Comparison
from lars.externals import external
from lars.terms import Function, Name, Number, String, Variable
from solver.incremental.joins import _compile_filter, holds

NAMES = ("W", "X", "Y", "Z")  # the comparisons read X and Y; W and Z only vary the bindings


@external("test_pair_text")
def _pair_text(x, y):
    return String(f"{x.value}|{y.value}")


leaves = st.one_of(st.sampled_from([Variable("X"), Variable("Y")]),
                   st.builds(Number, st.integers(-2, 2)), st.sampled_from([Name("a"), String("a|1")]))
sides = st.one_of(leaves, st.builds(lambda a, b: Function("test_pair_text", (a, b)), leaves, leaves))
keys = st.one_of(st.integers(-2, 2), st.sampled_from(["a", "b", '"a|1', '"1|a', "<http://ex.org/a"]))


@settings(max_examples=300, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # it sets a constant only
@given(st.sampled_from(["=", "!=", "<", "<=", ">", ">="]), sides, sides,
       st.lists(st.tuples(keys, keys, keys, keys), max_size=12), st.integers(1, 4))
def test_a_remembered_comparison_keeps_what_holds_keeps(monkeypatch, op, left, right, bindings, kept):
    monkeypatch.setattr(joins, "VERDICTS_KEPT", kept)
    condition = Comparison(op, left, right)
    step = _compile_filter(("filter", condition), NAMES)
    expected = [b for b in bindings if holds(condition, dict(zip(NAMES, b)))]
    assert step(bindings, None) == expected
    assert step(bindings[::-1], None) == expected[::-1]  # the memory filled by the first call
