"""FILTER conditions as rule bodies: the Lloyd–Topor rewriting (SPEC section 5).

A condition becomes a disjunction of conjunctions of built-in comparisons (:data:`DNF`); each
conjunction is the body extension of one rule. SPARQL filters have three values (true, false,
error), so each expression is compiled twice, into the condition under which it is *true*
(:func:`when_true`) and the one under which it is *false* (:func:`when_false`); an error is
neither, and a filter keeps a solution only when its condition is true. Negation is pushed inward:
``T(!e) = F(e)``, ``F(a && b) = F(a) ∨ F(b)``, ``F(a < b)`` is ``a >= b`` on operands that can be
compared, and so on.

Operands follow the RDF encoding (:mod:`translate.rdf`): numbers compare by value, plain strings
by code points, other terms only by identity; an unbound variable is ``null`` and makes every
comparison an error. Arithmetic is exact on rationals: a value is a pair ``num/den`` of integer
terms, and ``a/b < c/d`` is ``a*d < c*b`` when ``b*d > 0`` (so ``?x / 2 > 1`` holds for 3).

>>> from translate.rsp import Compare, Var
>>> from rdflib import Literal
>>> scope = Scope({"v": Variable("V")}, certain=frozenset({"V"}))
>>> from lars.printer import print_formula
>>> [[print_formula(c) for c in conj] for conj in when_true(Compare(">", Var("v"), Literal(80)), scope)]
[['V < null', 'V > 80']]
>>> [[print_formula(c) for c in conj] for conj in when_false(Compare(">", Var("v"), Literal(80)), scope)]
[['V < null', 'V ≤ 80']]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from rdflib import Literal, URIRef

from lars.atoms import Comparison
from lars.errors import UnsupportedError
from lars.terms import CONSTANT_TYPES, BinaryOp, Number, Term, Variable, order_key
from translate.rdf import (
    DNF, INT_MAX, INT_MIN, NULL, VALUE_TYPES, Conjunction, constant_kind, kind_guards,
    numeric_value, to_constant,
)
from translate.rsp import And, Arith, Call, Compare, Neg, Not, Or, Var
from translate.sparqltext import expr_text

TRUE: DNF = [()]
FALSE: DNF = []
MAX_DISJUNCTS = 256
NEGATED = {"=": "!=", "!=": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
FLIPPED = {"=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True)
class Scope:
    """What the variables of a filter are: ``terms`` maps in-scope SPARQL names to LARS terms
    (out-of-scope names are ``null``); ``certain`` holds the LARS names known to be bound."""

    terms: dict[str, Term] = field(hash=False)
    certain: frozenset[str] = frozenset()


# --- DNF algebra ----------------------------------------------------------------------------

def disjoin(*parts: DNF) -> DNF:
    return [conj for part in parts for conj in part]


def conjoin(*parts: DNF) -> DNF:
    result = TRUE
    for part in parts:
        result = [a + b for a, b in product(result, part)]
    return result


def atom(op: str, left: Term, right: Term) -> DNF:
    return [(Comparison(op, left, right),)]


def simplify(dnf: DNF, certain: frozenset[str] = frozenset()) -> DNF:
    """Drop decided comparisons, duplicate literals and conjunctions; refuse huge results."""
    result: list[Conjunction] = []
    for conj in dnf:
        kept = _simplify_conjunction(conj, certain)
        if kept is not None and kept not in result:
            result.append(kept)
    if len(result) > MAX_DISJUNCTS:
        raise UnsupportedError(f"FILTER that needs more than {MAX_DISJUNCTS} rules")
    return result


def _simplify_conjunction(conj: Conjunction, certain: frozenset[str]) -> Conjunction | None:
    kept: list[Comparison] = []
    for comparison in conj:
        decided = _decide(comparison, certain)
        if decided is False:
            return None
        if decided is None and comparison not in kept:
            kept.append(comparison)
    return None if _empty_range(kept) else tuple(kept)


def _empty_range(conj: list[Comparison]) -> bool:
    """Whether the bounds on some variable exclude every value (e.g. ``X < null, X >= ""``)."""
    bounds: dict[str, list] = {}
    for c in conj:
        left, op, right = c.left, c.op, c.right
        if isinstance(right, Variable) and isinstance(left, CONSTANT_TYPES):
            left, op, right = right, FLIPPED[op], left
        if isinstance(left, Variable) and isinstance(right, CONSTANT_TYPES) and op != "!=":
            low, high = bounds.setdefault(left.name, [None, None])
            key = order_key(right)
            if op in (">", ">=", "=") and (low is None or (key, op == ">") > low):
                bounds[left.name][0] = (key, op == ">")
            if op in ("<", "<=", "=") and (high is None or (key, op != "<") < high):
                bounds[left.name][1] = (key, op != "<")
    for low, high in bounds.values():
        if low is not None and high is not None and (
                low[0] > high[0] or (low[0] == high[0] and (low[1] or not high[1]))):
            return True
    return False


def _decide(comparison: Comparison, certain: frozenset[str]) -> bool | None:
    if not comparison.variables():
        return comparison.holds({})
    left, right = comparison.left, comparison.right
    if right == NULL and isinstance(left, Variable) and left.name in certain:
        return {"!=": True, "=": False}.get(comparison.op)
    return None


# --- operands ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Operand:
    """A compiled expression leaf or arithmetic term.

    ``term`` is the LARS term of a variable or constant (``None`` for arithmetic and for
    non-integral numbers); ``value`` the exact numeric value ``(num, den)`` when it can be a
    number; ``defined`` when an arithmetic term has a value (its variables are numbers, no
    division by zero).
    """

    term: Term | None
    value: tuple[Term, Term] | None
    defined: DNF = field(default_factory=lambda: TRUE)

    def guard(self, kind: str) -> DNF:
        """When the operand is of ``kind``: ``number``, ``plain``, ``resource`` or ``bound``."""
        if self.term is None:
            return self.defined if kind in ("number", "bound") and self.value else FALSE
        if isinstance(self.term, Variable):
            return kind_guards(self.term)[kind]
        have = constant_kind(self.term)
        if kind == "bound":
            return FALSE if self.term == NULL else TRUE
        wanted = {"number": ("number",), "plain": ("plain",), "resource": ("iri", "blank")}[kind]
        return TRUE if have in wanted else FALSE


def _number(value: Fraction) -> Operand:
    for part in (value.numerator, value.denominator):
        if not INT_MIN <= part <= INT_MAX:
            raise UnsupportedError(f"number {value} (outside clingo's 32-bit integers)")
    whole = value.denominator == 1
    return Operand(Number(value.numerator) if whole else None,
                   (Number(value.numerator), Number(value.denominator)))


def operand(expr, scope: Scope) -> Operand:
    """Compile an expression used as a value."""
    if isinstance(expr, Var):
        term = scope.terms.get(expr.name, NULL)
        return Operand(term, (term, Number(1)) if term != NULL else None)
    if isinstance(expr, Literal) and numeric_value(expr) is not None:
        return _number(numeric_value(expr))
    if isinstance(expr, Literal) and expr.datatype in VALUE_TYPES:
        raise UnsupportedError(f"comparison with {expr.n3()} (compared by value in SPARQL)")
    if isinstance(expr, (Literal, URIRef)):
        return Operand(to_constant(expr), None)
    if isinstance(expr, (Arith, Neg)):
        return _arithmetic(expr, scope)
    raise UnsupportedError(f"boolean expression used as a value: {expr_text(expr)}")


def _arithmetic(expr, scope: Scope) -> Operand:
    if isinstance(expr, Neg):
        inner = _numeric(expr.operand, scope)
        if inner.value is None:
            return inner
        return Operand(None, (_sub(Number(0), inner.value[0]), inner.value[1]), inner.defined)
    left, right = _numeric(expr.left, scope), _numeric(expr.right, scope)
    if left.value is None or right.value is None:
        return Operand(None, None, FALSE)
    (a, b), (c, d) = left.value, right.value
    defined = conjoin(left.defined, right.defined)
    if expr.op == "+":
        value = (_add(_mul(a, d), _mul(c, b)), _mul(b, d))
    elif expr.op == "-":
        value = (_sub(_mul(a, d), _mul(c, b)), _mul(b, d))
    elif expr.op == "*":
        value = (_mul(a, c), _mul(b, d))
    else:
        value = (_mul(a, d), _mul(b, c))
        defined = conjoin(defined, atom("!=", c, Number(0)))
    return Operand(None, _reduce(value), defined)


def _numeric(expr, scope: Scope) -> Operand:
    """An operand of arithmetic: variables must be numbers for it to be defined."""
    result = operand(expr, scope)
    if result.term is None:
        return result
    if result.value is None:
        return Operand(None, None, FALSE)
    return Operand(None, result.value, result.guard("number"))


def _fold(op: str, left: Term, right: Term) -> Term:
    if isinstance(left, Number) and isinstance(right, Number):
        return Number({"+": left.value + right.value, "-": left.value - right.value,
                       "*": left.value * right.value}[op])
    return BinaryOp(op, left, right)


def _add(left: Term, right: Term) -> Term:
    return right if left == Number(0) else left if right == Number(0) else _fold("+", left, right)


def _sub(left: Term, right: Term) -> Term:
    return left if right == Number(0) else _fold("-", left, right)


def _mul(left: Term, right: Term) -> Term:
    return right if left == Number(1) else left if right == Number(1) else _fold("*", left, right)


def _reduce(value: tuple[Term, Term]) -> tuple[Term, Term]:
    num, den = value
    if isinstance(num, Number) and isinstance(den, Number) and den.value != 0:
        exact = Fraction(num.value, den.value)
        return _number(exact).value
    return value


# --- comparisons ------------------------------------------------------------------------------

def _numeric_comparison(op: str, a: Operand, b: Operand) -> DNF:
    (na, da), (nb, db) = a.value, b.value
    left, right = _mul(na, db), _mul(nb, da)
    sign = _mul(da, db)
    if isinstance(sign, Number) or op in ("=", "!="):
        flip = isinstance(sign, Number) and sign.value < 0
        return atom(FLIPPED[op] if flip else op, left, right)
    return disjoin(conjoin(atom(">", sign, Number(0)), atom(op, left, right)),
                   conjoin(atom("<", sign, Number(0)), atom(FLIPPED[op], left, right)))


def _ordering(op: str, a: Operand, b: Operand) -> DNF:
    numbers = FALSE
    if a.value is not None and b.value is not None:
        numbers = conjoin(a.guard("number"), b.guard("number"), _numeric_comparison(op, a, b))
    strings = FALSE
    if a.term is not None and b.term is not None:
        strings = conjoin(a.guard("plain"), b.guard("plain"), atom(op, a.term, b.term))
    return disjoin(numbers, strings)


def _equal(a: Operand, b: Operand) -> DNF:
    if NULL in (a.term, b.term):
        return FALSE
    if a.term is not None and b.term is not None:
        both_variables = isinstance(a.term, Variable) and isinstance(b.term, Variable)
        return conjoin(atom("=", a.term, b.term), a.guard("bound") if both_variables else TRUE)
    return _ordering("=", a, b)


def _unequal(a: Operand, b: Operand) -> DNF:
    different = (atom("!=", a.term, b.term) if a.term is not None and b.term is not None
                 else TRUE)
    return disjoin(
        _ordering("!=", a, b),
        conjoin(a.guard("resource"), b.guard("bound"), different),
        conjoin(b.guard("resource"), a.guard("bound"), different),
    )


def _compare(expr: Compare, scope: Scope, truth: bool) -> DNF:
    a, b = operand(expr.left, scope), operand(expr.right, scope)
    if expr.op in ("=", "!="):
        return _equal(a, b) if (expr.op == "=") == truth else _unequal(a, b)
    return _ordering(expr.op if truth else NEGATED[expr.op], a, b)


# --- built-in calls and the boolean structure -----------------------------------------------

_CALL_GUARDS = {"isIRI": ("iri", "not_iri"), "isLiteral": ("literal", "not_literal"),
                "isBlank": ("blank", "not_blank")}
_CONSTANT_KINDS = {"isIRI": ("iri",), "isLiteral": ("number", "plain", "other"),
                   "isBlank": ("blank",)}


def _call(expr: Call, scope: Scope, truth: bool) -> DNF:
    value = operand(expr.argument, scope)
    if expr.function == "bound":
        return value.guard("bound") if truth else (
            FALSE if value.term is None else atom("=", value.term, NULL))
    if value.term is None:
        return FALSE if truth else value.defined
    if isinstance(value.term, Variable):
        return kind_guards(value.term)[_CALL_GUARDS[expr.function][0 if truth else 1]]
    if value.term == NULL:
        return FALSE
    holds = constant_kind(value.term) in _CONSTANT_KINDS[expr.function]
    return TRUE if holds == truth else FALSE


def _boolean_constant(expr: Literal, truth: bool) -> DNF:
    if str(expr.datatype).endswith("#boolean") and expr.value in (True, False):
        return TRUE if expr.value == truth else FALSE
    raise UnsupportedError(f"effective boolean value of {expr.n3()}")


def _compile(expr, scope: Scope, truth: bool) -> DNF:
    if isinstance(expr, Not):
        return _compile(expr.operand, scope, not truth)
    if isinstance(expr, (And, Or)):
        left = _compile(expr.left, scope, truth)
        right = _compile(expr.right, scope, truth)
        both = isinstance(expr, And) == truth
        return simplify(conjoin(left, right) if both else disjoin(left, right), scope.certain)
    if isinstance(expr, Compare):
        return _compare(expr, scope, truth)
    if isinstance(expr, Call):
        return _call(expr, scope, truth)
    if isinstance(expr, Literal):
        return _boolean_constant(expr, truth)
    raise UnsupportedError(f"effective boolean value of {expr_text(expr)}")


def when_true(expr, scope: Scope) -> DNF:
    """The conjunctions under which ``expr`` is true (Lloyd–Topor, one rule per conjunction)."""
    return simplify(_compile(expr, scope, True), scope.certain)


def when_false(expr, scope: Scope) -> DNF:
    """The conjunctions under which ``expr`` is false (not an error)."""
    return simplify(_compile(expr, scope, False), scope.certain)
