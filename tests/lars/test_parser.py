"""The parser: each construct in both spellings, positions, facts, stream lines, and every error path."""

from __future__ import annotations

import pytest

from lars.atoms import Atom, Comparison
from lars.errors import ParseError, Position
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom
from lars.parser import (
    parse_atom, parse_facts, parse_literal, parse_program, parse_rule, parse_stream_line, parse_term,
    parse_window,
)
from lars.rules import Literal, Rule
from lars.terms import BinaryOp, Iri, Name, Number, String, Variable
from lars.windows import TimeWindow, TupleWindow

X, Y, Z, T = Variable("X"), Variable("Y"), Variable("Z"), Variable("T")
P, Q = Atom("p", (X,)), Atom("q")


def op(symbol, left, right):
    return BinaryOp(symbol, left, right)


def both(unicode: str, ascii: str, value, name: str) -> list:
    """Two table rows, one per spelling, with ids ``name-unicode`` and ``name-ascii``."""
    return [pytest.param(unicode, value, id=f"{name}-unicode"), pytest.param(ascii, value, id=f"{name}-ascii")]


@pytest.mark.parametrize("text, window", [
    *both("⊞^30", "[30]", TimeWindow(30), "time"),
    *both("⊞^{30,0,5}", "[30,0,5]", TimeWindow(30, 0, 5), "time-step"),
    *both("⊞^{30,2,1}", "[30,2,1]", TimeWindow(30, 2, 1), "time-ahead"),
    *both("⊞^{30}", "[ 30 ]", TimeWindow(30), "time-braced-or-spaced"),
    *both("⊞^∞", "[inf]", TimeWindow(None), "infinite"),
    *both("⊞^{∞,1,4}", "[inf,1,4]", TimeWindow(None, 1, 4), "infinite-step"),
    *both("⊞^inf", "[∞]", TimeWindow(None), "infinite-other-word"),
    *both("⊞^0", "[0]", TimeWindow(0), "zero"),
    *both("⊞^now", "[now]", TimeWindow(0), "now"),
    *both("⊞^{#10}", "[#10]", TupleWindow(10), "tuple"),
])
def test_parse_window(text: str, window) -> None:
    assert parse_window(text) == window


