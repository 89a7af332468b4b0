"""LARS values → text, in the paper's spelling or a plain-ASCII one (SPEC section 3).

One :class:`SpellingTable` per :class:`Spelling` holds every symbol that differs between the
two; the functions below read the table and are shared. :mod:`lars.parser` reads both spellings
back: ``parse_program(print_program(P, spelling)) == P`` for every program ``P``.

>>> from lars.parser import parse_program
>>> program = parse_program("ans(Sh,Pe) :- [30] <> offer(Sh,Pe), not [#5] [] closed(Sh), Pe >= 20.")
>>> print(print_program(program))
ans(Sh,Pe) ← ⊞^30 ◇ offer(Sh,Pe), not ⊞^{#5} □ closed(Sh), Pe ≥ 20.
>>> print(print_program(program, "ascii"))
ans(Sh,Pe) :- [30] <> offer(Sh,Pe), not [#5] [] closed(Sh), Pe >= 20.

Every value has a spelling: the value types themselves refuse names, predicates, variables and
IRIs that the syntax could not read back (see :mod:`lars.terms`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import singledispatch
from typing import Union

from lars.atoms import Atom, Comparison
from lars.deep import deep
from lars.formulas import At, AtAtom, Box, Diamond, Fold, Modality, TimeTerm, WindowAtom
from lars.lexer import STRING_ESCAPES
from lars.rules import BodyFormula, Literal, Program, Rule
from lars.terms import BinaryOp, Function, Iri, Name, Number, String, Term, Variable
from lars.windows import TimeWindow, TupleWindow, Window


class Spelling(StrEnum):
    """The two spellings of the text syntax."""

    UNICODE = "unicode"
    """The paper's: ``⊞^{30,0,5} ◇ p``, ``@_T``, ``←``, ``≥``."""
    ASCII = "ascii"
    """The project's plain-ASCII one: ``[30,0,5] <> p``, ``@T``, ``:-``, ``>=``."""


@dataclass(frozen=True)
class SpellingTable:
    """Every symbol that differs between the spellings (``{}`` in a format marks the contents)."""

    arrow: str
    short_window: str
    long_window: str
    infinity: str
    diamond: str
    box: str
    at: str
    comparisons: Mapping[str, str]


TABLES = {
    Spelling.UNICODE: SpellingTable(
        arrow="←", short_window="⊞^{}", long_window="⊞^{{{}}}", infinity="∞", diamond="◇",
        box="□", at="@_", comparisons={"=": "=", "!=": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥"},
    ),
    Spelling.ASCII: SpellingTable(
        arrow=":-", short_window="[{}]", long_window="[{}]", infinity="inf", diamond="<>",
        box="[]", at="@", comparisons={op: op for op in ("=", "!=", "<", "<=", ">", ">=")},
    ),
}

SpellingName = Union[Spelling, str]
Comments = Union[Mapping[int, str], Callable[[int, Rule], Union[str, None]]]
"""Comment text per rule: a mapping from the rule's index, or ``f(index, rule)``."""

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
_ESCAPED = {char: "\\" + code for code, char in STRING_ESCAPES.items()}


def table(spelling: SpellingName) -> SpellingTable:
    """The symbols of ``spelling`` (``"unicode"`` or ``"ascii"``)."""
    return TABLES[Spelling(spelling)]


# -- terms and atoms (the same in both spellings) ---------------------------------------------


@singledispatch
def print_term(term: Term) -> str:
    """A term; arithmetic gets parentheses exactly where the tree needs them.

    >>> print_term(BinaryOp("-", Variable("X"), BinaryOp("-", Variable("Y"), Number(-3))))
    'X - (Y - -3)'
    >>> print_term(String('say "hi"\\n'))
    '"say \\\\"hi\\\\"\\\\n"'
    """
    raise TypeError(f"not a term: {term!r}")


@print_term.register
def _(term: Number) -> str:
    return str(term.value)


@print_term.register
def _(term: Name) -> str:
    return term.value


@print_term.register
def _(term: String) -> str:
    return '"' + "".join(_ESCAPED.get(char, char) for char in term.value) + '"'


@print_term.register
def _(term: Iri) -> str:
    return f"<{term.value}>"


@print_term.register
def _(term: Variable) -> str:
    return term.name


@print_term.register
def _(term: BinaryOp) -> str:
    precedence = _PRECEDENCE[term.op]
    left = _operand(term.left, precedence, needs_parentheses=lambda p: p < precedence)
    right = _operand(term.right, precedence, needs_parentheses=lambda p: p <= precedence)
    return f"{left} {term.op} {right}"


@print_term.register
def _(term: Function) -> str:
    return f"@{term.name}({', '.join(print_term(arg) for arg in term.args)})"


def _operand(term: Term, precedence: int, needs_parentheses: Callable[[int], bool]) -> str:
    """An operand, in parentheses if it binds more loosely (or, on the right, as loosely)."""
    text = print_term(term)
    if isinstance(term, BinaryOp) and needs_parentheses(_PRECEDENCE[term.op]):
        return f"({text})"
    return text


def print_atom(atom: Atom) -> str:
    """An atom, ``p`` or ``p(a,X)`` (the same in both spellings).

    >>> print_atom(Atom("offer", (Name("s1"), Iri("http://ex.org/p"), Number(30))))
    'offer(s1,<http://ex.org/p>,30)'
    """
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(print_term(arg) for arg in atom.args)})"


# -- windows, modalities, formulas -------------------------------------------------------------


@singledispatch
def _window(window: Window, symbols: SpellingTable) -> str:
    raise TypeError(f"not a window: {window!r}")


