"""An independent oracle for RSEP-QL event patterns: paper 001's equations read directly.

Written apart from :mod:`translate.eventrules` (no LARS, no shared helpers beyond the query
model): every equation is a few lines of Python over sets of event mappings ``(μ, t1, t2)``, with
the substitution ``μ2(E1)`` and the active window ``W^⊔[0, t3−1] • W`` passed down as an
environment, exactly as the paper writes them. Each event also carries the input items
``(window, triple, time)`` of its derivations, for the consumption policies.

The choices the paper leaves open are the ones ``docs/events.md`` documents: ``≺`` is the
interval order (``t2 < t3``); in (10) and (11) the competing ``μ'2`` are those with the same
values on ``var(E1) ∩ var(E2)`` (what makes Example 10's ``SEQ^r`` come out); consumption removes,
per window, the items of every event the evaluation found; ``report="new"`` keeps the events
whose ``t2`` is after the previous evaluation time, and is not for consumption, where every event
an evaluation finds is new (issue 27).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from translate.events import (
    Basic, EventPattern, EventQuery, First, LandmarkWindow, Last, Seq, pattern_variables,
)
from translate.rsp import AllWindow, RangeWindow, Var

Mapping = frozenset  # of (variable name, term) pairs
Event = tuple  # (Mapping, t1, t2)
Item = tuple  # (window IRI, (s, p, o), t)
INFINITY = float("inf")


def precedes(a: Event, b: Event) -> bool:
    """``(t1, t2) ≺ (t3, t4)`` iff ``t2 < t3``."""
    return a[2] < b[1]


def compatible(m1: Mapping, m2: Mapping) -> bool:
    d1, d2 = dict(m1), dict(m2)
    return all(d2[k] == v for k, v in d1.items() if k in d2)


@dataclass
class Oracle:
    """Evaluates event patterns of ``query`` over ``stream`` (``(triple, stream IRI, t)``)."""

    query: EventQuery
    stream: list[tuple[tuple, object, int]]
    consumed: dict | None = None

    def window_content(self, name, t: int) -> dict[int, set[tuple]]:
        """``W_j(S_ℓ, t)`` as ``{t_k: G_k}`` minus consumed items (Definition 3, section 4.4)."""
        spec = self.query.window(name)
        window = spec.window
        graphs: dict[int, set[tuple]] = {}
        for triple, stream, tk in self.stream:
            if stream != spec.stream or tk > t:
                continue
            if isinstance(window, RangeWindow):
                pivot = (t // window.step) * window.step
                inside = pivot - window.length < tk <= pivot
            elif isinstance(window, LandmarkWindow):
                inside = window.start <= tk
            else:
                assert isinstance(window, AllWindow)
                inside = True
            if inside and (name, triple, tk) not in (self.consumed or set()):
                graphs.setdefault(tk, set()).add(triple)
        return graphs

    def match_bgp(self, triples, graph: set[tuple], sigma: dict) -> Iterable[dict]:
        """``⟦σ(P)⟧_G`` (equation 1), each mapping extended with σ on ``var(P)``."""
        if not triples:
            yield dict(sigma)
            return
        first, rest = triples[0], triples[1:]
        for fact in graph:
            binding = dict(sigma)
            ok = True
            for term, value in zip(first.terms(), fact):
                if isinstance(term, Var):
                    if binding.setdefault(term.name, value) != value:
                        ok = False
                elif term != value:
                    ok = False
            if ok:
                yield from self.match_bgp(rest, graph, binding)

    def eval(self, pattern: EventPattern, t: int, hi: float, sigma: dict) -> dict[Event, frozenset]:
        """``⟨⟨σ(E)⟩⟩^t_{W^⊔[0,hi]}``: events → the items of their derivations."""
        return getattr(self, "eval_" + type(pattern).__name__.lower())(pattern, t, hi, sigma)

    def eval_basic(self, pattern: Basic, t, hi, sigma):  # equation (4)
        names = pattern_variables(pattern)
        own = {k: v for k, v in sigma.items() if k in names}
        result: dict[Event, frozenset] = {}
        for tk, graph in self.window_content(pattern.window, t).items():
            if tk > hi:
                continue
            for mu in self.match_bgp(pattern.pattern.triples, graph, own):
                items = frozenset((pattern.window, tuple(mu.get(x.name, x) if isinstance(x, Var)
                                                         else x for x in tp.terms()), tk)
                                  for tp in pattern.pattern.triples)
                event = (frozenset(mu.items()), tk, tk)
                result[event] = result.get(event, frozenset()) | items
        return result

    def eval_first(self, pattern: First, t, hi, sigma):  # equation (5)
        events = self.eval(pattern.operand, t, hi, sigma)
        return {e: i for e, i in events.items() if not any(precedes(f, e) for f in events)}

    def eval_last(self, pattern: Last, t, hi, sigma):  # equation (6)
        events = self.eval(pattern.operand, t, hi, sigma)
        return {e: i for e, i in events.items() if not any(precedes(e, f) for f in events)}

    def eval_seq(self, pattern: Seq, t, hi, sigma):
        return getattr(self, "seq_" + pattern.selection)(pattern, t, hi, sigma)

    def left_of(self, pattern: Seq, t, sigma, e2: Event):
        """``⟨⟨μ2(E1)⟩⟩^t_{W*}`` with ``W* = W^⊔[0, t3−1] • W``."""
        inner = dict(sigma)
        inner.update(dict(e2[0]))
        return self.eval(pattern.left, t, e2[1] - 1, inner)

    def seq_unrestricted(self, pattern: Seq, t, hi, sigma):  # equation (7)
        result: dict[Event, frozenset] = {}
        for e2, items2 in self.eval(pattern.right, t, hi, sigma).items():
            for e1, items1 in self.left_of(pattern, t, sigma, e2).items():
                join(result, e1, e2, items1 | items2)
        return result

    def seq_naive(self, pattern: Seq, t, hi, sigma):  # equation (9)
        lasts1 = self.eval(Last(pattern.left), t, hi, sigma)
        lasts2 = self.eval(Last(pattern.right), t, hi, sigma)
        result: dict[Event, frozenset] = {}
        for e1, items1 in lasts1.items():
            for e2, items2 in lasts2.items():
                if precedes(e1, e2) and compatible(e1[0], e2[0]):
                    join(result, e1, e2, items1 | items2)
        return result

    def seq_chronological(self, pattern: Seq, t, hi, sigma):  # equation (10)
        return self.selected(pattern, t, hi, sigma, First, lambda other, e2: precedes(other, e2))

    def seq_recent(self, pattern: Seq, t, hi, sigma):  # equation (11)
        return self.selected(pattern, t, hi, sigma, Last, lambda other, e2: precedes(e2, other))

    def selected(self, pattern: Seq, t, hi, sigma, pick, beats):
        shared = pattern_variables(pattern.left) & pattern_variables(pattern.right)
        rights = self.eval(pattern.right, t, hi, sigma)
        candidates = [e2 for e2 in rights if self.left_of(pattern, t, sigma, e2)]

        def key(e2):
            return frozenset((k, v) for k, v in e2[0] if k in shared)
        result: dict[Event, frozenset] = {}
        for e2 in candidates:
            if any(key(other) == key(e2) and beats(other, e2) for other in candidates):
                continue
            lefts = self.left_of(pattern, t, sigma, e2)
            chosen = {e: i for e, i in lefts.items()
                      if not any((precedes(f, e) if pick is First else precedes(e, f)) for f in lefts)}
            for e1, items1 in chosen.items():
                join(result, e1, e2, items1 | rights[e2])
        return result


def join(result: dict, e1: Event, e2: Event, items: frozenset) -> None:
    """Add ``(μ1 ∪ μ2, t1, t4)`` with the items of this derivation."""
    event = (e1[0] | e2[0], e1[1], e2[2])
    result[event] = result.get(event, frozenset()) | items


def answers(query: EventQuery, stream, times: Iterable[int], consume: bool = False,
            report: str = "all", pattern: EventPattern | None = None) -> dict[int, set[tuple]]:
    """The answers at each evaluation time: ``(values of the SELECT variables, t1, t2)``.

    Args:
        stream: ``(triple, stream IRI, t)`` elements.
        times: the evaluation times ``ET``.
        consume: the consumption policies ``P^c``/``P^r`` (section 4.4); otherwise ``P^u``.
        report: ``all`` events at each time, or ``new`` ones (``t2`` after the previous time);
            with ``consume``, ``all``.
        pattern: the pattern to evaluate (default: the query's).
    """
    if consume and report != "all":
        raise ValueError("under consumption every event found is reported")
    oracle = Oracle(query, list(stream), set())
    pattern = pattern or query.pattern
    result, previous = {}, None
    for t in sorted(set(times)):
        events = oracle.eval(pattern, t, INFINITY, {})
        shown = {e for e in events if report == "all" or previous is None or e[2] > previous}
        result[t] = {(tuple(dict(e[0])[v.name] for v in query.variables), e[1], e[2])
                     for e in shown}
        if consume:
            for items in events.values():
                oracle.consumed |= items
        previous = t
    return result
