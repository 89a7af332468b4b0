"""An agreement check prepared but not yet run: both translations, the timeline, the stream unread.

:func:`agreement.facade.prepare_check` translates what ``lars agree`` is given into one
:class:`CheckPlan` per CQELS variant. Both ways of running it read the stream once, interval by
interval (:mod:`agreement.agree.streaming`): :meth:`CheckPlan.view` collects the verdicts and both
sides' answers (a notebook's view), :meth:`CheckPlan.write` hands them to a report writer as
they come and keeps none (``lars agree``, :mod:`agreement.agree.reportwriter`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from agreement.agree.arrivals import Arrivals, WindowReader
from agreement.agree.reportwriter import Head, ReportWriter
from agreement.agree.streaming import ComputedCheck, Pair, Remote, Side, Solve, paired
from agreement.runplan import Partitioning, solve
from ingest.lazy import RdfSlice
from ingest.policy import ReadReport, within_timeline
from ingest.reach import count_reach
from translate.durations import unit_text

if TYPE_CHECKING:
    from agreement.notebook.checkview import AgreementView


@dataclass(frozen=True)
class CheckPlan:
    """One computed agreement check, ready to read its stream.

    Attributes:
        read: ``() -> slices`` of the whole stream (:func:`ingest.lazy.stream_reader`).
        report: where reading problems and input outside the timeline are counted.
        notices: notes and doubts about the queries, known before reading.
        extended: the note saying the timeline was extended to the end of a pulling interval.
        partitioning: how each side is solved (``lars agree --partitions``): cut into ranges
            solved in worker processes or Spark tasks, as ``lars run`` solves
            (:func:`agreement.runplan.solve`); by default in this process as the stream is read.
    """

    check: ComputedCheck
    read: Callable[[], Iterator[RdfSlice]]
    report: ReadReport
    notices: tuple[str, ...]
    prefixes: tuple[tuple[str, str], ...]
    title: str
    extended: str | None = None
    partitioning: Partitioning = Partitioning()
    windows: WindowReader | None = None
    """With :attr:`partitioning` cutting a stream file: the file, re-read for the window
    snapshots of the intervals explained, the driver reading nothing else of it (``None``:
    the driver reads the stream in step with the answers)."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """The notices and what reading reported (complete once the stream has been read)."""
        return (*self.notices, *self.report.summary())

    def slices(self) -> Iterator[RdfSlice]:
        """The slices inside the timeline; a warning if no triple is on a stream the query reads."""
        line = self.check.timeline
        streams = {spec.stream for spec in self.check.query.streams}
        return count_reach(within_timeline(self.read(), line.start, line.end, self.report, "triple"),
                           streams, self.report)

    def solving(self) -> tuple[Iterator[RdfSlice] | None, Solve | None, Remote | None]:
        """The slices the check reads and, with :attr:`partitioning`, how each side is solved
        apart from them (:meth:`agreement.agree.streaming.ComputedCheck.intervals`): its workers
        read their parts of the stream file, or the driver reads the stream first and ships
        each range its slices. With :attr:`windows` the driver reads no slice: the workers
        send back what it needs (:mod:`agreement.agree.arrivals`) and explain the disagreeing
        intervals of their ranges (:mod:`agreement.agree.rangecheck`)."""
        cut = self.partitioning
        if not cut.partitions:
            return self.slices(), None, None
        check = self.check
        if cut.cut is not None and self.windows is not None:
            from agreement.agree.rangecheck import solve_ranges  # worker pools (issue 29)
            remote = Remote(Arrivals(check.query, self.report), self.windows)
            return None, partial(solve_ranges, check, cut, self.windows, self.report), remote
        if cut.cut is None:
            held = list(self.slices())
            encoded = [(t, check.engine_input(elements)) for t, elements in held]
            slices, shipped = iter(held), (lambda: iter(encoded))
        else:
            slices, shipped = self.slices(), (lambda: iter(()))

        def solved(sides: list[Side], _arrivals: None) -> Iterator[Pair]:
            return paired([solve(program, check.timeline, check.background, shipped, cut,
                                 self.report, shown=frozenset(shown), inputs=inputs)
                           for program, shown, inputs in sides])
        return slices, solved, None

    def view(self) -> AgreementView:
        """Check every interval and collect the answers of both sides."""
        # the notebook's view, not lars agree's report (issue 29: the command loads neither)
        from agreement.agree.modes import collect_check
        from agreement.notebook.checkview import AgreementView
        found, counts = collect_check(self.check, *self.solving())
        if self.extended:
            found.notes.append(self.extended)
        return AgreementView(found, found.csparql, found.cqels, counts, self.prefixes,
                             self.warnings, self.title)

    def head(self) -> Head:
        """What the report says before its intervals."""
        check, line = self.check, self.check.timeline
        return Head("computed", check.period, unit_text(check.query.unit_ms), (line.start, line.end),
                    check.variables)

    def write(self, writer: ReportWriter) -> bool:
        """Check every interval, handing each side's answers and each interval's verdict to
        ``writer`` as they come; whether they agree on every interval."""
        def observe(t: int, _triples: int, csparql, cqels) -> None:
            if csparql is not None:
                writer.answers("csparql", t, csparql)
            if cqels is not None:
                writer.answers("cqels", t, cqels)

        slices, solved, remote = self.solving()
        for result in self.check.intervals(slices, observe, solved, remote):
            writer.interval(result.verdict, result.explanations or [])
        writer.finish(self.check.notes() + ([self.extended] if self.extended else []))
        return writer.agree
