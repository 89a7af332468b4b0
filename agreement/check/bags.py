"""Bag answers: how many times an engine with bag semantics repeats each row (``--strict``).

SPARQL's bag semantics (SPARQL 1.1, section 18.5) gives a projected row as many times as there
are distinct solutions — variable bindings and blank-node mappings — that project to it. LARS
answers are sets, so the multiplicity is counted on a second program: the same query with every
in-scope variable and every blank node of the pattern made a result variable.

>>> from translate.api import parse_query
>>> q = parse_query("SELECT ?s WHERE { STREAM <http://ex.org/s> [NOW] { ?s <http://ex.org/p> [ <http://ex.org/q> ?v ] } }")
>>> [v.name for v in unprojected(q).variables]
['bnode_b1', 's', 'v']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, is_dataclass, replace

from agreement.compare import Row
from translate.rsp import BGP, BlankVar, RspQuery, StreamSpec, TriplePattern, Var
from translate.scope import in_scope


def _named(term):
    return Var(f"bnode_{term.label}") if isinstance(term, BlankVar) else term


def _bgp(bgp: BGP) -> BGP:
    return BGP(tuple(TriplePattern(*(_named(t) for t in triple.terms())) for triple in bgp.triples))


def _rewrite(node):
    """``node`` with every blank node of its BGPs made a variable ``bnode_<label>``."""
    if isinstance(node, BGP):
        return _bgp(node)
    if not is_dataclass(node) or isinstance(node, (Var, BlankVar, TriplePattern)):
        return node
    changes = {f.name: _rewrite(getattr(node, f.name)) for f in fields(node)
               if is_dataclass(getattr(node, f.name))}
    return replace(node, **changes) if changes else node


def unprojected(query: RspQuery) -> RspQuery:
    """``query`` with all in-scope variables and blank nodes as result variables, no DISTINCT."""
    pattern = _rewrite(query.pattern)
    streams = tuple(StreamSpec(s.stream, s.window, _rewrite(s.pattern), s.named)
                    for s in query.streams)
    names = sorted(in_scope(pattern))
    return replace(query, pattern=pattern, streams=streams, distinct=False,
                   variables=tuple(Var(name) for name in names))


def multiplicities(full_rows: frozenset[Row], full_names: tuple[str, ...],
                   select: tuple[str, ...]) -> Counter:
    """Each projected row counted once per unprojected solution."""
    index = [full_names.index(name) for name in select]
    return Counter(tuple(row[i] for i in index) for row in full_rows)
