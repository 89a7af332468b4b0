"""Evaluation strategies behind one interface: the answers are the reference's, only faster.

:func:`evaluate` runs a program over a stream given as an *iterator* of slices ``(t, atoms in
arrival order)`` in ascending ``t`` and yields one :class:`~solver.answers.TimePointAnswer`
per time point of the timeline, in order (SPEC section 7). Strategies:

* ``reference`` — :class:`solver.reference.Problem`: a fresh clingo grounding per time point
  (materializes the stream; the yardstick every other strategy is tested against).
* ``incremental`` — :mod:`solver.incremental.engine` with a clingo residual: fed body atoms and the
  rules over them are maintained by deltas in Python; the rules that read derived predicates
  are solved by clingo at each time point, fed the relations as facts, and a time point whose
  facts equal the previous one's (up to the time shift) reuses its answer. Any program.
* ``stratified`` — the same, with the residual evaluated bottom-up in Python; no clingo at all.
  Stratified programs only (they have one answer stream, their perfect model).
* ``auto`` — :func:`choose_strategy`.

Memory depends on the windows, not on the length of the stream, except: ``reference``
materializes the stream; windows that never drop anything (``⊞^∞``, ``@`` outside windows)
keep what they saw, as the reference must too. clingo keeps every symbol it makes for the
life of its process, so ``incremental`` solves its residual in a child process that is replaced
once it has grown (:mod:`solver.incremental.clingoprocess`), and ``reference`` grows with the distinct
values of the stream. ``stratified`` never calls clingo.

>>> from lars.parser import parse_program
>>> choose_strategy(parse_program("x :- not y. y :- not x."))
('incremental', 'not stratified (a cycle through negation): needs clingo for the rules over derived predicates')
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from lars.analysis import Signature, body_atoms, check_safety, is_stratified
from lars.folds import expand, has_folds
from lars.formulas import base_atom
from lars.atoms import Atom
from lars.errors import InputError, UnsupportedError
from lars.rules import Program
from lars.streams import Stream, Timeline
from solver.encode import encode_program
from solver.reference import Limits, Problem
from solver.answers import TimePointAnswer, canonical
from solver.incremental.engine import Engine, EnginePlan, shifted
from solver.incremental.unfold import unfold_copies
from solver.keys import KeyedSlice
from solver.limits import too_many_facts
from solver.lookback import history_needed

Slice = tuple[int, Iterable[Atom]]
STRATEGIES = ("auto", "reference", "incremental", "stratified")


def choose_strategy(program: Program) -> tuple[str, str]:
    """The strategy ``auto`` picks for ``program``, and why."""
    if is_stratified(program):
        return "stratified", "stratified: one answer stream per time point, computed bottom-up in Python"
    return "incremental", ("not stratified (a cycle through negation): needs clingo for the rules "
                           "over derived predicates")


def slices_of(stream: Stream) -> Iterator[Slice]:
    """The slices of a materialized stream, for :func:`evaluate`."""
    return iter(stream.items)


def checked_slices(slices: Iterable[Slice], timeline: Timeline) -> Iterator[tuple[int, list[Atom]]]:
    """The slices, refusing time points out of order, repeated or off the timeline (:class:`InputError`);
    a :class:`~solver.keys.KeyedSlice` is passed on as it is (its atoms are not made)."""
    previous = None
    for t, atoms in slices:
        if t not in timeline:
            raise InputError(f"the stream has atoms at time point {t}, outside the timeline "
                             f"[{timeline.start},{timeline.end}]")
        if previous is not None and t <= previous:
            raise InputError(f"time point {t} comes after {previous}: slices must be in ascending "
                             "time order, one per time point")
        previous = t
        yield t, atoms if type(atoms) is KeyedSlice else list(atoms)


def unfolded(program: Program, background: Iterable[Atom], shown: Iterable[str],
             inputs: Iterable[Signature]) -> Program:
    """``program`` with its copy rules over hidden predicates unfolded, as ``incremental`` and
    ``stratified`` solve it (:mod:`solver.incremental.unfold`): the same answers on ``shown``
    over slices holding only ``inputs`` atoms."""
    return unfold_copies(program, frozenset(shown), frozenset(a.signature for a in background),
                         frozenset(inputs))


def evaluate(program: Program, slices: Iterable[Slice], timeline: Timeline,
             background: Iterable[Atom] = frozenset(), strategy: str = "auto",
             limits: Limits | None = None, shown: Iterable[str] | None = None,
             inputs: Iterable[Signature] | None = None) -> Iterator[TimePointAnswer]:
    """The answers of ``program`` at every time point of ``timeline``, in order.

    The program and the strategy are checked at once (so a caller can report a bad program
    before printing anything); the slices are read, and the answers computed, as the returned
    iterator is consumed.

    Args:
        slices: ``(t, atoms)`` in ascending ``t``, atoms in arrival order; consumed lazily
            (``reference`` reads them all at its first answer).
        background: atoms that hold at every time point.
        strategy: one of :data:`STRATEGIES`.
        limits: ``max_facts``: a time point whose windows reach more input facts is refused;
            ``reference`` counts what it grounds, the others the input within the program's
            widest reach (:func:`within_fact_limit`).
        shown: report only atoms of these predicates (all if ``None``; answer streams that
            become equal are one, :func:`projected`); the others are still derived, but neither
            collected nor shifted from one time point to the next.
        inputs: the signatures the slices can hold, when known (a query's: ``striple``); lets
            ``incremental`` and ``stratified`` unfold copy rules over hidden predicates
            (:mod:`solver.incremental.unfold`).

    Raises:
        UnsupportedError: ``stratified`` on a program that is not; an unknown strategy; a rule
            outside the fragment.
        InputError: an unsafe rule; slices out of order or off the timeline (when read).
        LimitError: a time point over ``limits.max_facts`` (when read).
    """
    return Prepared(program, background, strategy, limits, shown, inputs).answers(slices, timeline)


class Prepared:
    """A program checked and planned once for a strategy, background and options, then
    evaluated over any number of streams and timelines (:meth:`answers`, :func:`evaluate`'s
    answers): many short evaluations of one program, such as the witness checks of ``lars
    agree``, analyse it once (:class:`~solver.incremental.engine.EnginePlan`).

    Args and raises: as :func:`evaluate` (the program and the strategy are checked here).
    """

    def __init__(self, program: Program, background: Iterable[Atom] = frozenset(),
                 strategy: str = "auto", limits: Limits | None = None,
                 shown: Iterable[str] | None = None, inputs: Iterable[Signature] | None = None):
        background = frozenset(background)
        if shown is None and has_folds(program):  # not the helper predicates of a fold's plain rules
            shown = {atom.predicate for rule in program for atom, _ in [(base_atom(rule.head), 0), *body_atoms(rule)]}
        shown = None if shown is None else frozenset(shown)
        inputs = None if inputs is None else frozenset(inputs)
        if strategy == "auto":
            strategy = choose_strategy(program)[0]
        self.limits = limits or Limits()
        self.background, self.shown = background, shown
        if strategy == "reference":
            program = expand(program)
            check_safety(program)
            encode_program(program)
            self.program, self.plan = program, None
            return
        if strategy == "stratified":
            if not is_stratified(program):
                raise UnsupportedError("the stratified strategy needs a stratified program "
                                       "(use incremental or auto)")
            residual = "python"
        elif strategy == "incremental":
            residual = "clingo"
        else:
            raise UnsupportedError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")
        self.program = program
        self.plan = EnginePlan(program, background, residual, shown, inputs)
        self.reach = history_needed(program).ticks

    def answers(self, slices: Iterable[Slice], timeline: Timeline) -> Iterator[TimePointAnswer]:
        """The answers at every time point of ``timeline``, in order, as :func:`evaluate` gives
        them (the slices are read as the iterator is consumed)."""
        if self.plan is None:
            return reference_answers(self.program, slices, timeline, self.background, self.limits, self.shown)
        engine = Engine.planned(self.plan, timeline, self.limits.max_models, self.limits.max_derived)
        bounded = within_fact_limit(checked_slices(slices, timeline), self.reach, self.limits.max_facts)
        return run(engine, bounded, timeline)

    def answer_at_end(self, slices: Iterable[Slice], timeline: Timeline) -> TimePointAnswer:
        """The last of :meth:`answers`, at ``timeline.end`` (:func:`final_answer`)."""
        if self.plan is None:
            return deque(self.answers(slices, timeline), maxlen=1)[0]
        engine = Engine.planned(self.plan, timeline, self.limits.max_models, self.limits.max_derived)
        bounded = within_fact_limit(checked_slices(slices, timeline), self.reach, self.limits.max_facts)
        return final_answer(engine, bounded, timeline)


def within_fact_limit(slices: Iterable[tuple[int, Sequence[Atom]]], reach: int | None,
                      limit: int) -> Iterator[tuple[int, Sequence[Atom]]]:
    """The slices, refusing the first time point ``t`` at which the input in ``[t - reach, t]``
    (all input so far for ``reach`` ``None``) holds more than ``limit`` atoms.

    ``reach`` is the program's widest lookback (:func:`solver.lookback.history_needed`), so the
    count bounds from above what the reference grounds at ``t`` (issue 28: ``--max-facts`` was
    honoured by ``reference`` only). Without input the count only falls, so checking when a
    slice arrives is enough.

    >>> from lars.parser import parse_atom
    >>> p = parse_atom("p")
    >>> [t for t, _ in within_fact_limit([(0, [p]), (2, [p, p]), (5, [p])], 1, 2)]
    [0, 2, 5]
    >>> [t for t, _ in within_fact_limit([(0, [p]), (1, [p, p])], 1, 2)]
    Traceback (most recent call last):
    lars.errors.LimitError: error: time point 1 would ground 3 input facts (limit 2) (raise it with --max-facts)
    """
    held: deque[tuple[int, int]] = deque()
    total = 0
    for t, atoms in slices:
        held.append((t, len(atoms)))
        total += len(atoms)
        while reach is not None and held[0][0] < t - reach:
            total -= held.popleft()[1]
        if total > limit:
            raise too_many_facts(t, total, limit)
        yield t, atoms


def reference_answers(program: Program, slices: Iterable[Slice], timeline: Timeline,
                      background: frozenset[Atom], limits: Limits,
                      shown: frozenset[str] | None) -> Iterator[TimePointAnswer]:
    """The reference: the whole stream materialized, a fresh clingo grounding per time point."""
    contents = dict(checked_slices(slices, timeline))
    for answer in Problem(program, Stream.from_mapping(timeline, contents), background, limits).run():
        yield answer if shown is None else projected(answer, shown)


def projected(answer: TimePointAnswer, shown: frozenset[str]) -> TimePointAnswer:
    """The answer streams restricted to the ``shown`` predicates; streams that become equal are
    one (as clingo's projection onto shown atoms)."""
    streams = [frozenset(pair for pair in stream if pair[0].predicate in shown) for stream in answer.streams]
    return TimePointAnswer(answer.time, tuple(streams) if len(streams) <= 1 else canonical(streams))


@contextmanager
def fewer_collections(threshold: int = 200_000) -> Iterator[None]:
    """Python's cyclic garbage collector run less often while the block runs (restored after).

    A run allocates atoms, tuples and sets by the million and makes almost no reference cycles,
    yet every 700 allocations the collector scans the young objects, and now and then all of
    them: the window contents, the memos, and the hundreds of thousands of objects the imports
    made. That was a third of ``lars run``'s CPU on the join workload (100 × 1000 facts: 3.0 s,
    2.0 s with the collector off). Here the objects made before the run are frozen (never
    scanned again; :func:`gc.freeze`) and the young generation is collected every
    ``threshold`` allocations instead of 700 (200,000 ran CSRBench Q1 at 10^5 in 1.33 s CPU,
    50,000 in 1.40 s; the join workload 2.5 s against 2.7 s); cycles are still collected.
    """
    old = gc.get_threshold()
    set_threshold, unfreeze = gc.set_threshold, gc.unfreeze  # still there if this generator is
    gc.freeze()                                               # closed at interpreter shutdown
    set_threshold(threshold, *old[1:])
    try:
        yield
    finally:
        set_threshold(*old)
        unfreeze()


def run(engine: Engine, slices: Iterator[tuple[int, list[Atom]]], timeline: Timeline) -> Iterator[TimePointAnswer]:
    """Step the engine through the time points, taking each slice at its time; where no input
    comes for a while and the engine says nothing moves (:meth:`Engine.quiet_until`), the
    answers in between are the last one shifted, without stepping (with
    :func:`fewer_collections`)."""
    with fewer_collections():
        for answer, last in _runs(engine, slices, timeline):
            yield answer
            if last > answer.time:
                empty = all(not stream for stream in answer.streams)
                for t in range(answer.time + 1, last + 1):
                    yield TimePointAnswer(t, answer.streams) if empty else shifted(answer, t)


def final_answer(engine: Engine, slices: Iterator[tuple[int, list[Atom]]], timeline: Timeline) -> TimePointAnswer:
    """:func:`run`'s answer at the end of ``timeline``, without making those before it (a
    witness check asks one time point: ``lars agree`` made a hundred answers for each)."""
    answer = None
    with fewer_collections():
        for answer, _ in _runs(engine, slices, timeline):
            pass
    if answer is None:
        raise ValueError(f"the timeline {timeline} has no time point")
    if answer.time == timeline.end:
        return answer
    return TimePointAnswer(timeline.end, answer.streams) if all(not s for s in answer.streams) \
        else shifted(answer, timeline.end)


def _runs(engine: Engine, slices: Iterator[tuple[int, list[Atom]]], timeline: Timeline
          ) -> Iterator[tuple[TimePointAnswer, int]]:
    """Each answer the engine steps to, with the last time point it stands for: the quiet
    points after it (:meth:`Engine.quiet_until`) have it shifted."""
    pending = next(slices, None)
    t = timeline.start
    while t <= timeline.end:
        atoms: list[Atom] = []
        if pending is not None and pending[0] == t:
            atoms = pending[1]
            pending = next(slices, None)
        answer = engine.step(t, atoms)
        t += 1
        quiet = min(timeline.end, pending[0] - 1 if pending is not None else timeline.end)
        if quiet > t:
            quiet = engine.quiet_until(t - 1, quiet)
            engine.skipped += max(0, quiet - t + 1)
            t = max(t, quiet + 1)
        yield answer, t - 1
