"""Inlining hidden predicates read once (solver/incremental/unfold.py): the answers stay the reference's.

Differential: random programs get a hidden ``h/2`` defined by one rule over input and static
predicates (plain, ``@`` and window atoms, comparisons, negation) and read by random rules
(once, twice, negated or in a window); ``stratified`` and ``incremental`` inline it where the
module allows, and their answers on the shown predicates must be the reference's. Then the case
it is for (a FILTER over its basic graph pattern: CSRBench Q1) and each refusal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.formulas import DIAMOND, WindowAtom
from lars.parser import parse_program
from lars.rules import Literal, Program, Rule
from lars.terms import Variable
from solver.incremental.unfold import inline_single_uses, unfold_copies
from tests.helpers import assert_engine_as_reference
from tests.strategies import (
    CONSTANTS,
    DATA_VARIABLES,
    DERIVED_SIGNATURES,
    INPUT_SIGNATURES,
    STATIC_SIGNATURES,
    backgrounds,
    comparisons,
    extended_atoms,
    rules,
    streams,
    timelines,
    windows,
)
from translate.api import parse_query, translate

INPUTS = frozenset(INPUT_SIGNATURES)
SHOWN = frozenset(name for name, _ in DERIVED_SIGNATURES)
UNDERIVED = INPUT_SIGNATURES + STATIC_SIGNATURES
QUERIES = Path(__file__).parents[3] / "examples" / "csrbench" / "queries"


@st.composite
def definitions(draw) -> Rule:
    """``h(u1,u2) ← β``: β of one to three atoms over input and static predicates (plain, ``@``
    or in a window, with the variables X, Y and T), maybe a comparison and a negated atom; the
    head's arguments are bound variables (a variable of β may stay out of it) or constants."""
    body = [Literal(f) for f in draw(st.lists(extended_atoms(DATA_VARIABLES, True, UNDERIVED),
                                              min_size=1, max_size=3))]
    bound = frozenset().union(*(literal.variables() for literal in body))
    if bound and draw(st.booleans()):
        body.append(Literal(draw(comparisons(bound))))
    if draw(st.booleans()):
        negated = draw(extended_atoms(tuple(v for v in DATA_VARIABLES if v.name in bound),
                                      "T" in bound, UNDERIVED))
        body.append(Literal(negated, negated=True))
    names = sorted(bound)
    variables = [st.just(Variable(n)) for n in names]
    head = tuple(draw(st.one_of(st.sampled_from(CONSTANTS), *variables * 3)) for _ in range(2))
    if head[0] == head[1] and isinstance(head[0], Variable):
        head = (head[0], draw(st.sampled_from(CONSTANTS)))
    return Rule(Atom("h", head), tuple(draw(st.permutations(body))))


@st.composite
def readers(draw, head: tuple) -> Rule:
    """A random rule that also reads ``h(v1,v2)``: mostly positive and plain, sometimes negated
    or in a window (not inlined then); ``v`` a variable of the rule, another one, or a constant,
    mostly the constant of the definition's ``head`` where it has one."""
    rule = draw(rules(allow_facts=False))
    names = sorted(rule.variables())
    anything = st.one_of(st.sampled_from(CONSTANTS), st.sampled_from(DATA_VARIABLES),
                         *[st.just(Variable(n)) for n in names] * 2)
    args = tuple(draw(anything if isinstance(h, Variable) else st.one_of(st.just(h), st.just(h), anything))
                 for h in head)
    atom = Atom("h", args)
    kind = draw(st.sampled_from(["plain"] * 3 + ["negated", "window"]))
    if kind == "negated":  # only over variables the rule binds: it stays safe
        atom = Atom("h", tuple(a if not isinstance(a, Variable) or a.name in names else CONSTANTS[0]
                               for a in args))
        literal = Literal(atom, negated=True)
    elif kind == "window":
        literal = Literal(WindowAtom(draw(windows()), DIAMOND, atom))
    else:
        literal = Literal(atom)
    body = list(rule.body)
    body.insert(draw(st.integers(0, len(body))), literal)
    return Rule(rule.head, tuple(body))


@st.composite
def inline_cases(draw):
    """A program with one definition of ``h``, one to two readers and other random rules."""
    others = draw(st.lists(rules(), max_size=2))
    definition = draw(definitions())
    reading = readers(definition.head.args)
    chosen = [definition, *draw(st.lists(reading, min_size=1, max_size=2)
                                if draw(st.integers(0, 3)) == 0 else reading.map(lambda r: [r])), *others]
    stream = draw(streams(draw(timelines(5))))
    return Program(tuple(draw(st.permutations(chosen)))), stream, draw(backgrounds())


