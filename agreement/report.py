"""The agreement report: a verdict per pulling interval, explanations, text and JSON renderings.

The JSON document follows ``docs/schemas/agreement.schema.json`` (format ``lars-agreement``,
version 1). The text starts with one summary line, then each disagreeing interval with the
answers only one engine gave (and when) and the reasons found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from agreement.compare import AnswerSeries, IntervalVerdict, Row
from agreement.explain import Explanation, hashable_text


@dataclass
class AgreementReport:
    """Everything ``lars agree`` found.

    Attributes:
        source: ``computed`` (our translations) or ``recorded`` (answers of real engines).
        period: the pulling period ``U`` in ticks; ``unit`` the length of one tick.
        variables: the result variables, in the order of each row.
        verdicts: one per pulling interval, in time order.
        explanations: reasons per disagreeing interval, keyed by ``(start, end)``.
        notes: general remarks (e.g. which variant, how time points were mapped).
        csparql, cqels: the answers compared (C-SPARQL at pull times, CQELS at push times).
    """

    source: str
    period: int
    unit: str
    timeline: tuple[int, int]
    variables: tuple[str, ...]
    verdicts: list[IntervalVerdict]
    explanations: dict[tuple[int, int], list[Explanation]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    row_text: Callable[[Row], str] = field(default=None, repr=False)
    csparql: AnswerSeries | None = field(default=None, repr=False)
    cqels: AnswerSeries | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.row_text is None:
            self.row_text = lambda row: "(" + ", ".join(hashable_text(v) for v in row) + ")"

    @property
    def agree(self) -> bool:
        return all(verdict.agree for verdict in self.verdicts)

    @property
    def disagreeing(self) -> list[IntervalVerdict]:
        return [verdict for verdict in self.verdicts if not verdict.agree]

    def summary(self) -> str:
        """One line: the verdict and how many intervals disagree of how many."""
        count, total = len(self.disagreeing), len(self.verdicts)
        verdict = "AGREE" if self.agree else "DISAGREE"
        return (f"{verdict}: C-SPARQL and CQELS ({self.source} answers) disagree on {count} of "
                f"{total} pulling intervals (period {self.period} × {self.unit}, timeline "
                f"[{self.timeline[0]},{self.timeline[1]}])")


def render_text(report: AgreementReport) -> str:
    """The report for a person."""
    lines = [report.summary()]
    lines += [f"note: {note}" for note in report.notes]
    for verdict in report.disagreeing:
        lines.append(f"\ninterval [{verdict.start},{verdict.end}]: {len(verdict.both)} answer(s) in common")
        for row, times in sorted(verdict.only_cqels.items(), key=lambda item: report.row_text(item[0])):
            lines.append(f"  only CQELS     {report.row_text(row)}  at {', '.join(map(str, times))}")
        for row in sorted(verdict.only_csparql, key=report.row_text):
            lines.append(f"  only C-SPARQL  {report.row_text(row)}  at {verdict.end}")
        for why in report.explanations.get((verdict.start, verdict.end), []):
            lines.append(f"  why ({why.condition}): {why.message}")
            lines += [f"      {witness}" for witness in why.witnesses]
    return "\n".join(lines) + "\n"


def to_json(report: AgreementReport) -> dict:
    """The report as one JSON document (``docs/schemas/agreement.schema.json``)."""
    def interval(verdict: IntervalVerdict) -> dict:
        return {
            "start": verdict.start, "end": verdict.end, "agree": verdict.agree,
            "common": sorted(report.row_text(row) for row in verdict.both),
            "only_cqels": [{"answer": report.row_text(row), "times": list(times)}
                           for row, times in sorted(verdict.only_cqels.items(),
                                                    key=lambda item: report.row_text(item[0]))],
            "only_csparql": [{"answer": report.row_text(row), "times": [verdict.end]}
                             for row in sorted(verdict.only_csparql, key=report.row_text)],
            "explanations": [{"condition": e.condition, "message": e.message,
                              "witnesses": list(e.witnesses)}
                             for e in report.explanations.get((verdict.start, verdict.end), [])],
        }
    return {"format": "lars-agreement", "version": 1, "agree": report.agree,
            "summary": report.summary(), "source": report.source, "period": report.period,
            "unit": report.unit, "timeline": {"start": report.timeline[0], "end": report.timeline[1]},
            "variables": list(report.variables), "notes": report.notes,
            "disagreeing": len(report.disagreeing),
            "intervals": [interval(verdict) for verdict in report.verdicts]}
