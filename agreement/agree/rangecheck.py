"""``lars agree --partitions`` over a stream file: each range's worker solves both sides and
explains the disagreeing intervals that end in its range; the driver merges.

The explanations of a check are most of its work (each witness set is checked by evaluating a
side's program on candidate subsets, :mod:`agreement.agree.derivation`), so a driver that
explains alone while the workers solve gains little from a cluster. A worker that explains
needs what the driver would hold when it explains an interval ``(e - U, e]``: both sides'
answers of ``(e - 2U, e + U]`` (the verdicts of the interval and its neighbours, the answers
shifted to a neighbouring interval, :func:`agreement.agree.explain.shifted_answers`), the time
points with input, and the triples of the interval's windows, which it re-reads from the file
as the driver would (:class:`~agreement.agree.arrivals.WindowReader`). So each range's worker
(:class:`CheckRange`) reads its part of the file from two pulling intervals before its first
time point to one after its last (:func:`ingest.ranges.plan_ranges`'s ``history`` and
``after``), solves both sides over them, runs the check's own interval loop there
(:meth:`~agreement.agree.streaming.ComputedCheck.intervals` with :attr:`Remote.span
<agreement.agree.streaming.Remote.span>`), and sends back, in chunks, its own time points'
answers, the summary of its own input (:class:`~agreement.agree.arrivals.InputTally`) and the
explanations found, by interval end. The driver compares the answers as before and puts
condition (ii) — static data, and the stream's triples up to the answers compared, which only
it knows — before each worker's explanations (:meth:`ComputedCheck.explain
<agreement.agree.streaming.ComputedCheck.explain>`): the report is the one of the check in one
process, byte for byte, and the driver holds a chunk of answers, not the stream.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from agreement.agree.arrivals import Arrivals, InputCounts, InputTally, WindowReader
from agreement.agree.streaming import ComputedCheck, IntervalResult, Pair, Remote, Side, paired
from agreement.runplan import Partitioning
from ingest.policy import ReadReport
from ingest.ranges import FileRange
from lars.analysis import check_safety, program_functions
from lars.errors import LarsError
from lars.externals import load, modules_of
from lars.streams import Timeline
from solver.answers import TimePointAnswer
from solver.encode import encode_program
from solver.limits import Limits
from solver.lookback import history_needed
from solver.partition import CHUNK_ATOMS, RangeResult, process_runner, spark_runner, watched
from solver.strategies import evaluate

SPLIT_NOTE = "each reading its part of the file and explaining its disagreements"
"""How the note on stderr says the ranges of a check are read and explained
(:meth:`agreement.runplan.Partitioning.note`)."""

EXPLAINING = 2
"""Under a cap on the explanations (``--max-explanations``, 20 by default), how many of the
first ranges explain theirs. A worker knows only its own range, and the driver reports the
first explained intervals of the whole check, so every range explaining up to the cap would
mostly explain intervals no report shows (on CSRBench Q1 at 10^6 triples in four ranges, 20
each: 79 s of CPU where the check in one process takes 49 s). The first two ranges are solved
at once (a Spark runner computes the range after the one being read), and on the streams
measured the first holds the first disagreeing intervals; an interval the report explains that
no worker did is explained by the driver, as without workers (at most the cap's worth)."""


@dataclass
class Outbox:
    """A worker's answers of its own time points not yet sent, and about how many atoms they hold."""

    answers: list = field(default_factory=list)
    atoms: int = 0

    def add(self, item: TimePointAnswer | Pair) -> None:
        self.answers.append(item)
        sides = item if isinstance(item, tuple) else (item,)
        self.atoms += 1 + sum(len(stream) for answer in sides for stream in answer.streams)

    def take(self) -> tuple:
        sent, self.answers, self.atoms = tuple(self.answers), [], 0
        return sent


@dataclass(frozen=True)
class CheckRange:
    """One range of a partitioned check: a picklable value a worker runs
    (:class:`solver.partition.RangeWork`).

    Attributes:
        check: the check as prepared, nothing read yet (:meth:`ComputedCheck.for_worker`).
        span: the range's own time points: their answers and input go to the driver, and the
            disagreeing intervals that end in it are explained here.
        reach: the time points solved: ``span`` from two pulling intervals before it to one
            after it, inside the timeline (what the explanations of its intervals compare).
        source: the lines of the file the worker reads: those of ``reach`` and the history its
            windows need.
        windows: the file, re-read for the window snapshots of the intervals explained.
        cap: explain at most this many of the range's disagreeing intervals (``None``: all).
        strategy, limits: how each side is solved (:func:`solver.strategies.evaluate`).
        modules: the modules of the programs' external functions (:func:`lars.externals.load`).
    """

    check: ComputedCheck
    span: Timeline
    reach: Timeline
    source: FileRange
    windows: WindowReader
    cap: int | None = None
    strategy: str = "auto"
    limits: Limits = field(default_factory=Limits)
    modules: tuple[str, ...] = ()

    def chunks(self, atoms: int = CHUNK_ATOMS) -> Iterator[RangeResult]:
        """The range's answers (pairs, or one answer where both sides solve one program) in
        chunks of about ``atoms`` answer atoms, each with the summary of the input read so far
        and the explanations found so far. A chunk is sent just after an interval closes: the
        explanation of ``(e - U, e]`` goes with the answers up to ``e + U``, which the driver
        reads before it explains it. An error is the last chunk."""
        notes: list[str] = []
        own, outbox = InputTally(self.check.merged_triples()), Outbox()
        explained: dict = {}

        def sent() -> RangeResult:
            nonlocal explained
            summary = replace(own.summary(), explained=explained)
            explained = {}
            return RangeResult(outbox.take(), notes=tuple(notes), summary=summary)

        try:
            load(self.modules)
            for result in self.results(notes, own, outbox):
                if result.explanations is not None:
                    explained[result.verdict.end] = result.explanations
                if outbox.atoms >= atoms:
                    yield sent()
        except LarsError as error:
            yield RangeResult(error=(type(error), error.message, error.position, error.hint))
            return
        yield sent()

    def gathered(self) -> RangeResult:
        """The range's answers and explanations all at once (a worker process), or its error."""
        return next(self.chunks(sys.maxsize))

    def results(self, notes: list[str], own: InputTally, outbox: Outbox) -> Iterator[IntervalResult]:
        """The check's intervals over :attr:`reach`, those ending in :attr:`span` explained;
        the answers of :attr:`span` go to ``outbox``, its input to ``own`` (each run on a fresh
        copy of the check: the explanations counted against the cap are the range's own, however
        the runner shares the task)."""
        check = self.check.for_worker()
        check.max_explanations = self.cap
        counts, arrivals = InputCounts(), Arrivals(check.query, ReadReport())
        slices = watched(watched(self.source(notes), own, self.span), counts, self.reach)

        def solve(sides: list[Side], _arrivals) -> Iterator[Pair]:
            fed = itertools.tee(slices, len(sides))
            answers = [evaluate(program, fed_in, check.timeline, check.background, self.strategy,
                                self.limits, shown, inputs)
                       for (program, shown, inputs), fed_in in zip(sides, fed)]
            for pair in paired(answers):
                t = pair[0].time
                if t > self.reach.end:
                    break
                if t >= self.reach.start:
                    arrivals.append(counts.summary())
                    if t in self.span:
                        outbox.add(pair if len(sides) == 2 else pair[0])
                    yield pair
            for _ in slices:
                pass  # the rest is read too, so that the source's checks (time order) see all of it

        return check.intervals(None, None, solve, Remote(arrivals, self.windows, self.span))


def solve_ranges(check: ComputedCheck, partitioning: Partitioning, windows: WindowReader,
                 report: ReadReport, sides: list[Side], arrivals: Arrivals | None) -> Iterator[Pair]:
    """Both sides' answers at every time point of the check's timeline, in order, solved and
    explained range by range by :class:`CheckRange` workers (``partitioning``: how many, and
    where: worker processes or Spark tasks; its note goes to ``report``; under a cap, the first
    :data:`EXPLAINING` ranges explain); the workers' summaries and explanations go to
    ``arrivals`` (a :meth:`ComputedCheck.intervals
    <agreement.agree.streaming.ComputedCheck.intervals>` ``solve``)."""
    programs = [program for program, _, _ in sides]
    for program in programs:
        check_safety(program)
        encode_program(program)  # a rule outside the fragment is refused here, not on a worker
    lookbacks = [history_needed(program) for program in programs]
    period = check.period
    before = 2 * period + int(check.half_open)  # the answers since the interval before the previous
    history = None if any(b.unbounded or b.tuples or b.masks for b in lookbacks) else (
        max(b.ticks for b in lookbacks) + before)
    line = check.timeline
    worker = check.for_worker()
    modules = tuple(sorted({m for program in programs for m in modules_of(program_functions(program))}))
    cap = check.max_explanations
    tasks = [CheckRange(worker, span, Timeline(max(line.start, span.start - before),
                                                min(line.end, span.end + period)),
                        source, windows, cap if cap is None or index < EXPLAINING else 0,
                        modules=modules)
             for index, (span, source) in enumerate(
                 partitioning.cut(partitioning.partitions, history, after=period))]
    report.note(partitioning.note(len(tasks), SPLIT_NOTE))
    runner = process_runner if partitioning.master is None else spark_runner(partitioning.master)
    for answers in runner(tasks, report.notes, arrivals):
        yield from (answers if len(sides) == 2 else ((answer, answer) for answer in answers))
