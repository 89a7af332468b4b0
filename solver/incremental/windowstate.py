"""Incremental states of body atoms over the input in time windows (and plain atoms, ``@`` atoms).

A body atom ``⊞ M a`` whose atom ``a`` no rule derives reads only the data stream and the
background, so its relation (:mod:`solver.incremental.relations`) can be maintained as the stream goes by,
without rescanning the window: each state below takes the input once, in time order, and
answers the relation at ``t`` together with what was added and removed since the previous time
point. A plain atom ``a`` is ``◇`` over ``[t, t]`` and ``@_s a`` looks at the whole timeline.
SPEC section 3 defines what each window × modality holds; each docstring quotes the rules of
:mod:`solver.encode` the state reproduces. Tuple windows are in :mod:`solver.incremental.tuplestate`.

>>> from lars.parser import parse_atom
>>> state = DiamondState(lambda t: (t - 1, t), Pattern(parse_atom("p(X)"), ("X",)), [])
>>> state.ingest(0, [parse_atom("p(1)")]); state.advance(0)
([(1,)], [])
>>> state.advance(1), state.advance(2)
(([], []), ([], [(1,)]))
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable

from lars.atoms import Atom
from lars.terms import Constant
from solver.incremental.relations import NO_CHANGE, Computed, Counted, Delta, Latest, Pattern, RangeFunction, Tuple
from solver.keys import key_of


def last_true(t: int, end: int, holds) -> int:
    """The last ``s`` in ``[t, end]`` with ``holds(s)``, for ``holds`` true at ``t`` and true
    then false as ``s`` grows (a binary search: ``O(log(end - t))`` calls)."""
    lo, hi = t, end
    while lo < hi:
        middle = (lo + hi + 1) // 2
        if holds(middle):
            lo = middle
        else:
            hi = middle - 1
    return lo


# --- time windows (and plain atoms, [t,t], and @ outside windows, the whole timeline) ---------

class TimeState:
    """Input slices of one signature, taken in as their time enters the window.

    The window at ``t`` is ``[lo, hi] = range_of(t)``; input is visible up to ``t``, so the
    slices inside are those at ``[lo, min(hi, t)]``. Both ends never decrease, so a slice is
    taken in once and dropped once.
    """

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom],
                 unbounded: bool = False):
        self.range_of = range_of
        self.unbounded = unbounded  # the window's start never moves: nothing ever leaves it
        self.pattern = pattern
        self.background = [atom for atom in background if atom.signature == pattern.atom.signature]
        self.pending: deque[tuple[int, list[Atom]]] = deque()

    def ingest(self, time: int, atoms: list[Atom]) -> None:
        """Input atoms of the pattern's signature at ``time`` (times ascending)."""
        self.pending.append((time, atoms))

    def entering(self, top: int) -> Iterable[tuple[int, list[Atom]]]:
        while self.pending and self.pending[0][0] <= top:
            yield self.pending.popleft()

    def stable_until(self, t: int, end: int) -> int:
        """The last time point in ``[t, end]`` up to which the relation stays what :meth:`advance`
        gave at ``t``, if no input arrives after ``t`` (``t`` when unsure). The engine jumps
        over the time points in between (:meth:`solver.incremental.engine.Engine.quiet_until`)."""
        return t

    def _no_entry_until(self, t: int, end: int) -> int:
        """The last time point before input taken in but not yet in the window enters it."""
        if not self.pending:
            return end
        waiting = self.pending[0][0]
        return last_true(t, end, lambda s: min(self.range_of(s)[1], s) < waiting)

    def _no_exit_until(self, t: int, end: int, inside: deque) -> int:
        """The last time point before the oldest slice inside the window leaves it."""
        if not inside or self.unbounded:
            return end
        oldest = inside[0][0]
        return last_true(t, end, lambda s: self.range_of(s)[0] <= oldest)


class SlidingState(TimeState):
    """The tuples of the input inside the window, kept by sliding it: counted, or with their
    latest time point (``relation``, a :class:`Counted` or :class:`Latest`).

    ``timed`` states (``@_T``) match atoms with their time point, so ``T`` is a column.
    """

    timed: bool
    relation_type: type = Counted

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom],
                 unbounded: bool = False):
        super().__init__(range_of, pattern, background, unbounded)
        self.relation = self.relation_type()
        self.tuples = self.relation.tuples
        self.inside: deque[tuple[int, list[Tuple]]] = deque()

    def slide(self, t: int) -> tuple[int, int]:
        """Move the window to ``range_of(t)``: take in the slices that entered it (input up to
        ``t`` only), then drop those that left it; returns the window ``(lo, hi)``."""
        lo, hi = self.range_of(t)
        relation, inside = self.relation, self.inside
        for time, atoms in self.entering(min(hi, t)):
            if time < lo:
                continue
            found = self.pattern.matches(atoms, time if self.timed else None)
            relation.enter(time, found)
            if found and not self.unbounded:
                inside.append((time, found))
        while inside and inside[0][0] < lo:
            relation.leave(*inside.popleft())
        return lo, hi


