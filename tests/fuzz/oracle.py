"""The fuzzer's oracle: each profile's answers as SPARQL on each window's content (pyoxigraph).

A direct reading of SPEC sections 3, 4, 9 and 12, sharing no code with ``translate/``,
``solver/`` or ``agreement/`` (it imports :mod:`tests.fuzz.model` only). Queries are evaluated by
pyoxigraph, a SPARQL engine that shares nothing with the rdflib parser the tool reads queries
with (rdflib terms are kept for the generated data only):

* a window ``[RANGE L STEP D]`` at reference time ``t`` is ``⊞^{L,0,D}``: with
  ``t' = floor(t/D)·D`` it holds the items stamped in ``[max(0, t'-L), t']`` (section 3, the
  paper's closed bounds; :func:`window_items`);
* **paper-pull** (C-SPARQL, ``℘(τ1(cs(Q)), U)``): at every ``t`` with ``t % U = 0`` the query
  runs on one default graph holding the static triples and every window's content (τ1 merges
  the windows into the default graph; :func:`paper_pull`);
* **paper-push** (CQELS, ``℘(τ2(Q'))``): at every ``t`` with input the query runs with the
  static triples as default graph and window ``i``'s content as the named graph the block of
  stream ``i`` reads (:func:`paper_push`);
* **agreement** (section 9): on ``[iU, (i+1)U]`` the union of the push answers at
  ``(iU, (i+1)U]`` equals the pull answer at ``(i+1)U`` (:func:`verdicts`).

Answers are sets of rows; a row is a tuple of :func:`normal` terms in SELECT order (numbers by
value, rounded to 9 decimals: SPARQL leaves the precision of ``AVG`` to the implementation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import pyoxigraph as ox
from rdflib import Literal
from rdflib.namespace import XSD
from rdflib.term import Node
from rdflib.util import from_n3

from tests.fuzz.model import Query, Window, oracle_sparql, window_graph

Triple = tuple[Node, Node, Node]
Row = tuple[object, ...]
Answers = dict[int, frozenset[Row]]

NUMERIC = {XSD.integer, XSD.decimal, XSD.double, XSD.float, XSD.int, XSD.long, XSD.short,
           XSD.nonNegativeInteger, XSD.positiveInteger, XSD.negativeInteger,
           XSD.nonPositiveInteger, XSD.unsignedInt, XSD.byte}


@dataclass(frozen=True)
class Item:
    """One stream element: ``triple`` on stream ``stream`` (an index into the query's
    windows) at time ``time``."""

    time: int
    stream: int
    triple: Triple


def normal(term: Node | None) -> object:
    """A term as the oracle compares it: numbers by value (9 decimals), other terms as N3,
    unbound as ``None``.

    >>> normal(Literal("1.50", datatype=XSD.decimal)) == normal(Literal(1.5))
    True
    """
    if term is None:
        return None
    if isinstance(term, Literal) and term.datatype in NUMERIC:
        return ("number", round(Decimal(str(term.toPython())), 9))
    return term.n3()


def variables(query: Query) -> tuple[str, ...]:
    """The result variables in SELECT order (an aggregate's is its ``AS`` name)."""
    return tuple(v.rsplit("?", 1)[1].rstrip(")").strip() if v.startswith("(") else v
                 for v in query.select)


def window_items(items: Sequence[Item], stream: int, window: Window, t: int,
                 shift: int = 0) -> list[Triple]:
    """The triples of ``window`` on ``stream`` at ``t``; ``shift`` moves the window (a
    deliberately wrong oracle, for the self-test).

    A time window ``⊞^{L,0,D}`` holds the items stamped in ``[max(0, t'-L), t']``,
    ``t' = floor(t/D)·D`` (closed bounds). A tuple window ``⊞^{#n}`` holds the latest ``n``
    items up to ``t`` in arrival order, the items at one time point read as a set (SPEC
    section 2: a repeated triple at one time point is one atom).
    """
    if window.triples is not None:
        seen = list(dict.fromkeys((i.time, i.triple) for i in items
                                  if i.stream == stream and i.time <= t + shift))
        return [triple for _, triple in seen[max(0, len(seen) - window.triples):]]
    end = (t // window.step) * window.step + shift
    return [i.triple for i in items
            if i.stream == stream and max(0, end - window.length) <= i.time <= end and i.time <= t]


def _term(term: Node) -> ox.NamedNode | ox.Literal:
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype or XSD.string)))
    return ox.NamedNode(str(term))


