"""The paper's conditions for agreement (section 5), checked on a query and its data.

* **(ii) static data and streams share no pattern** — a triple pattern of a stream graph pattern
  that also matches static triples lets C-SPARQL (which merges streams into the default graph)
  answer from static data alone; :func:`shared_patterns` names each such pattern with an example
  triple.
* **(iii) push snapshots over an interval equal the pull snapshot at its end** — when they
  differ, CQELS and C-SPARQL see different data; :func:`snapshot_explanations` names the
  window and the triples: data that expired before the pull, data that never met its join
  partner in one push snapshot, and triples exactly at a window's edge.

A triple is *relevant* to an answer when it mentions one of the answer's values; explanations
list relevant triples only, so that each names what witnesses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rdflib.term import Node

from agreement.compare import IntervalVerdict, Row
from agreement.explain import Explanation
from lars.streams import Timeline
from lars.windows import time_window_range
from translate.rdfstreams import StreamTriple
from translate.rsp import BlankVar, RangeWindow, RspQuery, StreamSpec, TriplePattern, TriplesWindow, Var
from translate.windows import needs_cutoff, tau_window


def matches(pattern: TriplePattern, triple: tuple[Node, Node, Node]) -> bool:
    """Whether a triple pattern matches a triple (variables and blank nodes match anything,
    a variable used twice must match the same term twice)."""
    seen: dict[str, Node] = {}
    for term, value in zip((pattern.subject, pattern.predicate, pattern.object), triple):
        if isinstance(term, (Var, BlankVar)):
            key = term.name if isinstance(term, Var) else "_:" + term.label
            if seen.setdefault(key, value) != value:
                return False
        elif term != value:
            return False
    return True


def pattern_text(pattern: TriplePattern) -> str:
    def text(term) -> str:
        if isinstance(term, Var):
            return "?" + term.name
        if isinstance(term, BlankVar):
            return "_:" + term.label
        return term.n3()
    return " ".join(text(t) for t in (pattern.subject, pattern.predicate, pattern.object)) + " ."


def triple_text(triple: tuple[Node, Node, Node]) -> str:
    return " ".join(term.n3() for term in triple) + " ."


def shared_patterns(query: RspQuery, graphs: dict) -> list[Explanation]:
    """Condition (ii): each stream triple pattern that matches static data, with a witness."""
    found = []
    static = [triple for graph in graphs.values() for triple in graph]
    for spec in query.streams:
        for pattern in spec.pattern.triples:
            example = next((t for t in static if matches(pattern, t)), None)
            if example is not None:
                found.append(Explanation(
                    "static-shares-pattern",
                    f"the pattern {pattern_text(pattern)} of stream <{spec.stream}> also matches "
                    "static data, so C-SPARQL can answer from static triples without stream input",
                    (f"pattern {pattern_text(pattern)}", f"static triple {triple_text(example)}")))
    return found


@dataclass(frozen=True)
class Snapshot:
    """The triples one stream window holds at one time point, and the window's interval."""

    spec: StreamSpec
    time: int
    lo: int
    hi: int
    triples: frozenset[StreamTriple]


def snapshot(spec: StreamSpec, elements: Sequence[StreamTriple], t: int, timeline: Timeline,
             reading: str) -> Snapshot:
    """What the window of ``spec`` selects from its stream at ``t`` (under ``reading``)."""
    own = [e for e in elements if e.stream == spec.stream and e.time <= t]
    if isinstance(spec.window, TriplesWindow):
        kept = own[-spec.window.count:]
        return Snapshot(spec, t, kept[0].time if kept else t, t, frozenset(kept))
    window = tau_window(spec.window, reading)
    lo, hi = time_window_range(window, t, timeline)
    if needs_cutoff(spec.window, reading):
        hi = min(hi, (t // spec.window.step) * spec.window.step - 1)
    return Snapshot(spec, t, lo, hi, frozenset(e for e in own if lo <= e.time <= hi))


def relevant(triples: Iterable[StreamTriple], row: Row) -> list[StreamTriple]:
    """The triples that mention a value of the answer, in arrival order."""
    values = {value for value in row if value is not None}
    return sorted((e for e in triples if values & set(e.triple)), key=lambda e: (e.time, e.position.line or 0))


def witness(element: StreamTriple) -> str:
    return f"{triple_text(element.triple)} at {element.time} on <{element.stream}>"


def window_name(spec: StreamSpec) -> str:
    window = spec.window
    if isinstance(window, RangeWindow):
        return f"[RANGE {window.length}" + (f" STEP {window.step}]" if window.step != 1 else "]")
    return type(window).__name__


def snapshot_explanations(verdict: IntervalVerdict, query: RspQuery, elements: Sequence[StreamTriple],
                          push_times: Sequence[int], timeline: Timeline, reading: str,
                          row_text) -> list[Explanation]:
    """Condition (iii) on one interval: how the push snapshots differ from the pull snapshot."""
    found: list[Explanation] = []
    for spec in query.streams:
        pull = snapshot(spec, elements, verdict.end, timeline, reading)
        pushes = [snapshot(spec, elements, t, timeline, reading) for t in push_times
                  if verdict.start < t <= verdict.end]
        for row, times in verdict.only_cqels.items():
            expired = [e for p in pushes if p.time in times for e in relevant(p.triples - pull.triples, row)]
            if expired:
                found.append(Explanation(
                    "snapshot-differs", f"{row_text(row)}: window {window_name(spec)} of <{spec.stream}> "
                    f"held these triples at the push at {times[0]}, but they expired before the pull "
                    f"at {verdict.end}", tuple(dict.fromkeys(witness(e) for e in expired))))
        for row in verdict.only_csparql:
            needed = relevant(pull.triples, row)
            if needed and not any(set(needed) <= p.triples for p in pushes):
                when = ", ".join(str(p.time) for p in pushes) or "no push in this interval"
                found.append(Explanation(
                    "snapshot-differs", f"{row_text(row)}: the pull at {verdict.end} sees these triples "
                    f"of <{spec.stream}> together in window {window_name(spec)}, but no push snapshot "
                    f"held them all (pushes: {when})", tuple(witness(e) for e in needed)))
        found += edge_explanations(verdict, spec, pull, row_text)
    return found


def edge_explanations(verdict: IntervalVerdict, spec: StreamSpec, pull: Snapshot,
                      row_text) -> list[Explanation]:
    """Answers that depend on a triple exactly at the lower edge of the pull window (a triple
    there is also in the previous pull's window when windows overlap at their edges)."""
    found = []
    for row in [*verdict.only_cqels, *verdict.only_csparql]:
        at_edge = [e for e in relevant(pull.triples, row) if e.time == pull.lo]
        if at_edge:
            found.append(Explanation(
                "window-boundary", f"{row_text(row)} depends on triples exactly at the lower edge "
                f"({pull.lo}) of window {window_name(spec)} at the pull at {verdict.end}",
                tuple(witness(e) for e in at_edge)))
    return found

