"""Evaluation over slices at scale: split the timeline, ship each range its history (SPEC 8).

Under the paper's semantics (SPEC section 3: rules fire at the reference time only, nothing is
remembered between time points; streaming reading) the answer at ``t`` depends only on

* the input in ``[t - lookback, t]``, where ``lookback`` is the widest reach of the program's
  body atoms: a plain atom reads ``[t, t]``; a time window ``⊞^{l,u,d}`` starts at
  ``floor(t/d)*d - l >= t - (d - 1) - l``; ``⊞^∞`` and ``@_s a`` outside windows read the whole
  timeline (then every range needs everything from ``t_min``: no shipping saving);
* for tuple windows ``⊞^{#n}``, the latest ``n`` input atoms up to ``t``; on a substream
  (``⊞^{#n, q(c,_)}``), the latest ``n`` input atoms of that substream;
* the background, and the timeline itself (windows are clamped to it, heads ``@_T a`` checked).

So the timeline is :func:`split` into ranges, each range gets the slices it needs
(:func:`range_input`), the ranges are evaluated independently by a *runner* (a plain loop, or a
Spark job whose executors run clingo) and the answers come back in time order, identical to
``Problem(program, stream, background).run()``.

One more thing reaches back further: an answer leaves out derived atoms that are also input at
their time point (:meth:`solver.reference.Problem.additions`), and a head ``@_T a`` with a
constant or computed ``T`` can put an atom anywhere. For such programs the input atoms of
derived predicates are shipped from the whole history (:attr:`Lookback.masks`; usually none).

(:mod:`solver.lookback` says how far back each body atom reads.)

>>> split(Timeline(0, 9), 3)
[Timeline(start=0, end=3), Timeline(start=4, end=6), Timeline(start=7, end=9)]
"""

from __future__ import annotations

import bisect
import itertools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from lars.analysis import Signature, check_safety, program_functions
from lars.atoms import Atom
from lars.errors import InputError, LarsError
from lars.externals import load, modules_of
from lars.rules import Program
from lars.streams import Stream, Timeline
from lars.windows import TupleWindow
from solver.encode import encode_program
from solver.lookback import Lookback, history_needed
from solver.reference import Limits, Problem
from solver.answers import TimePointAnswer
from solver.spark import spark_context
from solver.strategies import evaluate, projected

Slice = tuple[int, tuple[Atom, ...]]
"""The input atoms at one time point, in arrival order (as :mod:`ingest.slicing` makes them)."""


def split(timeline: Timeline, parts: int) -> list[Timeline]:
    """``timeline`` cut into ``parts`` consecutive ranges of (nearly) equal length.

    Fewer ranges come back when the timeline has fewer points than ``parts``; none for an empty
    timeline.

    Raises:
        InputError: ``parts`` is less than 1.
    """
    if parts < 1:
        raise InputError(f"cannot split the timeline into {parts} parts", hint="use 1 or more")
    size, count = len(timeline), min(parts, len(timeline))
    ranges, start = [], timeline.start
    for index in range(count):
        length = size // count + (1 if index < size % count else 0)
        ranges.append(Timeline(start, start + length - 1))
        start += length
    return ranges


def cut_before(timeline: Timeline, cuts: Iterable[int]) -> list[Timeline]:
    """``timeline`` cut before each time point of ``cuts`` (those outside it, or at its start,
    make no cut): consecutive ranges covering it.

    >>> cut_before(Timeline(0, 9), [4, 0, 7, 12, 4])
    [Timeline(start=0, end=3), Timeline(start=4, end=6), Timeline(start=7, end=9)]
    """
    starts = sorted({t for t in cuts if timeline.start < t <= timeline.end} | {timeline.start})
    return [Timeline(start, end - 1) for start, end in zip(starts, [*starts[1:], timeline.end + 1])]


