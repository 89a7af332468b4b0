"""What ``lars agree`` (and ``lars run``) take when the user leaves it out, so that no default hides work.

* :func:`default_period` — the pulling period ``U``: the C-SPARQL ``COMPUTED EVERY``, else the
  STEP its windows share;
* :func:`pulling_timeline` — the timeline runs to the end of the last pulling interval the input
  reaches, not to the last input (which would leave that interval unchecked without a word);
* :func:`sole_stream` — the stream IRI of lines that name none, when the query reads one stream;
* :func:`derive_cqels` — the CQELS side of a C-SPARQL query: each triple pattern goes into the
  ``STREAM`` pattern of the stream whose triples it matches (the data tell which stream carries
  which predicate; C-SPARQL itself merges them all into the default graph).

>>> from translate.api import parse_query
>>> q = parse_query("REGISTER QUERY q AS PREFIX : <http://ex.org/> SELECT ?x "
...                 "FROM STREAM :s [RANGE 30s STEP 10s] WHERE { ?x :p ?y }")
>>> default_period(q), str(sole_stream(q))
(10, 'http://ex.org/s')
>>> line, note = pulling_timeline(Timeline(0, 18), 10, end_given=False, last_input=18)
>>> line, note
(Timeline(start=0, end=20), 'the input ends at 18, inside the pulling interval (10,20]: the timeline runs to 20, its end')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import TYPE_CHECKING, get_args
from pathlib import Path

from rdflib import URIRef
from rdflib.graph import Graph

from agreement.compare import first_pull, period_bound
from agreement.options import InputOptions
from agreement.spans import interval_text
from ingest.limits import check_timeline_length, max_time_points
from ingest.options import ReadOptions
from ingest.policy import ReadReport, within_timeline
from lars.errors import InputError, LarsError, Position
from lars.streams import Timeline
from translate.rsp import Graph as GraphPattern
from translate.rsp import (
    BGP, Exists, Join, Pattern, RangeWindow, RspQuery, StreamPattern, StreamSpec,
    TriplePattern, Values, Var, BlankVar,
)
from translate.api import parse_query
from translate.cqelstext import cqels_text
from translate.durations import unit_text
from translate.positions import stream_position, triple_position
from translate.scanner import SourceText
from translate.scope import stream_patterns
from translate.sparqltext import Names, pattern_text
from translate.variants import cs

if TYPE_CHECKING:
    from ingest.lazy import RdfSlice
    from ingest.rdffiles import StreamTriple


def default_period(query: RspQuery) -> int | None:
    """``U`` in ticks when the query fixes one: the C-SPARQL ``COMPUTED EVERY``, else the STEP
    shared by the windows of a C-SPARQL query (or the SLIDE shared by those of a CQELS query,
    when it slides by more than one tick); ``None`` when there is none, or when the windows step
    differently (then the user chooses with ``--period``)."""
    if query.every is not None:
        return query.every
    steps = {spec.window.step for spec in query.streams if isinstance(spec.window, RangeWindow)}
    if len(steps) != 1 or len({spec.stream for spec in query.streams}) != len(query.streams):
        return None
    step = steps.pop()
    return step if query.engine == "csparql" or step > 1 else None


def pulling_timeline(line: Timeline, period: int, *, end_given: bool, last_input: int | None,
                     what: str = "the input ends", half_open: bool = False,
                     limit: int | None = None, unit_ms: int = 1000) -> tuple[Timeline, str | None]:
    """The timeline of a check, and a note when it was extended past the input.

    Unless ``--to`` was given (``end_given``), the timeline ends at the end of the pulling
    interval holding the last input: ``ceil(last / U) · U`` for intervals ``(k·U, (k+1)·U]``,
    ``(floor(last / U) + 1) · U`` for right-open ones ``[k·U, (k+1)·U)`` (``half_open``: an
    input at a multiple of U belongs to the next interval, whose pull would otherwise lie past
    the timeline and leave it unjudged, issue 28). C-SPARQL still pulls there, and a timeline
    cut at the last input would drop that interval from the check. ``what`` starts the note
    (``the recorded answers end``).

    Raises:
        LimitError: the timeline, extended or not, is longer than ``limit`` (``None``:
            :func:`ingest.limits.max_time_points`), e.g. for ``--period 99999999999d``
            (issue 28: the extension had skipped the bound, and the run never ended); the hint
            gives values that work (:func:`extension_advice`; ``unit_ms``: one tick, to write a
            period as a duration).
    """
    check_timeline_length(line.start, line.end, max_time_points(limit))
    if end_given or last_input is None or period <= 0:
        return line, None
    end = (last_input // period + 1) * period if half_open else -(-last_input // period) * period
    if end <= line.end:
        return line, None
    bound = max_time_points(limit)
    check_timeline_length(line.start, end, bound,
                          cause=f"{what} at {last_input}, and the pulling period of {period} "
                                f"ticks puts the end of its pulling interval at {end}",
                          fix=extension_advice(line.start, last_input, end, period, bound,
                                               half_open, unit_ms))
    where = interval_text(end - period, end, "right-open" if half_open else "left-open")
    return (Timeline(line.start, end),
            f"{what} at {last_input}, inside the pulling interval {where}: the timeline "
            f"runs to {end}, its end")


def extension_advice(start: int, last_input: int, end: int, period: int, limit: int,
                     half_open: bool, unit_ms: int) -> str:
    """How to check input ending at ``last_input`` when the pulling interval holding it ends at
    ``end``, past ``limit`` time points from ``start``: the values of options that work as
    written (newcomer: "cut the timeline with --to" was offered where no ``--to`` could hold a
    pull within the limit, and only a shorter ``--period`` helped).

    A period ``P`` ends the interval holding ``last_input`` by ``last_input + P - 1`` (``+ P``
    for right-open intervals), so every period up to ``start + limit - last_input`` (less one)
    fits; ``--to`` at the last pull within the limit checks the intervals before it, when one
    lies there; a limit of ``end - start + 1`` time points holds the whole extension.

    >>> extension_advice(0, 142, 10**7, 10**7, 10**7, False, 1000)
    'give --period 9999858s (or shorter), or --max-time-points 10000001'
    >>> extension_advice(0, 142, 300, 100, 250, False, 1000)
    'give --period 108s (or shorter), or --to 200 (the input after it is not compared), or \
--max-time-points 301'
    """
    last_point = start + limit - 1
    longest = last_point - last_input + (0 if half_open else 1)
    ways = [f"--period {unit_text(longest * unit_ms)} (or shorter)"] if longest >= 1 else []
    cut = last_point // period * period
    if cut >= first_pull(period, start):
        ways.append(f"--to {cut} (the input after it is not compared)")
    ways.append(f"--max-time-points {end - start + 1}")
    return "give " + alternatives(ways)


def pull_advice(line: Timeline, period: int, limit: int, unit_ms: int) -> str:
    """How to make the timeline ``line`` (cut by ``--to``), which holds no pull of ``period``,
    hold one within ``limit`` time points: option values that work as written (newcomer: "give
    a longer --to" was the advice where the first pull lay past the limit, so the next run was
    refused for its length).

    >>> pull_advice(Timeline(0, 150), 10**7, 10**7, 1000)
    'give --period 150s (or shorter), or --max-time-points 10000001 --to 10000000'
    >>> pull_advice(Timeline(0, 15), 20, 100, 60000)
    'give --to 20 (or later, up to 99), or --period 15m (or shorter)'
    """
    pull, last_point = first_pull(period, line.start), line.start + limit - 1
    ways = []
    if pull <= last_point:
        ways.append(f"--to {pull}" + (f" (or later, up to {last_point})" if last_point > pull else ""))
    bound = period_bound(line.start, line.end)
    if bound >= 1:
        ways.append(f"--period {unit_text(bound * unit_ms)} (or shorter)")
    if pull > last_point:
        ways.append(f"--max-time-points {pull - line.start + 1} --to {pull}")
    return "give " + alternatives(ways)


def alternatives(ways: Sequence[str]) -> str:
    """``a, or b, or c``: options that each work alone, as advice lists them (each ", or "
    starts another, so a script can split them).

    >>> alternatives(["--to 5"]), alternatives(["--to 5", "--period 2s", "--max-time-points 9"])
    ('--to 5', '--to 5, or --period 2s, or --max-time-points 9')
    """
    return ", or ".join(ways)


def uncompared_tail(line: Timeline, period: int, half_open: bool = False) -> str | None:
    """A note when the timeline (cut by ``--to``) ends inside a pulling interval whose pull lies
    past it: the input and answers of that last stretch are not compared (issue 28).

    >>> uncompared_tail(Timeline(0, 12), 5)
    'the timeline ends at 12, inside the pulling interval (10,15] whose pull at 15 lies past it: \
the answers in (10,12] are not compared'
    >>> uncompared_tail(Timeline(0, 10), 5) is None, uncompared_tail(Timeline(0, 10), 5, half_open=True) is None
    (True, False)
    """
    if period <= 0:
        return None
    start = line.end // period * period if half_open else (line.end - 1) // period * period
    if not half_open and line.end % period == 0:
        return None
    end, bounds = start + period, "right-open" if half_open else "left-open"
    tail = f"[{start},{line.end}]" if half_open else f"({start},{line.end}]"
    return (f"the timeline ends at {line.end}, inside the pulling interval "
            f"{interval_text(start, end, bounds)} whose pull at {end} lies past it: the answers in "
            f"{tail} are not compared")


def sole_stream(query: RspQuery) -> URIRef | None:
    """The stream IRI the query reads, when it reads exactly one."""
    streams = {spec.stream for spec in query.streams}
    return streams.pop() if len(streams) == 1 else None


def stream_note(iri: URIRef) -> str:
    """The one warning given when triples without a stream IRI are assigned the query's stream."""
    return (f"warning: triples whose line names no stream are read as arriving on <{iri}>, the "
            "only stream the query reads (--stream-iri chooses another)")


