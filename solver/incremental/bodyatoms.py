"""Body atoms of a program, sorted into those the input decides and those that read derived atoms.

A body atom is *fed* when its relation at ``t`` depends on the data stream and the background
only: its predicate is not derived by any head (an input predicate), or it sits in a tuple window
(tuple windows count input atoms only, SPEC section 3). Fed atoms get an incremental state of
:mod:`solver.incremental.windowstate`; the others are evaluated at each time point from the atoms derived
there (:func:`derived_relation`), the input atoms of derived predicates (:class:`InputHistory`)
and the background.

>>> from lars.parser import parse_program
>>> program = parse_program("x(X) :- [3] <> p(X). y :- [2] <> x(X), [#2] <> x(a).")
>>> [(b.rule, b.index, b.fed) for b in body_atoms(program)]
[(0, 0, True), (1, 0, False), (1, 1, True)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lars.analysis import Signature, derived_predicates, program_constants
from lars.atoms import Atom, Comparison
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom
from lars.rules import Program
from lars.streams import Timeline
from lars.terms import Variable
from lars.windows import TimeWindow, TupleWindow, time_window_range
from solver.incremental.joins import literal_columns, time_variable
from solver.incremental.relations import Pattern, Tuple
from solver.keys import keys_of, number
from solver.incremental.tuplestate import TupleBuffer, TupleState
from solver.incremental.windowstate import (AtConstantState, AtVariableState, BoxState, DiamondState, DomainTracker,
                                empty_window_tuples)

DIAMOND, BOX, AT, AT_VARIABLE = "diamond", "box", "at", "at_variable"


@dataclass(frozen=True)
class BodyAtom:
    """One extended atom of a rule body, with where it looks and how.

    Attributes:
        rule, index: its rule and literal index (``__a<rule>_<index>`` in the encoding).
        formula: the extended atom; ``atom`` the ordinary atom inside it.
        scope: ``"now"`` (``[t,t]``), ``"whole"`` (the timeline, ``@_s a``), ``"time"`` or ``"tuple"``.
        modality: ``diamond``, ``box``, ``at`` (a time constant ``at``) or ``at_variable``.
        fed: decided by the input alone (see the module docstring).
    """

    rule: int
    index: int
    formula: Atom | AtAtom | WindowAtom
    negated: bool
    atom: Atom
    scope: str
    window: TimeWindow | TupleWindow | None
    modality: str
    at: int | None
    fed: bool

    @property
    def columns(self) -> tuple[str, ...]:
        return literal_columns(self.formula)

    def pattern(self) -> Pattern:
        return Pattern(self.atom, self.columns, time_variable(self.formula))

    def key(self) -> tuple:
        """Body atoms with equal keys have equal relations (states are shared between them): the
        same window, modality and predicate, and the same pattern up to renaming variables
        (``p(X,Y)`` and ``p(Y,Z)`` both have the tuples ``(first argument, second argument)``)."""
        columns = self.columns
        shape = tuple(columns.index(arg.name) if isinstance(arg, Variable) else ("constant", arg)
                      for arg in self.atom.args)
        time = time_variable(self.formula)
        return (self.scope, self.window, self.modality, self.at, self.atom.signature, shape,
                columns.index(time) if time else None, len(columns))

    def range(self, t: int, timeline: Timeline) -> tuple[int, int]:
        """``[lo, hi]`` of a time-scoped body atom at ``t`` (as :meth:`Problem.scope_range`)."""
        if self.scope == "now":
            return t, t
        if self.scope == "whole":
            return timeline.start, timeline.end
        return time_window_range(self.window, t, timeline)

    def may_be_empty_box(self) -> bool:
        """A ``□`` over variables in a time window that can select no point (hopping, early)."""
        return (self.modality == BOX and self.scope == "time" and bool(self.atom.variables())
                and self.window.step > 1)


def _modality(modality) -> tuple[str, int | None]:
    if isinstance(modality, Diamond):
        return DIAMOND, None
    if isinstance(modality, Box):
        return BOX, None
    if isinstance(modality.time, Variable):
        return AT_VARIABLE, None
    return AT, modality.time.value


def body_atoms(program: Program) -> list[BodyAtom]:
    """Every non-comparison body literal of the program, classified."""
    derived = derived_predicates(program)
    found = []
    for r, rule in enumerate(program):
        for j, literal in enumerate(rule.body):
            formula = literal.formula
            if isinstance(formula, Comparison):
                continue
            if isinstance(formula, Atom):
                scope, window, (modality, at), atom = "now", None, (DIAMOND, None), formula
            elif isinstance(formula, AtAtom):
                scope, window, atom = "whole", None, formula.atom
                modality, at = _modality(At(formula.time))
            else:
                window, atom = formula.window, formula.atom
                scope = "tuple" if isinstance(window, TupleWindow) else "time"
                modality, at = _modality(formula.modality)
            fed = scope == "tuple" or atom.signature not in derived
            found.append(BodyAtom(r, j, formula, literal.negated, atom, scope, window, modality, at, fed))
    return found


def domain_until(atoms: Iterable[BodyAtom], timeline: Timeline) -> int | None:
    """First time point from which no ``□`` over variables has an empty window (``None``: never empty).

    A time window ``⊞^{l,u,d}`` is empty at ``t`` exactly when ``floor(t/d)*d + u < t_min``.
    """
    until = None
    for atom in atoms:
        if atom.may_be_empty_box():
            step, ahead = atom.window.step, atom.window.ahead
            first = -((ahead - timeline.start) // step) * step  # ceil((start - u) / d) * d
            until = first if until is None else max(until, first)
    return until


def make_state(atom: BodyAtom, timeline: Timeline, background: Iterable[Atom],
               domain: DomainTracker | None, buffers: dict[TupleWindow, TupleBuffer],
               pattern: Pattern | None = None):
    """The incremental state of a fed body atom (one of :mod:`solver.incremental.windowstate`);
    ``pattern`` is ``atom.pattern()`` if made already (patterns do not change, so engines of one
    program share them)."""
    pattern = atom.pattern() if pattern is None else pattern
    if atom.scope == "tuple":
        buffer = buffers.setdefault(atom.window, TupleBuffer(atom.window, timeline.start))
        return TupleState(buffer, atom.modality, pattern, background, atom.at)

    def range_of(t: int) -> tuple[int, int]:
        return atom.range(t, timeline)
    unbounded = atom.scope == "whole" or (atom.scope == "time" and atom.window.length is None)
    if atom.modality == DIAMOND:
        return DiamondState(range_of, pattern, background, unbounded)
    if atom.modality == AT_VARIABLE:
        return AtVariableState(range_of, pattern, background, unbounded)
    if atom.modality == AT:
        return AtConstantState(range_of, pattern, background, atom.at)
    return BoxState(range_of, pattern, background, domain)


class InputHistory:
    """Input atoms of *derived* predicates by time point (windows over derived predicates see them,
    and an atom that is input at ``s`` is not reported as derived at ``s``)."""

    def __init__(self, signatures: frozenset[Signature]):
        self.signatures = signatures
        self.by_time: dict[int, dict[Signature, list[Atom]]] = {}

    def ingest(self, time: int, groups: dict[Signature, list[Atom]]) -> None:
        kept = {sig: atoms for sig, atoms in groups.items() if sig in self.signatures}
        if kept:
            self.by_time[time] = kept

    def prune(self, before: int) -> None:
        for time in [s for s in self.by_time if s < before]:
            del self.by_time[time]

    def atoms_at(self, time: int) -> set[Atom]:
        return {atom for atoms in self.by_time.get(time, {}).values() for atom in atoms}

    def pairs(self, signature: Signature, lo: int, hi: int) -> Iterable[tuple[Atom, int]]:
        for time, groups in self.by_time.items():
            if lo <= time <= hi:
                for atom in groups.get(signature, ()):
                    yield atom, time


KeyedPairs = list[tuple[Tuple, int]]
"""Atoms of one predicate as the keys of their arguments, with their time points."""


def keyed_pairs(signature: Signature, lo: int, hi: int, t: int, derived: dict[Signature, dict],
                history: InputHistory) -> KeyedPairs:
    """The input (up to ``t``) and derived atoms of ``signature`` at ``[lo, hi]``, keyed once for
    every body atom that reads them (:meth:`~solver.incremental.relations.Pattern.match_keys`)."""
    pairs = [(keys_of(a), time) for a, time in history.pairs(signature, lo, min(hi, t))]
    pairs += [(keys_of(a), time) for time, atoms in derived.get(signature, {}).items()
              if lo <= time <= hi for a in atoms]
    return pairs


def derived_relation(atom: BodyAtom, t: int, timeline: Timeline, derived: dict[Signature, dict],
                     history: InputHistory, background: Iterable[Atom],
                     domain: DomainTracker | None, keyed: dict | None = None) -> set:
    """The relation of a non-fed body atom at ``t``: what :mod:`solver.encode`'s rules give for it
    when ``__h`` holds the input and the atoms derived so far (``derived[sig][time]``).

    ``keyed`` memoizes :func:`keyed_pairs` by range for the body atoms over this predicate (the
    caller drops it when the predicate grows)."""
    lo, hi = atom.range(t, timeline)
    pattern = atom.pattern()
    signature = atom.atom.signature
    memo = {} if keyed is None else keyed
    pairs = memo.get(("keyed", lo, hi))
    if pairs is None:
        pairs = memo["keyed", lo, hi] = keyed_pairs(signature, lo, hi, t, derived, history)
    match = pattern.match_keys
    own_background = [a for a in background if a.signature == signature]
    if atom.modality == DIAMOND:
        found = {match(keys) for keys, _ in pairs}
        if lo <= hi:
            found.update(pattern.matches(own_background))
    elif atom.modality == AT:
        found = set()
        if lo <= atom.at <= hi:
            found = {match(keys) for keys, time in pairs if time == atom.at}
            found.update(pattern.matches(own_background))
    elif atom.modality == AT_VARIABLE:
        found = {match(keys, time) for keys, time in pairs}
        for time in range(lo, hi + 1):
            found.update(pattern.matches(own_background, time))
    else:
        found = set(pattern.matches(own_background))
        if lo > hi:
            found.update(empty_window_tuples(atom.columns, domain))
        else:
            times: dict = {}
            for keys, time in pairs:
                times.setdefault(match(keys), set()).add(time)
            found.update(values for values, points in times.items() if len(points) == hi - lo + 1)
    found.discard(None)
    return found


def derived_growth(atom: BodyAtom, t: int, timeline: Timeline, new: Iterable[tuple[Atom, int]]) -> set | None:
    """The tuples that the derived atoms ``new`` (pairs ``(atom, time)``) add to the relation of
    ``atom`` at ``t`` (:func:`derived_relation`), or ``None`` for a ``□``, which is not a union over
    atoms (its caller recomputes it). Some tuples may already be in the relation."""
    if atom.modality == BOX:
        return None
    lo, hi = atom.range(t, timeline)
    match = atom.pattern().match_keys
    signature = atom.atom.signature
    mine = [(a, time) for a, time in new if a.signature == signature and lo <= time <= hi]
    if atom.modality == DIAMOND:
        found = {match(keys_of(a)) for a, _ in mine}
    elif atom.modality == AT:
        found = {match(keys_of(a)) for a, time in mine if time == atom.at}
    else:
        found = {match(keys_of(a), time) for a, time in mine}
    found.discard(None)
    return found


def domain_tracker(program: Program, atoms: list[BodyAtom], timeline: Timeline,
                   background: Iterable[Atom]) -> DomainTracker | None:
    """The active-domain tracker when some ``□`` may see an empty window, else ``None``."""
    until = domain_until(atoms, timeline)
    if until is None or until <= timeline.start:
        return None
    fixed = program_constants(program) | {number(p) for p in timeline}
    for atom in background:
        fixed.update(atom.args)
    return DomainTracker(fixed, until)


__all__ = ["AT", "AT_VARIABLE", "BOX", "DIAMOND", "BodyAtom", "InputHistory", "body_atoms",
           "derived_growth", "derived_relation", "domain_tracker", "domain_until", "make_state"]
