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
from typing import TextIO

from agreement.agree.live import LateAnswers, LiveCheck, late_json, late_text
from agreement.agree.modes import half_open
from agreement.agree.report import interval_json, interval_name, summary_line
from agreement.answers import values_text
from agreement.compare import IntervalVerdict
from agreement.facade import profile_pair
from agreement.sources import period_ticks
from ingest.live import interleave, live_lines
from lars.errors import InputError
from rdflib import URIRef
from translate.durations import parse_unit, unit_text


class LiveWriter:
    """Writes each event at once, in ``text`` or ``jsonl``; counts for the summary."""

    def __init__(self, out: TextIO, form: str) -> None:
        self.out, self.form = out, form
        self.total = self.disagreeing = 0

    def write(self, event: IntervalVerdict | LateAnswers, variables: tuple[str, ...]) -> None:
        if isinstance(event, LateAnswers):
            self.emit(late_json(event), late_text(event))
            return
        self.total += 1
        self.disagreeing += not event.agree
        counts = [f"{len(event.only_cqels)} only in CQELS"] if event.only_cqels else []
        counts += [f"{len(event.only_csparql)} only in C-SPARQL"] if event.only_csparql else []
        text = (f"interval {interval_name(event)}: {'agree' if event.agree else 'DISAGREE'}, "
                + ", ".join([*counts, f"{len(event.both)} in common"]))
        self.emit({"kind": "interval", **interval_json(event, [], variables, values_text)}, text)

    def emit(self, document: dict, text: str) -> None:
        self.out.write((json.dumps(document, ensure_ascii=False) if self.form == "jsonl" else text) + "\n")
        self.out.flush()

    def finish(self, check: LiveCheck, unit: str, interrupted: bool) -> None:
        summary = summary_line("recorded", check.period, unit, check.timeline(), self.disagreeing,
                               self.total)
        late = (f"{check.late} late answers, {check.late_changing} of them would or might change "
                "a verdict" if check.late else "no late answers")
        if check.uncompared:
            late += f"; {check.uncompared} relations in no pulling interval, not compared"
        ending = "interrupted" if interrupted else "every input ended"
        if self.form == "jsonl":
            self.emit({"kind": "summary", "agree": not self.disagreeing, "summary": summary,
                       "disagreeing": self.disagreeing, "intervals": self.total,
                       "late": check.late, "late_changing": check.late_changing,
                       "uncompared": check.uncompared,
                       "interrupted": interrupted}, "")
        else:
            self.emit({}, f"{summary}; {late}; {ending}")


def command_follow(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree --follow``: 0 if the intervals judged agree, 1 if not; Ctrl-C writes the
    summary and ends with 130."""
    if args.recorded_csparql is None or args.recorded_cqels is None:
        raise InputError("--follow judges two running engines: give --recorded-csparql and "
                         "--recorded-cqels (a source each: a file, a pipe, '-', ws://, kafka://)",
                         hint="a query computed over a followed stream is not supported yet")
    if args.format == "json":
        raise InputError("--follow writes as the intervals close: --format text or jsonl")
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
                      URIRef(args.stream_iri) if args.stream_iri else None)
    addresses = {"csparql": args.recorded_csparql, "cqels": args.recorded_cqels,
                 **({"stream": args.stream} if args.stream else {})}
    sources = {name: live_lines(address, args.idle) for name, address in addresses.items()}
    writer = LiveWriter(out, args.format)
    try:
        for name, number, line in interleave(sources):
            for event in check.line(name, addresses[name], number, line):
                writer.write(event, check.variables or ())
    except KeyboardInterrupt:
        writer.finish(check, unit_text(unit_ms), interrupted=True)
        raise
    for event in check.finish():
        writer.write(event, check.variables or ())
    writer.finish(check, unit_text(unit_ms), interrupted=False)
    return 0 if not writer.disagreeing else 1


def delay_ticks(text: str | int | None, unit: str) -> int:
    """``--max-delay`` in ticks: a number of ticks or a duration (default 0)."""
    if text is None:
        return 0
    if isinstance(text, int) or text.strip().isdigit():
        return int(text)
    return period_ticks(text, unit)
