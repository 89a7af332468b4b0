"""The agreement of two running engines, judged interval by interval as their answers arrive
(issue 31, ``lars agree --recorded-csparql SRC --recorded-cqels SRC --follow``).

Each side's answers arrive as JSON lines, one relation per line, in either recorded format
(``docs/formats.md``): a CSRBench relation ``{"head": …, "timestamp": ms, "results": …}``
or a line of ``lars run --format sparql-json`` (``{"time": t, "results": …}``); both are
checked by the readers of the recorded files (:mod:`ingest.recordedjson`,
:mod:`agreement.recorded`). The stream, when given, is read as timestamped N-Triples lines and
only tells the time: event time is the time points of the lines (or of their Kafka messages,
``--kafka-time``, :mod:`ingest.kafkatime`), not the wall clock.

Each input keeps its own order (the RSP-QL model): the *watermark* is the least over the
inputs still running of the largest time point each has given, less ``max_delay`` ``D``; an
input that has given no line yet holds every interval back (a bad first line is refused before
any verdict it could change), one that has ended no longer does. The pulling interval ending
at ``e`` is judged as in :func:`agreement.compare.compare` (the C-SPARQL relation at ``e``
against the CQELS relations inside the interval) once the watermark has passed ``e``; within
``D`` an input's lines may come in any order, since an interval's verdict depends on its
answers, not on their order, and inputs may run ahead of each other by any amount (two
finished files give the verdicts of the batch check). An answer for an interval already judged
is *late*: it is reported with that interval (how many, from which side, at which time
points, and whether they would change its verdict, known while the interval is among the
last :data:`KEPT_VERDICTS` judged), counted in the summary, and never dropped silently.

Answers in no interval (before the first, or a C-SPARQL relation at a time point that is no
pull) are counted as not compared, as :func:`agreement.compare.uncompared` notes them.

Memory holds the answers of the intervals not yet judged (those the slowest input less ``D``
has not passed) and the last :data:`KEPT_VERDICTS` verdicts, however long the check runs.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from agreement.compare import IntervalVerdict, Row, interval_verdict
from agreement.recorded import relation_line
from agreement.spans import interval_text
from ingest.jsonldstream import stream_line
from lars.errors import InputError, Position

KEPT_VERDICTS = 64
"""Judged intervals whose verdicts are kept to tell whether late answers would change them."""
SIDES = ("csparql", "cqels")
SIDE_NAMES = {"csparql": "C-SPARQL", "cqels": "CQELS"}


@dataclass(frozen=True)
class LateAnswers:
    """Answers of one side that arrived after their interval was judged.

    Attributes:
        changes: whether they would change the interval's verdict (``None``: the verdict is no
            longer kept, so it is not known).
        half_open: the interval is ``[start, end)``, not ``(start, end]`` (as in
            :class:`agreement.compare.IntervalVerdict`).
    """

    start: int
    end: int
    side: str
    times: tuple[int, ...]
    rows: int
    changes: bool | None
    half_open: bool = False

    @property
    def interval(self) -> str:
        """The interval as the report prints it."""
        return interval_text(self.start, self.end, "right-open" if self.half_open else "left-open")


@dataclass
class LiveCheck:
    """The check's state between two lines (see the module docstring).

    Args:
        period: ``U`` in ticks.
        unit_ms: one tick in milliseconds (a CSRBench relation's timestamp is in ms).
        max_delay: ``D`` in ticks.
        start: the timeline's first time point: intervals end at the multiples of ``U`` after it.
        labels_ms: each side's time label minus its report time (an engine profile's
            ``label_ms``), taken off a relation's timestamp first.
        half_open: the pushes of an interval are those of ``[e - U, e)`` (a pulling side with
            right-open windows, SPEC section 12), not ``(e - U, e]``.
    """

    period: int
    unit_ms: int = 1000
    max_delay: int = 0
    start: int = 0
    labels_ms: tuple[int, int] = (0, 0)
    half_open: bool = False
    stream_iri: object = None
    inputs: tuple[str, ...] = SIDES
    """The inputs the watermark waits for (``stream`` too when it is given)."""
    variables: tuple[str, ...] | None = None
    largest: int | None = None
    latest: dict[str, int] = field(default_factory=dict)
    """Each input's largest time point so far."""
    ended: set[str] = field(default_factory=set)
    pulled: dict[int, set[Row]] = field(default_factory=dict)
    pushed: dict[int, set[Row]] = field(default_factory=dict)
    judged: OrderedDict = field(default_factory=OrderedDict)
    late: int = 0
    late_changing: int = 0
    uncompared: int = 0
    source: ClassVar[str] = "recorded"
    """What the summary says the answers are (:func:`agreement.agree.report.summary_line`)."""

    def __post_init__(self) -> None:
        self.first_end = self.next_end = max(self.period,
                                             -(-(self.start + 1) // self.period) * self.period)

    def line(self, source: str, name: str, number: int, text: str
             ) -> Iterator[IntervalVerdict | LateAnswers]:
        """Take one line of input ``source`` (``stream``, ``csparql`` or ``cqels``; ``name`` is
        its address, for errors); the intervals this closes and the late answers it holds."""
        if source == "stream":
            parsed = stream_line(text, name, number, self.unit_ms, self.stream_iri)
            if parsed is not None:
                yield from self.advance(source, parsed[0])
            return
        for time, rows in self.relations(source, name, number, text):
            end = self.interval_end(source, time)
            if end < self.first_end or (source == "csparql" and time % self.period):
                self.uncompared += 1  # before the first interval, or a pull at no pull time
            elif end < self.next_end:
                yield self.late_answers(source, end, time, rows)
            else:
                answers = self.pulled if source == "csparql" else self.pushed
                answers.setdefault(time, set()).update(rows)
            yield from self.advance(source, time)

    def relations(self, side: str, name: str, number: int, text: str
                  ) -> Iterator[tuple[int, frozenset[Row]]]:
        """The relations of one answer line: ``(time point, rows in the check's variable
        order)``, the time point ``floor((timestamp - label) / unit)`` (the timestamp that of the
        Kafka message for a :class:`~ingest.kafkatime.StampedLine`, the line's own left out)."""
        checked = relation_line(text, name, number, self.unit_ms)
        if not checked.relations:
            return
        where = f"{name}:{number}"
        index = self.column_order(checked.variables, where)
        label = self.labels_ms[SIDES.index(side)]
        for relation in checked.relations:
            if relation.timestamp < label:
                raise InputError(f"timestamp {relation.timestamp} ms less the profile's label-ms "
                                 f"{label} lies before the timeline's start 0", Position(name, number))
            yield ((relation.timestamp - label) // self.unit_ms,
                   frozenset(tuple(row[i] for i in index) for row in relation.rows))

    def column_order(self, variables: tuple[str, ...], where: str) -> list[int]:
        """Where each of the check's variables (the first relation's) is in ``variables``."""
        if self.variables is None:
            self.variables = tuple(variables)
        if set(variables) != set(self.variables):
            raise InputError(f"the variables {', '.join(variables)} are not those of the first "
                             f"relation, {', '.join(self.variables)}", Position(where))
        return [variables.index(name) for name in self.variables]

    def interval_end(self, side: str, time: int) -> int:
        """The end of the pulling interval an answer at ``time`` belongs to."""
        if side == "csparql":
            return time
        return -(-(time + self.half_open) // self.period) * self.period

    def advance(self, source: str, time: int) -> Iterator[IntervalVerdict]:
        """Note ``time`` as seen on ``source``; judge the intervals the watermark has now passed."""
        self.largest = time if self.largest is None else max(self.largest, time)
        self.latest[source] = max(time, self.latest.get(source, time))
        yield from self.release()

    def end(self, source: str) -> Iterator[IntervalVerdict]:
        """Note that ``source`` has ended: the watermark no longer waits for it."""
        self.ended.add(source)
        yield from self.release()

    def release(self) -> Iterator[IntervalVerdict]:
        """The intervals the watermark has passed (none while a running input gave no line)."""
        running = [source for source in self.inputs if source not in self.ended]
        if not running or any(source not in self.latest for source in running):
            return
        watermark = min(self.latest[source] for source in running) - self.max_delay
        while self.next_end < watermark:
            yield self.judge()

    def judge(self) -> IntervalVerdict:
        """The verdict on the next interval; its answers are dropped, the verdict kept a while."""
        end, shift = self.next_end, int(self.half_open)
        pushes = sorted(t for t in self.pushed if end - self.period - shift < t <= end - shift)
        verdict = interval_verdict(end, self.period, frozenset(self.pulled.pop(end, ())),
                                   ((t, frozenset(self.pushed.pop(t))) for t in pushes),
                                   self.half_open)
        for t in [t for t in self.pulled if t < end]:  # at no pull time: no interval holds them
            del self.pulled[t]
        self.judged[end] = verdict
        if len(self.judged) > KEPT_VERDICTS:
            self.judged.popitem(last=False)
        self.next_end += self.period
        return verdict

    def late_answers(self, side: str, end: int, time: int, rows: frozenset[Row]) -> LateAnswers:
        """Answers for the interval ending at ``end``, judged already: counted and reported."""
        verdict = self.judged.get(end)
        changes = None if verdict is None else would_change(verdict, side, rows)
        self.late += 1
        self.late_changing += changes is not False
        return LateAnswers(end - self.period, end, side, (time,), len(rows), changes,
                           self.half_open)

    def finish(self) -> Iterator[IntervalVerdict]:
        """Every interval up to the one holding the last time point seen (the inputs ended)."""
        if self.largest is None:
            return
        while self.next_end - self.period < self.largest + self.half_open:
            yield self.judge()

    def timeline(self) -> tuple[int, int]:
        """The time points judged so far."""
        return self.start, max(self.start, self.next_end - self.period)


def would_change(verdict: IntervalVerdict, side: str, rows: frozenset[Row]) -> bool:
    """Whether rows one side gave late would change the interval's verdict: a CQELS row the
    verdict did not see, or one only C-SPARQL gave; a C-SPARQL row it did not see, or one only
    CQELS gave. (A C-SPARQL relation is one pull: rows it lacks would also count, but a late
    relation adds to what was seen.)"""
    seen_cqels = set(verdict.only_cqels) | verdict.both
    seen_csparql = verdict.only_csparql | verdict.both
    mine, other = (seen_cqels, seen_csparql) if side == "cqels" else (seen_csparql, seen_cqels)
    return any(row not in mine for row in rows)


def plural(count: int, noun: str) -> str:
    """``1 row``, ``2 rows``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def late_json(late: LateAnswers) -> dict:
    """A late report as one JSON object (``--format jsonl``)."""
    return {"kind": "late", "start": late.start, "end": late.end,
            "interval": late.interval, "side": late.side, "times": list(late.times),
            "rows": late.rows, "changes": late.changes}


def late_text(late: LateAnswers) -> str:
    """A late report as one line."""
    if late.side == "stream":
        what = "a late triple" if late.rows == 1 else f"{late.rows} late triples"
        return (f"interval {late.interval}: its verdict leaves out {what} at "
                f"{', '.join(map(str, late.times))}, which the solver had passed; whether "
                f"{'it' if late.rows == 1 else 'they'} would change the verdict is not known")
    effect = {True: "they would change its verdict", False: "they would not change its verdict",
              None: "whether they would change its verdict is no longer known"}[late.changes]
    return (f"interval {late.interval}: judged without a late {SIDE_NAMES[late.side]} "
            f"answer at {', '.join(map(str, late.times))} ({plural(late.rows, 'row')}); {effect}")
