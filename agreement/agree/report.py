"""The agreement report: a verdict per pulling interval, explanations, text and JSON renderings.

The JSON document follows ``docs/schemas/agreement.schema.json`` (format ``lars-agreement``,
version 2). The text starts with the verdict, then one line per disagreeing interval with what
differs and the cause, then per interval each answer only one engine gave, once, with when it
was given and the reasons found. Pulling intervals print as ``(start,end]`` (CQELS's pushes
after ``start`` up to the pull at ``end``), or ``[start,end)`` where the pulling side's windows
are right-open (the pushes from ``start`` up to before the pull at ``end``, SPEC section 12);
sets of time points as ranges (``21–29``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from agreement.answers import Solution, binding_json, shorten_iris, solution_json, values_text
from agreement.compare import AnswerSeries, IntervalVerdict, Row
from agreement.agree.explain import Explanation
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
        return summary_line(self.source, self.period, self.unit, self.timeline,
                            len(self.disagreeing), len(self.verdicts))

    def reasons(self, verdict: IntervalVerdict) -> list[Explanation]:
        """The explanations found for one interval (none where it agrees or was not explained)."""
        return self.explanations.get((verdict.start, verdict.end), [])


def summary_line(source: str, period: int, unit: str, timeline: tuple[int, int], disagreeing: int,
                 total: int) -> str:
    """The report's first line: the verdict and how many intervals disagree of how many."""
    verdict = "DISAGREE" if disagreeing else "AGREE"
    return (f"{verdict}: C-SPARQL and CQELS ({source} answers) disagree on {disagreeing} of "
            f"{total} pulling intervals (period {period} × {unit}, timeline "
            f"{interval_text(*timeline)})")


WITNESSES = 3
"""Witnesses shown per explanation in the text report (``--verbose``: all)."""

CAUSES = {
    "static-shares-pattern": "static data matches a stream pattern (condition ii)",
    "window-boundary": "answers depend on a window's edge",
    "other-interval": "the other engine gave them in another interval",
    "static-only": "C-SPARQL answered from static data alone",
    "window-not-evaluated": "no push read the pull's window",
    "window-differs": "pushes read other windows than the pull",
    "evaluation-differs": "the translations differ on the same window content",
}


def interval_name(verdict: IntervalVerdict) -> str:
    """A pulling interval as what it is: the time points of the pushes it compares with the
    pull at ``end`` (``(start,end]``, or ``[start,end)`` under a right-open pulling side)."""
    return interval_text(verdict.start, verdict.end, verdict.bounds)