@_window.register
def _(window: TimeWindow, symbols: SpellingTable) -> str:
    length = symbols.infinity if window.length is None else str(window.length)
    if (window.ahead, window.step) == (0, 1):
        return symbols.short_window.format(length)
    return symbols.long_window.format(f"{length},{window.ahead},{window.step}")


@_window.register
def _(window: TupleWindow, symbols: SpellingTable) -> str:
    pattern = "" if window.substream is None else f", {print_atom(window.substream)}"
    return symbols.long_window.format(f"#{window.size}{pattern}")


def print_window(window: Window, spelling: SpellingName = Spelling.UNICODE) -> str:
    """A window operator.

    >>> [print_window(w) for w in (TimeWindow(30), TimeWindow(None, 0, 5), TupleWindow(10))]
    ['⊞^30', '⊞^{∞,0,5}', '⊞^{#10}']
    >>> [print_window(w, "ascii") for w in (TimeWindow(30), TimeWindow(None, 0, 5), TupleWindow(10))]
    ['[30]', '[inf,0,5]', '[#10]']
    """
    return _window(window, table(spelling))


def _at(time: TimeTerm, symbols: SpellingTable) -> str:
    """``@_T`` / ``@T``; ASCII ``@`` before ``_X`` gets a space, since ``@_`` is the paper's at."""
    text = print_term(time)
    gap = " " if symbols.at == "@" and text.startswith("_") else ""
    return f"{symbols.at}{gap}{text}"


_MODALITIES: dict[type, Callable[[Modality, SpellingTable], str]] = {
    Diamond: lambda modality, symbols: symbols.diamond,
    Box: lambda modality, symbols: symbols.box,
    At: lambda modality, symbols: _at(modality.time, symbols),
}


@singledispatch
def _formula(formula: BodyFormula, symbols: SpellingTable) -> str:
    raise TypeError(f"not a body formula: {formula!r}")


@_formula.register
def _(formula: Atom, symbols: SpellingTable) -> str:
    return print_atom(formula)


@_formula.register
def _(formula: AtAtom, symbols: SpellingTable) -> str:
    return f"{_at(formula.time, symbols)} {print_atom(formula.atom)}"


@_formula.register
def _(formula: WindowAtom, symbols: SpellingTable) -> str:
    modality = _MODALITIES[type(formula.modality)](formula.modality, symbols)
    return f"{_window(formula.window, symbols)} {modality} {print_atom(formula.atom)}"


@_formula.register
def _(formula: Comparison, symbols: SpellingTable) -> str:
    op = symbols.comparisons[formula.op]
    return f"{print_term(formula.left)} {op} {print_term(formula.right)}"


@_formula.register
def _(formula: Fold, symbols: SpellingTable) -> str:
    inner = ", ".join(print_term(t) for t in (formula.function, formula.element, formula.value))
    return f"{print_term(formula.result)} = fold{{{inner} : {print_atom(formula.atom)}}}"


def print_formula(formula: BodyFormula, spelling: SpellingName = Spelling.UNICODE) -> str:
    """An atom, ``@`` atom, window atom or comparison.

    >>> print_formula(WindowAtom(TimeWindow(None), At(Variable("T")), Atom("p", (Variable("X"),))))
    '⊞^∞ @_T p(X)'
    >>> print_formula(Comparison("!=", Variable("Ge"), Number(1)), "ascii")
    'Ge != 1'
    """
    return _formula(formula, table(spelling))


def print_literal(literal: Literal, spelling: SpellingName = Spelling.UNICODE) -> str:
    """A body literal, ``formula`` or ``not formula``."""
    text = print_formula(literal.formula, spelling)
    return f"not {text}" if literal.negated else text


# -- rules and programs ------------------------------------------------------------------------


def print_rule(rule: Rule, spelling: SpellingName = Spelling.UNICODE) -> str:
    """A rule on one line: ``head ← body.``, or ``head.`` when the body is empty.

    >>> print_rule(Rule(AtAtom(Variable("T"), Atom("late")), (Literal(Atom("p"), True),)), "ascii")
    '@T late :- not p.'
    """
    head = print_formula(rule.head, spelling)
    if not rule.body:
        return f"{head}."
    body = ", ".join(print_literal(literal, spelling) for literal in rule.body)
    return f"{head} {table(spelling).arrow} {body}."


@deep  # a FILTER of 600 || terms is a term 600 deep (issue 28)
def print_program(program: Program, spelling: SpellingName = Spelling.UNICODE,
                  comments: Comments | None = None) -> str:
    """A program, one rule per line (no final newline).

    Args:
        program: the rules to print.
        spelling: ``"unicode"`` (the paper's) or ``"ascii"``.
        comments: optional text per rule (by index, or ``f(index, rule)``), printed as ``# ...``
            lines before the rule; a multi-line text gives several comment lines.

    >>> rules = Program((Rule(Atom("ans_2")), Rule(Atom("q"), (Literal(Atom("ans_2")),))))
    >>> print(print_program(rules, "ascii", comments={1: "node 1: projection"}))
    ans_2.
    # node 1: projection
    q :- ans_2.
    """
    lines = []
    for index, rule in enumerate(program.rules):
        lines.extend(f"# {line}" for line in _comment(comments, index, rule).splitlines())
        lines.append(print_rule(rule, spelling))
    return "\n".join(lines)


def _comment(comments: Comments | None, index: int, rule: Rule) -> str:
    if comments is None:
        return ""
    text = comments(index, rule) if callable(comments) else comments.get(index)
    return text or ""
