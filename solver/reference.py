"""Answer streams per time point: window contents become facts, clingo finds the answer sets.

The reference strategy of SPEC section 7: at each reference time ``t`` a fresh clingo
``Control`` grounds the program's encoding (:mod:`solver.encode`) together with the facts of
that time point and enumerates all answer sets. Each answer set is one answer stream, reported
as what the rules add to the data: the ``(atom, time point)`` pairs that are neither input nor
background.

Streaming reading (SPEC section 3): the answer at ``t`` only sees input up to ``t``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import clingo

from lars.analysis import check_safety, program_constants
from lars.atoms import TRUE_PREDICATE, Atom
from lars.errors import SolverError
from lars.rules import Program
from lars.streams import Stream
from lars.terms import Constant, Number
from lars.windows import TupleWindow, time_window_range, tuple_window_selection
from solver.encode import Encoding, Scope, encode_program
from solver.answers import AnswerStream, TimePointAnswer, canonical
from solver.limits import Limits, ground_beyond_facts, too_many_derived, too_many_facts, too_many_models
from solver.symbols import atom_of, atom_text, constant_text, ground

@dataclass
class Problem:
    """A program with its data, encoded once and then solved at any number of time points."""

    program: Program
    stream: Stream
    background: frozenset[Atom] = frozenset()
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        check_safety(self.program)
        self.encoding: Encoding = encode_program(self.program)
        self.background_text = "\n".join(f"__bg({atom_text(a)})." for a in sorted(
            self.background, key=atom_text))

    def scope_range(self, scope: Scope, t: int) -> tuple[int, int]:
        """The interval ``[lo, hi]`` a time-scoped body atom looks at when the reference time is ``t``."""
        timeline = self.stream.timeline
        if scope.whole_timeline:
            return timeline.start, timeline.end
        if scope.window is None:
            return t, t
        return time_window_range(scope.window, t, timeline)

    def visible(self, t: int) -> Stream:
        """The input stream as known at ``t`` (streaming reading)."""
        return self.stream.restrict(self.stream.timeline.start, t)

    def facts(self, t: int) -> str:
        """The facts of time point ``t``: input, windows, ranges, background, domain if needed."""
        parts = [self.background_text, f"__now({t}).",
                 f"__tl({self.stream.timeline.start},{self.stream.timeline.end})."]
        earliest = t
        for scope in self.encoding.scopes:
            if isinstance(scope.window, TupleWindow):
                selection = tuple_window_selection(scope.window, self.visible(t), t)
                lo, hi = selection.timeline.start, t
                parts.extend(f"__tw({scope.ident},{atom_text(atom)},{time})."
                             for time, atoms in selection.items for atom in atoms)
            else:
                lo, hi = self.scope_range(scope, t)
                if lo <= hi:
                    earliest = min(earliest, lo)
            parts.append(f"__rng({scope.ident},{lo},{hi}).")
            if scope.needs_domain and lo > hi:
                parts.extend(f"__dom({constant_text(c)})." for c in self.domain(t))
        facts = [(time, atom) for time in range(earliest, t + 1) for atom in self.stream.at(time)]
        if len(facts) > self.limits.max_facts:
            raise too_many_facts(t, len(facts), self.limits.max_facts)
        parts.extend(f"__h({atom_text(atom)},{time})." for time, atom in facts)
        return "\n".join(parts)

    def domain(self, t: int) -> set[Constant]:
        """The active domain: constants of the program, background, visible input, time points."""
        atoms = list(self.background) + [a for _, atoms in self.visible(t).items for a in atoms]
        constants = program_constants(self.program) | {Number(p) for p in self.stream.timeline}
        constants.update(arg for atom in atoms for arg in atom.args)
        return constants

    def solve_at(self, t: int) -> TimePointAnswer:
        """All answer streams at reference time ``t``."""
        messages: list[str] = []
        control = clingo.Control([str(self.limits.max_models + 1)], logger=lambda code, msg: messages.append(msg), message_limit=20)
        try:
            facts = self.facts(t)
            control.add("base", [], self.encoding.text + "\n" + facts)
            ground(control)
        except RuntimeError as error:
            raise SolverError(f"clingo rejected the encoding at t={t}: {' '.join(messages) or error}")
        if ground_beyond_facts(control, facts) > self.limits.max_derived:
            raise too_many_derived(t, self.limits.max_derived)
        found: list[AnswerStream] = []
        control.solve(on_model=lambda model: found.append(self.additions(model, t)))
        if len(found) > self.limits.max_models:
            raise too_many_models(t, self.limits.max_models)
        return TimePointAnswer(t, canonical(found))

    def additions(self, model: clingo.Model, t: int) -> AnswerStream:
        """The derived ``(atom, time)`` pairs of a model that are neither input nor background."""
        pairs = set()
        for symbol in model.symbols(shown=True):
            atom = atom_of(symbol.arguments[0])
            time = symbol.arguments[1].number
            if atom in self.background or atom.predicate == TRUE_PREDICATE and not atom.args:
                continue
            if time <= t and atom in self.stream.at(time):
                continue
            pairs.add((atom, time))
        return frozenset(pairs)

    def run(self, time_points: Iterable[int] | None = None) -> Iterator[TimePointAnswer]:
        """Answers at each of ``time_points`` (default: every point of the timeline), in order."""
        for t in self.stream.timeline if time_points is None else time_points:
            yield self.solve_at(t)


def answer_streams_at(program: Program, stream: Stream, t: int,
                      background: frozenset[Atom] = frozenset()) -> list[AnswerStream]:
    """All answer streams of ``program`` at ``t`` for ``stream`` and ``background``.

    Each answer stream is the set of ``(atom, time point)`` pairs it adds to the data.
    """
    return list(Problem(program, stream, frozenset(background)).solve_at(t).streams)
