"""The paper's conditions for agreement (section 5), checked on a query and its data.

* **(ii) static data and streams share no pattern** — a triple pattern of a stream graph pattern
  that also matches static triples lets C-SPARQL (which merges streams into the default graph)
  answer from static data alone; :func:`shared_patterns` names each such pattern with an example
  triple, :class:`MergedTriples` the stream triples that only C-SPARQL's merged default graph
  reads (they arrived on a stream whose STREAM pattern does not read them), and
  :func:`snapshot_explanations` (``static-only``) the answers C-SPARQL pulled from static data
  alone, with empty windows and no input in the interval.
* **(iii) push snapshots over an interval equal the pull snapshot at its end** — when they
  differ, CQELS and C-SPARQL see different data; :func:`snapshot_explanations` names the
  window and the triples: data that expired before the pull, data that never met its join
  partner in one push snapshot, windows one engine never evaluated, and triples exactly at a
  window's edge.

The witnesses of an answer are the stream triples that give it on the engine that gave it, in the
windows it read there, checked by evaluating that engine's program on them with the static data
(:mod:`agreement.agree.derivation`): never a triple a FILTER removes or one of another group.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from rdflib.term import Node

from agreement.answers import term_text, values_text
from agreement.compare import IntervalVerdict, Row
from agreement.agree.derivation import Derivations
from agreement.agree.explain import Explanation
from agreement.agree.history import StreamHistory
from agreement.spans import interval_text, points_text
from lars.streams import Timeline
from lars.windows import time_window_range
from ingest.rdffiles import StreamTriple
from translate.cqelstext import window_text as cqels_window_text
from translate.results import ntriples_term
from translate.rsp import BGP, BlankVar, RspQuery, StreamSpec, TriplePattern, TriplesWindow, Var
from translate.rspwindows import needs_cutoff, tau_window
from translate.scope import block_triples, children


def pattern_text(pattern: TriplePattern) -> str:
    def text(term) -> str:
        if isinstance(term, Var):
            return "?" + term.name
        if isinstance(term, BlankVar):
            return "_:" + term.label
        return term.n3()
    return " ".join(text(t) for t in (pattern.subject, pattern.predicate, pattern.object)) + " ."


def triple_text(triple: tuple[Node, Node, Node]) -> str:
    """A stream or static triple in Turtle form, as answers are printed (:mod:`agreement.answers`)."""
    return " ".join(term_text(term) for term in triple) + " ."


def shared_patterns(query: RspQuery, graphs: dict) -> list[Explanation]:
    """Condition (ii): each stream triple pattern that matches static data, with a witness."""
    found = []
    for spec in query.streams:
        for pattern in block_triples(spec.pattern):
            example = next((t for t in static_matches(pattern, graphs) if bind(pattern, t, {}) is not None), None)
            if example is not None:
                found.append(Explanation(
                    "static-shares-pattern",
                    f"the pattern {pattern_text(pattern)} of stream <{spec.stream}> also matches "
                    "static data, so C-SPARQL can answer from static triples without stream input",
                    (f"pattern {pattern_text(pattern)}", f"static triple {triple_text(example)}")))
    return found


def static_matches(pattern: TriplePattern, graphs: dict) -> Iterator[tuple[Node, Node, Node]]:
    """The static triples that match the constants of ``pattern``, graph by graph: looked up
    by the graphs (static data may be millions of triples, :mod:`ingest.staticdata`)."""
    key = tuple(None if isinstance(t, (Var, BlankVar)) else t for t in pattern.terms())
    for graph in graphs.values():
        yield from graph.triples(key)


MERGED_WITNESSES = 10
"""Triples kept as witnesses per stream and pattern of condition (ii) on the stream (the others
are counted): a stream that sends such triples all day must not fill the memory."""


class MergedTriples:
    """Condition (ii) on the stream: triples that arrive on a stream whose STREAM patterns do
    not read them, but that another pattern of the query matches. C-SPARQL merges every stream
    into its default graph, where that pattern sees them; CQELS reads each stream only through
    its own STREAM patterns, so it never does.

    Only the streams C-SPARQL's query reads (``merging``; by default ``query``'s) are merged:
    a triple on a stream it registers no window on never reaches its default graph (a
    newcomer's CQELS and C-SPARQL queries reading ``s1``, with ``s2`` triples in the file,
    were told C-SPARQL saw those).

    Triples are fed as they are read (:meth:`add`); per stream and pattern the first
    :data:`MERGED_WITNESSES` are kept and the rest counted. Only patterns whose predicate is a
    variable or the triple's own are tried (found once per stream and predicate), and only
    when some of them are not the stream's own: a query reading one stream and no static
    data never tries any."""

    def __init__(self, query: RspQuery, merging: Iterable | None = None) -> None:
        self.own: dict = {}
        for spec in query.streams:  # a stream read by several STREAM blocks owns all their patterns
            self.own.setdefault(spec.stream, []).extend(block_triples(spec.pattern))
        self.every = ([p for spec in query.streams for p in block_triples(spec.pattern)]
                      + static_patterns(query.pattern))
        self.merging = frozenset(spec.stream for spec in query.streams) if merging is None \
            else frozenset(merging)
        self.tried: dict[tuple, tuple[list[TriplePattern], list[TriplePattern]]] = {}
        self.found: dict[tuple, tuple[TriplePattern, list[StreamTriple], list[int]]] = {}
        self.owning_all = frozenset(stream for stream, own in self.own.items()
                                    if all(p in own for p in self.every))
        """Streams whose own patterns are all of the query's: their triples are never tried (a
        set lookup per triple instead of a pattern lookup, on the common one-stream query)."""

    def patterns(self, stream, predicate) -> tuple[list[TriplePattern], list[TriplePattern]]:
        """The stream's own patterns a triple with ``predicate`` may match, and the query's
        other patterns it may match (none on a stream C-SPARQL does not merge)."""
        key = (stream, predicate)
        if key not in self.tried and stream not in self.merging:
            self.tried[key] = ([], [])
        if key not in self.tried:
            def fits(pattern: TriplePattern) -> bool:
                return isinstance(pattern.predicate, (Var, BlankVar)) or pattern.predicate == predicate
            own = [p for p in self.own.get(stream, ()) if fits(p)]
            self.tried[key] = (own, [p for p in self.every if fits(p) and p not in own])
        return self.tried[key]

    def add(self, elements: Sequence[StreamTriple]) -> None:
        """Look at the triples of one time point."""
        owning_all = self.owning_all
        for element in elements:
            if element.stream in owning_all:
                continue
            key = self.match(element)
            if key is not None:
                self.count(key, 1, (element,))

    def match(self, element: StreamTriple) -> tuple | None:
        """``(stream, pattern)``: the stream of ``element`` and the first pattern not its own
        that matches it, when none of its own does; else ``None``."""
        own, others = self.patterns(element.stream, element.triple[1])
        if not others or any(bind(p, element.triple, {}) is not None for p in own):
            return None
        other = next((p for p in others if bind(p, element.triple, {}) is not None), None)
        return None if other is None else (element.stream, other)

    def count(self, key: tuple, count: int, first: Sequence[StreamTriple]) -> None:
        """``count`` more triples met ``key`` (:meth:`match`), ``first`` the earliest of them:
        kept while fewer than :data:`MERGED_WITNESSES` are (a worker's tally, replayed by the
        driver, :mod:`agreement.agree.arrivals`)."""
        _, kept, total = self.found.setdefault(key, (key[1], [], [0]))
        total[0] += count
        kept.extend(first[:MERGED_WITNESSES - len(kept)])

    def explanations(self) -> list[Explanation]:
        """One explanation per stream and pattern that read such triples so far."""
        found = []
        for (stream, _), (pattern, kept, [count]) in self.found.items():
            many = f"{count} triples" if count > 1 else "a triple"
            found.append(Explanation(
                "stream-merged", f"{many} on <{stream}> that its STREAM pattern does not read "
                f"match{'' if count > 1 else 'es'} {pattern_text(pattern)}: C-SPARQL merges the "
                "streams it reads into its default graph and sees "
                f"{'them' if count > 1 else 'it'} there, CQELS does not"
                + (f" (the first {len(kept)} shown)" if count > len(kept) else ""),
                tuple(witness(e) for e in kept)))
        return found


def static_patterns(pattern) -> list[TriplePattern]:
    """Triple patterns outside STREAM blocks (the part of the query static data can match)."""
    if isinstance(pattern, BGP):
        return list(pattern.triples)
    return [t for child in children(pattern) for t in static_patterns(child)]


@dataclass(frozen=True)
class Snapshot:
    """The triples one stream window holds at one time point (in time and arrival order), and
    the window's interval. Its triples are those of a :class:`StreamHistory`, where equal
    elements are one object: :attr:`members` holds the ``id`` of each, so membership is tested
    without hashing a triple."""

    spec: StreamSpec
    time: int
    lo: int
    hi: int
    triples: tuple[StreamTriple, ...]
    syntax: str = "cqels"  # how its window is named: the syntax of the query that reads it

    @cached_property
    def members(self) -> frozenset[int]:
        """The ``id`` of each triple."""
        return frozenset(map(id, self.triples))


def snapshot(spec: StreamSpec, history: StreamHistory, t: int, timeline: Timeline,
             reading: str, syntax: str = "cqels") -> Snapshot:
    """What the window of ``spec`` selects from its stream at ``t`` (under ``reading``), from
    the recent triples in ``history`` (:func:`agreement.agree.history.keep_from` says what it
    keeps); ``syntax`` names the window (:func:`window_name`)."""
    if isinstance(spec.window, TriplesWindow):
        kept = history.last(spec.stream, spec.window.count, t)
        return Snapshot(spec, t, kept[0].time if kept else t, t, tuple(kept), syntax)
    lo, hi = time_range(spec, t, timeline, reading)
    return Snapshot(spec, t, lo, hi, tuple(history.on(spec.stream, lo, min(hi, t))), syntax)


def time_range(spec: StreamSpec, t: int, timeline: Timeline, reading: str) -> tuple[int, int]:
    """The time points ``[lo, hi]`` the time window of ``spec`` selects at ``t``."""
    lo, hi = time_window_range(tau_window(spec.window, reading), t, timeline)
    if needs_cutoff(spec.window, reading):
        hi = min(hi, (t // spec.window.step) * spec.window.step - 1)
    return lo, hi


def snapshots(spec: StreamSpec, history: StreamHistory, times: Sequence[int], timeline: Timeline,
              reading: str) -> dict[int, Snapshot]:
    """:func:`snapshot` at each of ``times``; time points whose window selects the same time
    points share one snapshot (and its indexes): a window with a STEP selects the same range
    from one step to the next, so the pushes of an interval often see one snapshot."""
    found: dict[int, Snapshot] = {}
    shared: dict[tuple[int, int, int], Snapshot] = {}
    for t in times:
        if isinstance(spec.window, TriplesWindow):
            found[t] = snapshot(spec, history, t, timeline, reading)
            continue
        lo, hi = time_range(spec, t, timeline, reading)
        key = (lo, hi, min(hi, t))
        if key not in shared:
            shared[key] = snapshot(spec, history, t, timeline, reading)
        found[t] = shared[key]
    return found


def bind(pattern: TriplePattern, triple, binding: dict[str, Node]) -> dict[str, Node] | None:
    """``binding`` extended so that ``pattern`` matches ``triple``, or ``None`` if it cannot."""
    extended = dict(binding)
    for term, value in zip((pattern.subject, pattern.predicate, pattern.object), triple):
        if isinstance(term, (Var, BlankVar)):
            key = term.name if isinstance(term, Var) else "_:" + term.label
            if extended.setdefault(key, value) != value:
                return None
        elif term != value:
            return None
    return extended


def witness(element: StreamTriple) -> str:
    """A witness triple as a line of a stream file (timestamped N-Triples: the triple, its
    stream, its time point; literals in full), so the witnesses of a report can be fed back
    with ``--stream`` (a newcomer saw ``... 16.2 . at 5 on <s>``, not a stream line).

    >>> from rdflib import Literal, URIRef
    >>> from rdflib.namespace import XSD
    >>> from lars.errors import Position
    >>> witness(StreamTriple(5, URIRef("http://e/s"), (URIRef("http://e/a"), URIRef("http://e/p"),
    ...     Literal("16.2", datatype=XSD.decimal)), Position("s.nt", 1)))
    '<http://e/a> <http://e/p> "16.2"^^<http://www.w3.org/2001/XMLSchema#decimal> <http://e/s> 5'
    """
    return f"{' '.join(map(ntriples_term, element.triple))} {ntriples_term(element.stream)} {element.time}"


def window_text(snap: Snapshot, reading: str) -> str:
    """The interval a window snapshot covered, with the brackets of the window reading: the
    selected time points are ``[lo, hi]``; ``(lo-1, hi]`` and ``[lo, hi+1)`` say the same under
    the left-open and right-open readings of ``[RANGE L]``."""
    if reading == "left-open":
        return interval_text(snap.lo - 1, snap.hi, reading)
    if reading == "right-open":
        return interval_text(snap.lo, snap.hi + 1, reading)
    return interval_text(snap.lo, snap.hi, "closed")


def window_name(spec: StreamSpec, unit_ms: int, syntax: str = "cqels") -> str:
    """The window of ``spec`` as a query of ``syntax`` writes it, durations with their unit
    (``[RANGE 30m]``, not ``[RANGE 30]`` in ticks nobody named; a C-SPARQL window with its
    ``STEP``, not CQELS's ``SLIDE``: newcomer findings)."""
    return cqels_window_text(spec.window, unit_ms, syntax)


def content(snaps: Sequence[Snapshot]) -> list[StreamTriple]:
    """What the windows of ``snaps`` (one per stream window) hold together, in time and arrival
    order, each triple once (equal triples are one object: :class:`Snapshot`); one window's
    are in that order already, so only the repeats go."""
    if len(snaps) == 1:
        return list({id(e): e for e in snaps[0].triples}.values())
    return sorted({id(e): e for snap in snaps for e in snap.triples}.values(), key=lambda e: e.time)


def same_windows(push: Sequence[Snapshot], pull: Sequence[Snapshot]) -> bool:
    """Whether a push and the pull read the same window content: window by window when both
    read the same streams in the same order, else what their windows hold together."""
    if [snap.spec.stream for snap in push] == [snap.spec.stream for snap in pull]:
        return [snap.triples for snap in push] == [snap.triples for snap in pull]
    return content(push) == content(pull)


def members(snaps: Sequence[Snapshot]) -> frozenset[int]:
    """The ``id`` of each triple the windows of ``snaps`` hold (:attr:`Snapshot.members`)."""
    if len(snaps) == 1:
        return snaps[0].members
    return snaps[0].members.union(*(snap.members for snap in snaps[1:])) if snaps else frozenset()


def windows_text(snaps: Sequence[Snapshot], reading: str, unit_ms: int) -> str:
    """The windows of ``snaps``: ``[RANGE 5] of <s> at [13,18]``, comma-separated."""
    return ", ".join(f"{window_name(snap.spec, unit_ms, snap.syntax)} of <{snap.spec.stream}> at {window_text(snap, reading)}"
                     for snap in snaps)


def stream_windows(query: RspQuery) -> list[StreamSpec]:
    """The query's stream windows, each once, in the order of their first STREAM block: blocks
    that read one stream through the same window (a CQELS query's OPTIONAL blocks over one
    stream) select the same triples at every time point, so they are one window to snapshot,
    compare and name (a query with 50 such OPTIONALs was explained with 51 copies of each window).

    >>> from rdflib import URIRef
    >>> from translate.rsp import RangeWindow
    >>> s, r = (StreamSpec(URIRef(f"http://ex.org/{n}"), RangeWindow(4)) for n in "sr")
    >>> optional = StreamSpec(s.stream, s.window, BGP())  # another block, the same window
    >>> wider = StreamSpec(s.stream, RangeWindow(8))
    >>> windows = stream_windows(RspQuery((), BGP(), streams=(s, r, optional, wider, s)))
    >>> [(str(spec.stream)[-1], spec.window.length) for spec in windows]
    [('s', 4), ('r', 4), ('s', 8)]
    """
    found: dict[tuple, StreamSpec] = {}
    for spec in query.streams:
        found.setdefault((spec.stream, spec.window), spec)
    return list(found.values())


def snapshot_explanations(verdict: IntervalVerdict, query: RspQuery, derivations: Derivations,
                          history: StreamHistory, timeline: Timeline, reading: str,
                          pull_query: RspQuery | None = None) -> list[Explanation]:
    """Condition (iii) on one interval, one reason at least for every answer only one engine gave.

    Each push inside the interval reads the windows of the CQELS ``query``'s streams, the pull
    at ``e`` those of ``pull_query``, the C-SPARQL query (``None``: the same windows, C-SPARQL's
    side derived from ``query``; a C-SPARQL query written apart may read another window, and a
    newcomer's ``[RANGE 20s STEP 10s]`` against ``[RANGE 10s]`` was explained with CQELS's
    window on both sides);
    an answer's witnesses are the triples of those windows that give it on the engine that gave
    it, checked by evaluating that engine's program (:mod:`agreement.agree.derivation`). Reasons:

    * ``static-only`` — only C-SPARQL, from static data alone: the pull's windows are empty and no
      input arrived in the interval (condition ii);
    * ``window-not-evaluated`` — only C-SPARQL: no push in the interval reads the windows the pull
      reads (no input arrived, or every push came before the window closed), so CQELS never
      evaluates them;
    * ``window-differs`` — only CQELS: the push that gave it read other windows than the pull;
    * ``snapshot-differs`` — the witnesses are not all in the other engine's windows ("no longer
      in it", listed first; "no push held them together"), or they are, with other triples that
      change it;
    * ``evaluation-differs`` — both engines read the same window content, and their translations
      give different answers on it (e.g. a CQELS variant other than brave);
    * ``window-boundary`` — a witness lies exactly at the lower edge of the pull's window.
    """
    end, windows = verdict.end, stream_windows(query)
    pull = [snapshot(spec, history, end, timeline, reading, "csparql")  # named as C-SPARQL's
            for spec in stream_windows(query if pull_query is None else pull_query)]
    pushes = history.times_between(verdict.start + 1, end)
    by_window = [snapshots(spec, history, pushes, timeline, reading) for spec in windows]
    at = {t: [snaps[t] for snaps in by_window] for t in pushes}
    pull_content = content(pull)
    contents: dict[int, list[StreamTriple]] = {}  # the content of the push at t, made once
    found: list[Explanation] = []
    for row, times in sorted(verdict.only_cqels.items(), key=lambda item: values_text(item[0])):
        t = times[0]
        push = at[t] if t in at else [snapshot(spec, history, t, timeline, reading) for spec in windows]
        if t not in contents:
            contents[t] = content(push)
        found += _only_cqels(row, t, end, push, contents[t], pull, derivations, reading,
                             query.unit_ms)
    for row in sorted(verdict.only_csparql, key=values_text):
        found += _only_csparql(row, verdict, pull, pull_content, at, derivations, reading,
                               query.unit_ms)
    return found


def _only_cqels(row: Row, t: int, end: int, push: list[Snapshot], push_content: list[StreamTriple],
                pull: list[Snapshot], derivations: Derivations, reading: str,
                unit_ms: int) -> list[Explanation]:
    """Why CQELS gave ``row`` at its push at ``t`` (whose windows hold ``push_content``) and
    C-SPARQL not at the pull at ``end``."""
    differ = not same_windows(push, pull)
    match = derivations.witnesses("cqels", row, t, push_content)
    if match is None:
        if not differ:
            return [_evaluation_differs(row, t, end, "CQELS", [])]
        return [Explanation(
            "window-differs", f"the push at {t} read the window {windows_text(push, reading, unit_ms)}, "
            f"the pull at {end} reads {windows_text(pull, reading, unit_ms)}", (), row)]
    found = []
    held = members(pull)
    gone = [e for e in match if id(e) not in held]
    if gone:
        found.append(Explanation(
            "snapshot-differs", f"these triples give it at the push at {t} (window "
            f"{windows_text(push, reading, unit_ms)}); those at {points_text(sorted({e.time for e in gone}))} "
            f"are no longer in the window of the pull at {end} ({windows_text(pull, reading, unit_ms)})",
            tuple(witness(e) for e in gone + [e for e in match if id(e) in held]), row))
    elif differ:
        found.append(Explanation(
            "snapshot-differs", f"these triples give it at the push at {t}; the window of the pull "
            f"at {end} holds them together with other triples, which change the answer",
            tuple(witness(e) for e in match), row))
    else:
        found.append(_evaluation_differs(row, t, end, "CQELS", match))
    return found + _edge(row, match, pull, end, unit_ms, derivations, "cqels")


def _only_csparql(row: Row, verdict: IntervalVerdict, pull: list[Snapshot],
                  pull_content: list[StreamTriple], at: dict[int, list[Snapshot]],
                  derivations: Derivations, reading: str, unit_ms: int) -> list[Explanation]:
    """Why C-SPARQL gave ``row`` at the pull at ``end`` and CQELS at no push of the interval."""
    end, found = verdict.end, []
    if not at and not pull_content:
        return [Explanation(
            "static-only", f"C-SPARQL gave it at the pull at {end} from static data alone: its "
            f"windows hold no stream triple and no input arrived in "
            f"{interval_text(verdict.start, end, verdict.bounds)}, so CQELS never evaluated", (), row)]
    same = [t for t, push in at.items() if same_windows(push, pull)]
    if not same:
        pushes = points_text(at) if at else "none: no input arrived in it"
        last = max(at, default=None)
        reads = (f"; the last, at {last}, reads {windows_text(at[last], reading, unit_ms)}"
                 if last is not None else "")
        found.append(Explanation(
            "window-not-evaluated", f"no CQELS push in {interval_text(verdict.start, end, verdict.bounds)} "
            f"reads the windows of the pull at {end} ({windows_text(pull, reading, unit_ms)}), so CQELS "
            f"never evaluates them (pushes at {pushes}{reads})", (), row))
    match = derivations.witnesses("csparql", row, end, pull_content)
    if match is None:
        return found or [_evaluation_differs(row, same[0], end, "C-SPARQL", [])]
    holders = [t for t, push in at.items() if members(push).issuperset(map(id, match))]
    if not holders:
        found.append(Explanation(
            "snapshot-differs", f"these triples give it at the pull at {end} (window "
            f"{windows_text(pull, reading, unit_ms)}), and no push snapshot held them together (pushes at "
            f"{points_text(at) or 'none in this interval'})", tuple(witness(e) for e in match), row))
    elif not same:
        found.append(Explanation(
            "snapshot-differs", f"these triples give it at the pull at {end}; the push snapshots "
            f"at {points_text(holders)} hold them together with other triples, which change the "
            "answer", tuple(witness(e) for e in match), row))
    else:
        found.append(_evaluation_differs(row, same[0], end, "C-SPARQL", match))
    return found + _edge(row, match, pull, end, unit_ms, derivations, "csparql")


def _evaluation_differs(row: Row, push: int, pull: int, only: str,
                        match: list[StreamTriple]) -> Explanation:
    return Explanation(
        "evaluation-differs", f"the push at {push} and the pull at {pull} read the same window "
        f"content; only {only}'s translation gives this answer from these triples",
        tuple(witness(e) for e in match), row)


def _edge(row: Row, match: list[StreamTriple], pull: list[Snapshot], end: int, unit_ms: int,
          derivations: Derivations, only: str) -> list[Explanation]:
    """``window-boundary`` when a witness lies exactly at the lower edge of the pull's window of
    its stream (a triple there is also in the previous pull's window when windows overlap at
    their edges), and the edge decides the answer, checked by evaluating C-SPARQL's program on
    the pull's windows without those triples: only CQELS gave ``row`` (``only``) and C-SPARQL
    gives it without them, or only C-SPARQL gave it and no longer does. A witness at the edge
    that decides nothing is no reason (a newcomer's AVG per sensor: neither window gives
    CQELS's average, whether its edge is in or out)."""
    found = []
    for snap in pull:
        at_edge = [e for e in match if e.time == snap.lo and id(e) in snap.members]
        if not at_edge:
            continue
        left = {id(e) for e in at_edge}
        without = [e for e in content(pull) if id(e) not in left]
        if derivations.produces("csparql", without, end, row) != (only == "cqels"):
            continue
        found.append(Explanation(
            "window-boundary", f"it depends on triples exactly at the lower edge ({snap.lo}) of "
            f"window {window_name(snap.spec, unit_ms, snap.syntax)} at the pull at {end}",
            tuple(witness(e) for e in at_edge), row))
    return found
