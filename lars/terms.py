"""Terms of LARS rules: constants, variables and arithmetic (SPEC section 3).

Constants come in four kinds, each a frozen value so that ``==`` and hashing are structural:

* :class:`Number` — an integer (clingo has only integers);
* :class:`Name` — a symbolic constant such as ``a`` or ``null`` (lower-case identifier);
* :class:`String` — a quoted string such as ``"rayban"``;
* :class:`Iri` — an IRI such as ``<http://ex.org/a>``, used by the RDF translation.

Arithmetic (:class:`BinaryOp`) and external function calls (:class:`Function`, written
``@name(args)``, computed by Python code: :mod:`lars.externals`) appear only inside built-in
comparisons, e.g. ``T % U = 0`` or ``V = @add(X,1)``; atom arguments and ``@`` time points are
constants or variables.

>>> BinaryOp("%", Variable("T"), Number(5)).variables()
frozenset({'T'})
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from lars.errors import LimitError
from lars.externals import call


@dataclass(frozen=True)
class Number:
    """An integer constant."""

    value: int

    def variables(self) -> frozenset[str]:
        return frozenset()


NAME_PATTERN = re.compile(r"[a-z][A-Za-z0-9_]*")
VARIABLE_PATTERN = re.compile(r"[A-Z_][A-Za-z0-9_]*")
NOT_IN_IRI = re.compile(r"[\s<>]")
"""White space (the set `str.isspace` accepts, which is `re`'s Unicode `\\s`) and angle brackets."""
RESERVED_WORD = "not"
"""The one reserved word of the text syntax: it cannot name a constant or a predicate."""


_NAMES: set[str] = set()
"""Texts :func:`is_name` accepted lately: every atom checks its predicate when made, and the
predicates of a program are few (emptied when it grows past 4096 entries)."""


def is_name(text: str) -> bool:
    """True for a lower-case identifier other than the reserved word ``not``."""
    if text in _NAMES:
        return True
    if NAME_PATTERN.fullmatch(text) is None or text == RESERVED_WORD:
        return False
    if len(_NAMES) >= 1 << 12:
        _NAMES.clear()
    _NAMES.add(text)
    return True


def is_iri_text(text: str) -> bool:
    """True for text that can stand between ``<`` and ``>``: no white space, ``<`` or ``>``."""
    return bool(text) and NOT_IN_IRI.search(text) is None


@dataclass(frozen=True)
class Name:
    """A symbolic constant: a lower-case identifier such as ``a``, ``mbt`` or ``null``."""

    value: str

    def __post_init__(self) -> None:
        if not is_name(self.value):
            raise ValueError(f"not a name (lower-case identifier other than 'not'): {self.value!r}")

    def variables(self) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True)
class String:
    """A string constant (printed in double quotes; the printer escapes quotes, backslashes and
    line breaks)."""

    value: str

    def variables(self) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True)
class Iri:
    """An IRI constant (printed as ``<...>``): non-empty, without white space, ``<`` or ``>``."""

    value: str

    def __post_init__(self) -> None:
        if not is_iri_text(self.value):
            raise ValueError(f"not an IRI: {self.value!r}")

    @classmethod
    def unchecked(cls, value: str) -> Iri:
        """``Iri(value)`` for text its caller has just checked with :func:`is_iri_text`
        (:func:`translate.rdf.iri_constant`): a stream's fresh IRIs are not checked twice.

        >>> Iri.unchecked("http://e/a") == Iri("http://e/a")
        True
        """
        iri = object.__new__(cls)
        iri.__dict__["value"] = value
        return iri

    def variables(self) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True)
class Variable:
    """A variable: an identifier starting with an upper-case letter or ``_``."""

    name: str

    def __post_init__(self) -> None:
        if not VARIABLE_PATTERN.fullmatch(self.name):
            raise ValueError(f"not a variable name: {self.name!r}")

    def variables(self) -> frozenset[str]:
        return frozenset({self.name})


ARITHMETIC_OPERATORS = ("+", "-", "*", "/", "%")
"""Binary arithmetic; ``/`` and ``%`` truncate toward zero, as in clingo."""


@dataclass(frozen=True)
class BinaryOp:
    """Integer arithmetic ``left op right``; undefined (no value) on division by zero or non-integers."""

    op: str
    left: Term
    right: Term

    def __post_init__(self) -> None:
        if self.op not in ARITHMETIC_OPERATORS:
            raise ValueError(f"unknown arithmetic operator {self.op!r}")

    def variables(self) -> frozenset[str]:
        return self.left.variables() | self.right.variables()


