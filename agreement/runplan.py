"""A run prepared but not yet solved: the program, the timeline, and the stream read lazily.

:func:`agreement.facade.prepare_run` reads and translates what ``lars run`` is given and returns a
:class:`RunPlan`; ``lars run`` writes :meth:`RunPlan.answers` as they come, a notebook collects
them with :meth:`RunPlan.view`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ingest.policy import ReadReport
from lars.atoms import Atom
from lars.rules import Program
from lars.streams import Timeline
from solver.answers import TimePointAnswer
from solver.formats import RunInfo
from solver.limits import Limits
from solver.strategies import Slice, evaluate
from translate.api import Translation
from translate.rdf import STRIPLE, RdfTermEncoder, chop

if TYPE_CHECKING:
    from agreement.notebook.views import AnswerStreamView
    from solver.partition import RangeSource


@dataclass(frozen=True)
class RunPlan:
    """Everything :func:`run` prepares before solving; :meth:`answers` reads and solves lazily.

    ``lars run`` writes :meth:`answers` as they come: the stream is read one time point at a
    time (:mod:`ingest.lazy`) and no answer is kept, so a long run holds what its windows
    hold, not the stream; :meth:`view` collects the answers into an
    :class:`~agreement.notebook.views.AnswerStreamView`. Reading problems and input outside the timeline
    are in :attr:`warnings` once the answers have been read.
    """

    program: Program
    timeline: Timeline
    background: frozenset[Atom]
    slices: Callable[[], Iterator[Slice]]
    info: RunInfo
    unit: str | None
    title: str
    report: ReadReport
    translation: Translation | None = None
    encoder: RdfTermEncoder | None = None
    strategy: str = "auto"
    limits: Limits = field(default_factory=Limits)
    partitions: int = 0
    """With ``n > 0``: the timeline cut into ``n`` ranges (:mod:`solver.partition`)."""
    master: str | None = None
    """Where the ranges are evaluated: a Spark master, or ``None`` for worker processes."""
    cut: Callable[[int, int | None], list[tuple[Timeline, RangeSource]]] | None = None
    """``(parts, history) -> ranges`` whose workers read the stream file themselves
    (:func:`ingest.ranges.file_ranges`); ``None``: the driver reads the stream and ships each
    range its slices."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """What reading reported so far (complete once :meth:`answers` is exhausted)."""
        return tuple(self.report.summary())

    def answers(self, slices: Iterator[Slice] | None = None, sliced: bool = True,
                reported: bool = False) -> Iterator[TimePointAnswer]:
        """The answers at every time point of the timeline, in order (a query's: chopped ``ans_1``,
        with ``sliced`` only the atoms of the rows its OFFSET and LIMIT keep; with ``reported``
        also the atom of :meth:`evaluation_marker` where it holds), computed by :func:`solve`
        (``strategy``; all give the same answers), with :attr:`partitions` range by range."""
        shown = None if self.translation is None else frozenset(
            {self.translation.answer.predicate} | ({self.evaluation_marker} - {None}
                                                   if reported else set()))
        inputs = None if self.translation is None else frozenset({(STRIPLE, 4)})
        answers = solve(self.program, self.timeline, self.background,
                        self.slices if slices is None else (lambda: slices),
                        Partitioning(self.partitions, self.master, self.cut if slices is None else None),
                        self.report, self.strategy, self.limits, shown, inputs)
        if self.translation is None:
            return answers
        answers = answers_only(answers)
        query = self.translation.query
        if not sliced or (query.limit is None and not query.offset):
            return answers
        return kept_rows(answers, self.translation, self.encoder)

    @property
    def evaluation_marker(self) -> str | None:
        """The predicate that holds exactly where the query's relation is reported (an engine
        profile's ``report``, push's and pull's ``trigger``); ``None`` where every time point is
        an evaluation (no mode) or for a LARS program."""
        t = self.translation
        if t is None or (t.profile is None and t.mode == "none"):
            return None
        return t.report

    def view(self) -> AnswerStreamView:
        """Solve at every time point and collect the answers."""
        from agreement.notebook.views import AnswerStreamView  # a notebook's (issue 29: not lars agree's)
        t = self.translation
        counts: dict[int, int] = {}

        def counted() -> Iterator[Slice]:
            for time, atoms in self.slices():
                counts[time] = len(atoms)
                yield time, atoms

        answers = tuple(self.answers(counted()))
        return AnswerStreamView(
            answers, self.info.timeline, self.unit, self.info.stratified, self.title,
            counts, "atoms" if t is None else "triples",
            variables=() if t is None else t.answer.select_order,
            row_of=None if t is None else RowOf(t, self.encoder),
            prefixes=() if t is None else t.query.prefixes, warnings=self.warnings)


@dataclass(frozen=True)
class Partitioning:
    """How a solve is cut (``lars run``, ``lars agree --partitions``): into :attr:`partitions`
    ranges (0: not cut), solved on :attr:`master` (``None``: worker processes), each worker
    reading its part of the stream file (:attr:`cut`) or shipped its slices."""

    partitions: int = 0
    master: str | None = None
    cut: Callable[[int, int | None], list[tuple[Timeline, RangeSource]]] | None = None
    """``(parts, history) -> ranges`` whose workers read the stream file themselves
    (:func:`ingest.ranges.file_ranges`); ``None``: the driver reads the stream and ships each
    range its slices."""

    def note(self, ranges: int, reading: str) -> str:
        """How the solve was split and where its ranges were solved, as a note on stderr
        (issue 30: a cut run must not hide where it ran)."""
        where = (f"as Spark tasks on {self.master}" if self.master is not None
                 else "in worker processes on this machine")
        return f"note: --partitions {self.partitions}: {ranges} range(s) solved {where}, {reading}"


def solve(program: Program, timeline: Timeline, background: frozenset[Atom],
          slices: Callable[[], Iterator[Slice]], partitioning: Partitioning, report: ReadReport,
          strategy: str = "auto", limits: Limits | None = None,
          shown: frozenset[str] | None = None,
          inputs: frozenset | None = None) -> Iterator[TimePointAnswer]:
    """The answers of ``program`` at every point of ``timeline``, in order: with
    :func:`solver.strategies.evaluate` over ``slices()``, or cut by ``partitioning`` (its note
    goes to ``report``), each worker reading its part of the stream file or shipped its slices
    (:func:`solver.partition.evaluate_ranges`, :func:`~solver.partition.evaluate_partitioned`).
    ``lars run`` solves its program so, ``lars agree --partitions`` each side's."""
    limits = limits or Limits()
    parts = partitioning.partitions
    if not parts:
        return evaluate(program, slices(), timeline, background, strategy, limits, shown=shown,
                        inputs=inputs)
    # worker processes or Spark, loaded for --partitions only (issue 29)
    from solver.partition import (
        evaluate_partitioned, evaluate_ranges, history_needed, process_runner, spark_runner,
    )
    runner = process_runner if partitioning.master is None else spark_runner(partitioning.master)
    if partitioning.cut is not None:
        lookback = history_needed(program)
        history = None if lookback.tuples or lookback.masks else lookback.ticks
        ranges = partitioning.cut(parts, history)
        report.note(partitioning.note(len(ranges), "each reading its part of the file"))
        return evaluate_ranges(program, ranges, timeline, background, runner, limits, shown,
                               strategy, report.notes, inputs)
    report.note(partitioning.note(parts, "each shipped its slices"))
    return evaluate_partitioned(program, slices(), timeline, background, parts, runner,
                                limits, shown, strategy, inputs)