def name_streams(elements: Sequence[StreamTriple], iri: URIRef | None,
                 notes: list[str]) -> list[StreamTriple]:
    """``elements`` with ``iri`` as the stream of those that name none (noted once in ``notes``)."""
    if iri is None or all(e.stream is not None for e in elements):
        return list(elements)
    if stream_note(iri) not in notes:
        notes.append(stream_note(iri))
    return [e if e.stream is not None else e._replace(stream=iri) for e in elements]


def _named(slices: Iterable[tuple[int, Sequence[StreamTriple]]], iri: URIRef | None,
           report: ReadReport) -> Iterator[tuple[int, Sequence[StreamTriple]]]:
    """``slices`` named by :func:`name_streams`, its note in ``report`` once all are read."""
    notes: list[str] = []
    for t, elements in slices:
        yield t, name_streams(elements, iri, notes)
    for note in notes:
        report.note(note)


def read_options(data: InputOptions) -> ReadOptions:
    """How to read the stream of ``data`` (:class:`ingest.options.ReadOptions`)."""
    return ReadOptions(data.stream_iri, data.on_error, data.order, data.spark, data.master)


def read_named_stream(path: str | os.PathLike, streams: set[URIRef], options: ReadOptions,
                      report: ReadReport, timeline: tuple[int | None, int | None] = (None, None),
                      max_time_points: int | None = None) -> tuple[list[StreamTriple], Timeline]:
    """All triples of a stream inside the timeline (:func:`ingest.eager.read_rdf_stream`), with
    the one default every command shares: without ``--stream-iri``, a triple whose line names no
    stream is read as on the query's stream when the query reads only one of ``streams`` (noted
    once in ``report``)."""
    slices, line = named_stream_slices(path, streams, options, report, timeline, max_time_points)
    return [element for _, elements in slices for element in elements], line


