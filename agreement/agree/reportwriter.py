"""The agreement report written as the pulling intervals close, in memory that does not grow.

``lars agree`` on a long stream must not hold every verdict and answer until the end
(:class:`agreement.agree.report.AgreementReport` does, for notebooks). A :class:`ReportWriter` is told
each side's answers as they are computed (:meth:`~ReportWriter.answers`), each interval as it
closes (:meth:`~ReportWriter.interval`) and, at the end, the summary (:meth:`~ReportWriter.finish`):

* :class:`JsonLinesWriter` (``--format jsonl``) writes every event as one JSON line at once;
* :class:`TextWriter` and :class:`JsonWriter` write the same text and JSON document as
  :func:`agreement.agree.report.render_text` and :func:`agreement.agree.report.to_json`, byte for byte. Both
  begin with the verdict, known only at the end, so what follows it is spooled to temporary
  files as it comes (:class:`Spool`) and copied out after the verdict: memory stays flat, the
  disk holds what the output will.

>>> import io
>>> from agreement.compare import IntervalVerdict
>>> out = io.StringIO()
>>> writer = JsonLinesWriter(out, Head("computed", 5, "1s", (0, 5), ("x",)))
>>> writer.answers("csparql", 5, frozenset({(1,)}))
>>> writer.interval(IntervalVerdict(0, 5, {}, frozenset({(1,)}), frozenset()), [])
>>> writer.finish(["CQELS variant: brave"])
>>> [json.loads(line)["kind"] for line in out.getvalue().splitlines()]
['head', 'answer', 'interval', 'summary']
>>> json.loads(out.getvalue().splitlines()[-1])["summary"][:66]
'DISAGREE: C-SPARQL and CQELS (computed answers) disagree on 1 of 1'

"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from agreement.answers import values_text
from agreement.compare import IntervalVerdict, Row
from agreement.agree.explain import Explanation
from agreement.agree.report import (
    AgreementReport, answers_json, head_json, interval_json, interval_lines, interval_summary,
    summary_line,
)

SIDES = ("csparql", "cqels")


@dataclass(frozen=True)
class Head:
    """What a report says before its intervals: where the answers come from, ``U`` in ticks,
    the tick's length, the timeline and the result variables."""

    source: str
    period: int
    unit: str
    timeline: tuple[int, int]
    variables: tuple[str, ...]


