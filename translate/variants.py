"""``cs(Q)`` and ``cq(Q)`` (SPEC section 4, paper section 3).

* :func:`abstract_pattern` — ``P`` of the abstract query: each ``STREAM s ω {g}`` replaced by
  ``g``, and BGPs joined by AND merged into one BGP (AND of BGPs is the union of their triples);
* :func:`cs` — the C-SPARQL query: ``P`` abstract, every ``g`` in ``S`` emptied (stream triples
  are merged into the default graph);
* :func:`cq` — the ``2^|S|`` CQELS queries: stream graph pattern ``k`` (in ``S`` order) is
  ``(STREAM s ω g)`` (brave, letter ``b``) or ``((STREAM s ω g) UNION g)`` (cautious, ``c``).
  A variant's id is one letter per stream, e.g. ``bc``; ``brave`` and ``cautious`` name the two
  extremes.

>>> variant_letters("cautious", 2), variant_ids(2)
('cc', ('bb', 'bc', 'cb', 'cc'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import singledispatch
from itertools import product

from lars.errors import InputError
from translate.rsp import (
    BGP, And, Arith, Call, Compare, Exists, Extend, Filter, Graph, Group, Join, Minus, Neg, Not,
    Optional, Or, Pattern, RspQuery, StreamPattern, StreamSpec, SubSelect, Union, merge_bgps,
)


@singledispatch
def _map_children(pattern, function) -> Pattern:
    """``pattern`` with ``function`` applied to each child (leaves are returned as they are)."""
    return pattern


@_map_children.register(Join)
@_map_children.register(Union)
@_map_children.register(Minus)
@_map_children.register(Optional)
def _(pattern, function):
    changed = replace(pattern, left=function(pattern.left), right=function(pattern.right))
    if isinstance(pattern, Optional) and pattern.condition is not None:
        changed = replace(changed, condition=_in_exists(pattern.condition, function))
    return changed


@_map_children.register(Graph)
@_map_children.register(SubSelect)
@_map_children.register(Group)
def _(pattern, function):
    return replace(pattern, pattern=function(pattern.pattern))


@_map_children.register(Filter)
def _(pattern, function):
    return replace(pattern, pattern=function(pattern.pattern),
                   condition=_in_exists(pattern.condition, function))


@_map_children.register(Extend)
def _(pattern, function):
    return replace(pattern, pattern=function(pattern.pattern), expr=_in_exists(pattern.expr, function))


def _in_exists(expr, function):
    """``expr`` with ``function`` applied to the pattern of every ``EXISTS`` in it (a FILTER
    EXISTS reads streams as a pattern does)."""
    if isinstance(expr, Exists):
        return Exists(function(expr.pattern))
    if isinstance(expr, (Not, Neg)):
        return replace(expr, operand=_in_exists(expr.operand, function))
    if isinstance(expr, (And, Or, Compare, Arith)):
        return replace(expr, left=_in_exists(expr.left, function), right=_in_exists(expr.right, function))
    if isinstance(expr, Call):
        return replace(expr, args=tuple(_in_exists(a, function) for a in expr.args))
    return expr


def abstract_pattern(pattern: Pattern) -> Pattern:
    """``P`` with stream patterns replaced by their BGPs and joined BGPs merged."""
    if isinstance(pattern, StreamPattern):  # a block is a group over the merged default graph
        return abstract_pattern(pattern.pattern)
    pattern = _map_children(pattern, abstract_pattern)
    if isinstance(pattern, Join) and all(isinstance(p, BGP) for p in (pattern.left, pattern.right)):
        return merge_bgps(pattern.left, pattern.right)
    return pattern


def cs(query: RspQuery) -> RspQuery:
    """``cs(Q)``: the abstract pattern, and ``S`` with empty graph patterns (duplicates dropped)."""
    streams: list[StreamSpec] = []
    for spec in query.streams:
        emptied = StreamSpec(spec.stream, spec.window, BGP(), spec.named)
        if emptied not in streams:
            streams.append(emptied)
    return replace(query, pattern=abstract_pattern(query.pattern), streams=tuple(streams))


def variant_ids(count: int) -> tuple[str, ...]:
    """All variant ids for ``count`` streams, from all brave to all cautious."""
    return tuple("".join(letters) for letters in product("bc", repeat=count))


def variant_letters(variant: str, count: int) -> str:
    """The per-stream letters of a variant id (``brave``, ``cautious`` or ``b``/``c`` letters)."""
    if variant == "brave":
        return "b" * count
    if variant == "cautious":
        return "c" * count
    if len(variant) == count and set(variant) <= {"b", "c"}:
        return variant
    raise InputError(f"unknown CQELS variant '{variant}' for {count} stream pattern(s)",
                     hint="use brave, cautious or one letter b/c per stream, e.g. "
                          + ", ".join(variant_ids(min(count, 2))[:4]))


@dataclass(frozen=True)
class Variant:
    """One query of ``cq(Q)`` and its id."""

    id: str
    query: RspQuery


def cq_variant(query: RspQuery, variant: str = "brave") -> RspQuery:
    """The CQELS query of ``cq(Q)`` with the given id."""
    letters = iter(variant_letters(variant, len(query.streams)))

    def rewrite(pattern: Pattern) -> Pattern:
        if isinstance(pattern, StreamPattern):
            brave = next(letters, "b") == "b"
            return pattern if brave else Union(pattern, pattern.pattern)
        return _map_children(pattern, rewrite)
    return replace(query, pattern=rewrite(query.pattern))


def cq(query: RspQuery) -> tuple[Variant, ...]:
    """``cq(Q)``: all ``2^|S|`` CQELS variants, brave first."""
    return tuple(Variant(v, cq_variant(query, v)) for v in variant_ids(len(query.streams)))