def named_stream_slices(path: str | os.PathLike, streams: set[URIRef], options: ReadOptions,
                        report: ReadReport, timeline: tuple[int | None, int | None] = (None, None),
                        max_time_points: int | None = None, line: Timeline | None = None
                        ) -> tuple[Iterator[tuple[int, Sequence[StreamTriple]]], Timeline]:
    """:func:`read_named_stream` one slice ``(t, triples)`` at a time, as they are read (the
    note on triples naming no stream comes when all are read, as there). With ``line``, the
    timeline a first reading of the same stream chose, the stream is read again without the
    pass that finds its ends."""
    # the stream readers, loaded when a stream is read (issue 29: lars translate reads none)
    from ingest.eager import rdf_stream_slices
    from ingest.lazy import rdf_slices
    sole = next(iter(streams)) if len(streams) == 1 and options.stream_iri is None else None
    if sole is not None and Path(path).is_dir():  # Turtle files name no stream: tell the reader
        options = replace(options, stream_iri=str(sole))
        report.note(stream_note(sole))
    if line is None:
        slices, line = rdf_stream_slices(path, options, report, timeline, max_time_points)
    else:
        slices = within_timeline(rdf_slices(os.fspath(path), options, report), line.start,
                                 line.end, report, "triple")
    return _named(slices, sole, report), line