class Spool:
    """Text appended now and copied out later, kept in a temporary file, not in memory."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")  # text as written
        self.empty = True

    def write(self, text: str) -> None:
        self.file.write(text)
        self.empty = False

    def copy_to(self, out: TextIO) -> None:
        """Write what was appended to ``out``, and drop the file."""
        self.file.seek(0)
        shutil.copyfileobj(self.file, out)
        self.close()

    def close(self) -> None:
        self.file.close()


class ReportWriter:
    """Counts the intervals and the disagreeing ones; subclasses write."""

    def __init__(self, out: TextIO, head: Head) -> None:
        self.out, self.head = out, head
        self.total = self.disagreeing = 0
        self.written: int | None = None
        """The last time point whose answers or interval are on ``out`` already (``None``: none
        yet, or spooled until the end): an error after it leaves that output incomplete."""

    def answers(self, side: str, t: int, rows: frozenset[Row]) -> None:
        """One side's answers at ``t`` (``side``: ``csparql`` or ``cqels``), in time order."""

    def interval(self, verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> None:
        """One pulling interval, closed, with the explanations found for it."""
        self.total += 1
        self.disagreeing += not verdict.agree

    def finish(self, notes: Sequence[str]) -> None:
        """Write what is left, now that every interval is known."""

    @property
    def agree(self) -> bool:
        return not self.disagreeing

    def summary(self) -> str:
        h = self.head
        return summary_line(h.source, h.period, h.unit, h.timeline, self.disagreeing, self.total)


class JsonLinesWriter(ReportWriter):
    """``--format jsonl``: a ``head`` line, then ``answer`` and ``interval`` lines as they come
    (an interval's line after the answers it compares), and a closing ``summary`` line
    (``docs/schemas/agreement-lines.schema.json``)."""

    def __init__(self, out: TextIO, head: Head) -> None:
        super().__init__(out, head)
        self.line({"kind": "head", "format": "lars-agreement-lines", "version": 1,
                   "source": head.source, "period": head.period, "unit": head.unit,
                   "timeline": {"start": head.timeline[0], "end": head.timeline[1]},
                   "variables": list(head.variables)})

    def line(self, document: dict) -> None:
        self.out.write(json.dumps(document, ensure_ascii=False) + "\n")

    def answers(self, side: str, t: int, rows: frozenset[Row]) -> None:
        for solution in answers_json(self.head.variables, t, rows, values_text):
            self.line({"kind": "answer", "side": side, **solution})
            self.written = max(t, self.written or t)

    def interval(self, verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> None:
        super().interval(verdict, reasons)
        self.line({"kind": "interval", **interval_json(verdict, reasons, self.head.variables, values_text)})
        self.written = max(verdict.end, self.written or verdict.end)

    def finish(self, notes: Sequence[str]) -> None:
        self.line({"kind": "summary", "agree": self.agree, "summary": self.summary(),
                   "disagreeing": self.disagreeing, "intervals": self.total, "notes": list(notes)})
        self.out.flush()


class TextWriter(ReportWriter):
    """The text of :func:`agreement.agree.report.render_text`: the summary line of each disagreeing
    interval and its block are spooled as it closes."""

    def __init__(self, out: TextIO, head: Head, prefixes: Sequence[tuple[str, str]] = (),
                 verbose: bool = False) -> None:
        super().__init__(out, head)
        self.prefixes, self.verbose = prefixes, verbose
        self.lines, self.blocks = Spool(), Spool()

    def interval(self, verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> None:
        super().interval(verdict, reasons)
        if not verdict.agree:
            self.lines.write(interval_summary(verdict, reasons) + "\n")
            self.blocks.write("".join(line + "\n" for line in
                                      interval_lines(verdict, reasons, self.prefixes, self.verbose)))

    def finish(self, notes: Sequence[str]) -> None:
        self.out.write("".join(line + "\n" for line in
                               [self.summary(), *(f"note: {note}" for note in notes)]))
        if not self.lines.empty:
            self.out.write("\n")
        self.lines.copy_to(self.out)
        self.blocks.copy_to(self.out)
        self.out.flush()


PLACE = "\x00{}\x00"
"""Marks where a spooled list goes in the document's head (JSON escapes the character, so no
value can contain the mark as written)."""


class JsonWriter(ReportWriter):
    """The document of :func:`agreement.agree.report.to_json` as ``json.dumps(..., indent=1)`` writes
    it, nested ``depth`` levels deep (1: an item of a list of documents). The intervals and
    both sides' answers are spooled, each item indented as it will stand."""

    def __init__(self, out: TextIO, head: Head, depth: int = 0) -> None:
        super().__init__(out, head)
        self.depth = depth
        self.spools = {"intervals": Spool(), **{side: Spool() for side in SIDES}}

    def item(self, spool: str, document: dict, level: int) -> None:
        indent = " " * (self.depth + level)
        text = json.dumps(document, indent=1, ensure_ascii=False).replace("\n", "\n" + indent)
        target = self.spools[spool]
        target.write(("" if target.empty else ",\n") + indent + text)

    def answers(self, side: str, t: int, rows: frozenset[Row]) -> None:
        for solution in answers_json(self.head.variables, t, rows, values_text):
            self.item(side, solution, 3)

    def interval(self, verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> None:
        super().interval(verdict, reasons)
        self.item("intervals", interval_json(verdict, reasons, self.head.variables, values_text), 2)

    def finish(self, notes: Sequence[str]) -> None:
        h = self.head
        document = {**head_json(agree=self.agree, summary=self.summary(), source=h.source,
                                period=h.period, unit=h.unit, timeline=h.timeline,
                                variables=h.variables, notes=notes, disagreeing=self.disagreeing),
                    "intervals": PLACE.format("intervals"),
                    "answers": {side: PLACE.format(side) for side in SIDES}}
        for name, spool in self.spools.items():  # an empty list stays in the document as []
            if spool.empty:
                (document if name == "intervals" else document["answers"])[name] = []
        text = json.dumps(document, indent=1, ensure_ascii=False).replace("\n", "\n" + " " * self.depth)
        for name, spool in self.spools.items():
            mark = json.dumps(PLACE.format(name))
            if mark not in text:
                spool.close()
                continue
            before, text = text.split(mark, 1)
            level = 2 if name == "intervals" else 3
            self.out.write(before + "[\n")
            spool.copy_to(self.out)
            self.out.write("\n" + " " * (self.depth + level - 1) + "]")
        self.out.write(text)
        self.out.flush()


def write_collected(report: AgreementReport, writer: ReportWriter) -> bool:
    """Hand a collected report (recorded answers, engine profiles) to ``writer`` in the order a
    streamed check would: each side's answers in time order, each interval after the answers
    up to its end; whether they agree on every interval."""
    events: list[tuple[int, int, str, object]] = [
        (t, 0, side, rows) for side, series in zip(SIDES, (report.csparql, report.cqels))
        if series is not None for t, rows in series.answers.items()]
    events += [(verdict.end, 1, "", verdict) for verdict in report.verdicts]
    for t, kind, side, item in sorted(events, key=lambda event: event[:3]):
        if kind == 0:
            writer.answers(side, t, item)
        else:
            writer.interval(item, report.reasons(item))
    writer.finish(report.notes)
    return writer.agree


def report_head(report: AgreementReport) -> Head:
    """The head of a collected report."""
    return Head(report.source, report.period, report.unit, report.timeline, report.variables)