def tuple_suffix_start(slices: Sequence[Slice], before: int, size: int,
                       window: TupleWindow | None = None) -> int:
    """Index of the first slice of the shortest suffix of ``slices[:before]`` with ``size`` atoms
    (with ``window``, ``size`` atoms that it counts: :meth:`lars.windows.TupleWindow.counts`)."""
    index, held = before, 0
    while index > 0 and held < size:
        index -= 1
        atoms = slices[index][1]
        held += len(atoms) if window is None else sum(1 for atom in atoms if window.counts(atom))
    return index


def range_input(slices: Sequence[Slice], span: Timeline, lookback: Lookback) -> list[Slice]:
    """The slices the range ``span`` needs, ascending in time.

    That is every slice in ``[span.start - ticks, span.end]`` (from the first slice if the
    lookback is unbounded), every slice of the shortest suffix before ``span.start`` that holds
    ``lookback.tuples`` atoms (and for each window of ``lookback.substreams``, ``n`` atoms of its
    substream), and, before those, the atoms of masked predicates.

    Args:
        slices: all input slices ``(t, atoms)``, strictly ascending in ``t``.
        span: the range of reference times.
        lookback: from :func:`history_needed`.

    >>> from lars.atoms import Atom
    >>> slices = [(t, (Atom("p"),) * (t % 3)) for t in range(10)]
    >>> [t for t, _ in range_input(slices, Timeline(6, 7), Lookback(ticks=1, tuples=3))]
    [4, 5, 6, 7]
    """
    return _range_input(slices, [t for t, _ in slices], span, lookback)


def _range_input(slices: Sequence[Slice], times: Sequence[int], span: Timeline,
                 lookback: Lookback) -> list[Slice]:
    """:func:`range_input` with the time points of ``slices`` listed once (bisected per range)."""
    end = bisect.bisect_right(times, span.end)
    if lookback.unbounded:
        return list(slices[:end])
    first = bisect.bisect_left(times, span.start)
    start = min(bisect.bisect_left(times, span.start - lookback.ticks),
                tuple_suffix_start(slices, first, lookback.tuples),
                *(tuple_suffix_start(slices, first, w.size, w) for w in lookback.substreams))
    masked = [(t, kept) for t, atoms in itertools.islice(slices, start) if lookback.masks
              and (kept := tuple(a for a in atoms if a.signature in lookback.masks))]
    return masked + list(slices[start:end])


def checked_times(slices: Sequence[Slice], timeline: Timeline) -> list[int]:
    """The time points of ``slices``; raise if they are not ascending or leave the timeline.

    Raises:
        InputError: a time point repeats, goes back, or lies outside ``timeline``.
    """
    times = [t for t, _ in slices]
    for before, after in zip(times, times[1:]):
        if after <= before:
            raise InputError(f"slices are not in time order: {after} after {before}")
    outside = [t for t in times[:1] + times[-1:] if t not in timeline]
    if outside:
        raise InputError(f"time point {outside[0]} is outside the timeline "
                         f"[{timeline.start}, {timeline.end}]")
    return times


RangeSource = Callable[[list[str]], Iterable[Slice]]
"""A range's input, read where the range runs: called with a list to append warnings about the
input to, it gives the slices the range needs, ascending in time. :class:`Shipped` holds slices
the driver picked; :class:`ingest.ranges.FileRange` reads its byte range of a stream file."""


@dataclass(frozen=True)
class Shipped:
    """A range's input picked by the driver (:func:`range_input`) and shipped with the task."""

    slices: tuple[Slice, ...]

    def __call__(self, notes: list[str]) -> tuple[Slice, ...]:
        return self.slices


