"""Event queries (RSEP-QL) end to end: read, translate under a profile, solve, collect events.

The façade (:mod:`agreement.facade`: ``translate_event_query``, ``run_events``,
``compare_events``) calls these; :mod:`agreement.eventcompare` compares two profiles and
:mod:`agreement.notebook.eventviews` adds the notebook views (pandas, plots) to
:class:`EventAnswers`.

>>> answers = compute_events("examples/events/figure1.rq", stream="examples/events/figure1.nt",
...                          profile="epsparql-recent", at="8,10")
>>> [(e.time, e.start, e.end) for e in answers.intervals()]
[(8, 2, 6), (8, 4, 8)]
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from agreement.sources import period_ticks, read_source
from ingest.eager import read_rdf_stream
from ingest.limits import check_timeline_length, max_time_points
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from ingest.rdffiles import StreamTriple
from lars.errors import InputError
from lars.streams import Timeline
from solver.strategies import evaluate
from translate.api import input_atoms
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.eventreader import read_event_query
from translate.eventrules import Evaluation, EventTranslation, translate_events
from translate.events import EventQuery, pattern_variables
from translate.rsp import Var
from translate.sparqltext import Names, term_text

Source = str | os.PathLike


def parse_times(at: str | None, unit: str) -> tuple[int, ...] | None:
    """``"8,10"`` (ticks, or durations such as ``8s``) → ``(8, 10)``."""
    if at is None:
        return None
    times = []
    for part in at.split(","):
        part = part.strip()
        if part.lstrip("-").isdigit():
            times.append(int(part))
        else:
            times.append(to_ticks(parse_duration(part), parse_unit(unit)))
    return tuple(sorted(set(times)))


def evaluation_of(at: str | None, mode: str | None, period: str | int | None,
                  unit: str) -> Evaluation | None:
    """The evaluation times the options ask for, or ``None`` for the profile's own."""
    times = parse_times(at, unit)
    if times is not None:
        return Evaluation("at", times)
    if mode in (None, "none"):
        return None
    if mode == "pull":
        if period is None:
            raise InputError("pull mode needs a period", hint="give --period")
        return Evaluation("pull", period=period_ticks(period, unit))
    return Evaluation(mode)


def event_translation(query: Source, *, profile: str = "rsep", at: str | None = None,
                      mode: str | None = None, period: str | int | None = None, unit: str = "1s",
                      all_variables: bool = False) -> tuple[EventTranslation, str]:
    """Read and translate an event query; returns the translation and the source name."""
    text, source = read_source(query)
    parsed = read_event_query(text, source, unit)
    if all_variables:
        names = {v.name for v in parsed.variables} | pattern_variables(parsed.pattern)
        parsed = EventQuery(tuple(Var(n) for n in sorted(names)),
                            parsed.windows, parsed.pattern, parsed.engine, parsed.every,
                            parsed.unit_ms, parsed.prefixes)
    return translate_events(parsed, profile, evaluation_of(at, mode, period, unit)), source


# --- run ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchedEvent:
    """An answer: reported at evaluation ``time``, the SELECT ``values`` (rdflib terms), and the
    interval ``[start, end]`` of the input that justifies it."""

    time: int
    values: tuple
    start: int
    end: int


@dataclass(frozen=True)
class EventAnswers:
    """The events an event query matched, by evaluation time (what :func:`compute_events` returns)."""

    events: tuple[MatchedEvent, ...]
    variables: tuple[str, ...]
    timeline: tuple[int, int]
    unit: str
    title: str
    prefixes: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()

    def intervals(self) -> list[MatchedEvent]:
        """The events in order of evaluation time, then interval, then values."""
        return sorted(self.events, key=lambda e: (e.time, e.start, e.end, tuple(map(str, e.values))))

    def at(self, time: int) -> set[tuple]:
        """``{(values, t1, t2)}`` reported at ``time``."""
        return {(e.values, e.start, e.end) for e in self.events if e.time == time}

    def label(self, event: MatchedEvent) -> str:
        names = Names(self.prefixes)
        return " ".join(f"?{v}={term_text(x, names)}" for v, x in zip(self.variables, event.values))

    def rows(self) -> list[tuple[int, str, str]]:
        return [(e.time, self.label(e), f"[{e.start},{e.end}]") for e in self.intervals()]

    def text(self) -> str:
        lines = [f"# {self.title}; timeline [{self.timeline[0]},{self.timeline[1]}]",
                 f"{'time':>6}  interval  event"]
        lines += [f"{time:>6}  {interval:<8}  {label}" for time, label, interval in self.rows()]
        if not self.events:
            lines.append("# no event matched")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {"title": self.title, "timeline": list(self.timeline), "variables": list(self.variables),
                "events": [{"time": e.time, "start": e.start, "end": e.end,
                            "values": [v.n3() for v in e.values]} for e in self.intervals()]}