@settings(deadline=None, max_examples=500)
@given(inline_cases(), st.sampled_from(["stratified", "incremental"]))
def test_inlined_programs_give_the_reference_answers(case, strategy):
    program, stream, background = case
    inlined = inline_single_uses(program, SHOWN, frozenset(a.signature for a in background), INPUTS)
    event("inlined" if inlined != program else "kept")
    assert_engine_as_reference(program, stream, background, strategy, SHOWN, INPUTS)


def test_a_filter_reads_the_windows_of_its_pattern():
    """CSRBench Q1 (both languages): ``ans_1 ← ans_2, FILTER`` becomes one rule over the four
    window atoms of the basic graph pattern and the comparison, its other variables kept."""
    for name in ("q1-cqels.rq", "q1-csparql.rq"):
        translation = translate(parse_query((QUERIES / name).read_text()))
        shown = frozenset({translation.answer.predicate})
        inputs = frozenset({("striple", 4)})
        program = unfold_copies(translation.program, shown, frozenset(), inputs)
        [rule] = inline_single_uses(program, shown, frozenset(), inputs).rules
        assert rule.head.predicate == translation.answer.predicate
        kinds = [type(literal.formula).__name__ for literal in rule.body]
        assert kinds == ["WindowAtom"] * 4 + ["Comparison"]
        assert rule.variables() == {"Obs", "Res", "Sensor", "Value"}


def test_other_variables_are_renamed_apart():
    program = parse_program("h(X) :- p(X), q(Y). y :- h(X), q(Y), X != Y.")
    [rule] = inline_single_uses(program, frozenset({"y"}), frozenset(), INPUTS).rules
    assert [literal.formula for literal in rule.body][:2] == [
        Atom("p", (Variable("X"),)), Atom("q", (Variable("Y_1"),))]


DEFINITION = "h(X,d) :- [3] <> p(X), q(X). "


@pytest.mark.parametrize("text, shown, background, inputs", [
    (DEFINITION + "y(X) :- h(X,d).", {"h", "y"}, set(), INPUTS),             # h is shown
    (DEFINITION + "y(X) :- h(X,d).", {"y"}, {("h", 2)}, INPUTS),             # h in the background
    (DEFINITION + "y(X) :- h(X,d).", {"y"}, set(), INPUTS | {("h", 2)}),      # h can be input
    (DEFINITION + "y(X) :- h(X,d).", {"y"}, set(), None),                    # inputs unknown
    (DEFINITION + "h(a,d). y(X) :- h(X,d).", {"y"}, set(), INPUTS),           # a second rule for h
    (DEFINITION + "y(X) :- h(X,d). z(X) :- h(X,d).", {"y", "z"}, set(), INPUTS),  # read twice
    (DEFINITION + "y(X) :- q(X), not h(X,d).", {"y"}, set(), INPUTS),        # negated
    (DEFINITION + "y(X) :- [2] <> h(X,d).", {"y"}, set(), INPUTS),           # inside a window
    (DEFINITION + "y(X) :- @1 h(X,d).", {"y"}, set(), INPUTS),               # under @
    (DEFINITION + "y(X) :- h(X,Y).", {"y"}, set(), INPUTS),                  # a variable for the constant d
    (DEFINITION + "y(X) :- h(X,e).", {"y"}, set(), INPUTS),                  # another constant
    ("h(X,X) :- p(X). y(X) :- h(X,X).", {"y"}, set(), INPUTS),              # a repeated head variable
    ("h(X) :- p(X), z(X). z(X) :- q(X). y(X) :- h(X).", {"y", "z"}, set(), INPUTS),  # reads a derived z
    ("@T h(X) :- [3] @T p(X). y(X) :- h(X).", {"y"}, set(), INPUTS),        # head under @
    ("h(T) :- [3] @T p(a). y :- h(a).", {"y"}, set(), INPUTS),               # a name for a time
])
def test_what_is_not_inlined(text, shown, background, inputs):
    program = parse_program(text)
    assert inline_single_uses(program, frozenset(shown), frozenset(background),
                              None if inputs is None else frozenset(inputs)) == program