def named_slices(read: Callable[[], Iterator[RdfSlice]], iri: URIRef | None,
                 report: ReadReport) -> Callable[[], Iterator[RdfSlice]]:
    """``read`` with ``iri`` as the stream of triples that name none, noted once in ``report``
    (``lars run`` reads lazily, so the note comes when the first such triple does)."""
    if iri is None:
        return read

    def slices() -> Iterator[RdfSlice]:
        for t, elements in read():
            if any(e.stream is None for e in elements):
                if stream_note(iri) not in report.notes:
                    report.notes.append(stream_note(iri))
                elements = tuple(e if e.stream is not None else e._replace(stream=iri) for e in elements)
            yield t, elements
    return slices


def stream_options(query: RspQuery, stream: str | os.PathLike | None, options: ReadOptions,
                   notes: list[str]) -> tuple[ReadOptions, URIRef | None]:
    """The reading options, and the IRI to give triples that name no stream.

    Without ``--stream-iri``, a query reading one stream gives that stream to triples whose
    line names none; a folder of Turtle files names no stream at all, so its reader is told the
    IRI directly (and the note is made here, once).
    """
    sole = sole_stream(query) if options.stream_iri is None else None
    if sole is None or stream is None:
        return options, None
    if Path(stream).is_dir():
        notes.append(stream_note(sole))
        return replace(options, stream_iri=str(sole)), None
    return options, sole


# --- the CQELS side of a C-SPARQL query ---------------------------------------------------------

WRITE_CQELS = ("write the query in CQELS (each triple pattern in its stream's STREAM block) and "
               "give it as QUERY, this C-SPARQL one with --csparql FILE")
"""What to do when the CQELS side cannot be derived: advice ``lars agree`` and ``lars witness``
both take (witness takes neither ``--stream`` nor ``--cqels``)."""


def derive_cqels(query: RspQuery, elements: Iterable[StreamTriple],
                 graphs: dict[URIRef | None, Graph], text: SourceText | None = None) -> RspQuery:
    """A CQELS query asking what the C-SPARQL ``query`` asks, each triple pattern read from the
    stream whose triples it matches (SPEC section 4 goes the other way: ``cs(cq(Q)) = cs(Q)``,
    which :func:`agreement.facade.check_variants` checks).

    A triple pattern that matches triples of one stream goes into that stream's ``STREAM``
    pattern (with the C-SPARQL window); one that matches none is read from the static data when
    it matches static triples or the query reads several streams, else from the query's one
    stream. Without ``elements`` (``lars agree --analyze``) the static data alone decide, which
    they can only for a query reading one stream.

    Raises:
        InputError: a triple pattern matches triples of several streams, or, without stream
            data, one of several streams must be guessed (then the user writes the CQELS
            query), or a stream is named twice with different windows; at the position in
            ``text`` (the query's, when given) of the triple pattern or stream clause concerned.
    """
    place = Places(query, text)
    windows: dict[URIRef, StreamSpec] = {}
    for k, spec in enumerate(query.streams):
        if windows.setdefault(spec.stream, spec).window != spec.window:
            named = sum(other.stream == spec.stream for other in query.streams[:k + 1])
            raise InputError(f"the stream <{spec.stream}> has two windows: {WRITE_CQELS}",
                             place.stream(spec.stream, named))
    by_predicate: dict[URIRef, dict[object, list]] = {}
    for element in elements:
        if element.stream in windows:
            by_predicate.setdefault(element.stream, {}).setdefault(element.triple[1], []).append(element.triple)
    sole = next(iter(windows)) if len(windows) == 1 else None

    def home(triple: TriplePattern) -> URIRef | None:
        found = [s for s in windows if _matches_any(triple, by_predicate.get(s, {}))]
        if len(found) > 1:
            names = ", ".join(f"<{s}>" for s in found)
            raise InputError(f"the triple pattern {pattern_text(BGP((triple,)), Names(query.prefixes))} "
                             f"matches triples of several streams ({names}): {WRITE_CQELS}",
                             place.triple(triple))
        if found:
            return found[0]
        if _matches_static(triple, graphs) or (sole is None and by_predicate):
            return None
        if sole is None:
            raise InputError(f"with no triple of the query's streams to look at, which of them the "
                             f"triple pattern {pattern_text(BGP((triple,)), Names(query.prefixes))} "
                             f"reads cannot be told: {WRITE_CQELS}", place.triple(triple))
        return sole

    def split(pattern: Pattern) -> Pattern:
        if isinstance(pattern, BGP):
            return split_bgp(pattern)
        if isinstance(pattern, (GraphPattern, Values, StreamPattern)):
            return pattern  # GRAPH reads named static graphs: no stream in it
        return _rebuilt(pattern, split)

    def split_bgp(pattern: BGP) -> Pattern:
        groups: dict[URIRef | None, list[TriplePattern]] = {}
        for triple in pattern.triples:
            groups.setdefault(home(triple), []).append(triple)
        if len(groups) > 1:
            _refuse_shared_blank_nodes(groups, query, place)
        parts: list[Pattern] = [StreamPattern(s, windows[s].window, BGP(tuple(ts)))
                                for s, ts in groups.items() if s is not None]
        if None in groups or not parts:
            parts.append(BGP(tuple(groups.get(None, ()))))
        joined = parts[0]
        for part in parts[1:]:
            joined = Join(joined, part)
        return joined

    derived = split(query.pattern)
    streams = tuple(StreamSpec(p.stream, p.window, p.pattern) for p in stream_patterns(derived))
    derived_query = replace(query, pattern=derived, streams=streams, engine="cqels")
    left = [t for t in _triples_outside_streams(derived) if home(t) is not None]
    unread = [s for s in windows if s not in {spec.stream for spec in streams}]
    if left or unread or cs(derived_query) != cs(query):
        where = f" ({pattern_text(BGP((left[0],)), Names(query.prefixes))} stays outside its STREAM " \
                "pattern)" if left else f" (no triple pattern reads the stream <{unread[0]}>)" if unread else ""
        raise InputError(f"the CQELS side cannot be derived exactly from this C-SPARQL query{where}: "
                         f"{WRITE_CQELS}", place.triple(left[0]) if left else
                         place.stream(unread[0]) if unread else place.pattern())
    return derived_query


