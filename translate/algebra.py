"""rdflib's SPARQL algebra → our pattern tree (the only module that reads rdflib's algebra).

:func:`read_query` walks the algebra of a translated query once. Supported operators become
:mod:`translate.rsp` nodes; every unsupported one is recorded with the position of its keyword
in the user's text, and at the end one :class:`~lars.errors.UnsupportedError` lists them all,
one per line (collect, then fail). Graph nodes whose name is a stream placeholder (see
:mod:`translate.cqels`) become :class:`~translate.rsp.StreamPattern` nodes.

>>> from translate.scanner import Rewrite, SourceText
>>> from translate.sparql import parse_sparql
>>> text = "SELECT (NOW() AS ?a) WHERE { ?s <http://e/p> ?v } GROUP BY (STR(?v))"
>>> read_query(parse_sparql(Rewrite(text, []), SourceText(text)), SourceText(text))
Traceback (most recent call last):
...
lars.errors.UnsupportedError: <string>:1:9: error: unsupported: function NOW (its value is not a function of its arguments)
<string>:1:51: error: unsupported: GROUP BY an expression without AS (write GROUP BY (expr AS ?k))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rdflib import RDF, BNode, Literal, URIRef, Variable
from rdflib.paths import Path
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.plugins.sparql.sparql import Query

from lars.errors import ParseError, Position, UnsupportedError
from translate.rsp import (
    BGP, Aggregate, And, Arith, BlankVar, Call, Compare, Dataset, Exists, Expr, Extend, Filter,
    Graph, Group, Join, Minus, Neg, Not, Optional, Or, OrderKey, Pattern, RspWindow, StreamPattern,
    SubSelect, TriplePattern, Union, Values, Var, canonical_bgp,
)
from translate.paths import from_rdflib
from translate.positions import nth_select, select_star
from translate.scanner import SourceText
from translate.bags import grouped_witnesses, sliced_witnesses
from translate.scope import children, in_scope, subexpressions
from translate.freshvalues import SOLUTION_FUNCTIONS
from translate.sparqlfunctions import BUILTINS, CASTS, NONDETERMINISTIC


@dataclass(frozen=True)
class StreamSlot:
    """What a placeholder graph IRI stands for: ``STREAM <stream> [window]`` at ``position``."""

    stream: URIRef
    window: RspWindow
    position: Position | None = None


@dataclass(frozen=True)
class QueryParts:
    """What the algebra gives: ``V`` (and whether it was ``*``), DISTINCT, ``P``, ``D``, and
    the prefixes."""

    variables: tuple[Var, ...]
    select_all: bool
    distinct: bool
    pattern: Pattern
    dataset: Dataset
    prefixes: tuple[tuple[str, str], ...]
    form: str = "select"
    order: tuple[OrderKey, ...] = ()
    limit: int | None = None
    offset: int = 0
    template: tuple[TriplePattern, ...] = ()

    def solution(self) -> dict:
        """The query form, the solution modifiers and the CONSTRUCT template, as keyword
        arguments of ``RspQuery``."""
        return {"form": self.form, "order": self.order, "limit": self.limit,
                "offset": self.offset, "template": self.template}


@dataclass
class _Reader:
    source: SourceText
    slots: dict[URIRef, StreamSlot] = field(default_factory=dict)
    problems: list[tuple[str, Position | None]] = field(default_factory=list)
    distinct: bool = False
    projection: list[Variable] | None = None
    order: tuple[OrderKey, ...] = ()
    limit: int | None = None
    offset: int = 0
    subquery: bool = False
    computed: list[tuple[Var, Expr]] = field(default_factory=list)
    """ORDER BY expressions, each bound to a fresh variable the order reads (:func:`_order`)."""
    base: URIRef | None = None
    """The query's base IRI (its BASE, else its file's URI), for ``IRI()``."""
    sites: list[int] = field(default_factory=lambda: [0])
    """How many calls of RAND, UUID, STRUUID and BNODE were read (shared with subqueries)."""

    def refuse(self, feature: str, *keywords: str) -> None:
        position = self.source.find_keyword(*keywords) if keywords else None
        if (feature, position) not in self.problems:
            self.problems.append((feature, position))


def resolver(query: Query, source: SourceText) -> Callable[[str, Position | None], URIRef]:
    """A function resolving ``<iri>`` or ``prefix:local`` text with the query's prologue."""
    def resolve(text: str, position: Position | None = None) -> URIRef:
        if text.startswith("<"):
            return query.prologue.absolutize(URIRef(text[1:-1]))
        prefix, _, local = text.partition(":")
        try:
            return query.prologue.resolvePName(prefix, local)
        except Exception:
            raise ParseError(f"unknown prefix '{prefix}:'", position,
                             hint=f"declare it with PREFIX {prefix}: <...>") from None
    return resolve


