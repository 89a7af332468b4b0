"""The residual: rules that read derived predicates, solved by clingo or bottom-up in Python.

Each program below has rules over derived predicates (the residual) besides rules over input
only; the engine with the clingo residual (``incremental``) and with the Python one
(``stratified``) must give the reference's answers at every time point. The programs are chosen
for what a residual can get wrong: a window over a derived predicate, negation of a derived
atom, a chain of strata, a head at another time point, and two answer streams.
"""

from __future__ import annotations

import pytest

from lars.parser import parse_facts, parse_program
from solver.incremental.residual import at_free
from solver.strategies import evaluate, slices_of
from tests.helpers import make_stream

STREAM = {1: "p(1); p(2)", 2: "p(2); r(2)", 4: "p(3)", 5: "r(3)", 7: "p(1)"}
BACKGROUND = frozenset(parse_facts("b(2). b(3)."))

PROGRAMS = [
    pytest.param("q(X) :- p(X), b(X). s(X) :- [3] <> q(X).", id="window-over-derived"),
    pytest.param("q(X) :- p(X). s(X) :- r(X), not q(X).", id="negated-derived"),
    pytest.param("q(X) :- p(X). u(X) :- q(X), b(X). v(X) :- u(X), not r(X). w :- [2] [] q(2).",
                 id="chain-of-strata"),
    pytest.param("q(X) :- [2] <> p(X). @T s(X) :- [2] @T q(X), T < 5.", id="at-head"),
    pytest.param("x(X) :- p(X), not y(X). y(X) :- p(X), not x(X).", id="two-answer-streams"),
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_both_residuals_give_the_reference_answers(program: str) -> None:
    parsed = parse_program(program)
    stream = make_stream((0, 8), STREAM)
    reference = list(evaluate(parsed, slices_of(stream), stream.timeline, BACKGROUND, "reference"))
    strategies = ["incremental"] + (["stratified"] if "not x(X)" not in program else [])
    for strategy in strategies:
        found = list(evaluate(parsed, slices_of(stream), stream.timeline, BACKGROUND, strategy))
        assert found == reference, strategy


def test_at_free() -> None:
    assert at_free(parse_program("q(X) :- [3] <> p(X)."))
    assert not at_free(parse_program("@T q(X) :- [3] @T p(X)."))
    assert not at_free(parse_program("q :- @5 p."))