@pytest.mark.parametrize("text, literal", [
    *both("⊞^30 ◇ p(X)", "[30] <> p(X)", Literal(WindowAtom(TimeWindow(30), Diamond(), P)), "diamond"),
    *both("⊞^{#3} □ q", "[#3] [] q", Literal(WindowAtom(TupleWindow(3), Box(), Q)), "box"),
    *both("⊞^∞ @_T p(X)", "[inf] @T p(X)", Literal(WindowAtom(TimeWindow(None), At(T), P)), "window-at"),
    *both("⊞^∞ @_{T} p(X)", "[inf]@T p(X)", Literal(WindowAtom(TimeWindow(None), At(T), P)), "window-at-braced"),
    *both("@_5 q", "@5 q", Literal(AtAtom(Number(5), Q)), "at-number"),
    *both("@_-5 q", "@ -5 q", Literal(AtAtom(Number(-5), Q)), "at-negative"),
    *both("@__X q", "@ _X q", Literal(AtAtom(Variable("_X"), Q)), "at-underscore-variable"),
    *both("not ⊞^{#3} □ q", "not [#3] [] q", Literal(WindowAtom(TupleWindow(3), Box(), Q), True), "negated"),
    *both("X = Y", "X=Y", Literal(Comparison("=", X, Y)), "eq"),
    *both("X ≠ Y", "X != Y", Literal(Comparison("!=", X, Y)), "ne"),
    *both("X < Y", "X<Y", Literal(Comparison("<", X, Y)), "lt"),
    *both("X ≤ Y", "X <= Y", Literal(Comparison("<=", X, Y)), "le"),
    *both("X > Y", "X>Y", Literal(Comparison(">", X, Y)), "gt"),
    *both("X ≥ Y", "X >= Y", Literal(Comparison(">=", X, Y)), "ge"),
    pytest.param("p()", Literal(Atom("p")), id="empty-parentheses"),
    pytest.param("not p", Literal(Atom("p"), True), id="negated-atom"),
    pytest.param("a = X", Literal(Comparison("=", Name("a"), X)), id="name-left-of-comparison"),
    pytest.param("a - 1 < X", Literal(Comparison("<", op("-", Name("a"), Number(1)), X)), id="name-in-arithmetic"),
    pytest.param("X = <http://ex.org/a>", Literal(Comparison("=", X, Iri("http://ex.org/a"))), id="iri-right"),
    pytest.param("not <a> = X", Literal(Comparison("=", Iri("a"), X), True), id="iri-after-not"),
    pytest.param("X < <a>", Literal(Comparison("<", X, Iri("a"))), id="iri-after-less-than"),
    pytest.param("X<Y", Literal(Comparison("<", X, Y)), id="less-than-without-spaces"),
    pytest.param("T % 5 = 0", Literal(Comparison("=", op("%", T, Number(5)), Number(0))), id="modulo"),
    pytest.param("⊞^30 <> q", Literal(WindowAtom(TimeWindow(30), Diamond(), Q)), id="mixed-unicode-ascii"),
    pytest.param("[30] ◇ q", Literal(WindowAtom(TimeWindow(30), Diamond(), Q)), id="mixed-ascii-unicode"),
    pytest.param("[now] <> inf(now)", Literal(WindowAtom(TimeWindow(0), Diamond(), Atom("inf", (Name("now"),)))),
                 id="window-words-are-names-elsewhere"),
])
def test_parse_literal(text: str, literal: Literal) -> None:
    assert parse_literal(text) == literal


@pytest.mark.parametrize("text, term", [
    pytest.param("42", Number(42), id="number"),
    pytest.param("-3", Number(-3), id="negative"),
    pytest.param("- 3", Number(-3), id="negative-spaced"),
    pytest.param("mbt", Name("mbt"), id="name"),
    pytest.param("g_classify", Name("g_classify"), id="name-underscore"),
    pytest.param("Sh", Variable("Sh"), id="variable"),
    pytest.param("_", Variable("_"), id="anonymous-variable"),
    pytest.param('"rayban"', String("rayban"), id="string"),
    pytest.param('"a\\"b\\\\c\\nd\\te\\rf"', String('a"b\\c\nd\te\rf'), id="string-escapes"),
    pytest.param('"⊞ # é"', String("⊞ # é"), id="string-unicode-and-hash"),
    pytest.param("<http://ex.org/a#b>", Iri("http://ex.org/a#b"), id="iri-with-hash"),
    pytest.param("1 + 2 * 3", op("+", Number(1), op("*", Number(2), Number(3))), id="precedence"),
    pytest.param("(1 + 2) * 3", op("*", op("+", Number(1), Number(2)), Number(3)), id="parentheses"),
    pytest.param("X - Y - Z", op("-", op("-", X, Y), Z), id="left-associative"),
    pytest.param("X - (Y - Z)", op("-", X, op("-", Y, Z)), id="right-nested"),
    pytest.param("X / Y % Z", op("%", op("/", X, Y), Z), id="division-modulo"),
    pytest.param("X - -3", op("-", X, Number(-3)), id="minus-negative"),
    pytest.param("X--3", op("-", X, Number(-3)), id="minus-negative-unspaced"),
    pytest.param("((X))", X, id="redundant-parentheses"),
])
def test_parse_term(text: str, term) -> None:
    assert parse_term(text) == term


