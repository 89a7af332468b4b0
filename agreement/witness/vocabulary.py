"""The finite vocabulary a witness search guesses stream triples from (SPEC section 13).

A stream that makes two engines disagree can use any RDF terms; the search looks at finitely
many. Each variable of the queries' triple patterns ranges over

* the constants that occur where it occurs: at the same position (subject, predicate, object)
  in any triple pattern of the queries or any static triple;
* for each FILTER comparison it takes part in, the constants of that comparison, and for an
  integral number ``c`` also ``c-1`` and ``c+1`` in ``c``'s datatype, so that the filter can
  be both satisfied and failed (a reading above 80 for ``FILTER(?value > 80)``);
* ``N`` fresh IRIs that occur nowhere else.

A candidate stream triple instantiates one triple pattern of either query with these values
(IRIs only as subject and predicate, as RDF requires) and arrives on one of the queries'
streams: every pattern on every stream, since C-SPARQL merges all streams into its default
graph (a triple of a static pattern arriving on a stream is condition (ii) of the paper).

"No witness" is a statement about this vocabulary. Blank nodes are never guessed: a blank node
of the static data is local to its file, so a stream cannot name it (a stream file that wrote
its label would name another node); language-tagged or non-integral literals are guessed only
where the query or the static data holds them.

>>> from rdflib import URIRef
>>> fresh_iris(2)
(rdflib.term.URIRef('urn:lars-witness:c1'), rdflib.term.URIRef('urn:lars-witness:c2'))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from rdflib import BNode, Literal, URIRef
from rdflib.graph import Graph
from rdflib.term import Identifier

from lars.errors import InputError, LimitError
from translate.rdf import RdfTermEncoder, numeric_value
from translate.rsp import (
    BGP, BlankVar, Compare, RspQuery, StreamPattern, TriplePattern, Var,
)
from translate.scope import block_triples, children, conditions, stream_patterns, subexpressions

FRESH_PREFIX = "urn:lars-witness:c"
Triple = tuple[Identifier, Identifier, Identifier]


def fresh_iris(count: int) -> tuple[URIRef, ...]:
    """``N`` IRIs no query or data uses (the ``urn:lars-witness:`` namespace is ours)."""
    return tuple(URIRef(f"{FRESH_PREFIX}{k}") for k in range(1, count + 1))


def triple_patterns(pattern) -> list[TriplePattern]:
    """Every triple pattern of a pattern tree, STREAM blocks included, in text order."""
    if isinstance(pattern, BGP):
        return list(pattern.triples)
    if isinstance(pattern, StreamPattern):
        return triple_patterns(pattern.pattern)
    return [t for child in children(pattern) for t in triple_patterns(child)]


def variable_key(term) -> str | None:
    """The name a pattern variable or blank node ranges under, ``None`` for a constant."""
    if isinstance(term, Var):
        return term.name
    if isinstance(term, BlankVar):
        return "_:" + term.label
    return None


def neighbours(constant: Identifier, reach: int = 1) -> list[Identifier]:
    """``c`` and, for an integral number, ``c-reach … c+reach`` in its datatype (for a
    non-integral one, the integers around it)."""
    if not isinstance(constant, Literal):
        return [constant]
    value = numeric_value(constant)
    if value is None:
        return [constant]
    if value.denominator != 1:
        low = value.numerator // value.denominator
        return [Literal(v) for v in range(low + 1 - reach, low + reach + 1)]
    whole = value.numerator
    return [Literal(str(v), datatype=constant.datatype) for v in range(whole - reach, whole + reach + 1)]


def comparison_groups(queries: Sequence[RspQuery]) -> list[tuple[set[str], list[Identifier]]]:
    """Variables linked by FILTER comparisons (``?a > ?b`` links them), each group with the
    constants its comparisons hold."""
    groups: list[tuple[set[str], list[Identifier]]] = []
    for query in queries:
        for condition in conditions(query.pattern):
            for expr in subexpressions(condition):
                if not isinstance(expr, Compare):
                    continue
                parts = list(subexpressions(expr))
                names = {p.name for p in parts if isinstance(p, Var)}
                constants = [p for p in parts if isinstance(p, (URIRef, Literal))]
                joined = [g for g in groups if g[0] & names]
                groups = [g for g in groups if not g[0] & names]
                groups.append((names.union(*(g[0] for g in joined)),
                               constants + [c for g in joined for c in g[1]]))
    return groups


def filter_values(queries: Sequence[RspQuery]) -> dict[str, list[Identifier]]:
    """For each variable, values that put its FILTER comparisons on either side: the constants
    compared with it or with a variable it is compared with, and for a number ``c`` the numbers
    within ``n`` of it, ``n`` the size of the group (``?a > ?b, ?b > 75`` needs 77, 76 and 75);
    a group without constants gets the integers ``0 … n``."""
    found: dict[str, list[Identifier]] = {}
    for names, constants in comparison_groups(queries):
        reach = len(names)
        values = [v for c in constants for v in neighbours(c, reach)] or [
            Literal(k) for k in range(reach + 1)]
        for name in names:
            found.setdefault(name, []).extend(values)
    return found


def allowed(value: Identifier, position: int) -> bool:
    """RDF's term kinds: subjects are IRIs (or blank nodes), predicates IRIs."""
    if position == 1:
        return isinstance(value, URIRef)
    return position == 2 or isinstance(value, (URIRef, BNode))


