"""The search program of ``lars witness`` and its solving (SPEC section 13).

One clingo program guesses a stream and evaluates both sides on it over the whole timeline:

1. a choice rule guesses ``__tin(striple(s,p,o,stream), T)`` for the candidate triples of the
   vocabulary (:mod:`agreement.witness.vocabulary`) at time points ``T`` in ``[E, T_end]`` (``T_end`` is
   the last pulling instant within the horizon: later input is never compared);
2. each side's LARS program, time-indexed under its own tag (:mod:`solver.timeindexed`),
   derives its answer rows at every reference time;
3. a constraint requires an interval ``[E-U, E]`` on which the sides differ: a *pull* side's rows
   are those at ``E``, a *push* side's the union over ``(E-U, E]`` (SPEC section 9);
4. the deepening (:func:`deepen`) solves the ground program step by step under assumptions:
   the fewest triples by clingo's core-guided lower bound (``usc``), stopped once it passes
   ``--max-triples``, then the earliest last timestamp ``L = E, E+1, …`` (``__wupto(L)``).

A side is only a LARS program with an answer predicate and a role (:class:`Side`), so engine
profiles plug in by supplying their programs (:mod:`agreement.witness.find`).

Translated programs are stratified, so each guessed stream has one answer stream per side and
time point. For a side that is not stratified, a model picks one answer stream per time point:
a witness then shows that *some* choice of answer streams differs, and "none" that no choice does
(:func:`check_sides` says so).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import clingo

from agreement.compare import pull_range
from agreement.optiondefaults import DEFAULT_MAX_GROUND
from agreement.witness.child import Watch, interrupted, limit_error, ruled_text
from lars.analysis import is_stratified
from lars.atoms import Atom
from lars.errors import InputError, LimitError, SolverError
from lars.projection import project, signatures
from lars.streams import Timeline
from lars.terms import Variable
from solver.symbols import atom_of, atom_text, ground
from solver.timeindexed import (
    INPUT, TIME, encode_timeindexed, range_facts, range_size, time_join_size, timeline_facts,
    tuple_window_rules,
)
from translate.api import Translation
from translate.durations import unit_text

ROLES = ("pull", "push")


@dataclass(frozen=True)
class Side:
    """One engine of a comparison: its translated program and how its answers are compared.

    Attributes:
        profile: the profile's name (``paper-pull``).
        engine: the engine's name for people (``C-SPARQL``).
        translation: the LARS program and its answer predicate.
        role: ``pull`` (the rows at each interval's end) or ``push`` (the union over the interval).
    """

    profile: str
    engine: str
    translation: Translation
    role: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")


@dataclass(frozen=True)
class Bounds:
    """The search space: at most ``max_triples`` triples at time points ``[earliest, horizon]``
    of the timeline ``[0, horizon]``, ``fresh`` new IRIs, with ``own_streams`` only STREAM
    patterns' triples on their own streams (:func:`agreement.witness.vocabulary.build_vocabulary`), the
    largest ground program (estimated) the search may build, and the seconds it may solve."""

    max_triples: int
    horizon: int
    fresh: int
    max_ground: int = DEFAULT_MAX_GROUND
    own_streams: bool = False
    earliest: int = 0
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.max_triples < 1:
            raise InputError(f"--max-triples must be 1 or more, not {self.max_triples}")
        if self.horizon < 0:
            raise InputError(f"--horizon must be 0 or more, not {self.horizon}")
        if not 0 <= self.earliest <= self.horizon:
            raise InputError(f"--earliest must lie within [0, {self.horizon}], not {self.earliest}")

    def within(self) -> str:
        """The search space but for the number of triples, in words: ``within [0, 10] over 2
        fresh constants``."""
        where = " (stream patterns on their own streams only)" if self.own_streams else ""
        return f"within [{self.earliest}, {self.horizon}] over {self.fresh} fresh constants{where}"

    def statement(self) -> str:
        """The words of SPEC section 13 for an exhausted search."""
        return (f"no disagreement with ≤ {self.max_triples} triples {self.within()}; only the query's and the static "
                f"data's constants, c-1 and c+1 for a FILTER's number c, and the fresh IRIs were "
                f"tried: a disagreement needing another literal (a HAVING's or a function's) is not "
                f"ruled out")


@dataclass
class Found:
    """The best stream of a search: ``(atom, time)`` in time order, the ends of the intervals on
    which the sides differ, whether it is minimal, the deepening steps solved and the seconds
    taken (grounding included)."""

    stream: list[tuple[Atom, int]]
    differ: list[int]
    optimal: bool
    steps: int
    seconds: float
    interrupted: bool = False

    @property
    def last(self) -> int:
        """The last timestamp (0 for the empty stream, as the objective counts it)."""
        return max((t for _, t in self.stream), default=0)


TAGS = ("a", "b")


def check_sides(sides: Sequence[Side]) -> list[str]:
    """Two sides with the same answer variables; notes on what a non-stratified side means."""
    if len(sides) != 2:
        raise InputError(f"a witness compares two sides, not {len(sides)}")
    first, second = (side.translation.answer for side in sides)
    if first.variables != second.variables:
        raise InputError(f"the two sides have different result variables: {', '.join(first.variables)} "
                         f"and {', '.join(second.variables)}")
    return [f"{side.profile} is not stratified: a witness shows that some choice of its answer "
            "streams differs, not that all do; 'no disagreement' means that no choice differs"
            for side in sides if not is_stratified(side.translation.program)]


def comparison_rules(sides: Sequence[Side], period: int) -> list[str]:
    """Rows per side and reference time, what each side reports per interval, and the demand
    that some interval differs (SPEC section 9, read for two roles)."""
    rules = []
    for tag, side in zip(TAGS, sides):
        answer = side.translation.answer
        args = [f"X{k}" for k in range(len(answer.variables))]
        row = f"r({','.join(args)})" if args else "r"
        full = ",".join(args + ["_D", "_S"])
        rules.append(f"__wrow({tag},{row},R) :- __td({tag},{answer.predicate}({full}),R,R).")
        if side.role == "pull":
            rules.append(f"__wseen({tag},X,E) :- __wend(E), __wrow({tag},X,E).")
        else:
            rules.append(f"__wseen({tag},X,E) :- __wend(E), __wrow({tag},X,R), E-{period}<R, R<=E.")
    a, b = TAGS
    rules += [f"__wdiffer(E) :- __wseen({a},X,E), not __wseen({b},X,E).",
              f"__wdiffer(E) :- __wseen({b},X,E), not __wseen({a},X,E).",
              "__wany :- __wdiffer(E).", ":- not __wany."]
    return rules


def guess_rules(candidates: Sequence[Atom], first: int, last: int) -> list[str]:
    """The candidate triples, the choice of some of them at time points ``[first, last]``, the
    objective (fewest triples) and the switches ``__wupto(L)`` (no triple after ``L``) that the
    deepening assumes (:func:`deepen`). Triples of one time point arrive in the candidates'
    order (``__tix``, for tuple windows).

    ``--max-triples`` is no constraint here: a cap in the program made clingo search like a
    pigeonhole (refuting three triples for CSRBench Q1 took minutes), while the core-guided
    optimization proves the fewest triples from below in a hundredth of a second; the deepening
    stops it once that lower bound passes the cap."""
    rules = ([f"__wcand({atom_text(a)},{i})." for i, a in enumerate(candidates)]
             + [f"{{ {INPUT}(A,T) : __wcand(A,_), {TIME}(T), {first}<=T, T<={last} }}.",
                f"__tix(A,T,I) :- {INPUT}(A,T), __wcand(A,I).",
                f"__wused(T) :- {INPUT}(A,T).",
                f"#minimize {{ 1,A,T : {INPUT}(A,T) }}."])
    if first < last:
        rules += [f"#external __wupto({first}..{last - 1}). [free]", ":- __wupto(L), __wused(T), T>L."]
    return rules + [f"#show {INPUT}/2.", "#show __wdiffer/1."]


def matches(pattern: Atom, atom: Atom) -> bool:
    """Whether ``atom`` is an instance of ``pattern`` (constants agree; repeated variables are
    not checked: an upper bound is enough here)."""
    return pattern.signature == atom.signature and all(
        isinstance(p, Variable) or p == a for p, a in zip(pattern.args, atom.args))


def pushed_down(side: Side, given: frozenset[Atom]) -> Side:
    """``side`` with its program's derived predicates cut to the arguments some rule reads
    (:func:`lars.projection.project`): the answer predicate, the input and the background
    (``given``: static data and candidate triples) stay whole, so the comparison reads the
    same rows, but nothing grounds the rows of a join whose variables the SELECT drops (the
    coupons × users of the paper's coupons query). The answers are sets here, as the witness
    compares them (a multiset translation keeps its witness variables in the answer)."""
    translation = side.translation
    keep = ({sig for sig in signatures(translation.program) if sig[0] == translation.answer.predicate}
            | translation.background | translation.inputs | {atom.signature for atom in given})
    return replace(side, translation=replace(translation, program=project(translation.program, keep)))


def estimate(sides: Sequence[Side], candidates: Sequence[Atom], timeline: Timeline) -> int:
    """A rough size of the ground program: the choice atoms, per scope the window positions of
    each candidate over the timeline, and the joins of time points that ``@_T`` window atoms
    bind (:func:`solver.timeindexed.time_join_size`; joins of data values are not counted)."""
    encodings = [encode_timeindexed(side.translation.program, tag) for tag, side in zip(TAGS, sides)]

    def fanout(pattern: Atom) -> int:
        return sum(matches(pattern, atom) for atom in candidates)
    return (len(candidates) * (len(timeline) + sum(range_size(e, timeline) for e in encodings))
            + sum(time_join_size(side.translation.program, timeline, fanout) for side in sides))


def last_pull(period: int, bounds: Bounds) -> int:
    """``T_end``, the last pulling instant within the horizon: later input is never compared.

    Raises:
        InputError: the horizon holds no pulling instant.
    """
    pulls = pull_range(period, (0, bounds.horizon))  # a range: nothing listed yet
    if not pulls:
        raise InputError(f"the horizon {bounds.horizon} holds no pulling instant (period {period})",
                         hint=f"give --horizon {period} or more")
    return pulls[-1]


def ground_size(sides: Sequence[Side], candidates: Sequence[Atom], end: int, limit: float) -> int:
    """The estimated size of the search's ground program when the last pull is at ``end``
    (:func:`estimate`); the choice atoms alone bound it from below, and past ``limit`` that
    bound is returned without walking the timeline (--horizon 10^9 built its lists first,
    issue 28). It grows with ``end``."""
    size = len(candidates) * (end + 1)
    return size if size > limit else estimate(sides, candidates, Timeline(0, end))


def largest_fitting(low: int, high: int, fits: Callable[[int], bool]) -> int | None:
    """The largest ``n`` in ``[low, high]`` with ``fits(n)``, for ``fits`` true up to some
    point and false after it; ``None`` when ``fits(low)`` is false.

    >>> largest_fitting(1, 100, lambda n: n * n <= 50), largest_fitting(3, 9, lambda n: n < 3)
    (7, None)
    """
    if low > high or not fits(low):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if fits(middle) else (low, middle - 1)
    return low


def search_program(sides: Sequence[Side], candidates: Sequence[Atom], background: frozenset[Atom],
                   period: int, bounds: Bounds, unit_ms: int = 1000) -> str:
    """The whole search as ASP text (see the module docstring).

    Raises:
        InputError: the horizon holds no pulling instant.
        LimitError: the estimated ground program exceeds ``bounds.max_ground``.
        UnsupportedError: a side uses what the time-indexed encoding does not cover.

    Either refusal says which ``--horizon``, ``--period`` or ``--max-ground`` works, computed
    with the same estimate (``unit_ms``: one tick, to write a period as a duration; newcomer:
    "give --horizon U or more" was offered where that horizon's program was over the limit, and
    "lower --horizon" where no lower one held a pull).
    """
    timeline = Timeline(0, bounds.horizon)
    given = frozenset(candidates) | background
    sides = [pushed_down(side, given) for side in sides]
    limit = bounds.max_ground

    def fits(end: int) -> bool:
        return ground_size(sides, candidates, end, limit) <= limit

    pulls = pull_range(period, (0, bounds.horizon))  # a range: nothing listed yet
    if not pulls:
        raise InputError(f"the horizon {bounds.horizon} holds no pulling instant (period {period})",
                         hint=", or ".join(no_pull_advice(period, bounds.horizon, fits, unit_ms)))
    size = ground_size(sides, candidates, pulls[-1], limit)
    if size > limit:
        raise LimitError(
            f"the search would ground about {size:,} rules over {len(candidates):,} candidate triples "
            f"and {pulls[-1] + 1} time points (limit {limit:,})",
            hint=", or ".join([*oversize_advice(period, pulls, fits, unit_ms),
                               f"lower --constants (now {bounds.fresh})"
                               + ("" if bounds.own_streams else ", give --own-streams"),
                               "raise --max-ground"]))
    ends = list(pulls)
    lines = timeline_facts(timeline, background) + [f"__wend({e})." for e in ends]
    for tag, side in zip(TAGS, sides):
        encoding = encode_timeindexed(side.translation.program, tag)
        lines += [encoding.text, *range_facts(encoding, timeline), *tuple_window_rules(encoding)]
    lines += comparison_rules(sides, period) + guess_rules(candidates, bounds.earliest, ends[-1])
    return "\n".join(lines)


def no_pull_advice(period: int, horizon: int, fits: Callable[[int], bool], unit_ms: int) -> list[str]:
    """What makes a ``horizon`` shorter than ``period`` hold a pull: ``--horizon`` at the
    period when that program ``fits`` (the limit), a period no longer than the horizon when
    the horizon's program fits (its last pull is no later), else both a longer horizon and a
    larger limit."""
    ways = [f"give --horizon {period}"] if fits(period) else []
    if horizon >= 1 and fits(horizon):
        ways.append(f"give --period {unit_text(horizon * unit_ms)} (or shorter)")
    return ways or [f"give --horizon {period} and raise --max-ground"]


def oversize_advice(period: int, pulls: range, fits: Callable[[int], bool], unit_ms: int) -> list[str]:
    """What shrinks a search program over the limit in time: the longest horizon with fewer
    pulls whose program ``fits``, else (one pull is already too big) the longest shorter
    period, the horizon at it, whose program fits; nothing when none does."""
    pulled = largest_fitting(1, len(pulls) - 1, lambda k: fits(pulls[k - 1]))
    if pulled is not None:
        return [f"give --horizon {pulls[pulled - 1]}"]
    shorter = largest_fitting(1, period - 1, fits)
    if shorter is not None:
        return [f"give --period {unit_text(shorter * unit_ms)} --horizon {shorter}"]
    return []


Progress = Callable[[int, list[int]], None]
"""Called after each deepening step with the steps so far and ``[triples, last]`` of the step
(the bound tried, or the witness found)."""


SOLVER_OPTIONS = ("--opt-mode=opt", "--opt-strategy=usc", "--models=0")
"""Core-guided optimization: it raises a lower bound on the triples one unsatisfiable core at a
time, which is the deepening over ``k = 0, 1, …`` done inside clingo (and reported through
``on_unsat``, so a step stops once the bound passes its cap). Branch and bound found a witness
at once on CSRBench Q1 but then spent minutes proving that none is smaller."""


@dataclass(frozen=True)
class Step:
    """One step of the deepening: the fewest triples, at most ``triples``, with none after
    ``last``."""

    triples: int
    last: int


def deepen(program: str, bounds: Bounds, last: int, on_progress: Progress | None = None,
           order: Callable[[Atom], int] | None = None, time_limit: float | None = None,
           watch: Watch | None = None, started: float | None = None,
           whole: bool = True) -> Found | None:
    """The minimal stream of the search program by iterative deepening (SPEC section 13: fewest
    triples, then the earliest last timestamp), or the best so far when interrupted (Ctrl-C, or
    ``watch`` asks to stop) or ``time_limit`` seconds after ``started`` (``time.monotonic()``;
    default: now; the parent of a child process counts from its own start,
    :mod:`agreement.witness.child`). Within a time point the stream lists its atoms by
    ``order``. Only a program over the ``whole`` search space rules sizes out: then ``watch``
    is told each number of triples ruled out, and a stopped search says which.

    The program is ground once; each step solves it under assumptions (:func:`guess_rules`).
    First the triples, over every time point: clingo's lower bound climbs ``k = 0, 1, …`` and
    the step ends at the first ``k`` with a witness, or once ``k`` passes ``--max-triples``
    (none within the bounds: every smaller ``k`` was refuted over the whole space). Then the
    last timestamp: ``L = E, E+1, …`` until a step finds a witness of that size with no triple
    after ``L``. A witness of ``k`` triples costs ``k`` cores, however large the space.

    Returns ``None`` when there is no witness within the bounds.

    Raises:
        KeyboardInterrupt: interrupted before a witness was found.
        LimitError: the time limit passed before a witness was found (it says which sizes are
            ruled out).
    """
    messages: list[str] = []
    control = clingo.Control(list(SOLVER_OPTIONS),
                             logger=lambda code, msg: messages.append(msg), message_limit=20)
    start = time.monotonic() if started is None else started
    if watch is not None:
        watch.stage("grounding")
    try:
        control.add("base", [], program)
        ground(control)
    except RuntimeError as error:
        raise SolverError(f"clingo rejected the search program: {' '.join(messages) or error}")
    if watch is not None:
        watch.stage("solving")
    attempt = Attempt(control, last, order, start, time_limit, watch, whole)
    found = attempt(Step(bounds.max_triples, last), on_progress)
    if found is None:
        attempt.refuse_if_stopped(bounds)
        return None
    for moment in range(bounds.earliest, found.last if found.optimal else bounds.earliest):
        earlier = attempt(Step(len(found.stream), moment), on_progress)
        if attempt.stopped:
            return replace(found, optimal=False, interrupted=True, steps=attempt.steps,
                           seconds=time.monotonic() - start)
        if earlier is not None:
            found = earlier
            break
    return replace(found, steps=attempt.steps, seconds=time.monotonic() - start)


def stop_reason(start: float, time_limit: float | None, watch: Watch | None) -> str | None:
    """Why a search begun at ``start`` should stop now: ``"time"`` past the time limit or when
    the watch says so, ``"interrupt"`` when the watch relays Ctrl-C; ``None`` to go on."""
    if time_limit is not None and time.monotonic() - start > time_limit:
        return "time"
    return None if watch is None else watch.stop()


class Attempt:
    """Solving one :class:`Step` on the ground program, within the time limit, Ctrl-C kept."""

    def __init__(self, control: clingo.Control, last: int, order: Callable[[Atom], int] | None,
                 start: float, time_limit: float | None, watch: Watch | None = None,
                 whole: bool = True):
        self.control, self.last, self.order = control, last, order
        self.start, self.time_limit, self.watch, self.whole = start, time_limit, watch, whole
        self.steps, self.bound = 0, 0
        self.stopped = self.timed_out = False

    def __call__(self, step: Step, on_progress: Progress | None) -> Found | None:
        """The fewest-triples stream of ``step``; ``None`` if it needs more than ``step.triples``
        or the step was stopped."""
        model: dict = {}
        passed: list[int] = []

        def on_model(found: clingo.Model) -> None:
            shown = found.symbols(shown=True)
            model["differ"] = sorted(s.arguments[0].number for s in shown if s.name == "__wdiffer")
            model["stream"] = sorted(((atom_of(s.arguments[0]), s.arguments[1].number)
                                      for s in shown if s.name == INPUT),
                                     key=lambda pair: (pair[1], self.order(pair[0]) if self.order
                                                       else atom_text(pair[0])))

        def on_unsat(lower: Sequence[int]) -> None:
            if lower:
                if self.whole and step.last == self.last and lower[0] > self.bound:
                    self.bound = lower[0]
                    if self.watch is not None:
                        self.watch.ruled_out(self.bound)
                if lower[0] > step.triples:
                    passed.append(lower[0])
        self.steps += 1
        assumptions = ([(clingo.Function("__wupto", [clingo.Number(step.last)]), True)]
                       if step.last < self.last else [])
        with self.control.solve(assumptions=assumptions, on_model=on_model, on_unsat=on_unsat,
                                async_=True) as handle:
            try:
                while not handle.wait(0.05):
                    if passed:
                        handle.cancel()
                        break
                    reason = self.reason()
                    if reason is not None:
                        handle.cancel()
                        self.stopped, self.timed_out = True, reason == "time"
                        break
            except KeyboardInterrupt:
                handle.cancel()
                self.stopped = True
            handle.get()
        if on_progress is not None:
            on_progress(self.steps, [step.triples, step.last])
        if passed or "stream" not in model or len(model["stream"]) > step.triples:
            return None
        return Found(model["stream"], model["differ"], not self.stopped, self.steps,
                     time.monotonic() - self.start, self.stopped)

    def reason(self) -> str | None:
        return stop_reason(self.start, self.time_limit, self.watch)

    def refuse_if_stopped(self, bounds: Bounds) -> None:
        """Stopped before any witness: say what is ruled out within ``bounds``, and nothing more."""
        if not self.stopped:
            return
        if self.timed_out:
            raise limit_error(self.time_limit, self.bound)
        raise interrupted(ruled_text(self.bound, bounds.within()))