@dataclass(frozen=True)
class RangeTask:
    """Everything one range needs; a frozen, picklable value shipped to an executor.

    Attributes:
        program, background: the problem.
        timeline: the whole timeline (windows are clamped to it, heads ``@_T a`` checked).
        span: the reference times to evaluate.
        source: the input the range needs (:data:`RangeSource`), read on the executor.
        limits: the solver's limits.
        shown: report only atoms of these predicates (all if ``None``), so that an executor
            sends back no more than is asked for.
        strategy: how the range is solved (:data:`solver.strategies.STRATEGIES`).
        modules: the modules that register the program's external functions, imported by the
            executor (:func:`lars.externals.load`).
        inputs: the signatures the input can hold, when known (as for
            :func:`solver.strategies.evaluate`).
    """

    program: Program
    background: frozenset[Atom]
    timeline: Timeline
    span: Timeline
    source: RangeSource
    limits: Limits = field(default_factory=Limits)
    shown: frozenset[str] | None = None
    strategy: str = "reference"
    modules: tuple[str, ...] = ()
    inputs: frozenset[Signature] | None = None

    def chunks(self) -> Iterator[RangeResult]:
        """The range's answers in chunks, on an executor (:func:`range_chunks`)."""
        return range_chunks(self)

    def gathered(self) -> RangeResult:
        """The range's answers all at once, in a worker process (:func:`evaluate_range`)."""
        return evaluate_range(self)


class RangeWork(Protocol):
    """What a runner evaluates: a picklable range of work that gives its results as
    :class:`RangeResult` values (:class:`RangeTask`; ``lars agree --partitions`` over a stream
    file sends its own, :class:`agreement.agree.rangecheck.CheckRange`)."""

    def chunks(self) -> Iterator[RangeResult]:
        """The results in chunks (a Spark task: the driver holds a chunk at a time); an error
        as the last chunk."""

    def gathered(self) -> RangeResult:
        """The results all at once (a worker process), or the error."""


class Tally(Protocol):
    """What a worker notes about its range's own input (:func:`watched`): fed the slices of the
    range's span as they are read, it sends back a small :meth:`summary` instead of the input
    (``lars agree --partitions``: the time points with input, a few triples,
    :mod:`agreement.agree.arrivals`)."""

    def add(self, time: int, atoms: Sequence[Atom]) -> None: ...

    def summary(self) -> object:
        """What was added since the last call (a range's answers go back in chunks)."""


def watched(slices: Iterable[Slice], tally: Tally, span: Timeline) -> Iterator[Slice]:
    """``slices`` as they are, those inside ``span`` also handed to ``tally``."""
    for time, atoms in slices:
        if span.start <= time <= span.end:
            tally.add(time, atoms)
        yield time, atoms


def range_answers(task: RangeTask, notes: list[str]) -> Iterator[TimePointAnswer]:
    """The answers of one range, one time point at a time (nothing is gathered); warnings about
    its input go to ``notes``.

    The reference solves the range's time points only; the faster strategies step from the
    start of the timeline over the range's slices (the time points before the first of them
    without input, jumped over where nothing moves) and report the range's answers."""
    load(task.modules)
    slices = iter(task.source(notes))
    if task.strategy == "reference":
        problem = Problem(task.program, Stream(task.timeline, tuple(slices)), task.background,
                          task.limits)
        for answer in problem.run(task.span):
            yield answer if task.shown is None else projected(answer, task.shown)
        return
    for answer in evaluate(task.program, slices, task.timeline, task.background,
                           task.strategy, task.limits, task.shown, task.inputs):
        if answer.time > task.span.end:
            break
        if answer.time >= task.span.start:
            yield answer
    for _ in slices:
        pass  # the rest is read too, so that a source's checks (time order) see all of it


@dataclass(frozen=True)
class RangeResult:
    """The answers of one range and the warnings about its input, or the error it raised as
    plain data ``(type, message, position, hint)``: a pickled exception keeps its message only."""

    answers: tuple = ()
    """The range's answers in time order: :class:`TimePointAnswer` values (of a
    :class:`RangeTask`; what another :class:`RangeWork` sends is its own)."""
    error: tuple | None = None
    notes: tuple[str, ...] = ()
    summary: object = None
    """What else a :class:`RangeWork` sends (a :class:`Tally`'s summary), given to the
    runner's ``summaries`` before the answers."""