def cause_text(verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> str:
    """The causes found for one disagreeing interval (``reasons``: its explanations), in one phrase."""
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


def interval_summary(verdict: IntervalVerdict, reasons: Sequence[Explanation]) -> str:
    """One line per disagreeing interval: what differs and why."""
    counts = []
    if verdict.only_cqels:
        counts.append(f"{len(verdict.only_cqels)} only in CQELS")
    if verdict.only_csparql:
        counts.append(f"{len(verdict.only_csparql)} only in C-SPARQL")
    counts.append(f"{len(verdict.both)} in common")
    return f"interval {interval_name(verdict)}: {', '.join(counts)}; cause: {cause_text(verdict, reasons)}"


def render_text(report: AgreementReport, prefixes: Sequence[tuple[str, str]] = (),
                verbose: bool = False) -> str:
    """The report for a person: the verdict, one summary line per disagreeing interval, then
    each answer only one engine gave, once, with its reasons (``verbose``: every witness).

    Args:
        prefixes: shorten IRIs with these (the query's prefixes, on a terminal).
    """
    lines = [report.summary()]
    lines += [f"note: {note}" for note in report.notes]
    if report.disagreeing:
        lines.append("")
        lines += [interval_summary(verdict, report.reasons(verdict)) for verdict in report.disagreeing]
    for verdict in report.disagreeing:
        lines += interval_lines(verdict, report.reasons(verdict), prefixes, verbose)
    return "\n".join(lines) + "\n"


def interval_lines(verdict: IntervalVerdict, reasons: Sequence[Explanation],
                   prefixes: Sequence[tuple[str, str]], verbose: bool) -> list[str]:
    """The text block of one disagreeing interval: its reasons, then each answer only one
    engine gave, with when it was given and the reasons that concern it."""
    def text(row: Row) -> str:
        return values_text(row, prefixes)

    def shorten(line: str) -> str:
        return shorten_iris(line, prefixes)

    lines = [f"\ninterval {interval_name(verdict)}"]
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
    return lines


def reason_lines(why: Explanation, verbose: bool, shorten: Callable[[str], str], indent: str) -> list[str]:
    """One explanation: its condition and message, then its witnesses (the first few unless
    ``verbose``)."""
    shown = why.witnesses if verbose else why.witnesses[:WITNESSES]
    lines = [f"{indent}why ({why.condition}): {shorten(why.message)}"]
    lines += [f"{indent}    {shorten(w)}" for w in shown]
    if len(shown) < len(why.witnesses):
        lines.append(f"{indent}    … {len(why.witnesses) - len(shown)} more (--verbose shows them)")
    return lines


def interval_json(verdict: IntervalVerdict, reasons: Sequence[Explanation],
                  variables: Sequence[str], row_text: Callable[[Row], str]) -> dict:
    """One pulling interval as JSON (an item of the document's ``intervals``), answers in the
    order of ``row_text``."""
    def why(row: Row | None) -> list[dict]:
        return [{"condition": e.condition, "message": e.message, "witnesses": list(e.witnesses)}
                for e in reasons if e.row == row]

    return {
        "start": verdict.start, "end": verdict.end, "interval": interval_name(verdict),
        "agree": verdict.agree,
        "cause": None if verdict.agree else cause_text(verdict, reasons),
        "common": [binding_json(variables, row) for row in sorted(verdict.both, key=row_text)],
        "only_cqels": [{"binding": binding_json(variables, row), "times": list(times),
                        "explanations": why(row)}
                       for row, times in sorted(verdict.only_cqels.items(),
                                                key=lambda item: row_text(item[0]))],
        "only_csparql": [{"binding": binding_json(variables, row), "times": [verdict.end],
                          "explanations": why(row)}
                         for row in sorted(verdict.only_csparql, key=row_text)],
        "explanations": why(None),
    }


def answers_json(variables: Sequence[str], t: int, rows: Iterable[Row],
                 row_text: Callable[[Row], str]) -> list[dict]:
    """One side's answers at ``t`` as solution mappings, in the order of ``row_text``."""
    return [solution_json(variables, Solution(t, row)) for row in sorted(rows, key=row_text)]


def head_json(report: AgreementReport | None = None, **fields) -> dict:
    """The document's fields before ``intervals``, in the schema's order, from a collected
    ``report`` or from ``fields`` (``agree``, ``summary``, ``source``, ``period``, ``unit``,
    ``timeline``, ``variables``, ``notes``, ``disagreeing``)."""
    if report is not None:
        fields = {"agree": report.agree, "summary": report.summary(), "source": report.source,
                  "period": report.period, "unit": report.unit, "timeline": report.timeline,
                  "variables": report.variables, "notes": report.notes,
                  "disagreeing": len(report.disagreeing)}
    start, end = fields["timeline"]
    return {"format": "lars-agreement", "version": 2, "agree": fields["agree"],
            "summary": fields["summary"], "source": fields["source"], "period": fields["period"],
            "unit": fields["unit"], "timeline": {"start": start, "end": end},
            "variables": list(fields["variables"]), "notes": list(fields["notes"]),
            "disagreeing": fields["disagreeing"]}


def to_json(report: AgreementReport) -> dict:
    """The report as one JSON document (``docs/schemas/agreement.schema.json``, version 2):
    answers as solution mappings (:mod:`agreement.answers`), full IRIs."""
    variables = report.variables

    def series(answers: AnswerSeries | None) -> list[dict] | None:
        if answers is None:
            return None
        return [solution for t in sorted(answers.answers)
                for solution in answers_json(variables, t, answers.answers[t], report.row_text)]

    return {**head_json(report),
            "intervals": [interval_json(verdict, report.reasons(verdict), variables, report.row_text)
                          for verdict in report.verdicts],
            "answers": {"csparql": series(report.csparql), "cqels": series(report.cqels)}}
