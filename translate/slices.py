"""τ of ORDER BY, LIMIT and OFFSET inside a subquery: the rows a slice keeps, in LARS rules.

At the top of a query the solution modifiers act on the answer relation after solving
(:mod:`translate.modifiers`); inside a subquery the rows they keep feed the rest of the pattern,
so they must be rules. Each solution of the subquery's pattern becomes one element (its values
packed into one constant, :func:`translate.aggregates.pack`); the elements are ordered by ORDER
BY (ties broken by the packed constants, so the order is total and the same in every strategy:
SPARQL leaves the order of ties open), and an element is kept when at least ``o`` and fewer than
``o + l`` elements come before it. Counting up to ``K = o + l`` needs no aggregate: in a total
order, an element after one with ``n`` predecessors has ``n + 1``. For
``SELECT V̄ WHERE { P } ORDER BY k̄ LIMIT l OFFSET o`` as node ``i`` with child ``ans_c``
(``D`` and ``S`` arguments left out)::

    el(E)          ← ans_c(C̄), E = @pack(C̄).            (DISTINCT: E = @pack(V̄))
    lt(A,B)        ← el(A), el(B), @before(k̄, A, B) = true.
    atleast(B,1)   ← lt(A,B).
    atleast(B,M)   ← lt(A,B), atleast(A,N), N < K, M = N + 1.
    ans_i(V̄)       ← ans_c(C̄), E = @pack(C̄), atleast(E,o), not atleast(E,K).

(``atleast(E,o)`` is left out for ``o = 0``, ``not atleast(E,K)`` without LIMIT; ``LIMIT 0``
keeps nothing.) The rules run at each time point, so the slice is taken per answer relation
(per window content), as an RSP engine evaluates a subquery on each window. Without DISTINCT,
the elements must be SPARQL's solutions, repeated ones apart: the reader gives the pattern
witness variables (:func:`translate.bags.sliced_witnesses`), so ``C̄`` tells every solution from
the others.

Costs: ``lt`` is quadratic in the number of solutions of the subquery at a time point, and
``atleast`` grounds ``K`` times ``lt``.

>>> from rdflib import Literal
>>> from translate.aggregates import pack
>>> from translate.rdf import to_constant
>>> nine, ten = (pack(to_constant(Literal(n))) for n in (9.5, 10))
>>> before(String("0a"), nine, ten), before(String("0d"), nine, ten)
(Name(value='true'), Name(value='false'))
"""

from __future__ import annotations

from collections.abc import Sequence

from lars.atoms import Atom, Comparison
from lars.externals import external
from lars.rules import Literal as BodyLiteral
from lars.terms import BinaryOp, Constant, Function, Number, String, Term
from translate.aggregates import Helper, RuleSpec, unpack
from translate.modifiers import order_key
from translate.names import internal_variable
from translate.rdf import FALSE, NULL, TRUE, from_constant
from translate.rsp import OrderKey


def order_spec(order: Sequence[OrderKey], names: Sequence[str]) -> String:
    """The constant naming the order for :func:`before`: each key's position in ``names`` and
    ``a`` (ascending) or ``d`` (descending), e.g. ``"2d,0a"``."""
    return String(",".join(f"{names.index(key.variable.name)}{'d' if key.descending else 'a'}"
                           for key in order))


def _key(constant: Constant) -> tuple:
    return order_key(None if constant == NULL else from_constant(constant))


@external("before")
def before(spec: String, left: String, right: String) -> Constant:
    """Whether the element ``left`` comes before ``right``: by the keys of ``spec`` in SPARQL's
    ORDER BY order (§15.1), then by the packed constants themselves."""
    a, b = unpack(left), unpack(right)
    for item in filter(None, spec.value.split(",")):
        position, descending = int(item[:-1]), item[-1] == "d"
        x, y = _key(a[position]), _key(b[position])
        if x != y:
            return TRUE if (x < y) != descending else FALSE
    return TRUE if left.value < right.value else FALSE


def slice_rules(child: Atom, names: Sequence[str], terms: dict[str, Term],
                order: Sequence[OrderKey], limit: int | None, offset: int,
                helper: Helper) -> tuple[list[RuleSpec], list]:
    """The helper rules of a sliced subquery and the body of its ``ans_i`` rule.

    Args:
        child: the child's answer atom ``ans_c(C̄, D, S)``.
        names: the variables an element is made of (all the child's, or the selected ones
            under DISTINCT), which include every ORDER BY key.
        terms: the LARS term of each of the child's variables (by SPARQL name).
        helper: makes helper atoms (predicate names and the ``D``, ``S`` arguments).

    Returns:
        ``(rules, body)``: the body holds the child's solutions that the slice keeps; ``body``
        is ``None`` for ``LIMIT 0``, which keeps none.
    """
    if limit == 0:
        return [], None
    order = [key for key in order if key.variable.name in names]  # the others are unbound
    a, b, e = (internal_variable(x) for x in ("A", "B", "E"))
    n, m = internal_variable("N"), internal_variable("M")
    packed = Comparison("=", e, Function("pack", tuple(terms[name] for name in names)))
    bound = offset + limit if limit is not None else offset
    rules: list[RuleSpec] = [
        (helper("el", [e]), [child, packed], "the solutions, each one element"),
        (helper("lt", [a, b]), [helper("el", [a]), helper("el", [b]),
                                Comparison("=", Function("before", (order_spec(order, names),
                                                                    a, b)), TRUE)],
         "their order: ORDER BY, then the elements"),
    ]
    if bound:
        rules += [
            (helper("atleast", [b, Number(1)]), [helper("lt", [a, b])],
             "at least one element before"),
            (helper("atleast", [b, m]), [helper("lt", [a, b]), helper("atleast", [a, n]),
                                         Comparison("<", n, Number(bound)),
                                         Comparison("=", m, BinaryOp("+", n, Number(1)))],
             f"at least one more before, counted up to {bound}"),
        ]
    body = [child, packed]
    if offset:
        body.append(helper("atleast", [e, Number(offset)]))
    if limit is not None:
        body.append(BodyLiteral(helper("atleast", [e, Number(bound)]), negated=True))
    return rules, body
