"""Join plans of the incremental engine against clingo itself (solver/incremental/joins.py).

A rule body over two relations and a built-in is evaluated two ways: by :class:`RulePlan` from
every seed (each positive body atom in turn, as the engine does when that atom's relation
changes), and by clingo grounding the same rule over the same facts. Built-ins follow clingo:
its order of symbols (numbers < names < strings), 32-bit arithmetic, an undefined term making
the literal false. Every comparison operator is drawn, and values often collide so that the
boundary of ``<`` and ``<=`` is reached.
"""

from __future__ import annotations

import clingo
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lars.parser import parse_program
from solver.incremental.joins import RulePlan, Table
from solver.keys import key_constant
from solver.symbols import constant_text

KEYS = st.sampled_from([0, 1, 2, -1, "a", "b", '"a', '"1'])
OPERATORS = ("=", "!=", "<", "<=", ">", ">=")
LEFT_SIDES = ("X", "X+1", "X*2")


def text(key) -> str:
    return constant_text(key_constant(key))


def clingo_instances(rule: str, p: set, q: set) -> set:
    facts = "".join(f"p({text(x)},{text(y)})." for x, y in p) + "".join(
        f"q({text(y)},{text(z)})." for y, z in q)
    control = clingo.Control(["--warn=none"])
    control.add("base", [], facts + rule.replace("h(", "inst(") + "#show inst/3.")
    control.ground([("base", [])])
    found: set = set()
    control.solve(on_model=lambda model: found.update(
        tuple(str(arg) for arg in symbol.arguments) for symbol in model.symbols(shown=True)))
    return found


@settings(max_examples=200, deadline=None)
@given(st.sets(st.tuples(KEYS, KEYS), max_size=6), st.sets(st.tuples(KEYS, KEYS), max_size=6),
       st.sampled_from(OPERATORS), st.sampled_from(LEFT_SIDES))
@example({(1, 1)}, {(1, 1)}, "<=", "X")  # equal values: `<=` holds, `<` does not
@example({(1, 1)}, {(1, 1)}, "<", "X")
@example({("a", 1)}, {(1, '"a')}, "<", "X+1")  # arithmetic on a name: undefined, false
def test_every_seed_finds_what_clingo_grounds(p, q, op, left) -> None:
    rule = f"h(X,Y,Z) :- p(X,Y), q(Y,Z), {left} {op} Z."
    plan = RulePlan(parse_program(rule).rules[0])
    relations = {0: Table(p), 1: Table(q)}
    expected = clingo_instances(rule, p, q)
    for seed, seed_relation in ((0, p), (1, q)):
        found = {tuple(text(key) for key in instance)
                 for instance in plan.instances(seed, seed_relation, relations)}
        assert found == expected, f"seed {seed}"


def test_negation_holds_only_without_a_matching_tuple() -> None:
    plan = RulePlan(parse_program("h(X) :- p(X), not q(X).").rules[0])
    relations = {0: Table([(1,), (2,)]), 1: Table([(2,)])}
    instances = plan.instances(0, relations[0].tuples, relations)
    assert sorted(i for i in instances if plan.negation_holds(i, relations)) == [(1,)]


def test_an_assignment_binds_a_variable_for_the_head() -> None:
    plan = RulePlan(parse_program("h(X,Y) :- p(X), Y = X * 3.").rules[0])
    assert sorted(plan.instances(0, [(2,), (5,)], {0: Table([(2,), (5,)])})) == [(2, 6), (5, 15)]