def derive_cqels_live(query: RspQuery, graphs: dict[URIRef | None, Graph],
                      text: SourceText | None = None) -> RspQuery:
    """The CQELS side of the C-SPARQL ``query`` before any stream triple has arrived (``lars
    agree --follow``): :func:`derive_cqels` with no stream triples, when they could not change
    it, so that it is the side ``lars agree`` derives from any stream.

    The stream's triples decide a triple pattern's home only where the query reads several
    streams (which one carries it), or where the pattern matches static triples (the stream, if
    its triples match it too, else the static data). A query reading one stream whose triple
    patterns match no static triple reads them all from that stream, whatever arrives.

    Raises:
        InputError: the derivation needs the stream's triples (it says which pattern, and how
            to give the CQELS side instead); or as :func:`derive_cqels`.
    """
    why, place = None, Places(query, text)
    streams = list(dict.fromkeys(spec.stream for spec in query.streams))
    if len(streams) > 1:
        why, where = "which of its streams each triple pattern reads", place.stream(streams[1])
    else:
        static = next((t for t in _triples_outside_streams(query.pattern) if _matches_static(t, graphs)), None)
        if static is not None:
            why = (f"whether the triple pattern {pattern_text(BGP((static,)), Names(query.prefixes))}, "
                   "which matches static triples, reads the stream too")
            where = place.triple(static)
    if why is not None:
        raise InputError(f"the CQELS side of this C-SPARQL query is derived from the stream's triples "
                         f"({why}), which a live stream does not have yet", where,
                         hint="run lars agree without --follow on a recorded part of the stream, save "
                              "the CQELS side its note shows, and give it with --cqels FILE")
    return derive_cqels(query, (), graphs, text)


@dataclass(frozen=True)
class Places:
    """Where the constructs of ``query`` are written in ``text`` (its source, when known), for
    the refusals of :func:`derive_cqels`: the query model keeps no positions, so they are found
    again in the text (:mod:`translate.positions`); ``None`` without a text."""

    query: RspQuery
    text: SourceText | None

    def triple(self, triple: TriplePattern) -> Position | None:
        """The triple pattern's subject (or the WHERE clause, where it is not found)."""
        if self.text is None:
            return None
        return triple_position(self.text, triple, self.query.prefixes) or self.pattern()

    def stream(self, stream: URIRef, occurrence: int = 1) -> Position | None:
        """The stream's IRI in its ``occurrence``-th ``STREAM`` clause."""
        if self.text is None:
            return None
        return stream_position(self.text, stream, self.query.prefixes, occurrence) or self.pattern()

    def pattern(self) -> Position | None:
        """The WHERE clause (else the query's start): what a refusal of the whole is about."""
        if self.text is None:
            return None
        return self.text.find_keyword("WHERE") or self.text.position(0)