def read_events_stream(stream: Source, *, stream_iri: str | None = None,
                       start: int | None = None, end: int | None = None, on_error: str = "stop",
                       order: str = "strict", evaluation: Evaluation | None = None,
                       ) -> tuple[list[StreamTriple], tuple[int, int], ReadReport]:
    """The stream's triples, the timeline and the reading report.

    The timeline is ``--from``/``--to``, by default 0 to the last input, extended to the last
    given evaluation time (``--at``) after it: a time named by ``--at`` is evaluated, with or
    without input at or before it (issue 27). A given time outside an explicit ``--from``/``--to``
    is refused, as the answers would claim an evaluation that was not done.
    """
    times = evaluation.times if evaluation is not None and evaluation.kind == "at" else ()
    outside = [t for t in times if (start is not None and t < start) or (end is not None and t > end)]
    if outside:
        raise InputError(f"--at {outside[0]} is outside the timeline given by --from/--to",
                         hint="evaluation times must lie in the timeline")
    report = ReadReport()
    options = ReadOptions(stream_iri=stream_iri, on_error=on_error, order=order, spark="never")
    elements, line = read_rdf_stream(stream, options, report, (start, end))
    last = max(line.end, *times) if times else line.end
    if last > line.end:
        check_timeline_length(line.start, last, max_time_points(None))
    if times and times[0] < line.start:
        raise InputError(f"--at {times[0]} is before the timeline's first time point {line.start}",
                         hint="give --from")
    return elements, (line.start, last), report


def solve_events(translation: EventTranslation, elements: list[StreamTriple],
                 timeline: tuple[int, int], strategy: str = "auto",
                 extra: frozenset[str] = frozenset()) -> dict[int, frozenset]:
    """The answer atoms (``match`` and the ``extra`` predicates) at each time point."""
    encoder = translation.encoder()
    contents = input_atoms(elements, encoder)
    slices = iter(sorted(contents.items()))
    found = {}
    for answer in evaluate(translation.program, slices, Timeline(*timeline), frozenset(), strategy,
                           shown=frozenset({translation.predicate}) | extra):
        if len(answer.streams) != 1:
            raise AssertionError(f"an event program has one answer stream, not {len(answer.streams)}")
        found[answer.time] = frozenset(atom for atom, _ in answer.streams[0])
    return found, encoder


def answers_of(translation: EventTranslation, found, encoder, timeline, unit, title,
               warnings=()) -> EventAnswers:
    events = [MatchedEvent(time, tuple(encoder.decode(a) for a in atom.args[:-2]),
                           atom.args[-2].value, atom.args[-1].value)
              for time, atoms in found.items() for atom in atoms
              if atom.predicate == translation.predicate]
    return EventAnswers(tuple(events), translation.variables, timeline, unit, title,
                        translation.query.prefixes, tuple(warnings))


def compute_events(query: Source, *, stream: Source, profile: str = "rsep", at: str | None = None,
               mode: str | None = None, period: str | int | None = None, unit: str = "1s",
               start: int | None = None, end: int | None = None, stream_iri: str | None = None,
               on_error: str = "stop", order: str = "strict", strategy: str = "auto") -> EventAnswers:
    """The events an event query matches over an RDF stream (``lars run``; the façade's
    ``run_events`` wraps the result in a notebook view).

    Args:
        query, profile, at, mode, period, unit: as in :func:`translate_event_query`.
        stream: a timestamped N-Triples file (or a folder of Turtle files named by timestamp).
        start, end, stream_iri, on_error, order, strategy: as in :func:`agreement.api.run`.
    """
    translation, source = event_translation(query, profile=profile, at=at, mode=mode,
                                            period=period, unit=unit)
    elements, timeline, report = read_events_stream(stream, stream_iri=stream_iri, start=start,
                                                    end=end, on_error=on_error, order=order,
                                                    evaluation=translation.evaluation)
    found, encoder = solve_events(translation, elements, timeline, strategy)
    title = (f"{Path(source).name if source != '<string>' else 'query'}: {translation.profile.name}, "
             f"evaluated {translation.evaluation.describe()}")
    return answers_of(translation, found, encoder, timeline, unit, title, report.summary())
