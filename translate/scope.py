"""Walks over the pattern tree: variables in scope, certainly bound variables, children.

SPARQL 1.1 (section 18.2.1) says which variables a pattern may bind (:func:`in_scope`); the
translation also needs those every solution binds (:func:`certain`): the others may be unbound,
which decides where τ must split joins into cases.

>>> from rdflib import URIRef
>>> from translate.rsp import BGP, Join, Optional, TriplePattern, Var
>>> p = Join(BGP((TriplePattern(Var("s"), URIRef("http://ex.org/p"), Var("o")),)),
...          Optional(BGP((TriplePattern(Var("o"), URIRef("http://ex.org/q"), Var("z")),)),
...                   BGP((TriplePattern(Var("z"), URIRef("http://ex.org/r"), Var("w")),))))
>>> sorted(in_scope(p)), sorted(certain(p))
(['o', 's', 'w', 'z'], ['o', 's', 'z'])
"""

from __future__ import annotations

from functools import singledispatch, wraps

from translate.rsp import (
    BGP, Expr, Extend, Filter, Graph, Group, Join, Minus, Optional, Pattern, StreamPattern,
    SubSelect, TriplePattern, Union, Values, Var,
)


def triple_variables(triples: tuple[TriplePattern, ...]) -> frozenset[str]:
    """The names of the (non-blank) variables of some triple patterns."""
    return frozenset(t.name for triple in triples for t in triple.terms() if isinstance(t, Var))


@singledispatch
def in_scope(pattern) -> frozenset[str]:
    """The in-scope variables of a pattern: those a solution may bind."""
    raise TypeError(f"not a pattern: {pattern!r}")


@in_scope.register(BGP)
def _(pattern) -> frozenset[str]:
    return triple_variables(pattern.triples)


@in_scope.register(StreamPattern)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern.pattern)


@in_scope.register(Join)
@in_scope.register(Union)
@in_scope.register(Optional)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern.left) | in_scope(pattern.right)


@in_scope.register(Minus)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern.left)


@in_scope.register(Filter)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern.pattern)


@in_scope.register(Graph)
def _(pattern) -> frozenset[str]:
    own = frozenset({pattern.name.name}) if isinstance(pattern.name, Var) else frozenset()
    return in_scope(pattern.pattern) | own


@in_scope.register(Values)
def _(pattern) -> frozenset[str]:
    return frozenset(pattern.variables)


@in_scope.register(SubSelect)
def _(pattern) -> frozenset[str]:
    return frozenset(v.name for v in pattern.variables)
@in_scope.register(Extend)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern.pattern) | {pattern.var.name}


@in_scope.register(Group)
def _(pattern) -> frozenset[str]:
    return frozenset(var.name for var, _ in pattern.aggregates)


@singledispatch
def certain(pattern) -> frozenset[str]:
    """The variables every solution of the pattern binds (the others may be unbound)."""
    raise TypeError(f"not a pattern: {pattern!r}")


@certain.register(BGP)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern)


@certain.register(StreamPattern)
@certain.register(Graph)
def _(pattern) -> frozenset[str]:
    own = frozenset({pattern.name.name}) if isinstance(getattr(pattern, "name", None), Var) \
        else frozenset()
    return certain(pattern.pattern) | own


@certain.register(Join)
def _(pattern) -> frozenset[str]:
    return certain(pattern.left) | certain(pattern.right)


@certain.register(Union)
def _(pattern) -> frozenset[str]:
    return certain(pattern.left) & certain(pattern.right)


@certain.register(Optional)
@certain.register(Minus)
def _(pattern) -> frozenset[str]:
    return certain(pattern.left)


@certain.register(Filter)
def _(pattern) -> frozenset[str]:
    return certain(pattern.pattern)


@certain.register(Values)
def _(pattern) -> frozenset[str]:
    return frozenset(v for k, v in enumerate(pattern.variables)
                     if all(row[k] is not None for row in pattern.rows))


@certain.register(SubSelect)
def _(pattern) -> frozenset[str]:
    return in_scope(pattern) & certain(pattern.pattern)
@certain.register(Extend)
def _(pattern) -> frozenset[str]:
    return certain(pattern.pattern)


@certain.register(Group)
def _(pattern) -> frozenset[str]:
    return frozenset(var.name for var, aggregate in pattern.aggregates
                     if aggregate.function == "count")


def _kept_on_the_pattern(function):
    """``function`` (a walk of the pattern tree) with its answer kept on the pattern node.

    Patterns are frozen, so the answer never changes; without it a chain of n OPTIONALs asks
    each subtree again at each of its ancestors (quadratic: 500 OPTIONALs spent ~6 s here,
    issue 28). A dict keyed by patterns would not help: a dataclass's hash walks the tree."""
    attribute = f"_{function.__name__}_answer"

    @wraps(function)
    def kept(pattern):
        own = getattr(pattern, "__dict__", None)
        if own is None:
            return function(pattern)
        found = own.get(attribute)
        if found is None:
            found = function(pattern)
            object.__setattr__(pattern, attribute, found)
        return found
    return kept


in_scope = _kept_on_the_pattern(in_scope)
certain = _kept_on_the_pattern(certain)


def children(pattern: Pattern) -> tuple[Pattern, ...]:
    """The sub-patterns of a node, left to right; a STREAM block is a leaf here (its pattern
    reads a window, not the graphs: :func:`block_triples`, :func:`stream_patterns`)."""
    if isinstance(pattern, (Join, Union, Optional, Minus)):
        return (pattern.left, pattern.right)
    if isinstance(pattern, (Filter, Graph, SubSelect, Extend, Group)):
        return (pattern.pattern,)
    return ()


def stream_patterns(pattern: Pattern) -> list[StreamPattern]:
    """The STREAM patterns of ``pattern`` in text order (left to right)."""
    if isinstance(pattern, StreamPattern):
        return [pattern]
    return [found for child in children(pattern) for found in stream_patterns(child)]


def block_triples(pattern: Pattern) -> tuple[TriplePattern, ...]:
    """The triple patterns of the BGPs of a STREAM block's pattern, in text order (for a BGP
    block: its triples). A triple of one of them need not be in every match of the block
    (OPTIONAL, UNION, MINUS): callers that need a match of all of them check ``isinstance(
    pattern, BGP)`` first."""
    if isinstance(pattern, BGP):
        return pattern.triples
    return tuple(t for child in children(pattern) for t in block_triples(child))


def subexpressions(expr: Expr):
    """``expr`` and all expressions inside it."""
    yield expr
    for name in ("left", "right", "operand"):
        part = getattr(expr, name, None)
        if part is not None:
            yield from subexpressions(part)
    for part in getattr(expr, "args", ()):
        yield from subexpressions(part)


def conditions(pattern: Pattern):
    """The FILTER conditions of a pattern (OPTIONAL's included), outermost first."""
    if isinstance(pattern, Filter):
        yield pattern.condition
    if isinstance(pattern, Optional) and pattern.condition is not None:
        yield pattern.condition
    if isinstance(pattern, StreamPattern):
        yield from conditions(pattern.pattern)
    for child in children(pattern):
        yield from conditions(child)
