"""The printer: canonical text of each construct in both spellings (SPEC section 3)."""

from __future__ import annotations

import pytest

from lars.atoms import Atom, Comparison
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom
from lars.printer import (
    Spelling, print_atom, print_formula, print_literal, print_program, print_rule, print_term,
    print_window,
)
from lars.rules import Literal, Program, Rule
from lars.terms import BinaryOp, Iri, Name, Number, String, Variable
from lars.windows import TimeWindow, TupleWindow

X, Y, Z, T = Variable("X"), Variable("Y"), Variable("Z"), Variable("T")
P = Atom("p", (X,))


def op(symbol, left, right):
    return BinaryOp(symbol, left, right)


@pytest.mark.parametrize("term, text", [
    pytest.param(Number(42), "42", id="number"),
    pytest.param(Number(-3), "-3", id="negative-number"),
    pytest.param(Name("g_classify"), "g_classify", id="name"),
    pytest.param(Name("inf"), "inf", id="name-inf"),
    pytest.param(String("rayban"), '"rayban"', id="string"),
    pytest.param(String('a"b\\c\nd\te\rf'), '"a\\"b\\\\c\\nd\\te\\rf"', id="string-escapes"),
    pytest.param(String("⊞ é #"), '"⊞ é #"', id="string-unicode"),
    pytest.param(Iri("http://ex.org/a#b"), "<http://ex.org/a#b>", id="iri"),
    pytest.param(Variable("Sh"), "Sh", id="variable"),
    pytest.param(Variable("_"), "_", id="variable-underscore"),
    pytest.param(op("%", T, Number(5)), "T % 5", id="modulo"),
    pytest.param(op("-", X, op("-", Y, Z)), "X - (Y - Z)", id="minus-right-nested"),
    pytest.param(op("-", op("-", X, Y), Z), "X - Y - Z", id="minus-left-assoc"),
    pytest.param(op("*", op("+", X, Y), Z), "(X + Y) * Z", id="sum-in-product"),
    pytest.param(op("+", X, op("*", Y, Z)), "X + Y * Z", id="product-in-sum"),
    pytest.param(op("/", X, op("*", Y, Z)), "X / (Y * Z)", id="product-right-of-division"),
    pytest.param(op("*", op("/", X, Y), Z), "X / Y * Z", id="division-left-of-product"),
    pytest.param(op("-", X, Number(-3)), "X - -3", id="minus-negative"),
    pytest.param(op("*", Number(-2), op("%", X, Y)), "-2 * (X % Y)", id="modulo-right-of-product"),
])
def test_print_term(term, text: str) -> None:
    assert print_term(term) == text


@pytest.mark.parametrize("atom, text", [
    pytest.param(Atom("fact"), "fact", id="zero-arity"),
    pytest.param(Atom("offer", (Variable("Sh"), String("mbt"), Number(30))), 'offer(Sh,"mbt",30)', id="args"),
    pytest.param(Atom("t", (Iri("http://ex.org/s"), Name("null"))), "t(<http://ex.org/s>,null)", id="iri-arg"),
])
def test_print_atom(atom: Atom, text: str) -> None:
    assert print_atom(atom) == text


@pytest.mark.parametrize("window, unicode, ascii", [
    pytest.param(TimeWindow(30), "⊞^30", "[30]", id="time"),
    pytest.param(TimeWindow(30, 0, 5), "⊞^{30,0,5}", "[30,0,5]", id="time-step"),
    pytest.param(TimeWindow(30, 2, 1), "⊞^{30,2,1}", "[30,2,1]", id="time-ahead"),
    pytest.param(TimeWindow(None), "⊞^∞", "[inf]", id="infinite"),
    pytest.param(TimeWindow(None, 1, 4), "⊞^{∞,1,4}", "[inf,1,4]", id="infinite-step"),
    pytest.param(TimeWindow(0), "⊞^0", "[0]", id="now"),
    pytest.param(TupleWindow(10), "⊞^{#10}", "[#10]", id="tuple"),
])
def test_print_window(window, unicode: str, ascii: str) -> None:
    assert (print_window(window, "unicode"), print_window(window, "ascii")) == (unicode, ascii)