class RowOf:
    """A chopped answer atom of a query → its values in SELECT order (rdflib terms, ``None``
    for unbound), cached while the cache holds fewer than ``entries`` atoms and ``characters``
    characters of their strings (emptied past either: an aggregate's GROUP_CONCAT over a window
    of 10^4 literals of 1 KB is a new 10 MB row at each time point, issue 29)."""

    def __init__(self, translation: Translation, encoder: RdfTermEncoder,
                 entries: int = 1 << 14, characters: int = 1 << 24) -> None:
        self.translation, self.encoder, self.cache = translation, encoder, {}
        self.entries, self.characters, self.held = entries, characters, 0

    def __call__(self, atom: Atom) -> tuple:
        found = self.cache.get(atom)
        if found is None:
            size = sum(len(arg.value) for arg in atom.args if isinstance(arg.value, str))
            if len(self.cache) >= self.entries or self.held + size > self.characters:
                self.cache.clear()
                self.held = 0
            found = self.cache[atom] = self.translation.values(atom, self.encoder)
            self.held += size
        return found


def kept_rows(answers: Iterator[TimePointAnswer], translation: Translation,
              encoder: RdfTermEncoder) -> Iterator[TimePointAnswer]:
    """The atoms of the rows that ORDER BY, OFFSET and LIMIT keep at each time point (chopped
    answers; :meth:`translate.api.Translation.solutions`)."""
    for answer in answers:
        streams = []
        for stream in answer.streams:
            kept = {atom for _, atom in translation.solutions(
                [a for a, t in stream if t == answer.time], encoder, chopped=True)}
            streams.append(frozenset((a, t) for a, t in stream if a in kept))
        yield TimePointAnswer(answer.time, tuple(streams))


def answers_only(answers: Iterator[TimePointAnswer]) -> Iterator[TimePointAnswer]:
    """The answer atoms of each answer stream, chopped (SPEC section 5: ``chop``)."""
    for answer in answers:
        yield TimePointAnswer(answer.time, tuple(
            frozenset((atom, t) for a, t in stream for atom in chop([a])) for stream in answer.streams))
