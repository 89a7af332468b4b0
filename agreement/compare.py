"""The agreement of C-SPARQL and CQELS answers, interval by interval (SPEC section 9, paper §5).

For a pulling period ``U`` the engines *agree on* ``[i·U, (i+1)·U]`` when the union of the CQELS
answers at the time points of ``(i·U, (i+1)·U]`` equals the C-SPARQL answer at ``(i+1)·U``; they
agree on the timeline when they agree on every such interval.

>>> cs = AnswerSeries(("x",), {5: frozenset({("a",)}), 10: frozenset()})
>>> cq = AnswerSeries(("x",), {3: frozenset({("a",)}), 7: frozenset({("b",)})})
>>> [(v.start, v.end, v.agree) for v in compare(cs, cq, period=5, timeline=(0, 10))]
[(0, 5, True), (5, 10, False)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from lars.errors import InputError

Row = tuple[Hashable, ...]
"""One answer: the values of the result variables, in the series' variable order."""


@dataclass(frozen=True)
class AnswerSeries:
    """Answers of one engine: time point → set of rows; time points absent mean no answer there."""

    variables: tuple[str, ...]
    answers: Mapping[int, frozenset[Row]]

    def reordered(self, variables: tuple[str, ...]) -> AnswerSeries:
        """The same answers with columns in the order of ``variables`` (the same set of names)."""
        if set(variables) != set(self.variables):
            raise InputError(f"the two sides have different result variables: "
                             f"{', '.join(self.variables)} and {', '.join(variables)}")
        index = [self.variables.index(name) for name in variables]
        return AnswerSeries(variables, {t: frozenset(tuple(row[i] for i in index) for row in rows)
                                        for t, rows in self.answers.items()})


@dataclass(frozen=True)
class IntervalVerdict:
    """The comparison on the pulling interval from ``start`` to ``end``: the pushed answers of
    ``(start, end]`` against the pull at ``end``, or of ``[start, end)`` when ``half_open``
    (a pulling side with right-open windows, SPEC section 12).

    Attributes:
        only_cqels: rows CQELS gave in the interval but C-SPARQL not at ``end``, each with
            the time points at which CQELS gave it.
        only_csparql: rows C-SPARQL gave at ``end`` that CQELS never gave in the interval.
        both: rows both gave.
        half_open: the interval is ``[start, end)``, not ``(start, end]``.
    """

    start: int
    end: int
    only_cqels: Mapping[Row, tuple[int, ...]]
    only_csparql: frozenset[Row]
    both: frozenset[Row]
    half_open: bool = False

    @property
    def agree(self) -> bool:
        return not self.only_cqels and not self.only_csparql

    @property
    def bounds(self) -> str:
        """The interval's bounds as :func:`agreement.spans.interval_text` names them: the time
        points whose pushed answers it compares."""
        return "right-open" if self.half_open else "left-open"


def pull_range(period: int, timeline: tuple[int, int]) -> range:
    """The ends ``(i+1)·U`` of the pulling intervals inside the timeline, ``i ≥ 0``, as a range
    (a timeline of 10^18 ticks has too many to list)."""
    if period <= 0:
        raise InputError(f"the pulling period must be positive, not {period}")
    return range(first_pull(period, timeline[0]), timeline[1] + 1, period)


