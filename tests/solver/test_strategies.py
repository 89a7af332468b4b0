"""Every evaluation strategy gives exactly the reference's answers (SPEC section 7).

Differential tests: on random programs and streams, the whole timeline is evaluated by the
reference (:class:`solver.reference.Problem`, a fresh clingo grounding per time point) and by each
faster strategy of :mod:`solver.strategies`; the sequences of ``TimePointAnswer`` must be equal.
The random cases cover negation (stratified or not: even and odd loops), ``@`` in heads and
bodies, tuple, hopping and unbounded windows, empty time points, long gaps, and input or
background atoms of derived predicates; the papers' examples and the window × modality grid of
``test_examples.py`` are checked too. Then the strategies' own promises: lazy slices, bounded
state, skipping, and errors.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from lars.analysis import is_stratified
from lars.atoms import Atom
from lars.errors import InputError, UnsupportedError
from lars.formulas import base_atom
from lars.parser import parse_program
from lars.streams import Stream, Timeline
from lars.terms import Number
from solver.reference import Problem
from solver.answers import TimePointAnswer
from solver.incremental.engine import Engine
from solver.strategies import (
    STRATEGIES, checked_slices, choose_strategy, evaluate, projected, run, slices_of,
)
from tests.helpers import make_stream, problem
from tests.solver.test_examples import COUPON_BACKGROUND, COUPON_RULE, COUPON_STREAM, GRID_STREAM
from tests.strategies import gap_scenario, mixed_scenario, scenario, window_scenario

FASTER = ("incremental", "stratified", "auto")
WHOLE_TIMELINE = settings(deadline=None)
"""Each example solves every time point several times over: no per-example deadline."""


def strategies_for(program) -> list[str]:
    """The faster strategies that accept ``program`` (``stratified`` needs a stratified one)."""
    return [s for s in FASTER if s != "stratified" or is_stratified(program)]


def first_difference(expected: list[TimePointAnswer], got: list[TimePointAnswer]) -> str:
    for want, have in zip(expected, got):
        if want != have:
            return f"at t={want.time}: reference {want.streams}, got {have.streams}"
    return f"{len(expected)} answers from the reference, {len(got)} from the strategy"


def assert_same_as_reference(program, stream: Stream, background=frozenset()) -> None:
    """Every faster strategy gives the reference's answers, also when showing one predicate."""
    expected = list(Problem(program, stream, frozenset(background)).run())
    shown = {base_atom(program.rules[0].head).predicate} if program.rules else set()
    expected_shown = [projected(answer, frozenset(shown)) for answer in expected]
    for strategy in strategies_for(program):
        got = list(evaluate(program, slices_of(stream), stream.timeline, background, strategy))
        assert got == expected, f"{strategy}: {first_difference(expected, got)}"
        got = list(evaluate(program, slices_of(stream), stream.timeline, background, strategy,
                            shown=shown))
        assert got == expected_shown, f"{strategy}, shown: {first_difference(expected_shown, got)}"


# --- differential: random cases ----------------------------------------------------------------

@WHOLE_TIMELINE
@given(scenario())
def test_random_programs_and_streams(case):
    program, stream, background, _ = case
    assert_same_as_reference(program, stream, background)


@WHOLE_TIMELINE
@given(window_scenario())
def test_every_window_and_modality_over_dense_streams(case):
    program, stream, background, _ = case
    assert_same_as_reference(program, stream, background)


@settings(deadline=None, max_examples=40)
@given(gap_scenario())
def test_long_gaps_between_bursts(case):
    program, stream, background, _ = case
    assert_same_as_reference(program, stream, background)


@WHOLE_TIMELINE
@given(mixed_scenario())
def test_input_and_background_atoms_of_derived_predicates(case):
    program, stream, background, _ = case
    assert_same_as_reference(program, stream, background)


# --- differential: the papers' examples and the grid of test_examples.py -----------------------

def test_running_example():
    prob = problem(COUPON_RULE, (0, 50), COUPON_STREAM, COUPON_BACKGROUND)
    assert_same_as_reference(prob.program, prob.stream, prob.background)


def test_lars_paper_window_example():
    prob = problem("x ← ⊞^5 ◇ tr(d,p2), ⊞^5 ◇ bus(e,p2).", (0, 13),
                   {2: "tr(a,p1); bus(c,p1)", 8: "tr(d,p2)", 11: "bus(e,p2)"})
    assert_same_as_reference(prob.program, prob.stream)