@pytest.mark.parametrize("text, atom", [
    pytest.param("fact", Atom("fact"), id="zero-arity"),
    pytest.param("fact()", Atom("fact"), id="zero-arity-parentheses"),
    pytest.param('offer(Sh,"mbt",30)', Atom("offer", (Variable("Sh"), String("mbt"), Number(30))), id="args"),
    pytest.param("t( <a> , -1 , null )", Atom("t", (Iri("a"), Number(-1), Name("null"))), id="spaces"),
])
def test_parse_atom(text: str, atom: Atom) -> None:
    assert parse_atom(text) == atom


@pytest.mark.parametrize("text, rule", [
    *both("p ← q.", "p :- q.", Rule(Atom("p"), (Literal(Q),)), "arrow"),
    *both("@_T p(X) ← ⊞^∞ @_T p(X).", "@T p(X) :- [inf] @T p(X).",
          Rule(AtAtom(T, P), (Literal(WindowAtom(TimeWindow(None), At(T), P)),)), "at-head"),
    pytest.param("fact.", Rule(Atom("fact")), id="fact"),
    pytest.param("@_3 fact.", Rule(AtAtom(Number(3), Atom("fact"))), id="at-fact"),
    pytest.param("p:-q,not r.", Rule(Atom("p"), (Literal(Q), Literal(Atom("r"), True))), id="no-spaces"),
    pytest.param("p  # a comment\n  :- q # another\n .", Rule(Atom("p"), (Literal(Q),)), id="comments-inside"),
])
def test_parse_rule(text: str, rule: Rule) -> None:
    assert parse_rule(text) == rule


def test_paper_example_in_both_spellings() -> None:
    paper = "ans(Sh,Pr,Pe) ← ⊞^30 ◇ offer(Sh,Pr,Pe), ⊞^5 ◇ isNear(Sh), g_classify(Pr,Ge), Pe ≥ 20, Ge ≠ 1."
    ascii = "ans(Sh,Pr,Pe) :- [30] <> offer(Sh,Pr,Pe), [5] <> isNear(Sh), g_classify(Pr,Ge), Pe >= 20, Ge != 1."
    assert parse_program(paper) == parse_program(ascii)
    assert len(parse_rule(ascii).body) == 5


def test_rules_carry_the_position_of_their_first_token() -> None:
    program = parse_program("# header\n  a.\nb ← c. @_T d ←\n  e.", "f.lars")
    positions = [rule.position for rule in program.rules]
    assert positions == [Position("f.lars", 2, 3), Position("f.lars", 3, 1), Position("f.lars", 3, 8)]


def test_position_is_not_part_of_equality() -> None:
    assert parse_rule("p.", "a.lars") == parse_rule("\n\n  p.", "b.lars")


def test_empty_and_comment_only_programs() -> None:
    assert len(parse_program("")) == 0
    assert len(parse_program("  # nothing\n# here\n")) == 0


def test_parse_facts() -> None:
    text = '# products\ng_classify("mbt",1). g_classify("rayban",0).\nflag.'
    assert parse_facts(text, "bg.lars") == [
        Atom("g_classify", (String("mbt"), Number(1))),
        Atom("g_classify", (String("rayban"), Number(0))),
        Atom("flag"),
    ]


@pytest.mark.parametrize("line, result", [
    pytest.param('10: offer(a,"mbt",30)', (10, [Atom("offer", (Name("a"), String("mbt"), Number(30)))]), id="one-atom"),
    pytest.param("18: isNear(a), isNear(b)", (18, [Atom("isNear", (Name("a"),)), Atom("isNear", (Name("b"),))]),
                 id="two-atoms"),
    pytest.param("50:", (50, []), id="empty"),
    pytest.param("-2: p  # note", (-2, [Atom("p")]), id="negative-time-comment"),
    pytest.param("3:p(<a>)\n", (3, [Atom("p", (Iri("a"),))]), id="no-space-newline"),
    pytest.param("", None, id="blank"),
    pytest.param("   \t", None, id="whitespace"),
    pytest.param("# just a comment", None, id="comment-only"),
])
def test_parse_stream_line(line: str, result) -> None:
    assert parse_stream_line(line, "s.stream", 1) == result


