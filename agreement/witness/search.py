"""The search program of ``lars witness`` and its solving (SPEC section 13).

One clingo program guesses a stream and evaluates both sides on it over the whole timeline:

1. a choice rule guesses ``__tin(striple(s,p,o,stream), T)`` for the candidate triples of the
   vocabulary (:mod:`agreement.witness.vocabulary`) at time points ``T`` in ``[E, T_end]``, at most ``K``
   of them (``T_end`` is the last pulling instant within the horizon: later input is never compared);
2. each side's LARS program, time-indexed under its own tag (:mod:`solver.timeindexed`),
   derives its answer rows at every reference time;
3. a constraint requires an interval ``[E-U, E]`` on which the sides differ: a *pull* side's rows
   are those at ``E``, a *push* side's the union over ``(E-U, E]`` (SPEC section 9);
4. ``#minimize`` the number of triples, then the last timestamp; clingo's core-guided
   optimization (``usc``) proves the optimum, where branch and bound stalls on the lower bound.

A side is only a LARS program with an answer predicate and a role (:class:`Side`), so engine
profiles plug in by supplying their programs (:mod:`agreement.witness.find`).

Translated programs are stratified, so each guessed stream has one answer stream per side and
time point. For a side that is not stratified, a model picks one answer stream per time point:
a witness then shows that *some* choice of answer streams differs, and "none" that no choice does
(:func:`check_sides` says so).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

import clingo

from agreement.compare import pull_range
from agreement.optiondefaults import DEFAULT_MAX_GROUND
from lars.analysis import is_stratified
from lars.atoms import Atom
from lars.errors import InputError, LimitError, SolverError
from lars.streams import Timeline
from lars.terms import Variable
from solver.symbols import atom_of, atom_text, ground
from solver.timeindexed import (
    INPUT, TIME, encode_timeindexed, range_facts, range_size, time_join_size, timeline_facts,
    tuple_window_rules,
)
from translate.api import Translation

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

    def statement(self) -> str:
        """The words of SPEC section 13 for an exhausted search."""
        where = " (stream patterns on their own streams only)" if self.own_streams else ""
        return (f"no disagreement with ≤ {self.max_triples} triples within [{self.earliest}, {self.horizon}] "
                f"over {self.fresh} fresh constants{where}")


@dataclass
class Found:
    """The best stream of a search: ``(atom, time)`` in time order, the ends of the intervals on
    which the sides differ, and whether it is optimal."""

    stream: list[tuple[Atom, int]]
    differ: list[int]
    optimal: bool
    models: int
    seconds: float
    interrupted: bool = False


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


def guess_rules(candidates: Sequence[Atom], first: int, last: int, max_triples: int) -> list[str]:
    """The candidate triples, the choice of at most ``K`` of them over ``[first, last]``, and the two
    objectives: fewest triples first (priority 2), then the earliest last timestamp. Triples of
    one time point arrive in the candidates' order (``__tix``, for tuple windows)."""
    return ([f"__wcand({atom_text(a)},{i})." for i, a in enumerate(candidates)]
            + [f"{{ {INPUT}(A,T) : __wcand(A,_), {TIME}(T), {first}<=T, T<={last} }} {max_triples}.",
               f"__tix(A,T,I) :- {INPUT}(A,T), __wcand(A,I).",
               f"__wused(T) :- {INPUT}(A,T).",
               "__wreach(T) :- __wused(T), T>0.", "__wreach(T-1) :- __wreach(T), T>1.",
               f"#minimize {{ 1@2,A,T : {INPUT}(A,T) }}.", "#minimize { 1@1,T : __wreach(T) }.",
               f"#show {INPUT}/2.", "#show __wdiffer/1."])


def matches(pattern: Atom, atom: Atom) -> bool:
    """Whether ``atom`` is an instance of ``pattern`` (constants agree; repeated variables are
    not checked: an upper bound is enough here)."""
    return pattern.signature == atom.signature and all(
        isinstance(p, Variable) or p == a for p, a in zip(pattern.args, atom.args))


def estimate(sides: Sequence[Side], candidates: Sequence[Atom], timeline: Timeline) -> int:
    """A rough size of the ground program: the choice atoms, per scope the window positions of
    each candidate over the timeline, and the joins of time points that ``@_T`` window atoms
    bind (:func:`solver.timeindexed.time_join_size`; joins of data values are not counted)."""
    encodings = [encode_timeindexed(side.translation.program, tag) for tag, side in zip(TAGS, sides)]

    def fanout(pattern: Atom) -> int:
        return sum(matches(pattern, atom) for atom in candidates)
    return (len(candidates) * (len(timeline) + sum(range_size(e, timeline) for e in encodings))
            + sum(time_join_size(side.translation.program, timeline, fanout) for side in sides))