def read_query(query: Query, source: SourceText,
               slots: dict[URIRef, StreamSlot] | None = None) -> QueryParts:
    """Our view of an rdflib query, or an :class:`UnsupportedError` listing every problem."""
    base = query.prologue.base
    reader = _Reader(source, dict(slots or {}), base=URIRef(base) if base else None)
    algebra = query.algebra
    if algebra.name not in ("SelectQuery", "AskQuery", "ConstructQuery"):
        kind = algebra.name.replace("Query", "").upper()
        reader.refuse(f"{kind} query (only SELECT, ASK and CONSTRUCT)", kind)
    pattern = _pattern(reader, _modifiers(reader, algebra.p))
    dataset = _dataset(algebra.get("datasetClause") or [])
    if reader.problems:
        raise _unsupported(reader.problems)
    select_all = reader.projection is None or select_star(source)
    if select_all:
        variables = tuple(Var(name) for name in sorted(in_scope(pattern)))
    else:
        variables = tuple(Var(str(v)) for v in reader.projection)
    pattern = _ordered(reader, pattern)
    prefixes = tuple((p, str(ns)) for p, ns in query.prologue.namespace_manager.namespaces())
    if algebra.name == "AskQuery":
        return QueryParts((), False, True, pattern, dataset, prefixes, "ask")
    if algebra.name == "ConstructQuery":
        template = _template(reader, algebra.template, pattern)
        names = sorted({t.name for triple in template for t in triple.terms()
                        if isinstance(t, Var)})
        return QueryParts(tuple(Var(n) for n in names), False, True, pattern, dataset, prefixes,
                          "construct", reader.order, reader.limit, reader.offset, template)
    return QueryParts(variables, select_all, reader.distinct, pattern, dataset, prefixes,
                      "select", reader.order, reader.limit, reader.offset)


def _template(reader: _Reader, triples, pattern: Pattern) -> tuple[TriplePattern, ...]:
    """The CONSTRUCT template; ``CONSTRUCT WHERE { triples }`` (the grammar allows only
    triples there) takes the BGP itself."""
    if triples is None:
        return pattern.triples
    return canonical_bgp([TriplePattern(*(_term(reader, t) for t in triple))
                          for triple in triples]).triples


def _unsupported(problems: list[tuple[str, Position | None]]) -> UnsupportedError:
    problems = sorted(problems, key=lambda p: (p[1] is None, p[1].line if p[1] else 0,
                                               p[1].column if p[1] else 0))
    (first, position), rest = problems[0], problems[1:]
    lines = [first] + [f"{pos or '<input>'}: error: unsupported: {feature}"
                       for feature, pos in rest]
    error = UnsupportedError("\n".join(lines), position)
    error.features = tuple(problems)
    return error


def _dataset(clauses) -> Dataset:
    default = tuple(c["default"] for c in clauses if "default" in c)
    named = tuple(c["named"] for c in clauses if "named" in c)
    return Dataset(default, named)


# --- solution modifiers -----------------------------------------------------------------------

def _modifiers(reader: _Reader, node) -> CompValue:
    """Peel the modifiers above the graph pattern, refusing the unsupported ones."""
    while isinstance(node, CompValue) and node.name in _MODIFIERS:
        peeled = _MODIFIERS[node.name](reader, node)
        if peeled is node:
            break
        node = peeled
    return node


def _slice(reader: _Reader, node):
    reader.limit = node["length"] if "length" in node else None
    reader.offset = node["start"] or 0
    return node.p


def _distinct(reader: _Reader, node):
    reader.distinct = True
    return node.p


def _project(reader: _Reader, node):
    reader.projection = list(node.PV)
    return node.p


ORDER_PREFIX = "_lars_o"
"""The variables that hold the values of ORDER BY expressions (never selected by ``*``)."""