@pytest.mark.parametrize("rule", [
    pytest.param("x :- [2] <> p.", id="time-diamond"),
    pytest.param("x :- [1] [] p.", id="time-box"),
    pytest.param("x :- [2] @5 p.", id="time-at-constant"),
    pytest.param("x :- [3] @T p, T >= 5.", id="time-at-variable"),
    pytest.param("x :- [inf] <> q, not [0] <> p.", id="unbounded-and-negated-now"),
    pytest.param("x :- [3] <> q, not [2] [] q.", id="time-box-negated"),
    pytest.param("x :- [2,0,3] <> p.", id="hopping-diamond"),
    pytest.param("x :- [0,2,1] <> p.", id="ahead-sees-no-future-input"),
    pytest.param("x :- [#1] <> q.", id="tuple-diamond"),
    pytest.param("x :- [#2] [] p.", id="tuple-box"),
    pytest.param("x :- [#3] @T p, T >= 5.", id="tuple-at-variable"),
    pytest.param("x :- [#2] <> p, not [#1] <> p.", id="tuple-negated"),
    pytest.param("x :- @5 p.", id="at-outside-window"),
    pytest.param("x :- not p.", id="plain-negated"),
    pytest.param("x :- [0] @T true, T % 3 = 0.", id="pull-condition"),
    pytest.param("@U y :- [0] @T p, U = T + 1.\nx :- [0,1,1] <> y.", id="at-head-seen-ahead"),
    pytest.param("x :- p.\ny :- [3] <> x.", id="plain-head-not-remembered"),
    pytest.param("@U y :- [0] @T p, U = T + 5.", id="at-head-off-the-timeline"),
    pytest.param("x :- not y.\ny :- not x.", id="even-loop"),
    pytest.param("x :- not x.", id="odd-loop"),
    pytest.param("x :- p.\nx :- [2] <> x, not q.", id="positive-recursion"),
    pytest.param("x :- [#2] <> x.", id="tuple-window-over-a-derived-predicate"),
    pytest.param("@T x :- [#4] @T true.", id="tuple-window-not-yet-full-starts-the-timeline"),
    pytest.param("@5 y :- not z. z :- not y.", id="even-loop-with-a-head-at-a-constant-time"),
    pytest.param("@T y :- not z, [1] @T q. z :- not y, [1] <> q.", id="even-loop-with-at-bindings"),
])
def test_window_modality_grid(rule):
    assert_same_as_reference(parse_program(rule), make_stream((0, 9), GRID_STREAM))


def test_box_over_an_empty_window_uses_the_active_domain():
    prob = problem("x(X) :- [0,0,5] [] p(X), q(X).\ny(X) :- [0,0,5] [] x(X).", (3, 6), {3: "q(a)"})
    assert_same_as_reference(prob.program, prob.stream)


def test_body_atoms_share_a_state_only_when_their_patterns_match_the_same_tuples():
    prob = problem("x(X) :- [2] <> p(X,Y), [2] <> p(Y,X).\n"
                   "y(X) :- [2] <> p(X,X), [1] <> p(Y,Y), [2] <> p(Y,a), not [2] <> p(X,b).\n"
                   "z(Z) :- [2] <> p(Z,Z), [2] <> p(Z,W).",
                   (0, 5), {0: "p(1,2); p(a,a)", 1: "p(2,1); p(b,b)", 2: "p(a,b); p(3,3)", 4: "p(b,a)"})
    assert_same_as_reference(prob.program, prob.stream)
    state = Engine(prob.program, prob.stream.timeline, frozenset()).state_of
    assert state[0, 0] is not state[0, 1]                      # (X,Y) vs (Y,X) as columns X, Y
    assert state[2, 1] is state[0, 1]                          # p(Z,W) is p(Y,X) renamed
    assert state[2, 0] is state[1, 0] is not state[1, 1]       # p(Z,Z) is p(X,X); other window
    assert len({id(state[1, 2]), id(state[1, 3]), id(state[1, 0])}) == 3  # constants differ


def test_values_of_every_kind_and_clingo_arithmetic():
    """Values of every kind compared in clingo's order, and arithmetic near the edge of clingo's
    32-bit integers (past it, issue 28: refused, never wrapped; tests/badinput/test_bounds.py)."""
    prob = problem('x(X,Y) :- [3] <> p(X), [3] <> p(Y), X < Y.\n'
                   'y(U) :- [2] <> q(T), U = T * 65536 * 10000 + 1 - T / 2 + T % 2.',
                   (0, 4), {0: 'p(1); p(a); p("a"); p(<http://ex.org/a>)', 2: "q(3); q(b)"})
    assert_same_as_reference(prob.program, prob.stream)


# --- the strategies' own promises --------------------------------------------------------------

def test_auto_picks_stratified_when_it_can_and_says_why():
    assert choose_strategy(parse_program("x :- [3] <> p, not y. y :- q."))[0] == "stratified"
    name, reason = choose_strategy(parse_program("x :- not y. y :- not x."))
    assert name == "incremental" and "negation" in reason