def evaluate_range(task: RangeTask) -> RangeResult:
    """All answers of one range, gathered to be sent back from an executor (errors as data)."""
    notes: list[str] = []
    try:
        answers = tuple(range_answers(task, notes))
    except LarsError as error:
        return RangeResult(error=(type(error), error.message, error.position, error.hint))
    return RangeResult(answers, notes=tuple(notes))


CHUNK_ATOMS = 50_000
"""About how many answer atoms a Spark task sends back at a time (:func:`range_chunks`)."""


def range_chunks(task: RangeTask, atoms: int = CHUNK_ATOMS) -> Iterator[RangeResult]:
    """The answers of one range in chunks of about ``atoms`` answer atoms, each with its
    warnings (so that the driver holds a chunk at a time, not the range); an error as the last
    chunk."""
    notes: list[str] = []
    chunk: list[TimePointAnswer] = []
    size = 0
    try:
        for answer in range_answers(task, notes):
            chunk.append(answer)
            size += 1 + sum(len(stream) for stream in answer.streams)
            if size >= atoms:
                yield RangeResult(tuple(chunk), notes=tuple(notes))
                chunk, size = [], 0
    except LarsError as error:
        yield RangeResult(error=(type(error), error.message, error.position, error.hint))
        return
    yield RangeResult(tuple(chunk), notes=tuple(notes))


def answers_of(result: RangeResult, notes: list[str],
               summaries: Any = None) -> tuple[TimePointAnswer, ...]:
    """The answers of a range, raising its error again on the driver; its warnings go to
    ``notes`` (each once), its input's summary to ``summaries`` (before its answers are read)."""
    notes.extend(note for note in result.notes if note not in notes)
    if result.error is None:
        if summaries is not None and result.summary is not None:
            summaries.append(result.summary)
        return result.answers
    kind, message, position, hint = result.error
    raise kind(message, position, hint)


Runner = Callable[..., Iterable[Iterable[TimePointAnswer]]]
"""``(tasks, notes[, summaries])``: maps range tasks (:class:`RangeWork`) to the answers of each
range, in task order; the ranges' warnings about their input go to ``notes``, what else they send
(:attr:`RangeResult.summary`) to ``summaries`` (each range's before its answers are given;
passed only when asked for, so a runner of two arguments serves :func:`evaluate_ranges`)."""


def in_process(tasks: list[RangeWork], notes: list[str],
               summaries: Any = None) -> Iterator[Iterable[TimePointAnswer]]:
    """The plain runner: one range after another in this process, each answer as it is found
    (a range with summaries is gathered first, so that its summary comes before its answers)."""
    return (answers_of(task.gathered(), notes, summaries) if summaries is not None
            else range_answers(task, notes) for task in tasks)


def process_runner(tasks: list[RangeWork], notes: list[str],
                   summaries: Any = None) -> Iterator[tuple[TimePointAnswer, ...]]:
    """A runner that evaluates the ranges in parallel in worker processes, as many as this
    process may use cores (more ranges wait for a free worker), and gives each range's answers
    once it is done, in task order."""
    if len(tasks) <= 1:
        yield from (answers_of(task.gathered(), notes, summaries) for task in tasks)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                          else None)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    with ProcessPoolExecutor(max_workers=min(len(tasks), cores or 1), mp_context=context) as pool:
        for result in [pool.submit(task.gathered) for task in tasks]:
            yield answers_of(result.result(), notes, summaries)


def chunks_of(task: RangeWork) -> Iterator[RangeResult]:
    """``task.chunks()`` (a plain function: what a Spark task runs)."""
    return task.chunks()