def _ordered(reader: _Reader, pattern: Pattern) -> Pattern:
    """``pattern`` with the ORDER BY expressions bound (an error leaves the key unbound, which
    orders first, as SPARQL orders an expression without a value)."""
    for variable, expr in reader.computed:
        pattern = Extend(pattern, variable, expr)
    return pattern


def _order(reader: _Reader, node):
    keys = []
    for condition in node.expr:
        expr, order = (condition, None) if isinstance(condition, Variable) else (
            condition.expr, condition.order)
        if isinstance(expr, Variable):
            variable = Var(str(expr))
        else:  # bound below the projection, as SPARQL orders before it projects (§15.1)
            variable = Var(f"{ORDER_PREFIX}{len(reader.computed) + 1}")
            reader.computed.append((variable, _expr(reader, expr)))
        keys.append(OrderKey(variable, order == "DESC"))
    reader.order = tuple(keys)
    return node.p


_MODIFIERS = {"Slice": _slice, "Distinct": _distinct, "Reduced": _distinct, "Project": _project,
              "OrderBy": _order}


# --- graph patterns ---------------------------------------------------------------------------

def _pattern(reader: _Reader, node) -> Pattern:
    handler = _PATTERNS.get(node.name) if isinstance(node, CompValue) else None
    if handler is None:
        feature = _PATTERN_FEATURES.get(getattr(node, "name", None))
        reader.refuse(*(feature or (f"SPARQL operator {getattr(node, 'name', node)}",)))
        return BGP()
    return handler(reader, node)


def _term(reader: _Reader, term):
    if isinstance(term, Variable):
        return Var(str(term))
    if isinstance(term, BNode):
        return BlankVar(str(term))
    if isinstance(term, Path):
        try:
            return from_rdflib(term)
        except UnsupportedError as error:
            reader.problems.append((error.message,
                                    reader.source.find_keyword("^")))
            return Var("_path")
    return term


def _bgp(reader: _Reader, node) -> BGP:
    return canonical_bgp([TriplePattern(*(_term(reader, t) for t in triple))
                          for triple in node.triples])


def _binary(kind):
    def convert(reader: _Reader, node):
        return kind(_pattern(reader, node.p1), _pattern(reader, node.p2))
    return convert


def _left_join(reader: _Reader, node) -> Optional:
    expr = node.get("expr")
    condition = None if isinstance(expr, CompValue) and expr.name == "TrueFilter" \
        else _condition(reader, expr)
    return Optional(_pattern(reader, node.p1), _pattern(reader, node.p2), condition)


def _filter(reader: _Reader, node) -> Filter:
    return Filter(_condition(reader, node.expr), _pattern(reader, node.p))


def _graph(reader: _Reader, node) -> Pattern:
    inner = _pattern(reader, node.p)
    slot = reader.slots.get(node.term)
    if slot is None:
        return Graph(_term(reader, node.term), inner)
    if _has_graph(inner):
        reader.problems.append(("GRAPH or another STREAM/WINDOW block inside a STREAM/WINDOW "
                                "block (the block's active graph is its window)", slot.position))
        return BGP()
    return StreamPattern(slot.stream, slot.window, inner)


def _has_graph(pattern: Pattern) -> bool:
    """Whether ``pattern`` holds a GRAPH or STREAM block (EXISTS patterns are checked by τ)."""
    return isinstance(pattern, (Graph, StreamPattern)) or any(map(_has_graph, children(pattern)))


def _extend(reader: _Reader, node) -> Extend:
    return Extend(_pattern(reader, node.p), Var(str(node.var)), _expr(reader, node.expr))


_AGGREGATE_NAMES = {"Count": "count", "Sum": "sum", "Avg": "avg", "Min": "min", "Max": "max",
                    "Sample": "sample", "GroupConcat": "group_concat"}


def _aggregate_join(reader: _Reader, node) -> Group:
    """``AggregateJoin(Group(p, keys), aggregates)`` → :class:`Group`."""
    group = node.p
    keys = []
    for key in group.get("expr") or []:
        if isinstance(key, Variable):
            keys.append(Var(str(key)))
        else:
            reader.refuse("GROUP BY an expression without AS (write GROUP BY (expr AS ?k))",
                          "GROUP")
    aggregates = []
    for aggregate in node.A:
        argument = aggregate.vars
        aggregates.append((Var(str(aggregate.res)), Aggregate(
            _AGGREGATE_NAMES[aggregate.name.split("_", 1)[1]],
            None if argument == "*" else _expr(reader, argument),
            "distinct" in aggregate and aggregate["distinct"] == "DISTINCT",
            str(aggregate["separator"]) if "separator" in aggregate else " ")))
    pattern = grouped_witnesses(_pattern(reader, group.p))  # count SPARQL's multiset
    return Group(pattern, tuple(keys), tuple(aggregates))


