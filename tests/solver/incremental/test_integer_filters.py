"""Comparisons of integer arithmetic in join plans (:func:`solver.incremental.joins.integer_test`)
against :func:`solver.incremental.joins.holds`, which evaluates both sides with
:func:`lars.terms.evaluate` (clingo's arithmetic and order of symbols): the same verdict on every
binding, symbols and undefined terms included, and the same overflow error."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from lars.atoms import Comparison
from lars.errors import LimitError
from lars.terms import MAX_INTEGER, BinaryOp, Number, Variable
from solver.incremental.joins import holds, integer_term, integer_test

NAMES = ("X", "Y")
leaves = st.one_of(st.sampled_from([Variable("X"), Variable("Y")]),
                   st.builds(Number, st.sampled_from([-7, -2, -1, 0, 1, 2, 3, 4, MAX_INTEGER])))
terms = st.recursive(leaves, lambda inner: st.builds(
    BinaryOp, st.sampled_from(["+", "-", "*", "/", "%"]), inner, inner), max_leaves=5)
keys = st.one_of(st.integers(-9, 9), st.sampled_from(["a", "b", '"a', "<http://ex.org/a",
                                                       MAX_INTEGER]))


def outcome(function, *args):
    try:
        return function(*args)
    except LimitError:
        return LimitError


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.sampled_from(["=", "!=", "<", "<=", ">", ">="]), terms, terms, keys, keys)
def test_integer_test_is_holds(op, left, right, x, y):
    condition = Comparison(op, left, right)
    test = integer_test(condition, NAMES)
    assert test is not None
    binding = (x, y)
    assert outcome(test, binding) == outcome(holds, condition, dict(zip(NAMES, binding)))


def test_other_terms_are_left_to_holds():
    """A side that is a symbol constant or names a variable the binding lacks is not compiled."""
    from lars.terms import Name
    assert integer_test(Comparison("=", Variable("X"), Name("a")), NAMES) is None
    assert integer_term(Variable("Z"), NAMES) is None
