"""The agreement report: a verdict per pulling interval, explanations, text and JSON renderings.

The JSON document follows ``docs/schemas/agreement.schema.json`` (format ``lars-agreement``,
version 2). The text starts with the verdict, then one line per disagreeing interval with what
differs and the cause, then per interval each answer only one engine gave, once, with when it
was given and the reasons found. Pulling intervals print as ``(start,end]`` (CQELS's pushes
after ``start`` up to the pull at ``end``), sets of time points as ranges (``21–29``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agreement.answers import Solution, binding_json, shorten_iris, solution_json, values_text
from agreement.compare import AnswerSeries, IntervalVerdict, Row
from agreement.explain import Explanation
from agreement.spans import interval_text, points_text


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
            self.row_text = values_text

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
                f"{interval_text(*self.timeline)})")


WITNESSES = 3
"""Witnesses shown per explanation in the text report (``--verbose``: all)."""

CAUSES = {
    "static-shares-pattern": "static data matches a stream pattern (condition ii)",
    "window-boundary": "answers depend on a window's edge",
    "other-interval": "the other engine gave them in another interval",
}


def interval_name(verdict: IntervalVerdict) -> str:
    """A pulling interval as what it is: CQELS's pushes after ``start`` up to the pull at ``end``."""
    return interval_text(verdict.start, verdict.end, "left-open")


def cause_text(report: AgreementReport, verdict: IntervalVerdict) -> str:
    """The causes found for one disagreeing interval, in one phrase."""
    reasons = report.explanations.get((verdict.start, verdict.end), [])
    causes = []
    for condition in dict.fromkeys(e.condition for e in reasons):
        if condition == "snapshot-differs":
            rows = {e.row for e in reasons if e.condition == condition}
            pushes = [t for row, times in verdict.only_cqels.items() if row in rows for t in times]
            causes.append(f"push snapshots at {points_text(pushes)} differ from the pull snapshot "
                          f"at {verdict.end}" if pushes else
                          f"the pull snapshot at {verdict.end} holds matches no push snapshot held")
        else:
            causes.append(CAUSES.get(condition, condition))
    return "; ".join(causes) or "no cause found"


def interval_summary(report: AgreementReport, verdict: IntervalVerdict) -> str:
    """One line per disagreeing interval: what differs and why."""
    counts = []
    if verdict.only_cqels:
        counts.append(f"{len(verdict.only_cqels)} only in CQELS")
    if verdict.only_csparql:
        counts.append(f"{len(verdict.only_csparql)} only in C-SPARQL")
    counts.append(f"{len(verdict.both)} in common")
    return f"interval {interval_name(verdict)}: {', '.join(counts)}; cause: {cause_text(report, verdict)}"


def render_text(report: AgreementReport, prefixes: Sequence[tuple[str, str]] = (),
                verbose: bool = False) -> str:
    """The report for a person: the verdict, one summary line per disagreeing interval, then
    each answer only one engine gave, once, with its reasons (``verbose``: every witness).

    Args:
        prefixes: shorten IRIs with these (the query's prefixes, on a terminal).
    """
    def text(row: Row) -> str:
        return values_text(row, prefixes)

    def shorten(line: str) -> str:
        return shorten_iris(line, prefixes)

    lines = [report.summary()]
    lines += [f"note: {note}" for note in report.notes]
    if report.disagreeing:
        lines.append("")
        lines += [interval_summary(report, verdict) for verdict in report.disagreeing]
    for verdict in report.disagreeing:
        reasons = report.explanations.get((verdict.start, verdict.end), [])
        lines.append(f"\ninterval {interval_name(verdict)}")
        for why in reasons:
            if why.row is None:
                lines += reason_lines(why, verbose, shorten, "  ")
        answers = [("CQELS", row, times) for row, times in verdict.only_cqels.items()]
        answers += [("C-SPARQL", row, (verdict.end,)) for row in verdict.only_csparql]
        for side, row, times in sorted(answers, key=lambda a: (a[0], text(a[1]))):
            lines.append(f"  only {side:<9} {text(row)}  at {points_text(times)}")
            for why in reasons:
                if why.row == row:
                    lines += reason_lines(why, verbose, shorten, "      ")
    return "\n".join(lines) + "\n"


def reason_lines(why: Explanation, verbose: bool, shorten: Callable[[str], str], indent: str) -> list[str]:
    """One explanation: its condition and message, then its witnesses (the first few unless
    ``verbose``)."""
    shown = why.witnesses if verbose else why.witnesses[:WITNESSES]
    lines = [f"{indent}why ({why.condition}): {shorten(why.message)}"]
    lines += [f"{indent}    {shorten(w)}" for w in shown]
    if len(shown) < len(why.witnesses):
        lines.append(f"{indent}    … {len(why.witnesses) - len(shown)} more (--verbose shows them)")
    return lines


def to_json(report: AgreementReport) -> dict:
    """The report as one JSON document (``docs/schemas/agreement.schema.json``, version 2):
    answers as solution mappings (:mod:`agreement.answers`), full IRIs."""
    variables = report.variables

    def reasons(verdict: IntervalVerdict, row: Row | None) -> list[dict]:
        return [{"condition": e.condition, "message": e.message, "witnesses": list(e.witnesses)}
                for e in report.explanations.get((verdict.start, verdict.end), []) if e.row == row]

    def interval(verdict: IntervalVerdict) -> dict:
        return {
            "start": verdict.start, "end": verdict.end, "interval": interval_name(verdict),
            "agree": verdict.agree,
            "cause": None if verdict.agree else cause_text(report, verdict),
            "common": [binding_json(variables, row) for row in sorted(verdict.both, key=report.row_text)],
            "only_cqels": [{"binding": binding_json(variables, row), "times": list(times),
                            "explanations": reasons(verdict, row)}
                           for row, times in sorted(verdict.only_cqels.items(),
                                                    key=lambda item: report.row_text(item[0]))],
            "only_csparql": [{"binding": binding_json(variables, row), "times": [verdict.end],
                              "explanations": reasons(verdict, row)}
                             for row in sorted(verdict.only_csparql, key=report.row_text)],
            "explanations": reasons(verdict, None),
        }

    def series(answers: AnswerSeries | None) -> list[dict] | None:
        if answers is None:
            return None
        return [solution_json(variables, Solution(t, row)) for t in sorted(answers.answers)
                for row in sorted(answers.answers[t], key=report.row_text)]

    return {"format": "lars-agreement", "version": 2, "agree": report.agree,
            "summary": report.summary(), "source": report.source, "period": report.period,
            "unit": report.unit, "timeline": {"start": report.timeline[0], "end": report.timeline[1]},
            "variables": list(variables), "notes": report.notes,
            "disagreeing": len(report.disagreeing),
            "intervals": [interval(verdict) for verdict in report.verdicts],
            "answers": {"csparql": series(report.csparql), "cqels": series(report.cqels)}}