@dataclass(frozen=True)
class Vocabulary:
    """The candidate stream triples of a search, and what they were made from.

    Attributes:
        fresh: the fresh IRIs.
        domains: per pattern variable, the values it ranges over.
        candidates: ``(triple, stream)`` pairs, in a fixed order.
    """

    fresh: tuple[URIRef, ...]
    domains: dict[str, tuple[Identifier, ...]]
    candidates: tuple[tuple[Triple, URIRef], ...]


def unique(values: Iterable[Identifier]) -> tuple[Identifier, ...]:
    return tuple(dict.fromkeys(values))


def placed_patterns(queries: Sequence[RspQuery], own_streams: bool) -> list[tuple[TriplePattern, URIRef]]:
    """``(pattern, stream)`` pairs to instantiate: every pattern on every stream, or with
    ``own_streams`` only the STREAM blocks' patterns, each on its own stream."""
    if own_streams:
        return list(unique((p, block.stream) for query in queries
                           for block in stream_patterns(query.pattern)
                           for p in block_triples(block.pattern)))
    streams = unique(spec.stream for query in queries for spec in query.streams)
    patterns = unique(p for query in queries for p in triple_patterns(query.pattern))
    return [(p, s) for p in patterns for s in streams]


def build_vocabulary(queries: Sequence[RspQuery], graphs: dict[URIRef | None, Graph], fresh: int,
                     encoder: RdfTermEncoder, own_streams: bool = False,
                     limit: int | None = None) -> Vocabulary:
    """The vocabulary of the module docstring for the queries of both sides.

    With ``own_streams`` only triples of a STREAM block's patterns are guessed, each on its own
    stream: the paper's condition (ii) is then assumed (no stream triple lands where C-SPARQL's
    merged default graph and CQELS's stream patterns would read it differently), and the search
    looks for disagreements of timing (condition (iii)) only.

    Values the encoder cannot encode next to the queries' and data's terms (a number that
    would collide with another literal of the same value) are left out.

    A query without streams has no candidates: only the empty stream is searched (C-SPARQL
    still answers from static data at every pull, CQELS never evaluates).

    Raises:
        InputError: a negative number of fresh constants.
        LimitError: more than ``limit`` fresh constants or candidate triples (each is at least
            one atom of the search's ground program, ``--max-ground``), counted before they are
            listed (issue 28).
    """
    if fresh < 0:
        raise InputError(f"--constants must be 0 or more, not {fresh}")
    if limit is not None and fresh > limit:
        raise too_many_candidates(f"{fresh:,} fresh IRIs", limit)
    placed = placed_patterns(queries, own_streams)
    patterns = unique(p for query in queries for p in triple_patterns(query.pattern))
    static = sorted((t for graph in graphs.values() for t in graph),
                    key=lambda t: [term.n3() for term in t])  # a fixed order: the same search every run
    at_position: list[list[Identifier]] = [[], [], []]
    for triple in [p.terms() for p in patterns] + static:
        for k, term in enumerate(triple):
            if variable_key(term) is None:
                at_position[k].append(term)
    positions: dict[str, set[int]] = {}
    for pattern in patterns:
        for k, term in enumerate(pattern.terms()):
            if variable_key(term) is not None:
                positions.setdefault(variable_key(term), set()).add(k)
    news = fresh_iris(fresh)
    by_filter = filter_values(queries)
    domains = {}
    for name, where in positions.items():
        values = [v for k in sorted(where) for v in at_position[k]] + by_filter.get(name, []) + list(news)
        domains[name] = tuple(v for v in unique(values)
                              if not isinstance(v, BNode) and encodable(v, encoder))
    candidates = []
    for pattern, stream in placed:
        choices = [domains[variable_key(t)] if variable_key(t) is not None else (t,)
                   for t in pattern.terms()]
        if limit is not None and len(candidates) + math.prod(map(len, choices)) > limit:
            raise too_many_candidates(f"more than {limit:,} candidate triples", limit)
        candidates += [(triple, stream) for triple in product(*choices)
                       if all(allowed(v, k) for k, v in enumerate(triple))]
    return Vocabulary(news, domains, unique(candidates))


def too_many_candidates(what: str, limit: int) -> LimitError:
    """The refusal of a search space past ``--max-ground`` before it is built."""
    return LimitError(f"the search would guess among {what}, each at least one atom of the ground "
                      f"program (limit {limit:,})",
                      hint="lower --constants, give --own-streams, or raise --max-ground")


def encodable(value: Identifier, encoder: RdfTermEncoder) -> bool:
    """Whether ``value`` gets a constant of its own next to the terms the encoder knows."""
    try:
        encoder.encode(value)
    except InputError:
        return False
    return True
