"""The time-indexed encoding gives the reference's answer streams at every time point.

Differential tests against :class:`solver.reference.Problem` (a fresh grounding per time point)
on random programs and streams (negation stratified or not, ``@`` in heads and bodies, time,
hopping and tuple windows), then the window × modality grid and the paper's running example,
and the refusals of what the encoding does not cover.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings

from lars.errors import UnsupportedError
from lars.parser import parse_facts, parse_program
from solver.reference import Problem
from solver.timeindexed import encode_timeindexed, range_facts, solve_fixed
from tests.helpers import make_stream
from tests.solver.test_examples import COUPON_BACKGROUND, COUPON_RULE, COUPON_STREAM
from tests.strategies import mixed_scenario, scenario, window_scenario


def reference(program, stream, background) -> dict[int, frozenset]:
    problem = Problem(program, stream, frozenset(background))
    return {answer.time: frozenset(answer.streams) for answer in problem.run()}


def assert_same(program, stream, background=frozenset()) -> None:
    assert solve_fixed(program, stream, frozenset(background)) == reference(program, stream, background)


def assert_same_if_encoded(program, stream, background) -> None:
    """:func:`assert_same` where the encoding applies: every time point has an answer stream
    (else the whole program has none) and no □ over variables meets an empty window."""
    assume(all(reference(program, stream, background).values()))
    try:
        range_facts(encode_timeindexed(program, "p"), stream.timeline)
    except UnsupportedError:
        assume(False)
    assert_same(program, stream, background)


@settings(deadline=None, max_examples=150)
@given(scenario())
def test_random_programs_match_the_reference(case):
    program, stream, background, _ = case
    assert_same_if_encoded(program, stream, background)


@settings(deadline=None, max_examples=60)
@given(window_scenario())
def test_random_windows_match_the_reference(case):
    program, stream, background = case[:3]
    assert_same_if_encoded(program, stream, background)


@settings(deadline=None, max_examples=60)
@given(mixed_scenario())
def test_derived_predicates_in_the_input_match_the_reference(case):
    program, stream, background = case[:3]
    assert_same_if_encoded(program, stream, background)


@pytest.mark.parametrize("body", [
    pytest.param("[2] <> p", id="diamond"), pytest.param("[2] [] p", id="box"),
    pytest.param("[2] @T p", id="at-variable"), pytest.param("[3,0,2] <> p", id="hopping"),
    pytest.param("[#2] <> p", id="tuple"), pytest.param("[inf] <> p", id="unbounded"),
    pytest.param("@1 p", id="at-outside"), pytest.param("p", id="plain"),
])
def test_window_modality_grid(body):
    program = parse_program(f"q :- {body}." if "@T" not in body else f"q(T) :- {body}.")
    stream = make_stream((0, 6), {1: "p", 2: "p", 3: "p", 5: "p"})
    assert_same(program, stream)


def test_running_example():
    stream = make_stream((0, 50), COUPON_STREAM)
    assert_same(parse_program(COUPON_RULE), stream, frozenset(parse_facts(COUPON_BACKGROUND)))


def test_plain_head_derived_earlier_is_not_remembered():
    program = parse_program("x :- p. y :- [3] <> x.")
    got = solve_fixed(program, make_stream((0, 4), {1: "p"}))
    assert all(("y", t) not in {(a.predicate, s) for stream in got[t] for a, s in stream}
               for t in range(5) if t != 1)


@pytest.mark.parametrize("contents", [
    pytest.param({1: "p(a); p(b); p(c)", 3: "p(d)"}, id="cut-within-a-point"),
    pytest.param({0: "p(a)", 2: "p(b)", 4: "p(c); p(d)"}, id="one-per-point"),
    pytest.param({}, id="empty"),
])
def test_tuple_windows_follow_the_arrival_order(contents):
    program = parse_program("q(X) :- [#2] <> p(X). r(T) :- [#3] @T p(a). s :- [#2] [] p(d).")
    assert_same(program, make_stream((0, 5), contents))
