"""Unfolding copy rules (solver/incremental/unfold.py): the answers stay the reference's.

Differential: random programs get a copy rule ``x(X) ← ⊞ M a(X)`` (the only rule for ``x``);
with ``x`` hidden and the input signatures given, ``stratified`` and ``incremental`` unfold it
where the module allows, and their answers on the shown predicates must be the reference's.
Then the C-SPARQL translation of CSRBench Q1 (the case it is for) and each refusal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.formulas import BOX, DIAMOND, WindowAtom
from lars.parser import parse_program
from lars.rules import Literal, Program, Rule
from lars.streams import Timeline
from lars.terms import Name, Variable
from solver.incremental.engine import Engine
from solver.incremental.unfold import unfold_copies
from tests.helpers import assert_engine_as_reference
from tests.strategies import (
    DERIVED_SIGNATURES,
    INPUT_SIGNATURES,
    backgrounds,
    programs,
    streams,
    timelines,
    windows,
)
from translate.api import parse_query, translate

X = Variable("X")
INPUTS = frozenset(INPUT_SIGNATURES)
Q1 = Path(__file__).parents[3] / "examples" / "csrbench" / "queries" / "q1-csparql.rq"


@st.composite
def copy_cases(draw):
    """A program whose ``x/1`` is defined by one copy rule only, a stream and a background."""
    copy = Rule(Atom("x", (X,)), (Literal(WindowAtom(
        draw(windows()), draw(st.sampled_from([DIAMOND, BOX])),
        Atom(draw(st.sampled_from(["p", "q", "g"])), (X,)))),))
    rules = [rule for rule in draw(programs()) if getattr(rule.head, "atom", rule.head).predicate != "x"]
    rules.insert(draw(st.integers(0, len(rules))), copy)
    stream = draw(streams(draw(timelines(5))))
    return Program(tuple(rules)), stream, draw(backgrounds())


@settings(deadline=None, max_examples=300)
@given(copy_cases(), st.sampled_from(["stratified", "incremental"]))
def test_unfolded_programs_give_the_reference_answers(case, strategy):
    program, stream, background = case
    shown = frozenset(name for name, _ in DERIVED_SIGNATURES) - {"x"}
    unfolded = unfold_copies(program, shown, frozenset(a.signature for a in background), INPUTS)
    event("unfolded" if unfolded != program else "kept")
    assert_engine_as_reference(program, stream, background, strategy, shown, INPUTS)


def test_csparql_q1_reads_the_window_directly():
    """τ1's ``triple ← ⊞◇ striple`` goes; ``ans_2`` reads four window atoms, as CQELS's τ2."""
    translation = translate(parse_query(Q1.read_text()))
    program = translation.program
    unfolded = unfold_copies(program, frozenset({translation.answer.predicate}), frozenset(),
                             frozenset({("striple", 4)}))
    assert len(unfolded) == len(program) - 1
    assert all(getattr(rule.head, "predicate", None) != "triple" for rule in unfolded)
    [ans_2] = [rule for rule in unfolded if rule.head.predicate == "ans_2"]
    assert [type(lit.formula) for lit in ans_2.body] == [WindowAtom] * 4
    assert {lit.formula.atom.predicate for lit in ans_2.body} == {"striple"}


COPY = "x(X,d) :- [3] <> p(X). "


@pytest.mark.parametrize("text, shown, background, inputs", [
    (COPY + "y(X) :- x(X,d).", {"x", "y"}, set(), INPUTS),                # x is shown
    (COPY + "y(X) :- x(X,d).", {"y"}, {("x", 2)}, INPUTS),                # x in the background
    (COPY + "y(X) :- x(X,d).", {"y"}, set(), INPUTS | {("x", 2)}),         # x can be input
    (COPY + "y(X) :- x(X,d).", {"y"}, set(), None),                       # inputs unknown
    (COPY + "x(a,d). y(X) :- x(X,d).", {"y"}, set(), INPUTS),              # a second rule for x
    (COPY + "y(X) :- q(X), not x(X,d).", {"y"}, set(), INPUTS),           # negated
    (COPY + "y(X) :- [2] <> x(X,d).", {"y"}, set(), INPUTS),              # inside a window
    (COPY + "y(X) :- x(X,Y).", {"y"}, set(), INPUTS),                     # a variable for the constant d
    (COPY + "y(X) :- x(X,e).", {"y"}, set(), INPUTS),                     # another constant
    ("x(X,X) :- [3] <> p(X). y(X) :- x(X,X).", {"y"}, set(), INPUTS),     # a repeated head variable
    ("x(X) :- [3] @T p(X). y(X) :- x(X).", {"y"}, set(), INPUTS),        # @ in the body
])
def test_what_is_not_unfolded(text, shown, background, inputs):
    program = parse_program(text)
    assert unfold_copies(program, frozenset(shown), frozenset(background),
                         None if inputs is None else frozenset(inputs)) == program


def test_input_of_an_unexpected_signature_is_refused():
    program = parse_program(COPY + "y(X) :- x(X,d).")
    engine = Engine(program, Timeline(0, 3), frozenset(), shown=frozenset({"y"}), inputs=INPUTS)
    engine.step(0, [Atom("p", (Name("a"),))])
    with pytest.raises(ValueError, match="cannot hold"):
        engine.step(1, [Atom("x", (Name("a"), Name("d")))])