class DiamondState(SlidingState):
    """``⊞◇a``: ``a`` at some point of the window, or background over a non-empty window.

    ``__a :- __rng(w,Lo,Hi), __h(a,T), Lo<=T, T<=Hi.``  ``__a :- __rng(w,Lo,Hi), Lo<=Hi, __bg(a).``
    Each tuple inside the window with its latest time point (:class:`Latest`): it leaves with
    the slice of that time point; background tuples never leave.
    """

    timed = False
    relation_type = Latest

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom],
                 unbounded: bool = False):
        super().__init__(range_of, pattern, background, unbounded)
        self.background_on = False

    def advance(self, t: int) -> Delta:
        lo, hi = self.slide(t)
        relation = self.relation
        if not self.background_on and lo <= hi:
            self.background_on = True
            relation.pin(self.pattern.matches(self.background))
        return relation.delta()

    def stable_until(self, t: int, end: int) -> int:
        if not self.background_on:
            return t
        return min(self._no_entry_until(t, end), self._no_exit_until(t, end, self.inside))


class AtVariableState(SlidingState):
    """``⊞@_T a``: the pairs ``(T, a)`` with ``a`` at ``T`` in the window; background at every ``T``.

    ``__a(T,..) :- __rng(w,Lo,Hi), __h(a,T), Lo<=T, T<=Hi.``  ``__a(T,..) :- __rng(w,Lo,Hi), __bg(a), T=Lo..Hi.``
    Background pairs cover ``[lo, hi]`` even past ``t`` (background holds at every point).
    """

    timed = True

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom],
                 unbounded: bool = False):
        super().__init__(range_of, pattern, background, unbounded)
        self.covered: tuple[int, int] | None = None  # background points taken in

    def advance(self, t: int) -> Delta:
        lo, hi = self.slide(t)
        if self.background:
            self._cover_background(lo, hi)
        return self.relation.delta()

    def stable_until(self, t: int, end: int) -> int:
        if self.background:  # background pairs cover every point of the window: they move with it
            now = self.range_of(t)
            return last_true(t, end, lambda s: self.range_of(s) == now)
        return min(self._no_entry_until(t, end), self._no_exit_until(t, end, self.inside))

    def _cover_background(self, lo: int, hi: int) -> None:
        """Move the background pairs from the previous ``[lo, hi]`` to this one (both ends only grow)."""
        old_lo, old_hi = self.covered if self.covered else (lo, lo - 1)
        add_from = lo
        if old_lo <= old_hi:
            for time in range(old_lo, min(old_hi, lo - 1) + 1):
                self.relation.remove_all(self.pattern.matches(self.background, time))
            add_from = max(lo, old_hi + 1)
        for time in range(add_from, hi + 1):
            self.relation.add_all(self.pattern.matches(self.background, time))
        self.covered = (lo, hi)


class AtConstantState(TimeState):
    """``⊞@_s a`` for a time constant ``s``: ``a`` at ``s`` if ``s`` is in the window; background too.

    ``__a :- __rng(w,Lo,Hi), __h(a,s), Lo<=s, s<=Hi.``  ``__a :- __rng(w,Lo,Hi), __bg(a), Lo<=s, s<=Hi.``
    Only the slice at ``s`` is kept.
    """

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom], at: int):
        super().__init__(range_of, pattern, background)
        self.at = at
        self.at_slice: list[Tuple] = []
        self.relation = Computed()
        self.flags = (False, False)

    @property
    def tuples(self):
        return self.relation.tuples

    def ingest(self, time: int, atoms: list[Atom]) -> None:
        if time == self.at:
            self.at_slice = self.pattern.matches(atoms)

    def advance(self, t: int) -> Delta:
        lo, hi = self.range_of(t)
        flags = (lo <= self.at <= min(hi, t), lo <= self.at <= hi)
        if flags == self.flags:
            return NO_CHANGE
        self.flags = flags
        new = set(self.at_slice) if flags[0] else set()
        if flags[1]:
            new.update(self.pattern.matches(self.background))
        return self.relation.replace(new)