def error_of(call) -> ParseError:
    with pytest.raises(ParseError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("text, message, line, column", [
    pytest.param("p :- q", "expected ',' or '.' but found end of input", 1, 7, id="missing-dot-at-end"),
    pytest.param("p :- q\nr.", "expected ',' or '.' but found 'r'", 2, 1, id="missing-dot-before-rule"),
    pytest.param("p q.", "expected ':-' or '.' but found 'q'", 1, 3, id="missing-arrow"),
    pytest.param("p :- [30,0] <> q.", "expected ',' but found ']'", 1, 11, id="window-two-numbers"),
    pytest.param("p :- ⊞^{30,0} ◇ q.", "expected ',' but found '}'", 1, 13, id="window-two-numbers-unicode"),
    pytest.param("p :- [30;0] <> q.", "expected a token but found ';'", 1, 9, id="window-semicolon"),
    pytest.param("p :- [30 0] <> q.", "expected ',' or ']' but found '0'", 1, 10, id="window-missing-comma"),
    pytest.param("p :- [x] <> q.", "expected a window length (a number, ∞, inf or now) but found 'x'", 1, 7,
                 id="window-bad-length"),
    pytest.param("p :- [3,0,0] <> q.", "expected a window step of at least 1 but found '0'", 1, 11,
                 id="window-step-zero"),
    pytest.param("p :- ⊞^{#0} ◇ q.", "expected a tuple count of at least 1 but found '0'", 1, 10, id="tuple-zero"),
    pytest.param("p :- ⊞30 ◇ q.", "expected '^' but found '30'", 1, 7, id="window-missing-caret"),
    pytest.param("p :- [3] q.", "expected a modality (◇, □, @_t or <>, [], @t) but found 'q'", 1, 10,
                 id="missing-modality"),
    pytest.param("b ← ⊞^3 ◇◇ c.", "expected an atom but found '◇'", 1, 10, id="unicode-columns"),
    pytest.param("a.\nb ← ⊞^3 ◇ X.", "expected an atom but found 'X'", 2, 11, id="variable-as-atom"),
    pytest.param("p :- q § r.", "expected a token but found '§'", 1, 8, id="unknown-character"),
    pytest.param('p("abc).', "expected '\"' to close the string but found end of input", 1, 3,
                 id="unterminated-string"),
    pytest.param('p("ab\nc").', "expected '\"' to close the string but found end of line", 1, 3,
                 id="string-across-lines"),
    pytest.param('p("a\\q").', "expected one of \\\" \\\\ \\n \\t \\r but found '\\q'", 1, 5, id="bad-escape"),
    pytest.param("p(<http://a b>).", "expected '>' to close the IRI but found ' '", 1, 12, id="iri-with-space"),
    pytest.param("p :- X = <a", "expected '>' to close the IRI but found end of input", 1, 12,
                 id="unterminated-iri"),
    pytest.param("p(X+1).", "expected ',' or ')' but found '+'", 1, 4, id="arithmetic-in-atom"),
    pytest.param("p(f(X)).", "expected ',' or ')' but found '('", 1, 4, id="function-term"),
    pytest.param("p(X,).", "expected a term but found ')'", 1, 5, id="missing-argument"),
    pytest.param("not :- q.", "expected a rule head but found 'not'", 1, 1, id="not-as-head"),
    pytest.param(":- q.", "expected a rule head but found ':-'", 1, 1, id="missing-head"),
    pytest.param("p :- not not q.", "expected a body literal but found 'not'", 1, 10, id="double-not"),
    pytest.param("p :- .", "expected a body literal but found '.'", 1, 6, id="empty-body"),
    pytest.param("p :- q(not).", "expected a term but found 'not'", 1, 8, id="not-as-constant"),
    pytest.param("p :- X.", "expected a comparison operator but found '.'", 1, 7, id="lone-variable"),
    pytest.param("p :- (X + 1 = 2.", "expected an operator or ')' but found '='", 1, 13, id="unclosed-parenthesis"),
    pytest.param("p :- X = -Y.", "expected a number after '-' but found 'Y'", 1, 11, id="negated-variable"),
    pytest.param("@ p.", "expected a time point (a number or a variable) but found 'p'", 1, 3, id="at-without-time"),
    pytest.param("@_{T p.", "expected '}' but found 'p'", 1, 6, id="at-unclosed-brace"),
    pytest.param("p :- q.\n\n   r :- [#3] <> X > 1.", "expected an atom but found 'X'", 3, 17,
                 id="error-on-third-line"),
])
def test_program_errors(text: str, message: str, line: int, column: int) -> None:
    error = error_of(lambda: parse_program(text, "prog.lars"))
    assert (error.message, error.position) == (message, Position("prog.lars", line, column))


def test_error_renders_as_one_line_with_position() -> None:
    error = error_of(lambda: parse_program("p :- [30,0] <> q.", "prog.lars"))
    assert str(error) == "prog.lars:1:11: error: expected ',' but found ']'"


def test_arithmetic_in_atom_has_a_hint() -> None:
    assert "comparison" in error_of(lambda: parse_program("p(X*2).")).hint


@pytest.mark.parametrize("call, message, column", [
    pytest.param(lambda: parse_rule("p. q."), "expected end of input but found 'q'", 4, id="rule-trailing"),
    pytest.param(lambda: parse_atom("p(X)."), "expected end of input but found '.'", 5, id="atom-trailing-dot"),
    pytest.param(lambda: parse_term("X +"), "expected a term but found end of input", 4, id="term-incomplete"),
    pytest.param(lambda: parse_window("30"), "expected a window but found '30'", 1, id="window-missing"),
    pytest.param(lambda: parse_literal("not"), "expected a body literal but found end of input", 4,
                 id="literal-only-not"),
])
def test_entry_point_errors(call, message: str, column: int) -> None:
    error = error_of(call)
    assert (error.message, error.position.line, error.position.column) == (message, 1, column)


@pytest.mark.parametrize("text, message, line, column", [
    pytest.param('g(1).\ng("a", X).', "expected a constant but found 'X'", 2, 8, id="non-ground"),
    pytest.param("g(1) :- q.", "expected '.' but found ':-'", 1, 6, id="rule-in-facts"),
    pytest.param("g(1)", "expected '.' but found end of input", 1, 5, id="missing-dot"),
    pytest.param("@3 g(1).", "expected an atom but found '@'", 1, 1, id="at-in-facts"),
])
def test_fact_errors(text: str, message: str, line: int, column: int) -> None:
    error = error_of(lambda: parse_facts(text, "bg.lars"))
    assert (error.message, error.position) == (message, Position("bg.lars", line, column))


def test_non_ground_fact_says_why() -> None:
    assert "ground" in error_of(lambda: parse_facts("g(X).")).hint


@pytest.mark.parametrize("line, message, column", [
    pytest.param("5 a(1)", "expected ':' but found 'a'", 3, id="missing-colon"),
    pytest.param("x: a", "expected a time point (an integer) but found 'x'", 1, id="missing-time"),
    pytest.param("5: a(X)", "expected a constant but found 'X'", 6, id="non-ground"),
    pytest.param("5: a.", "expected ',' or end of line but found '.'", 5, id="trailing-dot"),
    pytest.param("5: a b", "expected ',' or end of line but found 'b'", 6, id="missing-comma"),
    pytest.param("5: a,", "expected an atom but found end of line", 6, id="trailing-comma"),
    pytest.param('5: a("x)', "expected '\"' to close the string but found end of line", 6, id="unterminated-string"),
])
def test_stream_line_errors(line: str, message: str, column: int) -> None:
    error = error_of(lambda: parse_stream_line(line, "s.stream", 12))
    assert (error.message, error.position) == (message, Position("s.stream", 12, column))
