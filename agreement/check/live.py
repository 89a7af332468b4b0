"""``lars check --follow``: one engine's answers judged as they arrive, against the relations a
profile expects over a live stream (issue 31; SPEC section 17).

The judgement is batch ``lars check``'s (:mod:`agreement.check.judge`): the recorded relations,
in order, must be a contiguous run of the relations the profile reports for some admissible
t0, each compared under ``--compare``. Live, every admissible t0 is a *candidate*, kept side by
side (at most ``--max-t0`` of them, as batch allows), each with the alignments still possible
for it: the expected relation the recording's first relation is read against (its *start*),
and the readings batch tries (the exact run; the run widened at window boundaries for a
jittery profile; the run with bag multiplicities under ``--strict``, :class:`RunCache`).
Each recorded relation is compared, as it becomes final, with the relation every live
alignment pairs it with; an alignment is dropped at its first mismatch, a candidate with its
last alignment. No candidate left: INCORRECT at once. The recording ended with a candidate
left: CORRECT, at the least such t0 (the one batch reports, which tries t0 in order).

*Starts.* Batch lets the recording begin at any expected relation. Live, the first recorded
relation may only be read against an expected relation no later than its own report time
(its label less the profile's ``label-ms``, plus its ``jitter-ms``): an engine cannot report a
window before it closes, and without this bound no candidate could ever be dropped while the
stream runs. This is the one place the live verdict may be stricter than batch's.

*When.* A recorded relation is final once the recording's watermark has passed its report
time (``--max-delay D``, :class:`ingest.watermark.Reorder`; relations of one tick are then
merged if the profile or ``--merge-same-time`` says so); an expected relation once the
stream's watermark has passed its time and the solver has reached it. A verdict on a recorded
relation is written when both are, and a verdict on the first one once each run has reported
past its time (every start is then known).

*Late lines.* A recorded relation that arrives after its time was passed is left out of the
alignment and reported with the relation it would have preceded; a late stream triple is left
out of the solver and reported with every recorded relation paired with an expected relation
whose windows it could reach (its time up to its time plus the longest ``RANGE``).

Memory: the expected runs are kept as far as they are computed (:class:`~agreement.check.
expected.LazyReports`), so it grows with the number of reports, not with the stream's size.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass, field
from itertools import takewhile, tee

from agreement.check.expected import Report, reports_over
from agreement.check.judge import Placements, compare_relation, differences, placed
from agreement.check.pipeline import RunCache
from agreement.recorded import RecordedRelation, relation_line
from ingest.watermark import Reorder, Timed
from translate.api import query_background, slice_atoms
from translate.background import background_patterns
from translate.profiles import Profile

KEPT_VERDICTS = 64
"""Judged relations kept to report late lines with (as ``lars agree --follow`` keeps intervals)."""


@dataclass
class LiveRuns(RunCache):
    """:class:`RunCache` whose runs read a live stream: ``feed`` gives its slices ``(t,
    triples)`` as they come (:class:`ingest.liveslices.LiveSlices`), each run a copy of them;
    a run ends at the first report ``past_end`` says lies after the timeline of the ended
    stream. Every run must be asked for before the stream is read (:meth:`started`)."""

    feed: Iterable = ()
    past_end: Callable[[int], bool] = lambda time: False
    reads_windows = False  # each run reads its own copy of the live slices (_reports)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._reach = None  # the stream's gaps are not known ahead: Istream reads ⊞^∞ (exact)
        self._encoder = None
        self._start = None

    def _reports(self, translation) -> Iterator[Report]:
        if self._encoder is None:
            encoder = self._encoder = translation.encoder()
            self._start = tee(((t, slice_atoms(triples, encoder)) for t, triples in self.feed), 1)[0]
        if self._start is None:
            raise RuntimeError("a run was asked for after the live stream was read")
        background = query_background(translation.query, self.graphs, self._encoder,
                                      background_patterns([translation.program]))
        reports = reports_over(translation, copy(self._start), self.timeline, background,
                               self._encoder)
        return takewhile(lambda report: not self.past_end(report.time), reports)

    def started(self) -> None:
        """Every run is asked for: the stream's start and the runs are let go, so that only
        the readings hold them (the slices of the stream are kept only as far back as the
        slowest run still read needs them)."""
        self._start = None
        for runs in (self._runs, self._widened_runs, self._counted_runs):
            runs.clear()


@dataclass
class Reading:
    """One way of reading a candidate t0's run: ``exact``, ``widened`` at window boundaries or
    ``counted`` (bag multiplicities), with the starts still aligned."""

    t0: int
    name: str
    reports: Sequence[Report]
    starts: list[int] = field(default_factory=list)
    placements: dict[int, Placements] = field(default_factory=dict)
    """For each start, where the boundary items met so far may have fallen
    (:func:`agreement.check.judge.placed`)."""

    def at(self, index: int) -> Report | None:
        """The run's report ``index`` (computed as far as needed), ``None`` past its end."""
        try:
            return self.reports[index]
        except IndexError:
            return None


