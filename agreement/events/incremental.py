"""Event queries under consumption, evaluated incrementally as the evaluation times advance.

The LARS translation (:mod:`translate.eventrules`) re-derives the consumption state at every
evaluation time from the whole input history, so that ``n`` evaluation times cost about ``n³``.
This module keeps that state between evaluation times instead, which is what the consumption
policies ``P^c``, ``P^r`` of paper 001 (section 4.4) describe: after each evaluation the input of
the events found is removed from later evaluations. Same answers (the paper oracle of
``tests/oracles/events.py`` judges both), work proportional to what is live:

* **live window contents** (:class:`_Window`): per named window, the time points it holds now and
  their unconsumed triples. Each stream item enters a window once (when the window's upper end
  passes it: ``⌊t/β⌋·β`` for ``W^τ(α, β)``, ``t`` for ``W^λ`` and ``W^id``), leaves once (when it
  falls out of ``W^τ``'s lower end, or when it is consumed), and is never read again;
* **basic events by partition** (:class:`_Basic`): the events of each ``EVENT w P`` (equation 4)
  are matched once, when their time point enters the window, and kept per value of the node's
  *context* (the variables an enclosing SEQ substitutes, ``μ2(E1)``), in time order; a consumed
  item removes the events made of it. ``⟨⟨μ2(E1)⟩⟩`` is then a look-up, and ``FIRST``/``LAST``
  of a basic pattern the earliest/latest time point of its partition before the bound ``t3 − 1``;
* **selection per partition** (``SEQ^c``, ``SEQ^r``, equations (10), (11)): the candidates of
  ``E2`` are grouped by their values on the shared variables ``var(E1) ∩ var(E2)`` and each group
  keeps its first (last) ones in one pass — a candidate beaten by another of its group is one
  that ends before (starts after) it — instead of comparing candidates pairwise. At the top of
  the pattern over a basic ``E2`` (:meth:`_Evaluator.points_chosen`), ``E2``'s events are kept
  per group, each group is walked from its first (last) time point to its first candidate, and
  an event that can never have a match before it is dropped for good.

An evaluation of the pattern at ``t`` follows the node tree of :mod:`translate.eventtree` (the
policies rewritten into ``seq``, ``before``, ``first``, ``last``, ``basic``) with the substitution
and the bound as arguments, as the equations write them, and memoizes each node per
(bound, substituted values) for that evaluation. Events are ``(values, t1, t2)``, ``values``
aligned with the node's variables, each with the input items ``(window, triple, time)`` of all
its derivations, which consumption removes.

>>> from rdflib import URIRef
>>> from translate.eventreader import read_event_query
>>> from translate.eventrules import Evaluation, translate_events
>>> query = read_event_query(open("examples/events/figure1.rq").read())
>>> translation = translate_events(query, "epsparql-chronological", Evaluation("at", (5, 6)))
>>> ex = lambda *names: tuple(URIRef("http://ex.org/" + n) for n in names)
>>> stream = [StreamTriple(t, ex("S")[0], ex(*spo), None) for spo, t in (
...     (("a1", "p", "b"), 1), (("a2", "p", "b"), 2), (("b", "q", "c1"), 3), (("b", "q", "c2"), 4))]
>>> run = evaluate_incrementally(translation, stream, (0, 6))
>>> [(t, [v.split("/")[-1] for values, _, _ in rows for v in values]) for t, rows in run.rows.items()]
[(5, ['a1', 'b', 'c1']), (6, ['a2', 'b', 'c2'])]
>>> [(triple[0].split("/")[-1], time, at) for _, triple, time, at in run.consumed]
[('a1', 1, 5), ('b', 3, 5), ('a2', 2, 6), ('b', 4, 6)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ingest.rdffiles import StreamTriple
from translate.eventrules import EventTranslation
from translate.events import LandmarkWindow, NamedWindow
from translate.eventtree import Node, build
from translate.rsp import RangeWindow, Var

INFINITY = float("inf")
Event = tuple  # (values aligned with the node's variables, t1, t2)
Item = tuple  # (window IRI, (s, p, o), time)


@dataclass(frozen=True)
class EventRun:
    """What an evaluation found: ``rows[t]`` the answers ``(SELECT values, t1, t2)`` reported at
    evaluation time ``t``; ``consumed`` the items ``(window, triple, time, evaluation time)``
    removed after each evaluation (empty without consumption)."""

    rows: dict[int, set[tuple]]
    consumed: tuple[tuple, ...] = ()


def evaluation_times(translation: EventTranslation, elements: Iterable[StreamTriple],
                     timeline: tuple[int, int]) -> list[int]:
    """``ET`` of a translation on the timeline: the given times, the multiples of the period,
    or every time point with input on the query's streams."""
    evaluation = translation.evaluation
    if evaluation.kind == "at":
        return [t for t in evaluation.times if timeline[0] <= t <= timeline[1]]
    if evaluation.kind == "pull":
        first = -(-timeline[0] // evaluation.period) * evaluation.period
        return list(range(first, timeline[1] + 1, evaluation.period))
    streams = {w.stream for w in translation.query.windows}
    return sorted({e.time for e in elements if e.stream in streams})


class _Window:
    """The live content of one named window: ``{time: unconsumed triples}`` in time order."""

    def __init__(self, spec: NamedWindow, elements: Sequence[StreamTriple]):
        self.spec = spec
        self.pending = sorted(((e.time, e.triple) for e in elements if e.stream == spec.stream),
                              key=lambda pair: pair[0])
        self.next = 0
        self.live: dict[int, set[tuple]] = {}
        self.upper = -INFINITY  # no item at or before it is still to enter

    def advance(self, t: int) -> tuple[list[int], list[int]]:
        """Move to evaluation time ``t``: the time points that entered and those that left."""
        window = self.spec.window
        upper, lower = t, -INFINITY
        if isinstance(window, RangeWindow):
            upper = (t // window.step) * window.step
            lower = upper - window.length  # (upper − α, upper], paper 001 Definition 3
        elif isinstance(window, LandmarkWindow):
            lower = window.start - 1
        self.upper = upper
        left = []
        while self.live:
            oldest = next(iter(self.live))
            if oldest > lower:
                break
            del self.live[oldest]
            left.append(oldest)
        entered = []
        while self.next < len(self.pending) and self.pending[self.next][0] <= upper:
            time, triple = self.pending[self.next]
            self.next += 1
            if time > lower:
                if time not in self.live:
                    entered.append(time)
                self.live.setdefault(time, set()).add(triple)
        return entered, left


class _Basic:
    """The events of one basic node (equation 4) in its window, per context value, in time order."""

    def __init__(self, node: Node, grouping: tuple[str, ...] | None = None):
        """``grouping``: the variables to partition by, default the node's context."""
        self.node = node
        self.window = node.basic.window
        self.triples = node.basic.pattern.triples
        self.context = (node.context or ()) if grouping is None else grouping
        self.by_key: dict[tuple, dict[int, dict[tuple, frozenset]]] = {}
        self.keys_at: dict[int, set[tuple]] = {}

    def key_of(self, sigma: dict) -> tuple:
        return tuple(sigma[v] for v in self.context)

    def enter(self, time: int, graph: set[tuple]) -> None:
        """Match the pattern on the graph of ``time`` (``⟦P⟧_{G_k}``) and file the events."""
        for binding in _matches(self.triples, graph, {}):
            values = tuple(binding[v] for v in self.node.variables)
            key = tuple(binding[v] for v in self.context)
            items = frozenset((self.window, tuple(binding[x.name] if isinstance(x, Var) else x
                                                  for x in tp.terms()), time)
                              for tp in self.triples)
            self.by_key.setdefault(key, {}).setdefault(time, {})[values] = items
            self.keys_at.setdefault(time, set()).add(key)

    def leave(self, time: int) -> None:
        for key in self.keys_at.pop(time, ()):
            del self.by_key[key][time]
            if not self.by_key[key]:
                del self.by_key[key]

    def consume(self, item: Item) -> None:
        """Remove the events made of ``item`` (their time point lost a triple)."""
        time = item[2]
        for key in list(self.keys_at.get(time, ())):
            for values in [v for v, items in self.by_key[key][time].items() if item in items]:
                self.drop(key, time, values)

    def drop(self, key: tuple, time: int, values: tuple) -> None:
        """Forget one event (consumed, or one that can no longer take part in any answer)."""
        events = self.by_key[key][time]
        del events[values]
        if not events:
            del self.by_key[key][time]
            self.keys_at[time].discard(key)
            if not self.keys_at[time]:
                del self.keys_at[time]
            if not self.by_key[key]:
                del self.by_key[key]

    def events(self, hi: float, sigma: dict, pick: str = "all") -> dict[Event, frozenset]:
        """The events up to ``hi`` agreeing with ``sigma``: all, or those of the first or last
        time point (``FIRST``/``LAST`` of a basic pattern: its events are points in time)."""
        partition = self.by_key.get(self.key_of(sigma), {})
        times = reversed(partition) if pick == "last" else iter(partition)
        found: dict[Event, frozenset] = {}
        for time in times:
            if time > hi:
                if pick == "last":
                    continue
                break
            for values, items in partition[time].items():
                found[(values, time, time)] = items
            if pick != "all":
                break
        return found


def _matches(triples, graph: set[tuple], binding: dict) -> Iterable[dict]:
    """The bindings of the variables of ``triples`` that map every triple into ``graph``."""
    if not triples:
        yield binding
        return
    pattern = triples[0].terms()
    for fact in graph:
        extended = dict(binding)
        for term, value in zip(pattern, fact):
            if isinstance(term, Var):
                if extended.setdefault(term.name, value) != value:
                    break
            elif term != value:
                break
        else:
            yield from _matches(triples[1:], graph, extended)


@dataclass
class _Evaluator:
    """One pattern over live windows; :meth:`at` evaluates it at one evaluation time."""

    root: Node
    windows: dict
    basics: dict[int, _Basic] = field(default_factory=dict)
    memo: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        grouping = {}
        for node in _nodes(self.root):
            if _selects_points(node):
                grouping[node.children[1].index] = tuple(_shared(node))
        for node in _nodes(self.root):
            if node.kind == "basic":
                self.basics[node.index] = _Basic(node, grouping.get(node.index))

    def advance(self, t: int) -> None:
        for name, window in self.windows.items():
            entered, left = window.advance(t)
            mine = [b for b in self.basics.values() if b.window == name]
            for basic in mine:
                for time in left:
                    basic.leave(time)
                for time in entered:
                    basic.enter(time, window.live[time])

    def consume(self, items: Iterable[Item]) -> list[Item]:
        """Remove ``items`` from their windows and from the basic events; returns those removed."""
        removed = []
        for item in sorted(items, key=repr):
            window, triple, time = item
            graph = self.windows[window].live.get(time)
            if graph is None or triple not in graph:
                continue
            graph.discard(triple)
            if not graph:
                del self.windows[window].live[time]
            removed.append(item)
            for basic in self.basics.values():
                if basic.window == window:
                    basic.consume(item)
        return removed

    def at(self, t: int) -> dict[Event, frozenset]:
        self.advance(t)
        self.memo = {}
        return self.eval(self.root, INFINITY, {})

    def eval(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """``⟨⟨σ(E)⟩⟩^t`` in ``W^⊔[0, hi] • W`` (``hi`` infinite: no bound)."""
        key = (node.index, hi, tuple(sigma[v] for v in node.context or ()))
        if key not in self.memo:
            self.memo[key] = getattr(self, "eval_" + node.kind)(node, hi, sigma)
        return self.memo[key]

    def eval_basic(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        return self.basics[node.index].events(hi, sigma)

    def eval_first(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """Equation (5): no event of the operand ends before this one starts."""
        [child] = node.children
        if child.kind == "basic":
            return self.basics[child.index].events(hi, sigma, "first")
        events = self.eval(child, hi, sigma)
        end = min((e[2] for e in events), default=None)
        return {e: items for e, items in events.items() if e[1] <= end}

    def eval_last(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """Equation (6): no event of the operand starts after this one ends."""
        [child] = node.children
        if child.kind == "basic":
            return self.basics[child.index].events(hi, sigma, "last")
        events = self.eval(child, hi, sigma)
        start = max((e[1] for e in events), default=None)
        return {e: items for e, items in events.items() if e[2] >= start}

    def eval_before(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """``SEQ^n`` (9): ``LAST E1`` and ``LAST E2`` (the children), compatible, ``t2 < t3``."""
        left, right = node.children
        found: dict[Event, frozenset] = {}
        lefts = self.eval(left, hi, sigma)
        for e2, items2 in self.eval(right, hi, sigma).items():
            mapping2 = dict(zip(right.variables, e2[0]))
            for e1, items1 in lefts.items():
                mapping1 = dict(zip(left.variables, e1[0]))
                if e1[2] < e2[1] and all(mapping2.get(k, v) == v for k, v in mapping1.items()):
                    _join(found, node, mapping1 | mapping2, e1[1], e2[2], items1 | items2)
        return found

    def eval_seq(self, node: Node, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """``SEQ`` (7) and, choosing per partition, ``SEQ^c`` (10) and ``SEQ^r`` (11)."""
        left, right = node.children
        if _selects_points(node):
            rights, pairs = self.points_chosen(node)
        else:
            rights = self.eval(right, hi, sigma)
            pairs = []
            for e2 in rights:
                mapping2 = dict(zip(right.variables, e2[0]))
                lefts = self.eval(left, e2[1] - 1, sigma | mapping2)
                if lefts:
                    pairs.append((e2, mapping2, lefts))
            if node.choose != "all":
                pairs = _chosen(pairs, _shared(node), node.choose)
        found: dict[Event, frozenset] = {}
        for e2, mapping2, lefts in pairs:
            for e1, items1 in lefts.items():
                _join(found, node, dict(zip(left.variables, e1[0])) | mapping2, e1[1], e2[2],
                      items1 | rights[e2])
        return found


    def points_chosen(self, node: Node) -> tuple[dict, list]:
        """``SEQ^c``/``SEQ^r`` over a basic ``E2`` without substitution or bound: its events are
        points, filed per shared values (one partition per group of the ∄ condition), so the
        first (last) candidates of a group are those of its earliest (latest) time point that
        has a match of ``μ2(E1)`` before it. The partition is walked from that end and stops
        there. An event passed over on the way with no match before it and at or before every
        window's upper end is dropped for good: input that has not entered a window comes after
        that end, and consumption and sliding only remove input, so no match can appear (the
        left operand has no ``SEQ^n``, whose ``LAST`` operands could gain events by losing some).
        """
        left, right = node.children
        basic = self.basics[right.index]
        settled = min(window.upper for window in self.windows.values())
        rights, pairs = {}, []
        for key, partition in list(basic.by_key.items()):
            times = list(reversed(partition) if node.choose == "last" else partition)
            for time in times:
                found = False
                for values, items in list(partition[time].items()):
                    mapping2 = dict(zip(right.variables, values))
                    lefts = self.eval(left, time - 1, mapping2)
                    if lefts:
                        rights[(values, time, time)] = items
                        pairs.append(((values, time, time), mapping2, lefts))
                        found = True
                    elif time - 1 <= settled:
                        basic.drop(key, time, values)
                if found:
                    break
        return rights, pairs


def _nodes(root: Node) -> Iterable[Node]:
    yield root
    for child in root.children:
        yield from _nodes(child)


def _shared(node: Node) -> list[str]:
    """``var(E1) ∩ var(E2)`` of a SEQ node: the partition of the ∄ condition of (10), (11)."""
    left, right = node.children
    return sorted(set(left.variables) & set(right.variables))


def _selects_points(node: Node) -> bool:
    """A ``SEQ^c``/``SEQ^r`` node that :meth:`_Evaluator.points_chosen` evaluates: no
    substitution or bound from above, a basic right operand, no ``SEQ^n`` in the left one."""
    return (node.kind == "seq" and node.choose != "all" and node.context is None
            and node.children[1].kind == "basic"
            and all(n.kind != "before" for n in _nodes(node.children[0])))


def _chosen(pairs: list, shared: list[str], choose: str) -> list:
    """The candidates of ``E2`` that no candidate with the same shared values beats: for
    ``first``, none ends before this one starts (``t1 ≤`` the group's least ``t2``); for
    ``last``, none starts after this one ends (``t2 ≥`` the group's greatest ``t1``)."""
    bound: dict[tuple, int] = {}
    for e2, mapping2, _ in pairs:
        group = tuple(mapping2[v] for v in shared)
        if choose == "first":
            bound[group] = min(bound.get(group, e2[2]), e2[2])
        else:
            bound[group] = max(bound.get(group, e2[1]), e2[1])
    return [(e2, m, lefts) for e2, m, lefts in pairs
            if (e2[1] <= bound[tuple(m[v] for v in shared)] if choose == "first"
                else e2[2] >= bound[tuple(m[v] for v in shared)])]


def _join(found: dict, node: Node, mapping: dict, t1: int, t2: int, items: frozenset) -> None:
    event = (tuple(mapping[v] for v in node.variables), t1, t2)
    found[event] = found.get(event, frozenset()) | items


def evaluate_incrementally(translation: EventTranslation, elements: Sequence[StreamTriple],
                           timeline: tuple[int, int]) -> EventRun:
    """The answers of ``translation`` at its evaluation times on ``timeline``, the consumption
    state carried from one evaluation time to the next (the module doc).

    ``report="new"`` keeps the events whose ``t2`` is after the previous evaluation time (not
    with consumption, where every event found is new: :mod:`translate.eventprofiles`).
    """
    query, profile = translation.query, translation.profile
    windows = {spec.name: _Window(spec, elements) for spec in query.windows}
    evaluator = _Evaluator(build(query.pattern), windows)
    positions = [evaluator.root.variables.index(v.name) for v in query.variables]
    rows: dict[int, set[tuple]] = {}
    consumed: list[tuple] = []
    previous = None
    for t in evaluation_times(translation, elements, timeline):
        events = evaluator.at(t)
        shown = {(tuple(values[k] for k in positions), t1, t2) for values, t1, t2 in events
                 if profile.report == "all" or previous is None or t2 > previous}
        if shown:
            rows[t] = shown
        if profile.consume:
            items = frozenset().union(*events.values())
            consumed += [(*item, t) for item in evaluator.consume(items)]
        previous = t
    return EventRun(rows, tuple(consumed))