_PATTERNS = get_args(Pattern)


def _rebuilt(node, split: Callable):
    """``node`` (a pattern or an expression) with ``split`` applied to every pattern directly
    under it, through aggregates, subqueries, BIND and HAVING. Not into ``EXISTS``: CQELS has
    no STREAM pattern there (the reader refuses one), so a stream triple pattern in it is left
    outside any STREAM pattern, and :func:`derive_cqels` refuses the query."""
    if isinstance(node, (Exists, Var, BlankVar, TriplePattern)):
        return node
    if isinstance(node, tuple):
        return tuple(_rebuilt(item, split) for item in node)
    if not is_dataclass(node):
        return node
    changes = {}
    for f in fields(node):
        value = getattr(node, f.name)
        new = split(value) if isinstance(value, _PATTERNS) else _rebuilt(value, split)
        if new is not value:
            changes[f.name] = new
    return replace(node, **changes) if changes else node


def _triples_outside_streams(node) -> Iterator[TriplePattern]:
    """Every triple pattern of ``node`` not inside a ``STREAM`` pattern, expressions included
    (not those under ``GRAPH``, which reads named static graphs)."""
    if isinstance(node, (StreamPattern, GraphPattern)):
        return
    if isinstance(node, BGP):
        yield from node.triples
    elif isinstance(node, tuple):
        for item in node:
            yield from _triples_outside_streams(item)
    elif is_dataclass(node) and not isinstance(node, (Var, BlankVar, TriplePattern)):
        for f in fields(node):
            yield from _triples_outside_streams(getattr(node, f.name))


def _refuse_shared_blank_nodes(groups: dict, query: RspQuery, places: Places) -> None:
    """A blank node of a BGP whose triples go to different places would become two."""
    seen: dict[str, object] = {}
    for place, triples in groups.items():
        for triple in triples:
            for term in triple.terms():
                if isinstance(term, BlankVar) and seen.setdefault(term.label, place) != place:
                    raise InputError(
                        f"the blank node in {pattern_text(BGP((triple,)), Names(query.prefixes))} "
                        "joins a stream triple pattern with another one: the CQELS side cannot be "
                        f"derived exactly: {WRITE_CQELS}, or use a variable there", places.triple(triple))


def _matches_any(triple: TriplePattern, by_predicate: dict[object, list]) -> bool:
    """Whether some stream triple matches the constants of ``triple``."""
    def free(term) -> bool:
        return isinstance(term, (Var, BlankVar))
    candidates = ([t for ts in by_predicate.values() for t in ts] if free(triple.predicate)
                  else by_predicate.get(triple.predicate, []))
    return any((free(triple.subject) or s == triple.subject) and (free(triple.object) or o == triple.object)
               for s, _, o in candidates)


def _matches_static(triple: TriplePattern, graphs: dict[URIRef | None, Graph]) -> bool:
    """Whether some static triple matches the constants of ``triple``."""
    key = tuple(None if isinstance(t, (Var, BlankVar)) else t for t in triple.terms())
    return any(next(iter(graph.triples(key)), None) is not None for graph in graphs.values())


def derived_text(query: RspQuery) -> str:
    """The note on the derived CQELS side: the query in CQELS syntax, ready to save, edit and
    give with ``--cqels FILE`` (:func:`translate.cqelstext.cqels_text`, shown only when reading
    it back gives the same query), else its pattern in one line."""
    try:
        text = cqels_text(query)
        exact = parse_query(text, "<derived>", "cqels", unit_text(query.unit_ms)) == query
    except LarsError:
        exact = False
    if exact:
        return ("CQELS side derived from the C-SPARQL query (save it, edit it, give it with "
                "--cqels FILE):\n" + "\n".join("  " + line for line in text.splitlines()))
    return "CQELS side derived from the C-SPARQL query: WHERE " + pattern_text(
        query.pattern, Names(query.prefixes))