def readings(runs: RunCache, profile: Profile, t0s: Sequence[int], comparison: str) -> list[Reading]:
    """The readings batch tries for each t0 (:func:`agreement.check.judge.match`): the run, and
    the run widened when the exact one fails (not strict); under ``strict``, the counted run
    where the profile has bag answers."""
    found = []
    for run in runs(profile, t0s):
        if comparison == "strict":
            found.append(Reading(run.t0, "counted", run.counted().reports) if run.counted
                         else Reading(run.t0, "exact", run.reports))
            continue
        found.append(Reading(run.t0, "exact", run.reports))
        if run.widened is not None:
            found.append(Reading(run.t0, "widened", run.widened().reports))
    return found


@dataclass(frozen=True)
class Dropped:
    """A candidate t0 dropped at a recorded relation: why, against which expected relation."""

    t0: int
    reason: str
    expected: Report | None
    missing: int = 0
    extra: int = 0


@dataclass(frozen=True)
class Verdict:
    """The verdict on one recorded relation: the candidates left (t0 → the time of the expected
    relation the first alignment pairs it with) and those dropped at it."""

    index: int
    relation: RecordedRelation
    tick: int
    left: dict[int, int]
    dropped: tuple[Dropped, ...]


@dataclass(frozen=True)
class LateRelation:
    """A recorded relation that came after its time was judged: left out of the alignment."""

    relation: RecordedRelation
    tick: int
    before: int | None
    """The judged relation it would have come before (``None``: not among those kept)."""


@dataclass(frozen=True)
class LateTriples:
    """Stream triples that came late, noted with a recorded relation whose expected relation
    their windows could reach."""

    index: int
    times: tuple[int, ...]


@dataclass
class LiveJudge:
    """The candidates between two recorded relations (see the module docstring)."""

    readings: list[Reading]
    profile: Profile
    comparison: str
    unit_ms: int
    judged: int = 0

    def tick(self, relation: RecordedRelation) -> int:
        """A relation's report time: its label less the profile's ``label-ms``, in ticks."""
        return (relation.timestamp - self.profile.label_ms) // self.unit_ms

    def left(self) -> list[int]:
        """The candidate t0s left, in order."""
        return sorted({reading.t0 for reading in self.readings if reading.starts})

    def judge(self, relation: RecordedRelation) -> Verdict:
        """Compare the next recorded relation with every alignment; drop those it fails."""
        before = set(self.left()) if self.judged else {reading.t0 for reading in self.readings}
        failures: dict[int, Dropped] = {}
        for reading in self.readings:
            if self.judged == 0:
                self.born(reading, relation, failures)
            else:
                self.step(reading, relation, failures)
        index, self.judged = self.judged, self.judged + 1
        self.readings = [reading for reading in self.readings if reading.starts]  # the others
        # are let go, with the stream's slices their runs were still to read
        paired = {}
        for reading in self.readings:
            if reading.t0 not in paired:
                paired[reading.t0] = reading.at(reading.starts[0] + index).time
        dropped = tuple(failures[t0] for t0 in sorted(before - set(paired)) if t0 in failures)
        return Verdict(index, relation, self.tick(relation), paired, dropped)

    def born(self, reading: Reading, relation: RecordedRelation, failures: dict) -> None:
        """The starts of a reading: the expected relations up to the first recorded relation's
        time (plus the profile's jitter) that it matches."""
        bound = (relation.timestamp - self.profile.label_ms + self.profile.jitter_ms) // self.unit_ms
        for start, report in enumerate(reading.reports):
            if report.time > bound:
                break
            if self.compare(report, relation, reading, start, failures):
                reading.starts.append(start)
        if not reading.starts:
            failures.setdefault(reading.t0, Dropped(reading.t0, "unexpected", None))

    def step(self, reading: Reading, relation: RecordedRelation, failures: dict) -> None:
        """Keep the starts whose expected relation at this position matches the relation."""
        kept = []
        for start in reading.starts:
            report = reading.at(start + self.judged)
            if report is None:
                failures.setdefault(reading.t0, Dropped(reading.t0, "ended", None))
            elif self.compare(report, relation, reading, start, failures):
                kept.append(start)
        reading.starts = kept

    def compare(self, report: Report, relation: RecordedRelation, reading: Reading, start: int,
                failures: dict) -> bool:
        """Whether they match, the boundary items placed as for the relations before them
        from ``start``; the first failure of a t0 is kept to say why it was dropped."""
        reason = compare_relation(report, relation, self.profile, self.comparison, self.unit_ms)
        if reason is None:
            placements = placed(reading.placements.get(start, [{}]), report, relation, self.comparison)
            if placements is not None:
                reading.placements[start] = placements
                return True
            reason = "boundary"
        reading.placements.pop(start, None)
        missing, extra = differences(report, relation, self.comparison)
        failures.setdefault(reading.t0, Dropped(reading.t0, reason, report, len(missing), len(extra)))
        return False


