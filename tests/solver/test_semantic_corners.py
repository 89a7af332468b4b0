"""Corners of the semantics that a slip in any strategy would change, checked for every
strategy against answers worked out by hand (issue 18: each of these once survived a
deliberate change to the code).

* ``<=`` includes equality (the fast strategies once read it as ``<`` unnoticed);
* ``◇`` over an empty window is false even for a background atom, ``□`` over it true
  (docs/semantics.md: background atoms hold at every point of every window, and an
  empty window has no point);
* a negative self-loop ``p ← not p`` has no answer stream where its body can fire.
"""

from __future__ import annotations

import pytest

from lars.parser import parse_facts, parse_program
from lars.printer import print_atom
from solver.strategies import STRATEGIES, evaluate, slices_of
from tests.helpers import make_stream


def holds(program: str, timeline: tuple[int, int], contents: dict[int, str], strategy: str,
          background: str = "") -> dict[int, list[list[str]]]:
    """Each time point's answer streams as sorted atom texts (atoms at that time point only)."""
    stream = make_stream(timeline, contents)
    answers = evaluate(parse_program(program), slices_of(stream), stream.timeline,
                       frozenset(parse_facts(background)), strategy)
    return {a.time: sorted(sorted(print_atom(atom) for atom, t in s if t == a.time) for s in a.streams)
            for a in answers}


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("op, expected", [
    ("<=", ["x(1)", "x(2)"]), ("<", ["x(1)"]), (">=", ["x(2)", "x(3)"]), (">", ["x(3)"]),
    ("=", ["x(2)"]), ("!=", ["x(1)", "x(3)"]),
])
def test_each_comparison_at_its_boundary(strategy, op, expected):
    found = holds(f"x(X) :- [0] <> p(X), X {op} 2.", (0, 1), {0: "p(1); p(2); p(3)"}, strategy)
    assert found[0] == [expected]


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_diamond_over_an_empty_window_is_false_even_for_background(strategy):
    # [0,0,4]: the pivot floor(t/4)*4 = 0 lies before the timeline [1,3], so the window is empty
    found = holds("d :- [0,0,4] <> b. e :- [0,0,4] [] b. f :- [0,0,4] <> c.", (1, 3), {1: "c"},
                  strategy, background="b.")
    assert found == {1: [["e"]], 2: [["e"]], 3: [["e"]]}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_diamond_over_a_non_empty_window_holds_for_background(strategy):
    found = holds("d :- [2] <> b. e :- [2] <> c.", (0, 2), {}, strategy, background="b.")
    assert found == {0: [["d"]], 1: [["d"]], 2: [["d"]]}


@pytest.mark.parametrize("strategy", ("reference", "incremental", "auto"))
def test_a_negative_self_loop_has_no_answer_where_it_fires(strategy):
    found = holds("p :- q, not p.", (0, 1), {1: "q"}, strategy)
    assert found == {0: [[]], 1: []}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_tuple_windows_count_the_latest_atoms(strategy):
    """``⊞^{#2}`` at t is the substream from the time of the second latest atom up to t (q0 p1
    q2 q3): ``<> p`` holds while p1 is among them (1, 2), ``[] q`` where every point of it has q
    (0: [0,0]; 3: [2,3]; not 4: [2,4], nothing at 4)."""
    found = holds("x :- [#2] <> p. y :- [#2] [] q.", (0, 4), {0: "q", 1: "p", 2: "q", 3: "q"}, strategy)
    assert found == {0: [["y"]], 1: [["x"]], 2: [["x"]], 3: [["y"]], 4: [[]]}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_diamond_over_an_empty_window_is_false_for_atoms_with_variables(strategy):
    """Only ``□`` over variables holds for every value of an empty window (needs a domain);
    ``◇ p(X)`` there stays false, even for a background atom."""
    found = holds("d(X) :- [0,0,4] <> b(X), c(X). e(X) :- [0,0,4] [] b(X), c(X).", (1, 2), {},
                  strategy, background="b(1). c(1). c(2).")
    assert found == {1: [["e(1)", "e(2)"]], 2: [["e(1)", "e(2)"]]}


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("program, contents, dead", [
    ("@U y :- [0] @T p, U = T + 5.", {0: "p", 7: "p"}, 7),  # 0+5 on the timeline, 7+5 = 12 past it
    ("@U y :- [0] <> p(U).", {1: "p(a)", 2: "p(3)"}, 1),    # a name is no time point
    ("@12 y :- [0] <> p.", {2: "p"}, 2),                    # a constant past the timeline's end
])
def test_a_head_time_off_the_timeline_leaves_no_answer(strategy, program, contents, dead):
    # the encoding's constraint: a body that holds with its @-head off the timeline [0,9] has
    # no answer stream; every other time point has one (empty at that time point)
    found = holds(program, (0, 9), contents, strategy)
    assert found == {t: [] if t == dead else [[]] for t in range(10)}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_rule_without_negation_over_a_derived_predicate_fires(strategy):
    # the stratified strategy evaluates y's rule bottom-up in Python: with nothing negated, every
    # instance of its body derives its head
    found = holds("x(X) :- [0] <> p(X). y(X) :- x(X), X >= 2.", (0, 1), {0: "p(1); p(2); p(3)"},
                  strategy)
    assert found == {0: [["x(1)", "x(2)", "x(3)", "y(2)", "y(3)"]], 1: [[]]}
