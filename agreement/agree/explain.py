"""Why the engines disagree on an interval: the paper's conditions, each with its witnesses.

Every explanation is computed from the data, never guessed, and names what witnesses it:

* ``window-boundary`` — an answer both engines gave, but in different pulling intervals, where
  CQELS gave it exactly at an edge of the interval explained: at its end, the instant of its
  pull (the pull at ``end`` and the push at ``end`` read the window differently: a triple at
  the window's edge is in one snapshot and not the other), or at its start, the instant of the
  pull before (an answer on the boundary, counted in the interval before);
* ``other-interval`` — an answer both gave, in different intervals, away from the edges of the
  interval explained (an edge of another interval is no reason for this one: newcomer, a row
  only C-SPARQL gave at 33 in ``(30,33]``, which CQELS gave at 34 and 36, was put down to "an
  interval edge (36)", the end of the next interval);
* ``static-shares-pattern``, ``stream-merged``, ``static-only`` (condition ii) and
  ``snapshot-differs``, ``window-not-evaluated``, ``window-differs``, ``evaluation-differs``
  (condition iii) need the query and the stream, and are added by
  :mod:`agreement.agree.conditions`; there every answer only one engine gave gets at least one
  of the last three, and every witness set of stream triples is checked by evaluation
  (:mod:`agreement.agree.derivation`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agreement.compare import AnswerSeries, IntervalVerdict, Row
from agreement.spans import points_text


@dataclass(frozen=True)
class Explanation:
    """One reason for a disagreement on one interval.

    Attributes:
        condition: ``window-boundary``, ``other-interval``, ``static-shares-pattern``,
            ``stream-merged``, ``static-only``, ``snapshot-differs``, ``window-not-evaluated``,
            ``window-differs`` or ``evaluation-differs``.
        message: one sentence for a person.
        witnesses: the rows, triples or patterns that show it, as text.
        row: the answer it explains, or ``None`` when it concerns the interval (condition ii).
    """

    condition: str
    message: str
    witnesses: tuple[str, ...] = ()
    row: Row | None = None


RowText = Callable[[Row], str]


def shifted_answers(verdict: IntervalVerdict, csparql: AnswerSeries, cqels: AnswerSeries,
                    period: int, row_text: RowText) -> list[Explanation]:
    """Answers that both engines gave, but in different pulling intervals."""
    found = []
    for row, times in sorted(verdict.only_cqels.items(), key=lambda item: row_text(item[0])):
        pulls = [t for t, rows in sorted(csparql.answers.items()) if row in rows and t % period == 0]
        if pulls:
            found.append(explain_shift(row, times, pulls, verdict, "CQELS", row_text))
    for row in sorted(verdict.only_csparql, key=row_text):
        pushes = [t for t, rows in sorted(cqels.answers.items()) if row in rows]
        if pushes:
            found.append(explain_shift(row, pushes, [verdict.end], verdict, "C-SPARQL", row_text))
    return found


def explain_shift(row: Row, pushes, pulls, verdict: IntervalVerdict, only: str,
                  row_text: RowText) -> Explanation:
    """A ``window-boundary`` or ``other-interval`` explanation for one row: the first is for a
    row CQELS gave at ``verdict``'s start or end (see the module docstring)."""
    edge = [t for t in pushes if t in (verdict.start, verdict.end)]
    witness = f"CQELS at {points_text(pushes)}, C-SPARQL at {points_text(pulls)}"
    if edge:
        return Explanation("window-boundary", f"only {only} gave it in this interval; CQELS gave it "
                           f"at the interval's edge ({edge[0]}), C-SPARQL in the pull at "
                           f"{nearest(pulls, edge[0])}", (witness,), row)
    return Explanation("other-interval", f"only {only} gave it in this interval; the other "
                       "engine gave it in a neighbouring interval (the times listed are those of "
                       "this interval and the ones just before and after it)", (witness,), row)


def nearest(points, target: int) -> int:
    return min(points, key=lambda p: (abs(p - target), p))
