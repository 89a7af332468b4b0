"""Views of a sequence of per-time-point answers: the compact intervals view (SPEC section 3).

The answer at reference time ``t`` is an interpretation over the whole timeline, so it may hold
atoms at other time points (heads ``@_T a``). The intervals view reads, for each ``t``, the
atoms that hold *at* ``t`` in the answer at ``t`` and joins consecutive time points into maximal
intervals; atoms that an answer puts at another time point are listed separately.
When a time point has several answer streams the view keeps the atoms they all share
(cautious reading) and says so; with none it keeps nothing and says so too.

>>> from lars.atoms import Atom
>>> from solver.answers import TimePointAnswer
>>> x = Atom("x")
>>> view = intervals_view([TimePointAnswer(t, (frozenset({(x, t)}),)) for t in (1, 2, 4)])
>>> view.intervals[x]
[(1, 2), (4, 4)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lars.atoms import Atom
from solver.answers import TimePointAnswer


@dataclass
class IntervalsView:
    """Atoms with their maximal intervals, plus what does not fit that view.

    Attributes:
        intervals: atom → maximal ``(start, end)`` intervals of time points where it holds now.
        elsewhere: ``(reference time, atom, time point)`` for atoms an answer puts at another time.
        ambiguous: time points with several answer streams (cautious reading used).
        inconsistent: time points with no answer stream.
    """

    intervals: dict[Atom, list[tuple[int, int]]] = field(default_factory=dict)
    elsewhere: list[tuple[int, Atom, int]] = field(default_factory=list)
    ambiguous: list[int] = field(default_factory=list)
    inconsistent: list[int] = field(default_factory=list)

    def add(self, atom: Atom, t: int) -> None:
        """Extend the atom's last interval if it ended at ``t - 1``, else start a new one."""
        spans = self.intervals.setdefault(atom, [])
        if spans and spans[-1][1] == t - 1:
            spans[-1] = (spans[-1][0], t)
        else:
            spans.append((t, t))


def intervals_view(answers: Iterable[TimePointAnswer]) -> IntervalsView:
    """Fold per-time-point answers (in time order) into an :class:`IntervalsView`."""
    view = IntervalsView()
    for answer in answers:
        if not answer.streams:
            view.inconsistent.append(answer.time)
        elif len(answer.streams) > 1:
            view.ambiguous.append(answer.time)
        shared = frozenset.intersection(*answer.streams) if answer.streams else frozenset()
        for atom, time in sorted(shared, key=lambda pair: (pair[1], repr(pair[0]))):
            if time == answer.time:
                view.add(atom, answer.time)
            else:
                view.elsewhere.append((answer.time, atom, time))
    return view
