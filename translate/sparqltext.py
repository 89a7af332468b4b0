"""Printing the query model back as SPARQL-like text (for provenance comments and ``--parse``).

>>> from rdflib import URIRef, Literal
>>> from translate.rsp import BGP, Filter, TriplePattern, Var, Compare
>>> names = Names((("", "http://ex.org/"),))
>>> p = Filter(Compare(">=", Var("percent"), Literal(20)),
...            BGP((TriplePattern(Var("c"), URIRef("http://ex.org/reduce"), Var("percent")),)))
>>> pattern_text(p, names)
'{?c :reduce ?percent} FILTER (?percent >= 20)'
>>> window_text(RangeWindow(30, 5))
'[RANGE 30 STEP 5]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import singledispatch

from rdflib import BNode, Literal, URIRef

from translate.rsp import (
    BGP, Aggregate, And, Arith, BlankVar, Call, Compare, Exists, Extend, Filter, Graph, Group,
    Join, Minus, Neg, Not, NowWindow, Optional, Or, RangeWindow, RspWindow, StreamPattern,
    SubSelect, TriplePattern, TriplesWindow, Union, Values, Var,
)
from translate.paths import PATH_TYPES


@dataclass(frozen=True)
class Names:
    """Prefixes for compact IRIs: ``(prefix, namespace)`` pairs."""

    prefixes: tuple[tuple[str, str], ...] = ()

    def iri(self, iri: str) -> str:
        """``prefix:local`` when a prefix fits and the local part is simple, else ``<iri>``."""
        best = None
        for prefix, namespace in self.prefixes:
            local = iri[len(namespace):]
            if namespace and iri.startswith(namespace) and _simple_local(local):
                if best is None or len(namespace) > len(best[1]):
                    best = (prefix, namespace, local)
        return f"{best[0]}:{best[2]}" if best else f"<{iri}>"


def _simple_local(local: str) -> bool:
    return local == "" or (local.replace("_", "a").replace("-", "a").isalnum()
                           and not local[0] == "-")


def term_text(term, names: Names = Names()) -> str:
    """A pattern or expression leaf: ``?x``, ``_:b``, ``:iri``, a literal in Turtle form."""
    if isinstance(term, Var):
        return f"?{term.name}"
    if isinstance(term, BlankVar):
        return f"_:{term.label}"
    if isinstance(term, URIRef):
        return names.iri(str(term))
    if isinstance(term, BNode):
        return f"_:{term}"
    if isinstance(term, PATH_TYPES):
        return term.text(names.iri)
    if isinstance(term, Literal):
        if term.language is not None or term.datatype is None:
            return term.n3()
        if str(term.datatype) == _XSD_INTEGER and re.fullmatch(r"[+-]?\d+", str(term)):
            return str(term)
        return f"{Literal(str(term)).n3()}^^{names.iri(str(term.datatype))}"
    raise TypeError(f"not a term: {term!r}")


def triple_text(triple: TriplePattern, names: Names = Names()) -> str:
    return " ".join(term_text(t, names) for t in triple.terms())


def window_text(window: RspWindow) -> str:
    """A window in ticks, e.g. ``[RANGE 30 STEP 5]``, ``[NOW]``, ``[TRIPLES 10]``."""
    if isinstance(window, RangeWindow):
        if window.step == 1:
            return f"[RANGE {window.length}]"
        if window.step == window.length:
            return f"[RANGE {window.length} TUMBLING]"
        return f"[RANGE {window.length} STEP {window.step}]"
    if isinstance(window, TriplesWindow):
        return f"[TRIPLES {window.count}]"
    return "[NOW]" if isinstance(window, NowWindow) else "[ALL]"


_XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"

_PRECEDENCE = {Or: 1, And: 2, Compare: 3, Arith: 4, Not: 5, Neg: 5}


def expr_text(expr, names: Names = Names()) -> str:
    """An expression with the parentheses its structure needs."""
    return _expr(expr, names, 0)


def _expr(expr, names: Names, outer: int) -> str:
    own = _PRECEDENCE.get(type(expr), 6)
    if isinstance(expr, (And, Or, Compare, Arith)):
        op = {And: "&&", Or: "||"}.get(type(expr)) or expr.op
        text = f"{_expr(expr.left, names, own)} {op} {_expr(expr.right, names, own + 1)}"
    elif isinstance(expr, (Not, Neg)):
        text = ("!" if isinstance(expr, Not) else "-") + _expr(expr.operand, names, own)
    elif isinstance(expr, Exists):
        text = f"EXISTS {{{pattern_text(expr.pattern, names)}}}"
    elif isinstance(expr, Call):
        text = f"{expr.function}({', '.join(_expr(arg, names, 0) for arg in expr.args)})"
    else:
        text = term_text(expr, names)
    return f"({text})" if own < outer else text


def aggregate_text(aggregate: Aggregate, names: Names = Names()) -> str:
    """``AVG(?v)``, ``COUNT(DISTINCT *)``, ``GROUP_CONCAT(?v; SEPARATOR=",")``."""
    inner = "*" if aggregate.argument is None else expr_text(aggregate.argument, names)
    inner = ("DISTINCT " if aggregate.distinct else "") + inner
    if aggregate.function == "group_concat" and aggregate.separator != " ":
        inner += f"; SEPARATOR={Literal(aggregate.separator).n3()}"
    return f"{aggregate.function.upper()}({inner})"


def group_text(pattern: Group, names: Names = Names()) -> str:
    """``GROUP BY ?k: (AVG(?v) AS ?a)`` (the keys, then the aggregates)."""
    keys = " ".join(term_text(k, names) for k in pattern.keys) or "()"
    results = " ".join(f"({aggregate_text(a, names)} AS {term_text(v, names)})"
                       for v, a in pattern.aggregates)
    return f"GROUP BY {keys}: {results}"


@singledispatch
def pattern_text(pattern, names: Names = Names()) -> str:
    """A pattern in SPARQL-like syntax on one line."""
    raise TypeError(f"not a pattern: {pattern!r}")


@pattern_text.register(BGP)
def _(pattern: BGP, names: Names = Names()) -> str:
    return "{" + " . ".join(triple_text(t, names) for t in pattern.triples) + "}"


@pattern_text.register(Join)
def _(pattern: Join, names: Names = Names()) -> str:
    return f"{pattern_text(pattern.left, names)} AND {pattern_text(pattern.right, names)}"


@pattern_text.register(Union)
def _(pattern: Union, names: Names = Names()) -> str:
    return f"{{{pattern_text(pattern.left, names)}}} UNION {{{pattern_text(pattern.right, names)}}}"


@pattern_text.register(Optional)
def _(pattern: Optional, names: Names = Names()) -> str:
    inner = pattern_text(pattern.right, names)
    if pattern.condition is not None:
        inner += f" FILTER ({expr_text(pattern.condition, names)})"
    return f"{pattern_text(pattern.left, names)} OPTIONAL {{{inner}}}"


@pattern_text.register(Minus)
def _(pattern: Minus, names: Names = Names()) -> str:
    return f"{pattern_text(pattern.left, names)} MINUS {{{pattern_text(pattern.right, names)}}}"


@pattern_text.register(Filter)
def _(pattern: Filter, names: Names = Names()) -> str:
    return f"{pattern_text(pattern.pattern, names)} FILTER ({expr_text(pattern.condition, names)})"


@pattern_text.register(Graph)
def _(pattern: Graph, names: Names = Names()) -> str:
    return f"GRAPH {term_text(pattern.name, names)} {{{pattern_text(pattern.pattern, names)}}}"


@pattern_text.register(Extend)
def _(pattern: Extend, names: Names = Names()) -> str:
    return (f"{pattern_text(pattern.pattern, names)} BIND ({expr_text(pattern.expr, names)} AS "
            f"{term_text(pattern.var, names)})")


@pattern_text.register(Group)
def _(pattern: Group, names: Names = Names()) -> str:
    return f"{{{pattern_text(pattern.pattern, names)}}} {group_text(pattern, names)}"


@pattern_text.register(StreamPattern)
def _(pattern: StreamPattern, names: Names = Names()) -> str:
    return (f"STREAM {term_text(pattern.stream, names)} {window_text(pattern.window)} "
            f"{pattern_text(pattern.pattern, names)}")


@pattern_text.register(Values)
def _(pattern: Values, names: Names = Names()) -> str:
    def row(values) -> str:
        return "(" + " ".join("UNDEF" if v is None else term_text(v, names) for v in values) + ")"
    heading = " ".join(f"?{v}" for v in pattern.variables)
    return f"VALUES ({heading}) {{{' '.join(row(r) for r in pattern.rows)}}}"


@pattern_text.register(SubSelect)
def _(pattern: SubSelect, names: Names = Names()) -> str:
    heading = " ".join(f"?{v.name}" for v in pattern.variables) or "*"
    return (f"{{SELECT {_distinct(pattern)}{heading} WHERE {pattern_text(pattern.pattern, names)}"
            f"{_slice_text(pattern)}}}")


def _distinct(pattern: SubSelect) -> str:
    return "DISTINCT " if pattern.distinct else ""


def _slice_text(pattern: SubSelect) -> str:
    """`` ORDER BY ?k LIMIT n OFFSET m`` of a sliced subquery (empty for the others)."""
    if not pattern.sliced:
        return ""
    keys = " ".join(f"DESC(?{k.variable.name})" if k.descending else f"?{k.variable.name}"
                    for k in pattern.order)
    return ((f" ORDER BY {keys}" if keys else "")
            + ("" if pattern.limit is None else f" LIMIT {pattern.limit}")
            + (f" OFFSET {pattern.offset}" if pattern.offset else ""))


def node_summary(pattern, index: int, names: Names = Names(), width: int = 100) -> str:
    """The operator of node ``index`` with its own operands; children are named by number.

    >>> node_summary(Union(BGP(), BGP()), 3)
    'UNION of nodes 6 and 7'
    """
    left, right = 2 * index, 2 * index + 1
    if isinstance(pattern, BGP):
        text = "BGP " + pattern_text(pattern, names)
    elif isinstance(pattern, StreamPattern) and isinstance(pattern.pattern, BGP):
        text = pattern_text(pattern, names)
    elif isinstance(pattern, StreamPattern):
        text = (f"STREAM {term_text(pattern.stream, names)} {window_text(pattern.window)} over "
                f"node {left}, read in the window's graph")
    elif isinstance(pattern, Filter):
        text = f"FILTER ({expr_text(pattern.condition, names)}) over node {left}"
    elif isinstance(pattern, Graph):
        text = f"GRAPH {term_text(pattern.name, names)} over node {left}"
    elif isinstance(pattern, Values):
        text = pattern_text(pattern, names)
    elif isinstance(pattern, SubSelect):
        heading = " ".join(f"?{v.name}" for v in pattern.variables)
        text = (f"SELECT {_distinct(pattern)}{heading} over node {left}"
                f"{_slice_text(pattern)} (subquery)")
    elif isinstance(pattern, Extend):
        text = (f"BIND ({expr_text(pattern.expr, names)} AS {term_text(pattern.var, names)}) "
                f"over node {left}")
    elif isinstance(pattern, Group):
        text = f"{group_text(pattern, names)} over node {left}"
    else:
        kind = {Join: "AND", Union: "UNION", Optional: "OPTIONAL", Minus: "MINUS"}[type(pattern)]
        text = f"{kind} of nodes {left} and {right}"
        if isinstance(pattern, Optional) and pattern.condition is not None:
            text += f" with FILTER ({expr_text(pattern.condition, names)})"
    return text if len(text) <= width else text[: width - 1] + "…"
