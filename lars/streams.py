"""Timelines and streams ``S = (T, v)`` (SPEC section 2).

A :class:`Stream` maps each time point of its timeline to the atoms that hold there, in
arrival order (which matters only for tuple-based windows). ``v(t)`` is a set: an atom that
arrives again at the same time point is not a new element, and it keeps the place of its first
arrival (as Ticker reads it: its test "tuple diamond" rejects a repeated ``b`` at 12). Streams are
frozen values: two streams are equal when their timelines and contents are.

>>> from lars.parser import parse_atom
>>> b, c = parse_atom("b"), parse_atom("c")
>>> Stream(Timeline(0, 12), ((12, (b, c, b)),)).at(12) == (b, c)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from lars.atoms import Atom


@dataclass(frozen=True)
class Timeline:
    """The closed integer interval ``[start, end]``; empty when ``start > end``."""

    start: int
    end: int

    def __contains__(self, t: object) -> bool:
        return isinstance(t, int) and self.start <= t <= self.end

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.start, self.end + 1))

    def __len__(self) -> int:
        return max(0, self.end - self.start + 1)

    def clamp(self, lo: int, hi: int) -> Timeline:
        """The part of this timeline inside ``[lo, hi]`` (possibly empty)."""
        return Timeline(max(self.start, lo), min(self.end, hi))


@dataclass(frozen=True)
class Stream:
    """A stream ``(T, v)``: ``v(t)`` is :meth:`at`, a tuple of distinct atoms in arrival order.

    Build one with :meth:`from_mapping`; time points outside the timeline are rejected.
    """

    timeline: Timeline
    items: tuple[tuple[int, tuple[Atom, ...]], ...] = ()
    _index: dict[int, tuple[Atom, ...]] = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        index = {}
        for t, atoms in self.items:
            if t not in self.timeline:
                raise ValueError(f"time point {t} is outside the timeline {self.timeline}")
            if t in index:
                raise ValueError(f"time point {t} appears twice")
            unique = distinct(atoms)
            index[t] = atoms if len(unique) == len(atoms) else unique
        if any(index[t] is not atoms for t, atoms in self.items):  # a repeated atom dropped
            object.__setattr__(self, "items", tuple(index.items()))
        object.__setattr__(self, "_index", index)

    @classmethod
    def from_mapping(cls, timeline: Timeline, contents: Mapping[int, Iterable[Atom]]) -> Stream:
        """A stream from ``{t: atoms}``; empty time points are dropped so equality ignores them."""
        items = tuple(sorted((t, tuple(atoms)) for t, atoms in contents.items() if atoms))
        return cls(timeline, items)

    def at(self, t: int) -> tuple[Atom, ...]:
        """``v(t)``: the atoms at ``t`` in arrival order (empty outside the stream)."""
        return self._index.get(t, ())

    def time_points(self) -> list[int]:
        """The time points with at least one atom, ascending."""
        return [t for t, _ in self.items]

    def restrict(self, lo: int, hi: int) -> Stream:
        """The substream on ``[lo, hi]`` clamped to this timeline (SPEC section 3)."""
        timeline = self.timeline.clamp(lo, hi)
        return Stream(timeline, tuple((t, atoms) for t, atoms in self.items if t in timeline))

    def atom_count(self) -> int:
        return sum(len(atoms) for _, atoms in self.items)


def distinct(atoms: Iterable[Atom]) -> tuple[Atom, ...]:
    """The atoms of one time point as the set ``v(t)`` in arrival order: a repeated atom keeps its
    first arrival's place (SPEC section 2)."""
    return tuple(dict.fromkeys(atoms))
