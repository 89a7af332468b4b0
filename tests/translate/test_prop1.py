"""Proposition 1 as a property test: push ℘(P) and pull ℘(P, U) against P (SPEC section 6).

For random programs, streams and backgrounds (``tests.strategies``), solved with the project's
solver:

1. push fires at ``t`` — some atom of an input predicate holds at ``t`` (in ``v(t)`` or in the
   background, which windows see too) — then ``AS(℘(P), D, t) = AS(P, D, t)`` up to ``trigger``;
2. otherwise ``AS(℘(P), D, t)`` is what the facts of ``P`` give alone (the paper says ``{D}``: its
   programs have no facts, and ``trigger(P)`` leaves facts untouched);
3. pull at ``t % U = 0`` equals ``P``; 4. otherwise only the facts.

Background-only predicates (``g/1`` here, ``triple/4`` for translated queries) and ``true`` do not
trigger push: they hold at every time point.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.analysis import input_predicates
from lars.atoms import TRUE_PREDICATE
from lars.rules import Program
from translate.names import TRIGGER
from translate.triggers import pull, push

evaluate = pytest.importorskip("solver.reference", reason="the LARS solver is not there yet")
strategies = pytest.importorskip("tests.strategies", reason="the LARS strategies are not there yet")

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answers(program: Program, stream, t: int, background) -> set[frozenset]:
    found = evaluate.answer_streams_at(program, stream, t, frozenset(background))
    return {frozenset(pair for pair in s if pair[0].predicate != TRIGGER) for s in found}


def facts_only(program: Program) -> Program:
    return Program(tuple(rule for rule in program if not rule.body))


@SETTINGS
@given(case=strategies.scenario())
def test_push(case) -> None:
    program, stream, background, t = case
    static = set(strategies.STATIC_SIGNATURES)
    triggering = input_predicates(program) - static - {(TRUE_PREDICATE, 0)}
    fired = any(a.signature in triggering for a in (*stream.at(t), *background))
    expected = program if fired else facts_only(program)
    assert answers(push(program, static), stream, t, background) \
        == answers(expected, stream, t, background)


@SETTINGS
@given(case=strategies.scenario(), period=st.integers(1, 4))
def test_pull(case, period: int) -> None:
    program, stream, background, t = case
    expected = program if t % period == 0 else facts_only(program)
    assert answers(pull(program, period), stream, t, background) \
        == answers(expected, stream, t, background)