class BoxState(TimeState):
    """``⊞□a``: ``a`` at every point of a non-empty window; background always; any value if empty.

    ``__a :- __bg(a).``  ``__a :- __rng(w,Lo,Hi), __h(a,Lo), #count{T: __h(a,T), Lo<=T, T<=Hi} >= Hi-Lo+1.``
    ``__a :- __rng(w,Lo,Hi), Lo>Hi, __dom(V)...`` — the tuples present at the latest time taken
    in, grouped by the start of their unbroken run (:class:`Runs`); ``a`` holds when that time
    is ``hi`` and its run starts at or before ``lo``. Memory: one slice.
    """

    def __init__(self, range_of: RangeFunction, pattern: Pattern, background: Iterable[Atom],
                 domain: DomainTracker | None = None):
        super().__init__(range_of, pattern, background)
        self.relation = Computed()
        self.runs = Runs()
        self.domain = domain
        self.background_tuples = frozenset(self.pattern.matches(self.background))

    @property
    def tuples(self):
        return self.relation.tuples

    def advance(self, t: int) -> Delta:
        lo, hi = self.range_of(t)
        runs = self.runs
        for time, atoms in self.entering(min(hi, t)):
            runs.take(time, self.pattern.matches(atoms))
        if lo > hi:
            new = self.background_tuples.union(empty_window_tuples(self.pattern.columns, self.domain))
        elif hi <= t and runs.time == hi:
            new = self.background_tuples.union(runs.since(lo))
        else:
            new = self.background_tuples
        return self.relation.replace(new)

    def stable_until(self, t: int, end: int) -> int:
        lo, hi = self.range_of(t)
        if lo > hi:
            return t
        entry = self._no_entry_until(t, end)
        if self.runs.time is None or hi > self.runs.time:  # only the background, from now on
            return entry
        return min(entry, last_true(t, end, lambda s: self.range_of(s) == (lo, hi)))


class Runs:
    """The tuples present at every time point of ``[s, time]``, for ``time`` the latest time
    point taken in and any ``s`` at or after the last ``s`` asked for: ``⊞□`` over a window
    ending at ``time`` holds for ``since(lo)``.

    The tuples present at ``time`` are kept in *cohorts*, disjoint sets of the tuples whose
    unbroken run of presence began at the same time point, oldest first. A new slice keeps, in
    each cohort, the tuples it holds (a set intersection) and opens a cohort for the rest; a
    time point without a slice ends every run. The start of a window only moves forward, so the
    cohorts that began at or before it are merged into one, never to be told apart again: at
    most one cohort per time point of the window besides it, and a step costs set operations on
    the slice's tuples, not a look at each of them in Python (10^6 facts over ``⊞^32 □``, 1000
    time points: 0.11–0.17 s of CPU, against 0.16–0.26 s for the start of each tuple's run
    kept in a dict, which this replaced).

    >>> runs = Runs()
    >>> runs.take(0, [(1,), (2,)]); runs.take(1, [(2,), (3,)])
    >>> sorted(runs.since(0)), sorted(runs.since(1))
    ([(2,)], [(2,), (3,)])
    >>> runs.take(3, [(2,)]); sorted(runs.since(2)), sorted(runs.since(3))
    ([], [(2,)])
    """

    __slots__ = ("time", "cohorts")

    def __init__(self) -> None:
        self.time: int | None = None
        self.cohorts: list[tuple[int, set[Tuple]]] = []

    def take(self, time: int, tuples: Iterable[Tuple]) -> None:
        """The tuples of the slice at ``time``, later than every time taken in before."""
        rest = set(tuples)
        kept = []
        if self.time == time - 1:
            for start, members in self.cohorts:
                members &= rest
                if members:
                    rest -= members
                    kept.append((start, members))
        if rest:
            kept.append((time, rest))
        self.time, self.cohorts = time, kept

    def since(self, lo: int) -> set[Tuple]:
        """The tuples present at every point of ``[lo, time]`` (``lo`` at most ``time`` and not
        before the ``lo`` of an earlier call; the set is the structure's own: not to be changed)."""
        cohorts = self.cohorts
        if not cohorts or cohorts[0][0] > lo:
            return set()
        merged = 1
        while merged < len(cohorts) and cohorts[merged][0] <= lo:
            merged += 1
        if merged > 1:
            oldest = cohorts[0][1]
            for _, members in cohorts[1:merged]:
                oldest |= members
            self.cohorts = [cohorts[0], *cohorts[merged:]]
        return self.cohorts[0][1]


def empty_window_tuples(columns: tuple[str, ...], domain: DomainTracker | None) -> Iterable[Tuple]:
    """Every tuple over the active domain (``□`` over an empty window holds vacuously)."""
    if not columns:
        return [()]
    values = [key_of(c) for c in domain.values()]
    return itertools.product(values, repeat=len(columns))


class DomainTracker:
    """The active domain of :meth:`solver.reference.Problem.domain`, tracked while it may be needed.

    It is needed only while some ``□`` over variables can have an empty window, which happens
    only before ``until`` (a hopping window whose pivot is still before the timeline); after
    that the tracker stops collecting and forgets what it saw.
    """

    def __init__(self, fixed: set[Constant], until: int):
        self.fixed = fixed
        self.seen: set[Constant] = set()
        self.until = until

    def ingest(self, time: int, atoms: list[Atom]) -> None:
        if time < self.until:
            for atom in atoms:
                self.seen.update(atom.args)
        elif self.seen:
            self.seen = set()

    def values(self) -> list[Constant]:
        return list(self.fixed | self.seen)