@dataclass
class LiveRecording:
    """The relations of a live answers source in report-time order, each handed on once the
    source's watermark has passed its time (see the module docstring).

    Args:
        lines: ``(line number, text)`` as they arrive.
        source: the address, for errors.
        variables: the query's result variables (rows are put in their order).
        tick: a relation's report time.
        merge: merge the relations of one tick.
        late: called with each late relation and its tick.
    """

    lines: Iterator[tuple[int, str]]
    source: str
    variables: tuple[str, ...]
    tick: Callable[[RecordedRelation], int]
    unit_ms: int
    merge: bool
    reorder: Reorder
    late: Callable[[RecordedRelation, int], None]
    refuse: Callable[[tuple[str, ...], str], None]
    """Called with a line's variables when they are not the query's (it raises)."""

    def __iter__(self) -> Iterator[RecordedRelation]:
        for number, text in self.lines:
            checked = relation_line(text, self.source, number, self.unit_ms)
            if not checked.relations:
                continue
            if set(checked.variables) != set(self.variables):
                self.refuse(checked.variables, f"{self.source}:{number}")
            index = [checked.variables.index(name) for name in self.variables]
            for relation in checked.relations:
                ordered = RecordedRelation(relation.timestamp, tuple(
                    tuple(row[i] for i in index) for row in relation.rows))
                yield from self.released(self.reorder.push(self.tick(ordered), ordered))
        yield from self.released(self.reorder.flush())

    def released(self, items: Iterator[Timed]) -> Iterator[RecordedRelation]:
        """The relations released, those of one tick merged if asked (all of one tick are
        released together: one that comes after them is late)."""
        held: list[Timed] = []
        for item in items:
            if item.late:
                self.late(item.item, item.time)
            elif self.merge and held and held[-1].time == item.time:
                merged = RecordedRelation(held[-1].item.timestamp, held[-1].item.rows + item.item.rows)
                held[-1] = Timed(item.time, merged)
            else:
                held.append(item)
        yield from (item.item for item in held)


@dataclass
class LateLedger:
    """Late lines, and the judged relations they are reported with (see the module docstring).

    Args:
        reach: how far after its time a triple is in a window (``None``: every later window).
    """

    reach: int | None
    triples: list[int] = field(default_factory=list)
    kept: deque = field(default_factory=lambda: deque(maxlen=KEPT_VERDICTS))
    relations: int = 0

    def reaches(self, time: int, paired: Iterable[int]) -> bool:
        """Whether a triple at ``time`` is in a window of an expected relation at ``paired``."""
        return any(time <= at and (self.reach is None or at <= time + self.reach) for at in paired)

    def triple(self, time: int) -> list[LateTriples]:
        """A late triple: noted at once with the kept verdicts it reaches, held for later ones."""
        self.triples.append(time)
        return [LateTriples(verdict.index, (time,)) for verdict in self.kept
                if self.reaches(time, verdict.left.values())]

    def verdict(self, verdict: Verdict) -> list[LateTriples]:
        """A verdict written: kept, and noted with the late triples that reach it."""
        self.kept.append(verdict)
        times = tuple(t for t in self.triples if self.reaches(t, verdict.left.values()))
        return [LateTriples(verdict.index, times)] if times else []

    def relation(self, relation: RecordedRelation, tick: int, judged: int) -> LateRelation:
        """A late recorded relation, with the relation it would have come before: the first
        kept verdict of a later time, else the next to be judged (``judged`` so far);
        ``None`` when relations of a later time may be among those no longer kept."""
        self.relations += 1
        later = [verdict.index for verdict in self.kept if verdict.tick > tick]
        if not later:
            return LateRelation(relation, tick, judged)
        forgotten = len(self.kept) == self.kept.maxlen and self.kept[0].index > 0
        return LateRelation(relation, tick, None if later[0] == self.kept[0].index and forgotten
                            else later[0])