def spark_runner(master: str = "local[*]") -> Runner:
    """A runner that evaluates each range as one Spark task (the executors run clingo).

    The context comes from :func:`solver.spark.spark_context` (pyspark loads only there,
    when the first context starts). The answers come back in chunks (:func:`range_chunks`), a
    range at a time and the next one computed meanwhile (``toLocalIterator`` with prefetch), so
    the driver's Python holds a chunk of answers, not the answer stream (Spark's driver JVM
    holds a range's, serialized); an error in a range is raised again there.
    """
    def run(tasks: list[RangeWork], notes: list[str],
            summaries: Any = None) -> Iterator[tuple[TimePointAnswer, ...]]:
        if not tasks:
            return
        with spark_context(master, job="solving the time ranges") as context:
            rdd = context.parallelize(tasks, len(tasks)).flatMap(chunks_of)
            for result in rdd.toLocalIterator(prefetchPartitions=True):
                yield answers_of(result, notes, summaries)
    return run


def evaluate_ranges(program: Program, ranges: Sequence[tuple[Timeline, RangeSource]],
                    timeline: Timeline, background: frozenset[Atom] = frozenset(),
                    runner: Runner = in_process, limits: Limits | None = None,
                    shown: Iterable[str] | None = None, strategy: str = "reference",
                    notes: list[str] | None = None,
                    inputs: Iterable[Signature] | None = None) -> Iterator[TimePointAnswer]:
    """The answers at every point of ``timeline``, computed range by range, in time order.

    Args:
        program: a safe LARS program.
        ranges: consecutive spans covering ``timeline``, ascending, each with a source of the
            input it needs (the history its windows reach back to, :func:`history_needed`).
        timeline, background, runner, limits, shown, strategy, inputs: as for
            :func:`evaluate_partitioned`.
        notes: where the ranges' warnings about their input go.

    Raises:
        InputError: an unsafe rule; UnsupportedError: a rule outside the fragment.
    """
    check_safety(program)
    encode_program(program)
    shown = None if shown is None else frozenset(shown)
    modules = modules_of(program_functions(program))
    inputs = None if inputs is None else frozenset(inputs)
    tasks = [RangeTask(program, frozenset(background), timeline, span, source, limits or Limits(),
                       shown, strategy, modules, inputs) for span, source in ranges]
    notes = [] if notes is None else notes
    return itertools.chain.from_iterable(runner(tasks, notes))


def evaluate_partitioned(program: Program, slices: Iterable[Slice], timeline: Timeline,
                         background: frozenset[Atom] = frozenset(), parts: int = 1,
                         runner: Runner = in_process, limits: Limits | None = None,
                         shown: Iterable[str] | None = None, strategy: str = "reference",
                         inputs: Iterable[Signature] | None = None) -> Iterator[TimePointAnswer]:
    """The answers at every point of ``timeline``, computed range by range, in time order.

    Equal to ``Problem(program, Stream(timeline, slices), background).run()``.

    Args:
        program: a safe LARS program.
        slices: the input ``(t, atoms)``, ascending in ``t``, each ``t`` in ``timeline``.
        timeline: the whole timeline.
        background: background atoms.
        parts: how many ranges to cut the timeline into.
        runner: :func:`in_process` or :func:`spark_runner`.
        limits: the solver's limits.
        shown: as for :func:`solver.strategies.evaluate`.
        strategy: how each range is solved (all give the reference's answers).
        inputs: the signatures the slices can hold, when known (as for
            :func:`solver.strategies.evaluate`).

    Raises:
        InputError: ``parts < 1``, an unsafe rule, slices out of order or off the timeline (all
            at once); a limit exceeded (as :class:`Problem`, when that range's answers are read).
        UnsupportedError: a rule outside the fragment.
    """
    check_safety(program)
    slices = slices if isinstance(slices, Sequence) else list(slices)
    times = checked_times(slices, timeline)
    lookback = history_needed(program)
    ranges = [(span, Shipped(tuple(_range_input(slices, times, span, lookback))))
              for span in split(timeline, parts)]
    return evaluate_ranges(program, ranges, timeline, background, runner, limits, shown, strategy,
                           inputs=inputs)