@dataclass(frozen=True)
class Function:
    """An external function call ``@name(args)``: the value the Python function registered as
    ``name`` (:mod:`lars.externals`) returns for the arguments' values."""

    name: str
    args: tuple[Term, ...]

    def __post_init__(self) -> None:
        if not is_name(self.name):
            raise ValueError(f"not a function name (lower-case identifier): {self.name!r}")

    def variables(self) -> frozenset[str]:
        return frozenset().union(*(arg.variables() for arg in self.args))


Constant = Union[Number, Name, String, Iri]
SimpleTerm = Union[Constant, Variable]
Term = Union[Number, Name, String, Iri, Variable, BinaryOp, Function]

CONSTANT_TYPES = (Number, Name, String, Iri)


def is_constant(term: Term) -> bool:
    """True for the four constant kinds."""
    return isinstance(term, CONSTANT_TYPES)


def evaluate(term: Term, binding: dict[str, Constant]) -> Constant | None:
    """The value of a term under a variable binding, or ``None`` when it is undefined.

    Undefined means: a variable without a value, arithmetic on a non-integer, or division by
    zero. A :class:`Function` has the value its external function returns. Division and remainder truncate toward zero (clingo's ``/`` and ``\\``); a result outside clingo's
    32-bit integers is refused (:func:`in_range`), never wrapped around as clingo would.

    >>> evaluate(BinaryOp("/", Number(-7), Number(2)), {})
    Number(value=-3)
    >>> evaluate(BinaryOp("%", Number(-7), Number(2)), {})
    Number(value=-1)
    """
    if isinstance(term, Variable):
        return binding.get(term.name)
    if isinstance(term, Function):
        args = tuple(evaluate(arg, binding) for arg in term.args)
        return None if None in args else call(term.name, args)
    if not isinstance(term, BinaryOp):
        return term
    left, right = evaluate(term.left, binding), evaluate(term.right, binding)
    if not isinstance(left, Number) or not isinstance(right, Number):
        return None
    a, b = left.value, right.value
    if term.op in ("/", "%"):
        if b == 0:
            return None
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return Number(in_range(quotient if term.op == "/" else a - b * quotient, term))
    return Number(in_range({"+": a + b, "-": a - b, "*": a * b}[term.op], term))


MIN_INTEGER, MAX_INTEGER = -(1 << 31), (1 << 31) - 1
"""clingo's integers: 32 bits, two's complement; its arithmetic wraps around silently."""


def in_range(value: int, term: object = None) -> int:
    """``value``, if clingo can hold it (issue 28: ``2147483647 + 1`` gave ``-2147483648``).

    >>> in_range(2**31 - 1)
    2147483647
    >>> in_range(2**31, BinaryOp("+", Number(2**31 - 1), Number(1)))
    Traceback (most recent call last):
    lars.errors.LimitError: error: integer overflow: 2147483648 (2147483647+1) is outside clingo's 32-bit integers [-2147483648, 2147483647]

    Raises:
        LimitError: it is outside ``[MIN_INTEGER, MAX_INTEGER]``; ``term`` is what computed it.
    """
    if MIN_INTEGER <= value <= MAX_INTEGER:
        return value
    what = "" if term is None else f" ({_term_text(term)})"
    raise LimitError(f"integer overflow: {value}{what} is outside clingo's 32-bit integers "
                     f"[{MIN_INTEGER}, {MAX_INTEGER}]")


def _term_text(term: object) -> str:
    """A short text of an arithmetic term for the overflow message."""
    if isinstance(term, BinaryOp):
        return f"{_term_text(term.left)}{term.op}{_term_text(term.right)}"
    if isinstance(term, Number):
        return str(term.value)
    return getattr(term, "name", "?")


_KIND_RANK = {Number: 0, Name: 1, String: 2, Iri: 3}


def order_key(constant: Constant) -> tuple[int, int | str]:
    """The total order of constants used by comparisons, the same as clingo's symbol order.

    Numbers come first (by value), then names, then strings, then IRIs (each by text), because the
    solver encodes IRIs as the clingo term ``iri("...")``, which clingo sorts after strings.

    >>> sorted([Iri("a"), String("b"), Name("c"), Number(9)], key=order_key)[0]
    Number(value=9)
    """
    return (_KIND_RANK[type(constant)], constant.value)
