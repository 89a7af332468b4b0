"""Stratification (lars/analysis.py): a cycle through negation, and only such a cycle, makes a
program unstratified (issue 18: a negative self-loop went uncounted by no test)."""

from __future__ import annotations

import pytest

from lars.analysis import check_safety, input_predicates, is_stratified, negative_cycles
from lars.errors import InputError
from lars.parser import parse_program


@pytest.mark.parametrize("text, stratified", [
    pytest.param("p :- not p.", False, id="negative-self-loop"),
    pytest.param("p :- q, not p.", False, id="negative-self-loop-with-body"),
    pytest.param("p :- not q. q :- not p.", False, id="negative-two-cycle"),
    pytest.param("p :- q. q :- r. r :- not p.", False, id="negative-three-cycle"),
    pytest.param("p :- [3] <> q. q :- not p.", False, id="cycle-through-a-window"),
    pytest.param("p :- p.", True, id="positive-self-loop"),
    pytest.param("p :- q. q :- p.", True, id="positive-cycle"),
    pytest.param("p :- not q. q :- r.", True, id="negation-without-cycle"),
    pytest.param("p :- not q. q :- q.", True, id="negation-into-a-positive-cycle"),
    pytest.param("p :- s. ", True, id="no-negation"),
])
def test_stratified_exactly_without_a_negative_cycle(text, stratified):
    program = parse_program(text)
    assert is_stratified(program) is stratified
    assert bool(negative_cycles(program)) is not stratified


def test_a_negative_self_loop_is_its_own_negative_cycle():
    [(source, target)] = negative_cycles(parse_program("p :- not p. q :- not r."))
    assert source == target


def test_input_predicates_are_used_and_never_derived():
    program = parse_program("x :- [2] <> p(1), not y. y :- q, x. z :- @3 r.")
    assert input_predicates(program) == {("p", 1), ("q", 0), ("r", 0)}


def test_equations_bind_in_any_order():
    """``A = B + 1`` binds ``A`` only once ``B = C + 1`` has bound ``B``: a second pass."""
    check_safety(parse_program("x(A) :- p(C), A = B + 1, B = C + 1."))
    with pytest.raises(InputError, match="unsafe"):
        check_safety(parse_program("x(A) :- p(C), A = B + 1."))
