"""The fuzzer's oracle: each profile's answers as SPARQL on each window's content (rdflib).

A direct reading of SPEC sections 3, 4, 9 and 12, sharing no code with ``translate/``,
``solver/`` or ``agreement/`` (it imports rdflib and :mod:`tests.fuzz.model` only):

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

from rdflib import Dataset, Graph, Literal, URIRef, Variable
from rdflib.namespace import XSD
from rdflib.plugins.sparql import prepareQuery
from rdflib.term import Node

from tests.fuzz.model import Query, oracle_sparql, window_graph

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


def window_items(items: Iterable[Item], stream: int, length: int, step: int, t: int,
                 shift: int = 0) -> list[Triple]:
    """The triples of window ``⊞^{length,0,step}`` of ``stream`` at ``t`` (closed bounds);
    ``shift`` moves the window (a deliberately wrong oracle, for the self-test)."""
    end = (t // step) * step + shift
    return [i.triple for i in items if i.stream == stream and max(0, end - length) <= i.time <= end
            and i.time <= t]


def rows(prepared, dataset: Graph | Dataset, names: Sequence[str], grouped: bool) -> frozenset[Row]:
    """The solutions of ``prepared`` on ``dataset`` as rows over ``names``.

    SPARQL 1.1 (section 11.2, 18.2.4.1) and rdflib differ on the empty solution ``{}`` in two
    places, both righted here: without GROUP BY, aggregates over no solution make one group,
    so ``MIN``/``MAX`` give one row with the aggregate unbound, and rdflib's row iterator
    drops that row (so ``bindings`` are read instead); with GROUP BY over no solution there is
    no group and no row, but rdflib's ``bindings`` hold ``{}`` (so ``{}`` is dropped there; the
    generator's group keys are always bound, so ``{}`` is never a real group's row).
    """
    return frozenset(tuple(normal(binding.get(Variable(name))) for name in names)
                     for binding in dataset.query(prepared).bindings if binding or not grouped)


def paper_pull(query: Query, items: Sequence[Item], static: Sequence[Triple], period: int,
               end: int, shift: int = 0) -> Answers:
    """C-SPARQL's answers (the paper's pull) at each multiple of ``period`` in ``[0, end]``."""
    prepared = prepareQuery(oracle_sparql(query, merged=True))
    answers = {}
    for t in range(0, end + 1, period):
        graph = Graph()
        for triple in static:
            graph.add(triple)
        for index, w in enumerate(query.windows):
            for triple in window_items(items, index, w.length, w.step, t, shift):
                graph.add(triple)
        answers[t] = rows(prepared, graph, variables(query), bool(query.group_by))
    return answers


def paper_push(query: Query, items: Sequence[Item], static: Sequence[Triple], end: int,
               shift: int = 0) -> Answers:
    """CQELS's answers (the paper's push) at each time point of ``[0, end]`` with input."""
    prepared = prepareQuery(oracle_sparql(query, merged=False))
    answers = {}
    for t in sorted({i.time for i in items if i.time <= end}):
        dataset = Dataset()
        for triple in static:
            dataset.add(triple)
        for index, w in enumerate(query.windows):
            graph = dataset.graph(URIRef(window_graph(index)))
            for triple in window_items(items, index, w.length, w.step, t, shift):
                graph.add(triple)
        answers[t] = rows(prepared, dataset, variables(query), bool(query.group_by))
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