def search_program(sides: Sequence[Side], candidates: Sequence[Atom], background: frozenset[Atom],
                   period: int, bounds: Bounds) -> str:
    """The whole search as ASP text (see the module docstring).

    Raises:
        InputError: the horizon holds no pulling instant.
        LimitError: the estimated ground program exceeds ``bounds.max_ground``.
        UnsupportedError: a side uses what the time-indexed encoding does not cover.
    """
    timeline = Timeline(0, bounds.horizon)
    pulls = pull_range(period, (timeline.start, timeline.end))  # a range: nothing listed yet
    if not pulls:
        raise InputError(f"the horizon {bounds.horizon} holds no pulling instant (period {period})",
                         hint=f"give --horizon {period} or more")
    # The choice atoms alone bound the size from below: checked before the estimate walks the
    # timeline (--horizon 10^9 built its lists first, issue 28).
    size = len(candidates) * (pulls[-1] + 1)
    if size <= bounds.max_ground:
        size = estimate(sides, candidates, Timeline(0, pulls[-1]))
    if size > bounds.max_ground:
        raise LimitError(
            f"the search would ground about {size:,} rules over {len(candidates):,} candidate triples "
            f"and {pulls[-1] + 1} time points (limit {bounds.max_ground:,})",
            hint=f"lower --horizon (now {bounds.horizon}) or --constants (now {bounds.fresh})"
                 + ("" if bounds.own_streams else ", give --own-streams") + ", or raise --max-ground")
    ends = list(pulls)
    lines = timeline_facts(timeline, background) + [f"__wend({e})." for e in ends]
    for tag, side in zip(TAGS, sides):
        encoding = encode_timeindexed(side.translation.program, tag)
        lines += [encoding.text, *range_facts(encoding, timeline), *tuple_window_rules(encoding)]
    lines += comparison_rules(sides, period) + guess_rules(candidates, bounds.earliest, ends[-1], bounds.max_triples)
    return "\n".join(lines)


Progress = Callable[[int, list[int]], None]


SOLVER_OPTIONS = ("--opt-mode=opt", "--opt-strategy=usc", "--models=0")
"""Core-guided optimization: on the searches tried (CSRBench Q1, the running example) branch
and bound found a witness at once but then spent minutes proving that none is smaller; ``usc``
proves it in a fraction of a second. The price: fewer intermediate models to show or keep."""


def solve(program: str, on_progress: Progress | None = None,
          options: Sequence[str] = SOLVER_OPTIONS, order: Callable[[Atom], int] | None = None,
          time_limit: float | None = None) -> Found | None:
    """The optimal stream of the search program, or the best so far when interrupted (Ctrl-C)
    or after ``time_limit`` seconds. Within a time point the stream lists its atoms by
    ``order`` (their arrival order).

    Returns ``None`` when the program has no model (no witness within the bounds).

    Raises:
        KeyboardInterrupt: interrupted before the first model.
        LimitError: the time limit passed before the first model.
    """
    messages: list[str] = []
    control = clingo.Control(list(options),
                             logger=lambda code, msg: messages.append(msg), message_limit=20)
    start = time.monotonic()
    try:
        control.add("base", [], program)
        ground(control)
    except RuntimeError as error:
        raise SolverError(f"clingo rejected the search program: {' '.join(messages) or error}")
    best: dict = {}

    def on_model(model: clingo.Model) -> None:
        best["differ"] = sorted(s.arguments[0].number for s in model.symbols(shown=True)
                                if s.name == "__wdiffer")
        best["stream"] = sorted(((atom_of(s.arguments[0]), s.arguments[1].number)
                                 for s in model.symbols(shown=True) if s.name == INPUT),
                                key=lambda pair: (pair[1], order(pair[0]) if order else atom_text(pair[0])))
        best["models"] = best.get("models", 0) + 1
        if on_progress is not None:
            on_progress(best["models"], list(model.cost))
    interrupted = timed_out = False
    with control.solve(on_model=on_model, async_=True) as handle:
        try:
            while not handle.wait(0.2):
                if time_limit is not None and time.monotonic() - start > time_limit:
                    handle.cancel()
                    interrupted = timed_out = True
                    break
        except KeyboardInterrupt:
            handle.cancel()
            interrupted = True
        result = handle.get()
    if "stream" not in best:
        if timed_out:
            raise LimitError(f"no witness found within the time limit of {time_limit:g} s, and none "
                             "ruled out: the bounds are not exhausted",
                             hint="raise --time-limit or lower the bounds")
        if interrupted:
            raise KeyboardInterrupt
        return None
    return Found(best["stream"], best["differ"], bool(result.exhausted) and not interrupted,
                 best["models"], time.monotonic() - start, interrupted)


def terminal_progress(stream: TextIO | None = None) -> Progress | None:
    """Models found and the current optimum on ``stream`` (stderr, as it is when called: this
    module may be imported while it is redirected), redrawn in place, only on a terminal."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        return None

    def show(models: int, cost: list[int]) -> None:
        triples, last = (cost + [0, 0])[:2]
        stream.write(f"\r{models} model(s); best so far: {triples} triple(s), last at {last}   ")
        stream.flush()
    return show