def test_slices_are_consumed_lazily_and_memory_stays_bounded():
    taken = []

    def endless():
        for t in itertools.count():
            taken.append(t)
            yield t, [Atom("p", (Number(t),)), Atom("p", (Number(t + 1),))]
    program = parse_program("q(X) :- [3] <> p(X).")
    engine = Engine(program, Timeline(0, 10**9), frozenset())
    answers = run(engine, checked_slices(endless(), engine.timeline), engine.timeline)
    for answer in itertools.islice(answers, 500):
        pass
    assert answer.streams == (frozenset((Atom("q", (Number(v),)), 499) for v in range(496, 501)),)
    assert len(taken) <= 501
    state = engine.states[0]
    assert len(state.tuples) == 5 and len(state.inside) == 4


def test_idle_time_points_reuse_the_previous_answer_without_clingo():
    program = parse_program("x :- not y, [2] <> p. y :- not x, [2] <> p.")
    stream = make_stream((0, 30), {3: "p", 20: "p"})
    engine = Engine(program, stream.timeline, frozenset(), residual="clingo")
    got = list(run(engine, checked_slices(slices_of(stream), stream.timeline), stream.timeline))
    assert got == list(Problem(program, stream).run())
    assert engine.residual.solved <= 8 and engine.skipped >= 23


@pytest.mark.parametrize("residual", ["python", "clingo"])
def test_a_tumbling_window_is_evaluated_once_per_step(residual):
    """Between two steps of ``⊞^{4,0,5}`` no fed relation changes: those points reuse the answer."""
    program = parse_program("d(X,Y) :- [4,0,5] <> p(X,Y). q(X) :- d(X,Y), d(Y,Z), not d(Z,X).")
    contents = {t: "; ".join(f"p({t % 3},{(t + k) % 4})" for k in range(2)) for t in range(0, 40, 2)}
    stream = make_stream((0, 40), contents)
    engine = Engine(program, stream.timeline, frozenset(), residual=residual)
    got = list(run(engine, checked_slices(slices_of(stream), stream.timeline), stream.timeline))
    assert got == list(Problem(program, stream).run())
    assert any(stream for answer in got for stream in answer.streams)
    assert engine.skipped == 41 - 9  # solved at 0 and at every step 5, 10, ..., 40


def test_no_skipping_when_answers_can_depend_on_the_time_itself():
    program = parse_program("x :- not y, [0] @T true, T % 2 = 0. y :- not x.")
    stream = make_stream((0, 5), {})
    engine = Engine(program, stream.timeline, frozenset(), residual="clingo")
    got = list(run(engine, checked_slices(slices_of(stream), stream.timeline), stream.timeline))
    assert got == list(Problem(program, stream).run())
    assert engine.skipped == 0


def test_stratified_refuses_a_program_with_a_negative_cycle():
    with pytest.raises(UnsupportedError, match="stratified"):
        list(evaluate(parse_program("x :- not x."), [], Timeline(0, 1), strategy="stratified"))


def test_unknown_strategy_is_refused():
    assert "stratified" in STRATEGIES
    with pytest.raises(UnsupportedError, match="unknown strategy"):
        list(evaluate(parse_program("x."), [], Timeline(0, 1), strategy="fastest"))


@pytest.mark.parametrize("strategy", ["reference", "incremental", "stratified"])
@pytest.mark.parametrize("slices, message", [
    pytest.param([(2, []), (1, [])], "ascending", id="out-of-order"),
    pytest.param([(1, []), (1, [])], "ascending", id="repeated"),
    pytest.param([(7, [])], "outside the timeline", id="off-the-timeline"),
])
def test_bad_slices_are_input_errors(strategy, slices, message):
    with pytest.raises(InputError, match=message):
        list(evaluate(parse_program("x :- p."), slices, Timeline(0, 5), strategy=strategy))


@pytest.mark.parametrize("text", ["q(X) :- [3] <> p(X).", "q(X) :- [5,0,5] <> p(X), not r.",
                                  "q :- [2] [] p(1).", "q(X) :- [#2] <> p(X)."])
def test_a_long_stretch_without_input_is_jumped_over(text):
    """One slice at 10^6: the points before and after it are the answers shifted, found by
    :meth:`Engine.quiet_until` without stepping (a handful of steps, not a million)."""
    program = parse_program(text)
    line = Timeline(0, 10**6 + 10)
    stepped = []
    engine = Engine(program, line, frozenset())
    step = engine.step
    engine.step = lambda t, atoms: stepped.append(t) or step(t, atoms)
    slices = [(10**6, [Atom("p", (Number(1),))])]
    got = list(run(engine, checked_slices(iter(slices), line), line))
    assert len(got) == len(line) and len(stepped) < 40
    stream = Stream.from_mapping(Timeline(10**6 - 10, 10**6 + 10), dict(slices))
    near = list(Problem(program, stream).run())
    assert [a.streams for a in got[-21:]] == [a.streams for a in near]
