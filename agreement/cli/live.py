"""``lars agree --follow``: two running engines' answers judged as they arrive (issue 31).

One line per pulling interval is written and flushed as the interval closes (text, or one
JSON object per line with ``--format jsonl``), a line for answers that came after their
interval was judged, and a summary when every input has ended or on Ctrl-C (exit 0 agree,
1 disagree, 130 interrupted, after the summary). The check is
:class:`agreement.agree.live.LiveCheck`; the sources are read by :mod:`ingest.live`.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator, Sequence
from typing import TextIO

from agreement.agree.live import LateAnswers, LiveCheck, late_json, late_text, plural
from agreement.agree.livestream import StreamTally
from agreement.agree.modes import half_open
from agreement.agree.explain import Explanation
from agreement.agree.report import cause_text, interval_json, interval_name, summary_line
from agreement.answers import values_text
from agreement.cli.model import NOTES
from agreement.compare import IntervalVerdict
from agreement.facade import profile_pair
from agreement.sources import period_ticks
from ingest.kafkatime import kafka_time_mode
from ingest.live import END, interleave, live_lines
from lars.errors import InputError
from rdflib import URIRef
from translate.durations import parse_unit, unit_text
from translate.scanner import SourceText


class LiveWriter:
    """Writes each event at once, in ``text`` or ``jsonl``; counts for the summary."""

    def __init__(self, out: TextIO, form: str) -> None:
        self.out, self.form = out, form
        self.total = self.disagreeing = 0

    def write(self, event: IntervalVerdict | LateAnswers, variables: tuple[str, ...],
              reasons: Sequence[Explanation] = ()) -> None:
        """One event; an interval with the reasons found for it (a computed check's)."""
        if isinstance(event, LateAnswers):
            self.emit(late_json(event), late_text(event))
            return
        self.total += 1
        self.disagreeing += not event.agree
        counts = [f"{len(event.only_cqels)} only in CQELS"] if event.only_cqels else []
        counts += [f"{len(event.only_csparql)} only in C-SPARQL"] if event.only_csparql else []
        text = (f"interval {interval_name(event)}: {'agree' if event.agree else 'DISAGREE'}, "
                + ", ".join([*counts, f"{len(event.both)} in common"]))
        if reasons:
            text += f"; cause: {cause_text(event, reasons)}"
        self.emit({"kind": "interval", **interval_json(event, reasons, variables, values_text)}, text)

    def emit(self, document: dict, text: str) -> None:
        self.out.write((json.dumps(document, ensure_ascii=False) if self.form == "jsonl" else text) + "\n")
        self.out.flush()

    def finish(self, tally: LiveCheck | StreamTally, unit: str, interrupted: bool) -> None:
        """The summary: the verdict on the intervals judged, and what was late or left out.

        Raises:
            InputError: every input ended and no interval was judged (nothing to check, as
                ``lars agree`` says of a file without a pulling interval).
        """
        if not self.total and not interrupted:
            raise InputError(f"the inputs ended before any pulling interval of period "
                             f"{tally.period} × {unit} was judged: nothing to check")
        if self.total:
            summary = summary_line(tally.source, tally.period, unit, tally.timeline(),
                                   self.disagreeing, self.total)
        else:  # no verdict rests on nothing: not AGREE
            summary = f"NOTHING JUDGED: no pulling interval of period {tally.period} × {unit} closed"
        what = "answers" if isinstance(tally, LiveCheck) else "triples"
        late = (f"{plural(tally.late, 'late ' + what[:-1])}, {tally.late_changing} of them would "
                "or might change a verdict" if tally.late else f"no late {what}")
        if tally.uncompared:
            late += f"; {tally.uncompared} {'relations' if what == 'answers' else what} in no " \
                    "pulling interval, not compared"
        ending = "interrupted" if interrupted else "every input ended"
        if self.form == "jsonl":
            self.emit({"kind": "summary", "agree": not self.disagreeing if self.total else None,
                       "summary": summary,
                       "disagreeing": self.disagreeing, "intervals": self.total,
                       "late": tally.late, "late_changing": tally.late_changing,
                       "uncompared": tally.uncompared, "interrupted": interrupted}, "")
        else:
            self.emit({}, f"{summary}; {late}; {ending}")


def command_follow(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree --follow``: 0 if the intervals judged agree, 1 if not; Ctrl-C writes the
    summary and ends with 130; inputs that ended before any interval was judged are refused."""
    if args.format == "json":
        raise InputError("--follow writes as the intervals close: --format text or jsonl")
    if args.recorded_csparql is None and args.recorded_cqels is None:
        return follow_query(args, out)
    if args.recorded_csparql is None or args.recorded_cqels is None:
        raise InputError("--follow judges two running engines: give --recorded-csparql and "
                         "--recorded-cqels (a source each: a file, a pipe, '-', ws://, kafka://), "
                         "or a query and its --stream")
    if args.recorded_csparql == "-" == args.recorded_cqels:
        raise InputError("only one input can be the standard input ('-')")
    ticks = period_ticks(args.period, args.unit)
    if ticks is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)")
    pair = profile_pair(args.profiles)
    unit_ms = parse_unit(args.unit)
    check = LiveCheck(ticks, unit_ms, delay_ticks(args.max_delay, args.unit), args.start or 0,
                      (pair[0].label_ms, pair[1].label_ms) if pair else (0, 0),
                      half_open(pair[0]) if pair else False,
                      URIRef(args.stream_iri) if args.stream_iri else None,
                      ("csparql", "cqels", "stream") if args.stream else ("csparql", "cqels"))
    addresses = {"csparql": args.recorded_csparql, "cqels": args.recorded_cqels,
                 **({"stream": args.stream} if args.stream else {})}
    sources = followed(addresses, args)
    writer = LiveWriter(out, args.format)
    try:
        for name, number, line in interleave(sources, ends=True):
            events = check.end(name) if line is END else check.line(name, addresses[name], number, line)
            for event in events:
                writer.write(event, check.variables or ())
    except KeyboardInterrupt:
        writer.finish(check, unit_text(unit_ms), interrupted=True)
        raise
    for event in check.finish():
        writer.write(event, check.variables or ())
    writer.finish(check, unit_text(unit_ms), interrupted=False)
    return 0 if not writer.disagreeing else 1


def followed(addresses: dict[str, str], args: argparse.Namespace) -> dict[str, Iterator[str]]:
    """The lines of each live source by name, as ``--idle`` and ``--kafka-time`` say.

    Raises:
        InputError: ``--kafka-time`` is given and no source is a ``kafka://`` one (it would
            be ignored).
    """
    if args.kafka_time is not None and not any(is_kafka(a) for a in addresses.values()):
        given = list(addresses.values())
        raise InputError("--kafka-time applies to kafka:// sources only, and "
                         + (f"{given[0]} is not one" if len(given) == 1 else
                            f"none of {', '.join(given)} is one"),
                         hint="drop --kafka-time, or follow a kafka://host:port/topic")
    mode = kafka_time_mode(args.kafka_time)
    files = list(dict.fromkeys(a for a in addresses.values() if args.idle is None and os.path.isfile(a)))
    note = (f"note: following {' and '.join(files)} as {'it grows' if len(files) == 1 else 'they grow'}; "
            "Ctrl-C ends the check with its summary, or give --idle SECONDS to end it after "
            "SECONDS without a new line")
    return {name: announced(live_lines(address, args.idle, mode), note) if address in files
            else live_lines(address, args.idle, mode) for name, address in addresses.items()}


def announced(lines: Iterator[str], note: str) -> Iterator[str]:
    """``lines``, with ``note`` on stderr when the first is asked for: a followed file without
    ``--idle`` never ends by itself, and a check waiting on it said nothing (newcomer); the
    note comes once the check reads, so a refusal before that stays one line."""
    NOTES.show([note])
    yield from lines


def is_kafka(address: str) -> bool:
    """Whether ``address`` is a ``kafka://`` source (the scheme in any case, as ingest.live reads it)."""
    return address.lower().startswith("kafka://")


def delay_ticks(text: str | int | None, unit: str) -> int:
    """``--max-delay`` in ticks: a number of ticks or a duration (default 0)."""
    if text is None:
        return 0
    if isinstance(text, int) or text.strip().isdigit():
        return int(text)
    return period_ticks(text, unit)


def follow_query(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree QUERY --stream SOURCE --follow``: both sides computed over a live stream
    (:mod:`agreement.agree.livestream`)."""
    from agreement.agree.livestream import LateNotes
    from ingest.liveslices import LiveSlices
    from translate.reports import window_reach
    from agreement.agree.streaming import ComputedCheck
    from agreement.defaults import default_period, derive_cqels_live, derived_text
    from agreement.facade import query_pair
    from agreement.options import QueryOptions
    from agreement.sources import read_source
    from ingest.eager import static_graphs
    from ingest.limits import max_time_points
    from ingest.watermark import Reorder
    from lars.streams import Timeline

    query = args.cqels or args.query
    if query is None or args.stream is None:
        raise InputError("--follow needs a query and its --stream, or two engines' recorded answers")
    if args.profiles is not None or args.variant == "all":
        raise InputError("--follow with a query checks the paper's pair, one CQELS variant",
                         hint="leave out --profiles; give --variant brave, cautious or an id")
    if args.cqels and args.query:
        args.csparql = args.query
    text, source = read_source(query)
    given, other = query_pair(text, source, QueryOptions(
        args.engine, args.variant, args.unit, args.window_bounds, args.csparql))
    graphs = static_graphs(list(args.static), other or given)
    if given.engine == "csparql":  # derived before the stream, as lars agree derives it
        given = derive_cqels_live(given, graphs, SourceText(text, source))
        NOTES.show(["note: " + derived_text(given)])
    ticks = period_ticks(args.period, args.unit) or default_period(other or given)
    if ticks is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)")
    start = args.start or 0
    line = Timeline(start, args.end if args.end is not None
                    else start + max_time_points(args.max_time_points) - 1)
    check = ComputedCheck(given, graphs, ticks,
                          args.variant, args.window_bounds, line, other, args.max_explanations)
    streams = {spec.stream for spec in given.streams}
    default = URIRef(args.stream_iri) if args.stream_iri else (
        next(iter(streams)) if len(streams) == 1 else None)
    tally = StreamTally(ticks, start)
    writer = LiveWriter(out, args.format)

    notes = LateNotes(ticks, window_reach([given, *([other] if other else [])]))

    def note(end: int, times: tuple[int, ...]) -> None:
        writer.write(LateAnswers(end - ticks, end, "stream", times, len(times), None), check.variables)

    def late(item) -> None:
        if item.time < start:
            tally.uncompared += 1
            return
        tally.late += 1
        for end, times in notes.late(item.time, tally.end):
            note(end, times)

    lines = ((number, text) for _, number, text in interleave(followed({"stream": args.stream}, args)))
    feed = LiveSlices(lines, args.stream, default, parse_unit(args.unit),
                      Reorder(delay_ticks(args.max_delay, args.unit)), late)

    def inside():
        for t, triples in feed:
            if t >= start:
                yield t, triples
            else:  # before the timeline: not compared, as lars agree counts them for a file
                tally.uncompared += len(triples)

    try:
        for result in check.intervals(inside()):
            if feed.ended and (feed.last is None
                               or result.verdict.end > last_end(feed.last, ticks, start)):
                break
            writer.write(result.verdict, check.variables, result.explanations or ())
            tally.end = result.verdict.end
            if times := notes.after(tally.end):
                note(tally.end, times)
    except KeyboardInterrupt:
        writer.finish(tally, unit_text(parse_unit(args.unit)), interrupted=True)
        raise
    writer.finish(tally, unit_text(parse_unit(args.unit)), interrupted=False)
    return 0 if not writer.disagreeing else 1


def last_end(last: int, period: int, start: int) -> int:
    """The end of the pulling interval holding the stream's last time point."""
    first = max(period, -(-(start + 1) // period) * period)
    return max(first, -(-last // period) * period)
