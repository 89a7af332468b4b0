"""Round trips of the text syntax: ``parse_program(print_program(P, s)) == P`` in both spellings."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings

from lars.atoms import Atom, Comparison
from lars.formulas import At, AtAtom, WindowAtom
from lars.lexer import IRI, STRING, tokenize
from lars.parser import parse_atom, parse_program, parse_term
from lars.printer import Spelling, print_atom, print_program, print_term
from lars.rules import Literal, Program, Rule
from lars.terms import BinaryOp, Iri, Name, Number, String, Variable
from lars.windows import TimeWindow
from tests.lars.syntax_strategies import atoms, programs, terms

SPELLINGS = [pytest.param(spelling, id=spelling.value) for spelling in Spelling]

PAPER_EXAMPLE = """\
ans(Sh,Pr,Pe) ← ⊞^30 ◇ offer(Sh,Pr,Pe), ⊞^5 ◇ isNear(Sh), g_classify(Pr,Ge), Pe ≥ 20, Ge ≠ 1.
@_T late(X) ← ⊞^∞ @_T p(X), not ⊞^{#3} □ q, @_2 r, T % 5 = 0.
fact."""

ASCII_EXAMPLE = """\
ans(Sh,Pr,Pe) :- [30] <> offer(Sh,Pr,Pe), [5] <> isNear(Sh), g_classify(Pr,Ge), Pe >= 20, Ge != 1.
@T late(X) :- [inf] @T p(X), not [#3] [] q, @2 r, T % 5 = 0.
fact."""

TRICKY = Program((
    Rule(AtAtom(Variable("_X"), Atom("p", (String('a"\\\n\t\r#'), Iri("http://ex.org/a#b")))), (
        Literal(WindowAtom(TimeWindow(None, 2, 3), At(Variable("_")), Atom("inf", (Name("now"),)))),
        Literal(Comparison("<", Variable("X"), Iri("=")), True),
        Literal(Comparison("=", BinaryOp("-", Variable("X"), BinaryOp("-", Number(-3), Name("a"))),
                           BinaryOp("*", BinaryOp("+", Number(1), Number(2)), Number(-4)))),
    )),
))


@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(max_examples=300, deadline=None)
@given(program=programs)
@example(program=TRICKY)
@example(program=Program())
def test_program_round_trip(program: Program, spelling: Spelling) -> None:
    assert parse_program(print_program(program, spelling)) == program


@settings(max_examples=300, deadline=None)
@given(program=programs)
def test_both_spellings_parse_to_the_same_program(program: Program) -> None:
    unicode_text = print_program(program, Spelling.UNICODE)
    ascii_text = print_program(program, Spelling.ASCII)
    assert parse_program(unicode_text) == parse_program(ascii_text) == program
    assert all(token.text.isascii() for token in tokenize(ascii_text) if token.kind not in (STRING, IRI))


@settings(max_examples=200, deadline=None)
@given(program=programs)
def test_comments_are_ignored(program: Program) -> None:
    text = print_program(program, Spelling.ASCII, comments=lambda index, rule: f"rule {index}\n[#3 ⊞")
    assert parse_program(text) == program


@settings(max_examples=300, deadline=None)
@given(term=terms)
def test_term_round_trip(term) -> None:
    assert parse_term(print_term(term)) == term


@settings(max_examples=200, deadline=None)
@given(atom=atoms)
def test_atom_round_trip(atom: Atom) -> None:
    assert parse_atom(print_atom(atom)) == atom


def test_paper_and_ascii_examples_are_the_same_program() -> None:
    assert parse_program(PAPER_EXAMPLE) == parse_program(ASCII_EXAMPLE)


@pytest.mark.parametrize("spelling, text", [
    pytest.param(Spelling.UNICODE, PAPER_EXAMPLE, id="unicode"),
    pytest.param(Spelling.ASCII, ASCII_EXAMPLE, id="ascii"),
])
def test_examples_are_canonical(spelling: Spelling, text: str) -> None:
    assert print_program(parse_program(text), spelling) == text


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_printing_is_canonical_after_one_round(spelling: Spelling) -> None:
    messy = "ans( X ) :-[ now ]<>p(X),⊞^{inf,0,1} □ q ,@_{ T } r,X=(1+2) # hi\n."
    once = print_program(parse_program(messy), spelling)
    assert print_program(parse_program(once), spelling) == once
