"""SPARQL expressions as LARS terms of external function calls (SPARQL 1.1 §17, SPEC section 5).

An expression becomes one term: each operator and function is a call of its external function
(:mod:`translate.sparqlfunctions`), variables are the LARS variables of the solution (``null``
when out of scope) and constants are encoded by :mod:`translate.rdf`. Errors are values
(``error``) inside the term, so ``||``, ``&&``, ``IF``, ``COALESCE`` and ``IN`` see them as
SPARQL says; the term is closed by

* :func:`condition` for a FILTER: the body literal ``@ebv(e) = true``, so an error or false
  eliminates the solution;
* :func:`value` for BIND and SELECT expressions: ``@value(e)``, ``null`` on an error (the
  variable stays unbound).

>>> from rdflib import Literal
>>> from lars.printer import print_formula
>>> from translate.rsp import Arith, Compare, Or, Var
>>> scope = {"v": Variable("V")}
>>> print_formula(condition(Or(Compare(">", Var("v"), Literal(80)), Var("w")), scope))
'@ebv(@or(@gt(V, 80), null)) = true'
>>> print_term(value(Arith("/", Var("v"), Literal("2.5", datatype=XSD_DOUBLE)), scope))
'@value(@div(V, "\\\\"2.5\\\\"^^<http://www.w3.org/2001/XMLSchema#double>"))'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import singledispatch

from rdflib import Literal, URIRef

from lars.atoms import Comparison
from lars.printer import print_term  # noqa: F401 - used by the doctest
from lars.terms import Function, Term, Variable  # noqa: F401 - Variable: doctest
from translate.rdf import NULL, TRUE, XSD_DOUBLE, to_constant  # noqa: F401 - XSD_DOUBLE: doctest
from lars.errors import UnsupportedError
from translate.rsp import And, Arith, Call, Compare, Exists, Neg, Not, Or, Var
from translate.freshvalues import SOLUTION_FUNCTIONS
from translate.sparqlfunctions import ARITHMETIC, COMPARISONS

SOLUTION_CALLS = frozenset(SOLUTION_FUNCTIONS.values())

Terms = Mapping[object, Term]
"""The LARS term of each SPARQL variable in scope (by name; any other variable is ``null``) and
of each ``EXISTS`` the rule has decided (by the :class:`~translate.rsp.Exists` node)."""


@singledispatch
def compile_expr(expr, terms: Terms) -> Term:
    """The LARS term computing ``expr``'s value (``error`` on an expression error)."""
    raise TypeError(f"not an expression: {expr!r}")


@compile_expr.register
def _(expr: Var, terms: Terms) -> Term:
    return terms.get(expr.name, NULL)


@compile_expr.register(URIRef)
@compile_expr.register(Literal)
def _(expr, terms: Terms) -> Term:
    return to_constant(expr)


@compile_expr.register
def _(expr: And, terms: Terms) -> Term:
    return Function("and", (compile_expr(expr.left, terms), compile_expr(expr.right, terms)))


@compile_expr.register
def _(expr: Or, terms: Terms) -> Term:
    return Function("or", (compile_expr(expr.left, terms), compile_expr(expr.right, terms)))


@compile_expr.register
def _(expr: Not, terms: Terms) -> Term:
    return Function("bnot", (compile_expr(expr.operand, terms),))


@compile_expr.register
def _(expr: Compare, terms: Terms) -> Term:
    return Function(COMPARISONS[expr.op], (compile_expr(expr.left, terms),
                                           compile_expr(expr.right, terms)))


@compile_expr.register
def _(expr: Arith, terms: Terms) -> Term:
    return Function(ARITHMETIC[expr.op], (compile_expr(expr.left, terms),
                                          compile_expr(expr.right, terms)))


@compile_expr.register
def _(expr: Neg, terms: Terms) -> Term:
    return Function("neg", (compile_expr(expr.operand, terms),))


@compile_expr.register
def _(expr: Call, terms: Terms) -> Term:
    args = tuple(compile_expr(arg, terms) for arg in expr.args)
    if expr.function in SOLUTION_CALLS:  # call site, then the solution (translate.freshvalues)
        args = (args[0], solution(terms), *args[1:])
    return Function(expr.function, args)


SOLUTION = "?solution"
"""The key of :data:`Terms` under which a caller may give the solution's term itself."""


def solution(terms: Terms) -> Term:
    """The term standing for the solution an expression is evaluated in: ``terms[SOLUTION]``,
    else all the variables in scope packed into one constant."""
    if SOLUTION in terms:
        return terms[SOLUTION]
    return Function("pack", tuple(terms[name] for name in sorted(
        k for k in terms if isinstance(k, str))))


@compile_expr.register
def _(expr: Exists, terms: Terms) -> Term:
    if expr not in terms:
        raise UnsupportedError("EXISTS outside a FILTER condition")
    return terms[expr]


def condition(expr, terms: Terms) -> Comparison:
    """The body literal of ``FILTER (expr)``: ``@ebv(e) = true``."""
    return Comparison("=", Function("ebv", (compile_expr(expr, terms),)), TRUE)


def value(expr, terms: Terms) -> Term:
    """The value of ``BIND (expr AS ?x)``: ``@value(e)``, which is ``null`` on an error."""
    return Function("value", (compile_expr(expr, terms),))