def first_pull(period: int, start: int) -> int:
    """The first pull ``(i+1)·U``, ``i ≥ 0``, after ``start`` (the end of the first pulling
    interval of a timeline starting there, wherever the timeline ends).

    >>> first_pull(10, 0), first_pull(10, 10), first_pull(10, -35)
    (10, 20, 10)
    """
    return max(period, -(-(start + 1) // period) * period)


def period_bound(start: int, end: int) -> int:
    """A pulling period ``P`` such that every period up to ``P`` has a pull in the timeline
    ``[start, end]`` (0 when none has one): some pull ``(i+1)·U`` lies in any ``U`` consecutive
    time points after ``start``, and the first is never before ``U``. For a timeline starting at
    0 (or before), no longer period has a pull there.

    >>> period_bound(0, 150), period_bound(5, 150), period_bound(-3, 4), period_bound(0, 0)
    (150, 145, 4, 0)
    """
    return max(0, end - max(start, 0))


def uncompared(csparql: AnswerSeries, cqels: AnswerSeries, period: int, timeline: tuple[int, int],
               half_open: bool = False) -> str | None:
    """A note counting the answers :func:`compare` leaves out (issue 28: never a silent AGREE):
    pushed answers in no pulling interval of the timeline (before it, after its last pull, or
    moved outside it by a profile's label offset), and pulled answers at no pull time.

    >>> one = frozenset({("a",)})
    >>> uncompared(AnswerSeries(("x",), {10: one, 12: one}), AnswerSeries(("x",), {3: one, 10: one}),
    ...            5, (0, 10), half_open=True)
    'not compared: 1 C-SPARQL answer at a time point that is no pull of the timeline [0,10] \
(12), and 1 CQELS answer in no pulling interval of it (10)'
    """
    pulls = pull_range(period, timeline)
    pulled = sorted(t for t in csparql.answers if t not in pulls)
    pushed = sorted(t for t in cqels.answers
                    if -(-(t + half_open) // period) * period not in pulls)
    if not pulled and not pushed:
        return None
    count = lambda series, times: sum(len(series.answers[t]) for t in times)  # noqa: E731
    shown = lambda times: ", ".join(map(str, times[:3])) + (", ..." if len(times) > 3 else "")  # noqa: E731
    parts = []
    if pulled:
        n = count(csparql, pulled)
        parts.append(f"{n} C-SPARQL answer{'s' * (n != 1)} at a time point that is no pull of the "
                     f"timeline [{timeline[0]},{timeline[1]}] ({shown(pulled)})")
    if pushed:
        n = count(cqels, pushed)
        parts.append(f"{n} CQELS answer{'s' * (n != 1)} in no pulling interval of "
                     f"{'it' if pulled else f'the timeline [{timeline[0]},{timeline[1]}]'} ({shown(pushed)})")
    return "not compared: " + ", and ".join(parts)


def pull_times(period: int, timeline: tuple[int, int]) -> list[int]:
    """:func:`pull_range`, listed."""
    return list(pull_range(period, timeline))


def interval_verdict(end: int, period: int, pulled: frozenset[Row],
                     pushes: Iterable[tuple[int, Iterable[Row]]],
                     half_open: bool = False) -> IntervalVerdict:
    """The verdict on the interval ending at ``end`` from the C-SPARQL rows at ``end`` and the
    CQELS rows at the push time points ``(t, rows)`` of ``(end - U, end]`` (``[end - U, end)``
    when ``half_open``; ascending ``t``)."""
    pushed: dict[Row, list[int]] = {}
    for t, rows in pushes:
        for row in rows:
            pushed.setdefault(row, []).append(t)
    return IntervalVerdict(
        end - period, end,
        {row: tuple(times) for row, times in pushed.items() if row not in pulled},
        frozenset(row for row in pulled if row not in pushed),
        frozenset(row for row in pulled if row in pushed), half_open)


def compare(csparql: AnswerSeries, cqels: AnswerSeries, period: int,
            timeline: tuple[int, int], half_open: bool = False) -> list[IntervalVerdict]:
    """One verdict per pulling interval ``[end - U, end]`` of the timeline: the pushed answers
    of ``(end - U, end]`` against the pull at ``end``, or of ``[end - U, end)`` when the pulling
    side's windows are right-open (``half_open``, SPEC section 12)."""
    cqels = cqels.reordered(csparql.variables)
    return [interval_verdict(end, period, csparql.answers.get(end, frozenset()),
                             ((t, cqels.answers[t])
                              for t in range(end - period + 1 - half_open, end + 1 - half_open)
                              if t in cqels.answers), half_open)
            for end in pull_range(period, timeline)]
