"""Incremental states of body atoms in tuple windows ``⊞^{#n}`` (SPEC section 3).

A tuple window holds the latest ``n`` *input* atoms of every predicate (of its substream, if it
names one), counted one by one in arrival order; derived atoms are never in it. So a body atom
in a tuple window depends on the input alone, whatever its predicate. One :class:`TupleBuffer`
per window is shared by the body atoms that use it.

>>> from lars.parser import parse_atom
>>> buffer = TupleBuffer(TupleWindow(2), start=0)
>>> [buffer.ingest(t, [parse_atom(a)])[1] for t, a in ((0, "p"), (1, "q"), (2, "r"))][-1]
[(0, Atom(predicate='p', args=()))]
>>> buffer.earliest()
1
>>> buffer = TupleBuffer(TupleWindow(1, parse_atom("p(_)")), start=0)
>>> buffer.ingest(0, [parse_atom("p(a)"), parse_atom("q(b)")])[0], buffer.earliest()
([Atom(predicate='p', args=(Name(value='a'),))], 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from lars.atoms import Atom
from lars.windows import TupleWindow
from solver.incremental.relations import NO_CHANGE, Computed, Counted, Delta, Pattern, Tuple


class TupleBuffer:
    """The latest ``size`` input atoms the window counts (every predicate, or those of its
    substream), in arrival order (SPEC section 3)."""

    def __init__(self, window: TupleWindow, start: int):
        self.window = window
        self.size = window.size
        self.start = start
        self.atoms: deque[tuple[int, Atom]] = deque()
        self.version = 0

    def ingest(self, time: int, atoms: list[Atom]) -> tuple[list[Atom], list[tuple[int, Atom]]]:
        """Take in a slice; returns the atoms taken in and those pushed out (oldest first)."""
        taken = [atom for atom in atoms if self.window.counts(atom)]
        dropped = []
        for atom in taken:
            self.atoms.append((time, atom))
            if len(self.atoms) > self.size:
                dropped.append(self.atoms.popleft())
        if taken:
            self.version += 1
        return taken, dropped

    def earliest(self) -> int:
        """Start of the window's timeline: time of the ``size``-th latest atom, else the timeline's."""
        return self.atoms[0][0] if len(self.atoms) == self.size else self.start


class TupleState:
    """``⊞^{#n} M a``: the relation over the atoms the buffer holds; background at every point.

    Same rules as the time states with ``__tw(w,a,T)`` (the selected input) for ``__h``; the
    window's interval is ``[earliest, t]``, never empty. Recomputed when the buffer or ``t``
    changes (tuple windows are small), except ``◇``, which counts.
    """

    def __init__(self, buffer: TupleBuffer, modality: str, pattern: Pattern, background: Iterable[Atom],
                 at: int | None = None):
        self.buffer = buffer
        self.modality = modality
        self.pattern = pattern
        self.at = at
        signature = pattern.atom.signature
        self.background = [atom for atom in background if atom.signature == signature]
        self.background_tuples = frozenset(pattern.matches(self.background))
        self.relation = Counted() if modality == "diamond" else Computed()
        if modality == "diamond":
            for values in self.background_tuples:
                self.relation.add(values)
        self.seen_version = -1

    @property
    def tuples(self):
        return self.relation.tuples

    def entered(self, time: int, atoms: list[Atom], dropped: list[tuple[int, Atom]]) -> None:
        """Diamond only: count what entered and what was pushed out."""
        signature = self.pattern.atom.signature
        for values in self.pattern.matches([a for a in atoms if a.signature == signature]):
            self.relation.add(values)
        for values in self.pattern.matches([a for _, a in dropped if a.signature == signature]):
            self.relation.remove(values)

    def stable_until(self, t: int, end: int) -> int:
        """``◇`` counts input atoms only, which do not move without input; the others read
        ``t`` (see :meth:`solver.incremental.windowstate.TimeState.stable_until`)."""
        return end if self.modality == "diamond" else t

    def advance(self, t: int) -> Delta:
        if self.modality == "diamond":
            return self.relation.delta()
        if self.modality == "at" and self.buffer.version == self.seen_version \
                and not self.background_tuples:
            return NO_CHANGE
        self.seen_version = self.buffer.version
        lo = self.buffer.earliest()
        signature = self.pattern.atom.signature
        selected = [(time, atom) for time, atom in self.buffer.atoms if atom.signature == signature]
        return self.relation.replace(getattr(self, "_" + self.modality)(selected, lo, t))

    def _box(self, selected, lo: int, t: int) -> set[Tuple]:
        new = set(self.background_tuples)
        if t - lo + 1 <= len(selected):
            times: dict[Tuple, set[int]] = {}
            for time, atom in selected:
                values = self.pattern.match(atom)
                if values is not None:
                    times.setdefault(values, set()).add(time)
            new.update(values for values, points in times.items() if len(points) == t - lo + 1)
        return new

    def _at(self, selected, lo: int, t: int) -> set[Tuple]:
        new = set(self.pattern.matches([atom for time, atom in selected if time == self.at]))
        if lo <= self.at <= t:
            new.update(self.background_tuples)
        return new

    def _at_variable(self, selected, lo: int, t: int) -> set[Tuple]:
        new = set()
        for time, atom in selected:
            values = self.pattern.match(atom, time)
            if values is not None:
                new.add(values)
        for time in range(lo, t + 1):
            new.update(self.pattern.matches(self.background, time))
        return new