def _to_multiset(reader: _Reader, node) -> Pattern:
    if isinstance(node.p, CompValue) and node.p.name == "values":
        return _values(node.p)
    if isinstance(node.p, list) and not node.p:  # VALUES ?x { }: rdflib keeps no names
        return Values((), ())
    sub = _Reader(reader.source, reader.slots, reader.problems, subquery=True, base=reader.base,
                  sites=reader.sites)
    inner = _pattern(sub, _modifiers(sub, node.p))
    if sub.projection is None:
        reader.problems.append(("subquery", nth_select(reader.source)))
        return BGP()
    variables = tuple(Var(str(v)) for v in sub.projection)
    if sub.limit is None and not sub.offset:  # ORDER BY alone changes no row of a pattern
        return SubSelect(variables, inner, sub.distinct)
    ordered = {k.variable.name for k in sub.order} & in_scope(_ordered(sub, inner))
    if sub.distinct and not ordered <= _distinct_keys(sub, variables):
        reader.refuse("ORDER BY a variable that a SELECT DISTINCT subquery with LIMIT or OFFSET "
                      "does not select", "ORDER")
    inner = _ordered(sub, inner)
    if not sub.distinct:  # the slice counts SPARQL's solutions, repeated ones apart
        inner = sliced_witnesses(inner)
    return SubSelect(variables, inner, sub.distinct, sub.order, sub.limit, sub.offset)


def _distinct_keys(sub: _Reader, variables: tuple[Var, ...]) -> set[str]:
    """What a DISTINCT subquery's slice can order by: its selected variables, and ORDER BY
    expressions over them alone (a function of the distinct row; not RAND and the like, which
    depend on the whole solution)."""
    selected = {v.name for v in variables}
    keys = set(selected)
    for variable, expr in sub.computed:
        parts = list(subexpressions(expr))
        if {e.name for e in parts if isinstance(e, Var)} <= selected and not any(
                isinstance(e, Call) and e.function in SOLUTION_FUNCTIONS.values() for e in parts):
            keys.add(variable.name)
    return keys


def _values(node) -> Values:
    """Inline data; rdflib writes ``UNDEF`` as the string ``'UNDEF'``."""
    names: list[str] = []
    for row in node.res:
        names += [str(v) for v in row if str(v) not in names]
    rows = tuple(tuple(value if isinstance(value := row.get(Variable(n)), (URIRef, Literal))
                       else None for n in names) for row in node.res)
    return Values(tuple(names), rows)


_PATTERNS = {"BGP": _bgp, "Join": _binary(Join), "Union": _binary(Union),
             "Minus": _binary(Minus), "LeftJoin": _left_join, "Filter": _filter,
             "Graph": _graph, "Extend": _extend, "AggregateJoin": _aggregate_join,
             "ToMultiSet": _to_multiset}
_PATTERN_FEATURES = {"values": ("VALUES", "VALUES"), "ServiceGraphPattern": ("SERVICE", "SERVICE"),
                     "Project": ("subquery", "SELECT"), "Slice": ("subquery", "SELECT"),
                     "OrderBy": ("ORDER BY", "ORDER")}


# --- expressions ------------------------------------------------------------------------------

_PLACEHOLDER = Var("__unsupported__")
"""Stands for an unsupported expression (already reported) so that reading can go on."""


def _condition(reader: _Reader, node) -> Expr:
    """A FILTER condition (its effective boolean value is taken by the translation)."""
    return _expr(reader, node)


def _expr(reader: _Reader, node) -> Expr:
    if isinstance(node, Variable):
        return Var(str(node))
    if isinstance(node, (URIRef, Literal)):
        return node
    if not isinstance(node, CompValue):
        reader.refuse(f"expression {node!r}")
        return _PLACEHOLDER
    handler = _EXPRESSIONS.get(node.name)
    if handler is not None:
        return handler(reader, node)
    if node.name.startswith("Builtin_"):
        return _builtin(reader, node)
    if node.name == "Function":
        return _function(reader, node)
    reader.refuse(f"expression {node.name}")
    return _PLACEHOLDER


