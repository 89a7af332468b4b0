"""Text → LARS values, in both spellings (SPEC section 3; the grammar is in ``docs/syntax.md``).

A hand-written recursive-descent parser over the tokens of :mod:`lars.lexer`, one method per
grammar rule. The paper's spelling and the ASCII one may be mixed freely, and
``parse_program(print_program(P, spelling)) == P`` for every program and both spellings.

>>> rule = parse_rule("ans(Sh) :- [30] <> offer(Sh,Pr,Pe), Pe >= 20.")
>>> rule == parse_rule("ans(Sh) ← ⊞^30 ◇ offer(Sh,Pr,Pe), Pe ≥ 20.")
True
>>> rule.body[0].formula.window
TimeWindow(length=30, ahead=0, step=1)

Errors are :class:`~lars.errors.ParseError` with the position of the offending token:

>>> parse_rule("p(X) :- q(X), [30,0] <> r.")
Traceback (most recent call last):
lars.errors.ParseError: <string>:1:20: error: expected ',' but found ']'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TypeVar

from lars.atoms import COMPARISON_OPERATORS, Atom, Comparison
from lars.deep import deep
from lars.errors import ParseError, Position
from lars.formulas import At, AtAtom, Box, Diamond, Fold, Modality, TimeTerm, WindowAtom
from lars.lexer import (
    ARROW, AT, BOX, DIAMOND, EOF, INFINITY, IRI, NAME, NEGATION, NUMBER, STRING, VARIABLE, Token,
    tokenize,
)
from lars.rules import BodyFormula, Head, Literal, Program, Rule
from lars.terms import (
    MAX_INTEGER, MIN_INTEGER, BinaryOp, Function, Iri, Name, Number, SimpleTerm, String, Term, Variable,
)
from lars.windows import TimeWindow, TupleWindow, Window

T = TypeVar("T")

_SUMS = ("+", "-")
_PRODUCTS = ("*", "/", "%")
_OPERATORS = (*_SUMS, *_PRODUCTS, *COMPARISON_OPERATORS)
_TERM_START = (NUMBER, "-", NAME, VARIABLE, STRING, IRI, "(")
_SIMPLE_TERMS: dict[str, Callable[[Token], SimpleTerm]] = {
    NAME: lambda token: Name(token.text),
    STRING: lambda token: String(token.value),
    IRI: lambda token: Iri(token.value),
    VARIABLE: lambda token: Variable(token.text),
}
_WINDOW_WORDS = {"inf": None, "now": 0}
"""Words that are window lengths in window position only (anywhere else they are names)."""

_ARGUMENT_HINT = "atom arguments are constants or variables; compute in a comparison: p(Y), Y = X + 1"
_GROUND_HINT = "facts and stream atoms must be ground"


class _Parser:
    """The parser state: the tokens and the index of the current one."""

    def __init__(self, text: str, source: str, first_line: int = 1, end_name: str = "end of input"):
        self.source = source
        self.tokens = tokenize(text, source, first_line, end_name)
        self.index = 0

    # -- navigation --------------------------------------------------------------------------

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def at(self, *kinds: str) -> bool:
        return self.token.kind in kinds

    def advance(self) -> Token:
        token = self.token
        self.index = min(self.index + 1, len(self.tokens) - 1)
        return token

    def expect(self, kind: str, expected: str) -> Token:
        if not self.at(kind):
            raise self.error(expected)
        return self.advance()

    def position(self, token: Token) -> Position:
        return Position(self.source, token.line, token.column)

    def error(self, expected: str, hint: str | None = None) -> ParseError:
        """``expected X but found Y``, at the current token."""
        message = f"expected {expected} but found {self.token.describe()}"
        return ParseError(message, self.position(self.token), hint)

    def separated(self, item: Callable[[], T]) -> list[T]:
        """``item { "," item }``."""
        items = [item()]
        while self.at(","):
            self.advance()
            items.append(item())
        return items

    def finish(self, value: T, expected: str = "end of input") -> T:
        self.expect(EOF, expected)
        return value

    # -- rules -------------------------------------------------------------------------------

    def program(self) -> Program:
        rules = []
        while not self.at(EOF):
            rules.append(self.rule())
        return Program(tuple(rules))

    def rule(self) -> Rule:
        """``head [ arrow literal { "," literal } ] "."``"""
        start = self.token
        head = self.head()
        body: list[Literal] = []
        if self.at(ARROW):
            self.advance()
            body = self.separated(self.literal)
            self.expect(".", "',' or '.'")
        else:
            self.expect(".", "':-' or '.'")
        return Rule(head, tuple(body), self.position(start))

    def head(self) -> Head:
        if self.at(AT):
            return self.at_atom()
        if not self.at(NAME) or self.token.text == NEGATION:
            raise self.error("a rule head")
        return self.atom()

    def literal(self) -> Literal:
        negated = self.at(NAME) and self.token.text == NEGATION
        if negated:
            self.advance()
        return Literal(self.body_formula(), negated)

    def body_formula(self) -> BodyFormula:
        """A window atom, an ``@`` atom, an atom or a comparison, told apart by the first token."""
        if self.at("⊞", "["):
            return self.window_atom()
        if self.at(AT) and self.peek().kind != NAME:
            return self.at_atom()
        if not self.at(*_TERM_START, AT) or self.token.text == NEGATION:
            raise self.error("a body literal")
        if self.at(NAME) and self.peek().kind not in _OPERATORS:
            return self.atom()
        if self.at(VARIABLE) and self.peek().kind == "=" and self.peek(2).text == "fold" \
                and self.peek(3).kind == "{":
            return self.fold()
        return self.comparison()

    def fold(self) -> Fold:
        """``VARIABLE "=" "fold" "{" constant "," VARIABLE "," VARIABLE ":" atom "}"``
        (:mod:`lars.folds`)."""
        result = Variable(self.advance().text)
        self.advance(), self.advance(), self.advance()
        function = self.simple_term(ground=True)
        self.expect(",", "','")
        element = Variable(self.expect(VARIABLE, "a variable").text)
        self.expect(",", "','")
        value = Variable(self.expect(VARIABLE, "a variable").text)
        self.expect(":", "':'")
        atom = self.atom()
        self.expect("}", "'}'")
        return Fold(result, function, element, value, atom)

    # -- extended atoms ----------------------------------------------------------------------

    def atom(self, ground: bool = False) -> Atom:
        """``NAME [ "(" [ argument { "," argument } ] ")" ]``"""
        if not self.at(NAME) or self.token.text == NEGATION:
            raise self.error("an atom")
        predicate = self.advance().text
        if not self.at("("):
            return Atom(predicate)
        self.advance()
        if self.at(")"):
            self.advance()
            return Atom(predicate)
        args = self.separated(lambda: self.simple_term(ground))
        if self.at(*_SUMS, *_PRODUCTS):
            raise self.error("',' or ')'", _ARGUMENT_HINT)
        self.expect(")", "',' or ')'")
        return Atom(predicate, tuple(args))

    def at_atom(self) -> AtAtom:
        self.advance()
        time = self.time()
        return AtAtom(time, self.atom())

    def time(self) -> TimeTerm:
        """``time_point | "{" time_point "}"`` after an ``@``."""
        if not self.at("{"):
            return self.time_point()
        self.advance()
        time = self.time_point()
        self.expect("}", "'}'")
        return time

    def time_point(self) -> TimeTerm:
        if not self.at("-", NUMBER, VARIABLE):
            raise self.error("a time point (a number or a variable)")
        return self.simple_term()

    def window_atom(self) -> WindowAtom:
        window = self.window()
        modality = self.modality()
        return WindowAtom(window, modality, self.atom())

    def modality(self) -> Modality:
        if self.at(DIAMOND, BOX):
            return Diamond() if self.advance().kind == DIAMOND else Box()
        if self.at(AT):
            self.advance()
            return At(self.time())
        raise self.error("a modality (◇, □, @_t or <>, [], @t)")

    # -- windows -----------------------------------------------------------------------------

    def window(self) -> Window:
        """``"[" window_spec "]"`` or ``"⊞" "^" ( length | "{" window_spec "}" )``."""
        if self.advance().kind == "[":
            return self.window_spec("]")
        self.expect("^", "'^'")
        if not self.at("{"):
            return TimeWindow(self.window_length())
        self.advance()
        return self.window_spec("}")

    def window_spec(self, close: str) -> Window:
        """``( "#" NUMBER [ "," atom ] | length [ "," NUMBER "," NUMBER ] ) close``."""
        if self.at("#"):
            self.advance()
            window: Window = self.tuple_window(self.count("a tuple count of at least 1", 1))
        else:
            length = self.window_length()
            if not self.at(",", close):
                raise self.error(f"',' or '{close}'")
            window = self.window_tail(length) if self.at(",") else TimeWindow(length)
        self.expect(close, f"'{close}'")
        return window

    def tuple_window(self, size: int) -> TupleWindow:
        """``⊞^{#n}``, or ``⊞^{#n, pattern}`` after a ``,``: a pattern atom with constants and
        ``_`` that picks the substream the window counts."""
        if not self.at(","):
            return TupleWindow(size)
        self.advance()
        start = self.token
        pattern = self.atom()
        if any(isinstance(arg, Variable) and arg.name != "_" for arg in pattern.args):
            raise ParseError("a substream pattern has constants and _ only (it binds nothing)",
                             self.position(start), "write _ for an argument that may be anything")
        return TupleWindow(size, pattern)

    def window_tail(self, length: int | None) -> TimeWindow:
        """``"," ahead "," step`` of ``⊞^{l,u,d}``."""
        self.advance()
        ahead = self.count("a number (how far the window reaches ahead)", 0)
        self.expect(",", "','")
        return TimeWindow(length, ahead, self.count("a window step of at least 1", 1))

    def window_length(self) -> int | None:
        if self.at(NUMBER):
            return self.advance().value
        if self.at(INFINITY):
            self.advance()
            return None
        if self.at(NAME) and self.token.text in _WINDOW_WORDS:
            return _WINDOW_WORDS[self.advance().text]
        raise self.error("a window length (a number, ∞, inf or now)")

    def count(self, expected: str, minimum: int) -> int:
        if not self.at(NUMBER) or self.token.value < minimum:
            raise self.error(expected)
        return self.advance().value

    # -- terms -------------------------------------------------------------------------------

    def comparison(self) -> Comparison:
        left = self.term()
        if not self.at(*COMPARISON_OPERATORS):
            raise self.error("a comparison operator")
        op = self.advance().kind
        return Comparison(op, left, self.term())

    def term(self) -> Term:
        """``product { ("+" | "-") product }``, left associative."""
        return self.operation(_SUMS, self.product)

    def product(self) -> Term:
        """``primary { ("*" | "/" | "%") primary }``, left associative."""
        return self.operation(_PRODUCTS, self.primary)

    def operation(self, operators: tuple[str, ...], operand: Callable[[], Term]) -> Term:
        left = operand()
        while self.at(*operators):
            op = self.advance().kind
            left = BinaryOp(op, left, operand())
        return left

    def primary(self) -> Term:
        if self.at(AT):
            return self.function()
        if not self.at("("):
            return self.simple_term()
        self.advance()
        inner = self.term()
        self.expect(")", "an operator or ')'")
        return inner

    def function(self) -> Function:
        """``"@" NAME "(" [ term { "," term } ] ")"``: an external function call."""
        self.advance()
        name = self.expect(NAME, "a function name after '@'").text
        self.expect("(", "'('")
        args = [] if self.at(")") else self.separated(self.term)
        self.expect(")", "',' or ')'")
        return Function(name, tuple(args))

    def simple_term(self, ground: bool = False) -> SimpleTerm:
        """A constant (``-`` NUMBER for a negative one) or, unless ``ground``, a variable."""
        if self.at("-"):
            self.advance()
            return self.number(-1)
        if self.at(NUMBER):
            return self.number(1)
        make = _SIMPLE_TERMS.get(self.token.kind)
        if ground and self.at(VARIABLE):
            raise self.error("a constant", _GROUND_HINT)
        if make is None or self.token.text == NEGATION:
            raise self.error("a constant" if ground else "a term")
        return make(self.advance())

    def number(self, sign: int) -> Number:
        """The NUMBER token here, times ``sign``, if clingo's 32-bit integers hold it (issue 28:
        a larger one gave no answer at all, and arithmetic on it wrapped around)."""
        token = self.expect(NUMBER, "a number after '-'")
        value = sign * token.value
        if not MIN_INTEGER <= value <= MAX_INTEGER:
            raise ParseError(f"the integer {value} is outside clingo's 32-bit integers "
                             f"[{MIN_INTEGER}, {MAX_INTEGER}]", self.position(token))
        return Number(value)


@deep
def parse_program(text: str, source: str = "<string>") -> Program:
    """The program in ``text``: rules, each ending with ``.``; ``#`` comments are skipped.

    Each rule carries the :class:`~lars.errors.Position` of its first token.

    >>> program = parse_program('''
    ... @T late(X) :- [inf] @T p(X), not [#3] [] q, @2 r, T % 5 = 0.
    ... fact.  # a rule with an empty body
    ... ''', "ex.lars")
    >>> len(program), program.rules[1].position
    (2, Position(source='ex.lars', line=3, column=1))

    Raises:
        ParseError: at the first token that does not fit the grammar.
    """
    return _Parser(text, source).program()


def parse_rule(text: str, source: str = "<string>") -> Rule:
    """The one rule in ``text`` (ending with ``.``)."""
    parser = _Parser(text, source)
    return parser.finish(parser.rule())


def parse_literal(text: str, source: str = "<string>") -> Literal:
    """One body literal, e.g. ``not ⊞^{#3} □ q`` (no final ``.``)."""
    parser = _Parser(text, source)
    return parser.finish(parser.literal())


def parse_atom(text: str, source: str = "<string>") -> Atom:
    """One atom, ground or not, e.g. ``offer(Sh,"mbt",30)`` (no final ``.``)."""
    parser = _Parser(text, source)
    return parser.finish(parser.atom())


def parse_term(text: str, source: str = "<string>") -> Term:
    """One term, arithmetic allowed.

    >>> parse_term("X - (Y - -3)")
    BinaryOp(op='-', left=Variable(name='X'), right=BinaryOp(op='-', left=Variable(name='Y'), right=Number(value=-3)))
    """
    parser = _Parser(text, source)
    return parser.finish(parser.term())


def parse_window(text: str, source: str = "<string>") -> Window:
    """One window, e.g. ``⊞^{30,0,5}``, ``[#10]`` or ``[now]``."""
    parser = _Parser(text, source)
    if not parser.at("⊞", "["):
        raise parser.error("a window")
    return parser.finish(parser.window())


def parse_facts(text: str, source: str = "<string>") -> list[Atom]:
    """The ground atoms of a background file, each ending with ``.``.

    >>> parse_facts('g_classify("mbt",1). g_classify("rayban",0).  # two facts')[1]
    Atom(predicate='g_classify', args=(String(value='rayban'), Number(value=0)))

    Raises:
        ParseError: on bad syntax, or at the variable of a non-ground atom.
    """
    parser = _Parser(text, source)
    facts = []
    while not parser.at(EOF):
        facts.append(parser.atom(ground=True))
        parser.expect(".", "'.'")
    return facts


# possessive quantifiers (*+, ?+): no part of a line can be read two ways, so the matcher never
# needs to step back, and not keeping the positions to step back to halves its time
_FAST_VALUE = r"(?:-?[0-9]{1,9}+(?![0-9])|[a-z][A-Za-z0-9_]*+)"  # longer numbers: the parser checks them
_FAST_ATOM = (rf"[a-z][A-Za-z0-9_]*+(?:[ \t]*+\([ \t]*+{_FAST_VALUE}(?:[ \t]*+,[ \t]*+{_FAST_VALUE})*+"
              r"[ \t]*+\))?+")
_FAST_STREAM_LINE = re.compile(
    rf"[ \t]*+(-?[0-9]++)[ \t]*+:[ \t]*+((?:{_FAST_ATOM})(?:[ \t]*+,[ \t]*+{_FAST_ATOM})*+)?+[ \t\r]*+")
_FAST_ATOMS = re.compile(r"([a-z][A-Za-z0-9_]*)(?:[ \t]*\(([^)]*)\))?")
_FAST_CONSTANTS: dict[str, Number | Name] = {}
_FAST_ATOM_TEXTS: dict[tuple[str, str], Atom] = {}
"""Atoms of the fast path by their parts (:func:`stream_line_parts`), shared while recent: a
stream repeats its atoms, and making one (a frozen dataclass that checks its predicate) costs
more than parsing its line."""


def _fast_constant(text: str) -> Number | Name:
    """A number or name of the fast path, shared while recent (streams repeat their values)."""
    found = _FAST_CONSTANTS.get(text)
    if found is None:
        if len(_FAST_CONSTANTS) > 1 << 14:
            _FAST_CONSTANTS.clear()
        found = _FAST_CONSTANTS[text] = Name(text) if text[0].isalpha() else Number(int(text))
    return found


def stream_line_parts(line: str) -> tuple[int, list[tuple[str, str]]] | None:
    """A stream line of the common shape (numbers and names as arguments, no comment) cut by
    regular expressions: its time and, per atom, its predicate and the text between its
    parentheses (``""`` for none); ``None`` for any other line (:func:`parse_stream_line`
    reads it). Parts may name the reserved word ``not``, which the parser refuses.

    >>> stream_line_parts("3: p(1, a), q")
    (3, [('p', '1, a'), ('q', '')])
    """
    match = _FAST_STREAM_LINE.fullmatch(line)
    if match is None:
        return None
    return int(match.group(1)), _FAST_ATOMS.findall(match.group(2) or "")


_UNIFORM_LINES: dict[int, re.Pattern[str]] = {}
"""The expressions of :func:`uniform_stream_line` by arity, made when first needed."""


def _uniform_line(arity: int) -> re.Pattern[str]:
    """A stream line whose atoms all have the predicate of the first (a back reference) and
    ``arity`` integer arguments (the numbers of :data:`_FAST_VALUE`)."""
    found = _UNIFORM_LINES.get(arity)
    if found is None:
        number = r"-?[0-9]{1,9}+(?![0-9])"
        arguments = rf"\([ \t]*+{number}(?:[ \t]*+,[ \t]*+{number}){{{arity - 1}}}[ \t]*+\)"
        found = _UNIFORM_LINES[arity] = re.compile(
            rf"[ \t]*+(-?[0-9]++)[ \t]*+:[ \t]*+([a-z][A-Za-z0-9_]*+){arguments}"
            rf"(?:[ \t]*+,[ \t]*+\2{arguments})*+[ \t\r]*+")
    return found


def uniform_stream_line(line: str) -> tuple[int, str, int, list[int]] | None:
    """A stream line whose atoms share one predicate and one arity, all arguments integers (the
    commonest line of a generated or sensor stream): its time, predicate, arity and the
    arguments of all its atoms in a row; ``None`` for any other line (:func:`stream_line_parts`
    and the parser read it). One regular expression checks the whole line; the numbers are then
    cut out by string methods and read as one JSON list, none of it a Python step per atom:
    the atoms' text without ``predicate(`` and ``)`` is the numbers separated by commas (in a
    line of that one shape the predicate's text occurs only where an atom starts).

    >>> uniform_stream_line("3: p(1, -2), p(3,4)"), uniform_stream_line("3: p(007)\\r")
    ((3, 'p', 2, [1, -2, 3, 4]), (3, 'p', 1, [7]))
    >>> uniform_stream_line("3: p(1), q(2)"), uniform_stream_line("3: p(1), p(1, 2)"), uniform_stream_line("3: p(a)")
    (None, None, None)
    """
    opening = line.find("(")
    if opening < 0:
        return None
    arity = line.count(",", opening, line.find(")", opening)) + 1
    match = _uniform_line(arity).fullmatch(line)
    if match is None or match.group(2) == NEGATION:
        return None
    predicate = match.group(2)
    numbers = line[match.start(2):].replace(predicate + "(", "").replace(")", "")
    try:  # JSON's reader makes the numbers of a list twice as fast as int() one by one
        values = json.loads(f"[{numbers}]")
    except ValueError:  # a number with a leading zero, which JSON refuses
        values = list(map(int, numbers.split(",")))
    return int(match.group(1)), predicate, arity, values


def _parse_stream_line_fast(line: str) -> tuple[int, list[Atom]] | None:
    """:func:`parse_stream_line` for the lines of :func:`stream_line_parts`; ``None`` for any
    other line (the parser reads it)."""
    parts = stream_line_parts(line)
    if parts is None:
        return None
    time, found = parts
    atoms, known = [], _FAST_ATOM_TEXTS
    for part in found:
        atom = known.get(part)
        if atom is None:
            predicate, inner = part
            texts = [a.strip() for a in inner.split(",")] if inner else ()
            if predicate == NEGATION or NEGATION in texts:
                return None  # 'not' names nothing: the parser says so
            if len(known) > 1 << 16:
                known.clear()
            atom = known[part] = Atom(predicate, tuple(map(_fast_constant, texts)))
        atoms.append(atom)
    return time, atoms


def parse_stream_line(line: str, source: str, line_number: int) -> tuple[int, list[Atom]] | None:
    """One line ``t: a(1), b(x,"y")`` of a LARS atom stream: its time and ground atoms.

    Returns ``None`` for a blank or comment-only line; the atom list may be empty (``5:``).

    >>> parse_stream_line('3: a(1), b(x,"y")  # comment', "s.stream", 7)
    (3, [Atom(predicate='a', args=(Number(value=1),)), Atom(predicate='b', args=(Name(value='x'), String(value='y')))])
    >>> parse_stream_line("3 a(1)", "s.stream", 7)
    Traceback (most recent call last):
    lars.errors.ParseError: s.stream:7:3: error: expected ':' but found 'a'

    Raises:
        ParseError: naming ``source``, ``line_number`` and the column.
    """
    fast = _parse_stream_line_fast(line)
    return fast if fast is not None else _parse_stream_line_slow(line, source, line_number)


def _parse_stream_line_slow(line: str, source: str, line_number: int) -> tuple[int, list[Atom]] | None:
    """:func:`parse_stream_line` token by token: any line, and every error with its column."""
    parser = _Parser(line, source, line_number, "end of line")
    if parser.at(EOF):
        return None
    if not parser.at("-", NUMBER):
        raise parser.error("a time point (an integer)")
    negative = parser.at("-") and parser.advance()
    time = parser.expect(NUMBER, "a number after '-'").value * (-1 if negative else 1)
    parser.expect(":", "':'")
    atoms = [] if parser.at(EOF) else parser.separated(lambda: parser.atom(ground=True))
    return parser.finish((time, atoms), "',' or end of line")
