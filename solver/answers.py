"""What every strategy returns: answer streams per time point, in one canonical order.

The answer at reference time ``t`` is zero, one or many *answer streams* (paper Definition 3),
each reported as the ``(atom, time point)`` pairs the rules add to the data (neither input nor
background). Every strategy of :mod:`solver.strategies` yields :class:`TimePointAnswer` values
with their streams in :func:`canonical` order, so answers of two strategies compare with ``==``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lars.atoms import Atom

AnswerStream = frozenset[tuple[Atom, int]]
"""One answer stream: the ``(atom, time point)`` pairs the rules add to the data."""


@dataclass(frozen=True)
class TimePointAnswer:
    """The answer streams at one reference time (zero, one or many), in a canonical order."""

    time: int
    streams: tuple[AnswerStream, ...]


def canonical(streams: Iterable[AnswerStream]) -> tuple[AnswerStream, ...]:
    """Answer streams sorted by their sorted contents, so results compare with ``==``."""
    from solver.symbols import atom_text  # its module loads clingo (issue 29: lars translate need not)
    def key(stream: AnswerStream) -> list[tuple[int, str]]:
        return sorted((time, atom_text(atom)) for atom, time in stream)
    return tuple(sorted(set(streams), key=key))