def store(static: Iterable[Triple], windows: dict[str | None, Iterable[Triple]]) -> ox.Store:
    """A pyoxigraph store: ``static`` and ``windows[None]`` in the default graph, each other
    ``windows[iri]`` in the named graph ``iri``."""
    found = ox.Store()
    default = ox.DefaultGraph()
    for triple in static:
        found.add(ox.Quad(*map(_term, triple), default))
    for name, triples in windows.items():
        graph = default if name is None else ox.NamedNode(name)
        for triple in triples:
            found.add(ox.Quad(*map(_term, triple), graph))
    return found


def rows(sparql: str, data: ox.Store, names: Sequence[str]) -> frozenset[Row]:
    """The solutions of ``sparql`` on ``data`` (pyoxigraph, an engine independent of the
    rdflib the tool reads queries with) as rows over ``names``."""
    return frozenset(tuple(normal(None if s[n] is None else from_n3(str(s[n]))) for n in names)
                     for s in data.query(sparql, use_default_graph_as_union=False))


def invalid(query: Query) -> str | None:
    """Why SPARQL 1.1 rejects the query (pyoxigraph's parse error, e.g. a projected variable
    neither grouped nor aggregated, section 11.4), or ``None``."""
    try:
        ox.Store().query(oracle_sparql(query, merged=True))
    except SyntaxError as error:
        return str(error).splitlines()[0]
    return None


def paper_pull(query: Query, items: Sequence[Item], static: Sequence[Triple], period: int,
               end: int, shift: int = 0) -> Answers:
    """C-SPARQL's answers (the paper's pull) at each multiple of ``period`` in ``[0, end]``."""
    sparql = oracle_sparql(query, merged=True)
    answers = {}
    for t in range(0, end + 1, period):
        merged = [triple for index, w in enumerate(query.windows)
                  for triple in window_items(items, index, w, t, shift)]
        answers[t] = rows(sparql, store(static, {None: merged}), variables(query))
    return answers


def paper_push(query: Query, items: Sequence[Item], static: Sequence[Triple], end: int,
               shift: int = 0) -> Answers:
    """CQELS's answers (the paper's push) at each time point of ``[0, end]`` with input."""
    sparql = oracle_sparql(query, merged=False)
    answers = {}
    for t in sorted({i.time for i in items if i.time <= end}):
        windows = {window_graph(index): window_items(items, index, w, t, shift)
                   for index, w in enumerate(query.windows)}
        answers[t] = rows(sparql, store(static, windows), variables(query))
    return answers


@dataclass(frozen=True)
class Verdict:
    """Section 9 on ``[start, end]``: the union of the push answers in ``(start, end]`` against
    the pull answer at ``end``."""

    start: int
    end: int
    only_push: frozenset[Row]
    only_pull: frozenset[Row]

    @property
    def agree(self) -> bool:
        return not self.only_push and not self.only_pull


def verdicts(pull: Answers, push: Answers, period: int, end: int) -> list[Verdict]:
    """The verdict of every pulling interval ``[iU, (i+1)U]`` with ``(i+1)U ≤ end``."""
    found = []
    for close in range(period, end + 1, period):
        pushed = frozenset().union(*(rows for t, rows in push.items() if close - period < t <= close))
        pulled = pull.get(close, frozenset())
        found.append(Verdict(close - period, close, pushed - pulled, pulled - pushed))
    return found