def _arguments(reader: _Reader, node) -> tuple[Expr, ...]:
    """The arguments of a call in rdflib's order (a list argument, as CONCAT's, spread)."""
    args = []
    for key, part in node.items():
        if key.startswith("_") or part == RDF.nil:  # rdflib's empty argument list
            continue
        for item in part if isinstance(part, list) else [part]:
            args.append(_expr(reader, item))
    return tuple(args)


_KEYWORDS = {"MD": "MD5", "SHA": "SHA1", "NOTEXISTS": "NOT EXISTS", "ISURI": "ISIRI",
             "URI": "IRI"}


def _builtin(reader: _Reader, node) -> Expr:
    keyword = node.name[len("Builtin_"):].upper()
    keyword = _KEYWORDS.get(keyword, keyword)
    if keyword in SOLUTION_FUNCTIONS:  # numbered call sites (translate.freshvalues)
        reader.sites[0] += 1
        return Call(SOLUTION_FUNCTIONS[keyword], (Literal(reader.sites[0]),
                                                  *_arguments(reader, node)))
    if keyword == "IRI" and reader.base is not None:  # resolved against the query's base
        return Call(BUILTINS[keyword], (*_arguments(reader, node), reader.base))
    if keyword in BUILTINS:
        return Call(BUILTINS[keyword], _arguments(reader, node))
    word = keyword.split()[-1]
    if keyword in ("EXISTS", "NOT EXISTS"):
        exists = Exists(_pattern(reader, node.graph))
        return exists if keyword == "EXISTS" else Not(exists)
    if keyword in NONDETERMINISTIC:
        reader.refuse(f"function {keyword} (its value is not a function of its arguments)", word)
    else:
        reader.refuse(f"function {keyword}", word)
    return _PLACEHOLDER


def _function(reader: _Reader, node) -> Expr:
    if node.iri in CASTS:
        return Call("cast", (node.iri, *(_expr(reader, arg) for arg in node.expr or [])))
    reader.refuse(f"function <{node.iri}>")
    return _PLACEHOLDER


def _fold(kind):
    def convert(reader: _Reader, node):
        parts = [node.expr] + list(node.get("other") or [])
        return _balanced(kind, [_expr(reader, part) for part in parts])
    return convert


def _balanced(kind, parts: list[Expr]) -> Expr:
    """``kind`` (``Or``, ``And``) over ``parts`` as a tree of depth log2(n), not n: ``||`` and
    ``&&`` are associative, errors included (SPARQL 1.1 §17.2, Kleene's three-valued logic), and
    every later stage recurses over the tree (a FILTER of 600 ``||`` terms overflowed the
    stack, issue 28). Up to three parts the tree is the left fold, ``(a || b) || c``.

    >>> _balanced(Or, [Var("a"), Var("b"), Var("c"), Var("d")])
    Or(left=Or(left=Var(name='a'), right=Var(name='b')), right=Or(left=Var(name='c'), right=Var(name='d')))
    """
    if len(parts) == 1:
        return parts[0]
    middle = (len(parts) + 1) // 2
    return kind(_balanced(kind, parts[:middle]), _balanced(kind, parts[middle:]))


def _relational(reader: _Reader, node) -> Expr:
    if node.op in ("IN", "NOT IN"):
        others = [] if node.other == RDF.nil else node.other  # rdflib's empty list
        options = tuple(_expr(reader, option) for option in others)
        return Call("in" if node.op == "IN" else "notin", (_expr(reader, node.expr), *options))
    return Compare(node.op, _expr(reader, node.expr), _expr(reader, node.other))


def _arithmetic(reader: _Reader, node) -> Expr:
    result = _expr(reader, node.expr)
    for op, other in zip(node.get("op") or [], node.get("other") or []):
        result = Arith(op, result, _expr(reader, other))
    return result


_EXPRESSIONS = {
    "ConditionalOrExpression": _fold(Or), "ConditionalAndExpression": _fold(And),
    "RelationalExpression": _relational, "AdditiveExpression": _arithmetic,
    "MultiplicativeExpression": _arithmetic,
    "UnaryNot": lambda reader, node: Not(_expr(reader, node.expr)),
    "UnaryMinus": lambda reader, node: Neg(_expr(reader, node.expr)),
    "UnaryPlus": lambda reader, node: Call("plus", (_expr(reader, node.expr),)),
}