@pytest.mark.parametrize("formula, unicode, ascii", [
    pytest.param(P, "p(X)", "p(X)", id="atom"),
    pytest.param(AtAtom(T, P), "@_T p(X)", "@T p(X)", id="at-variable"),
    pytest.param(AtAtom(Number(5), P), "@_5 p(X)", "@5 p(X)", id="at-number"),
    pytest.param(AtAtom(Number(-5), P), "@_-5 p(X)", "@-5 p(X)", id="at-negative"),
    pytest.param(AtAtom(Variable("_T"), P), "@__T p(X)", "@ _T p(X)", id="at-underscore-variable"),
    pytest.param(WindowAtom(TimeWindow(30), Diamond(), P), "⊞^30 ◇ p(X)", "[30] <> p(X)", id="diamond"),
    pytest.param(WindowAtom(TupleWindow(3), Box(), P), "⊞^{#3} □ p(X)", "[#3] [] p(X)", id="box"),
    pytest.param(WindowAtom(TimeWindow(None), At(T), P), "⊞^∞ @_T p(X)", "[inf] @T p(X)", id="window-at"),
    pytest.param(Comparison("=", X, Y), "X = Y", "X = Y", id="eq"),
    pytest.param(Comparison("!=", X, Y), "X ≠ Y", "X != Y", id="ne"),
    pytest.param(Comparison("<", X, Y), "X < Y", "X < Y", id="lt"),
    pytest.param(Comparison("<=", X, Y), "X ≤ Y", "X <= Y", id="le"),
    pytest.param(Comparison(">", X, Y), "X > Y", "X > Y", id="gt"),
    pytest.param(Comparison(">=", X, Y), "X ≥ Y", "X >= Y", id="ge"),
    pytest.param(Comparison("=", op("%", T, Number(5)), Number(0)), "T % 5 = 0", "T % 5 = 0", id="modulo-eq"),
])
def test_print_formula(formula, unicode: str, ascii: str) -> None:
    assert (print_formula(formula, "unicode"), print_formula(formula, "ascii")) == (unicode, ascii)


def test_print_literal_negated() -> None:
    literal = Literal(WindowAtom(TupleWindow(3), Box(), Atom("q")), negated=True)
    assert print_literal(literal, Spelling.ASCII) == "not [#3] [] q"


LATE = Rule(AtAtom(T, Atom("late", (X,))), (
    Literal(WindowAtom(TimeWindow(None), At(T), P)),
    Literal(WindowAtom(TupleWindow(3), Box(), Atom("q")), negated=True),
    Literal(AtAtom(Number(2), Atom("r"))),
    Literal(Comparison("=", op("%", T, Number(5)), Number(0))),
))


@pytest.mark.parametrize("rule, unicode, ascii", [
    pytest.param(Rule(Atom("fact")), "fact.", "fact.", id="fact"),
    pytest.param(Rule(Atom("p"), (Literal(Atom("q")),)), "p ← q.", "p :- q.", id="one-literal"),
    pytest.param(
        LATE,
        "@_T late(X) ← ⊞^∞ @_T p(X), not ⊞^{#3} □ q, @_2 r, T % 5 = 0.",
        "@T late(X) :- [inf] @T p(X), not [#3] [] q, @2 r, T % 5 = 0.",
        id="at-head-all-kinds",
    ),
])
def test_print_rule(rule: Rule, unicode: str, ascii: str) -> None:
    assert (print_rule(rule, "unicode"), print_rule(rule, "ascii")) == (unicode, ascii)


TWO_RULES = Program((Rule(Atom("a")), Rule(Atom("b"), (Literal(Atom("a")),))))


@pytest.mark.parametrize("comments, text", [
    pytest.param(None, "a.\nb ← a.", id="none"),
    pytest.param({1: "node 2: BGP"}, "a.\n# node 2: BGP\nb ← a.", id="mapping"),
    pytest.param(lambda index, rule: f"rule {index}", "# rule 0\na.\n# rule 1\nb ← a.", id="callable"),
    pytest.param(lambda index, rule: None, "a.\nb ← a.", id="callable-none"),
    pytest.param({0: "first\nsecond"}, "# first\n# second\na.\nb ← a.", id="multi-line"),
])
def test_print_program_comments(comments, text: str) -> None:
    assert print_program(TWO_RULES, comments=comments) == text


def test_print_empty_program() -> None:
    assert print_program(Program()) == ""


def test_spelling_accepts_enum_and_string() -> None:
    assert print_window(TimeWindow(3), Spelling.ASCII) == print_window(TimeWindow(3), "ascii")


def test_unknown_spelling_is_refused() -> None:
    with pytest.raises(ValueError, match="latex"):
        print_window(TimeWindow(3), "latex")


@pytest.mark.parametrize("make", [
    pytest.param(lambda: Name("not"), id="name-not"),
    pytest.param(lambda: Iri("a b"), id="iri-space"),
    pytest.param(lambda: Iri("a>b"), id="iri-gt"),
    pytest.param(lambda: Iri(""), id="iri-empty"),
    pytest.param(lambda: Atom("not", (Variable("X"),)), id="predicate-not"),
])
def test_values_without_a_spelling_cannot_be_built(make) -> None:
    with pytest.raises(ValueError, match="not"):
        make()
