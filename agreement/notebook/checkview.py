"""The view of an agreement check (:func:`agreement.facade.check_agreement`): verdicts, both sides, reasons.

Like the views of :mod:`agreement.notebook.views`, it wraps what was computed, shows itself in Jupyter,
and gives pandas tables and matplotlib plots (both imported only when asked for).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from agreement.compare import AnswerSeries, IntervalVerdict, Row
from agreement.agree.explain import Explanation
from agreement.notebook.display import MAX_ROWS, CheckTimeline, escape, html_table, python_value
from agreement.notebook.labels import Labeller
from agreement.agree.report import AgreementReport, interval_name, render_text, to_json
from agreement.spans import points_text
from lars.errors import InputError

MAX_REASONS = 3
"""Reasons an agreement view shows per interval in a notebook."""


@dataclass(frozen=True)
class AgreementView:
    """Whether C-SPARQL and CQELS agree, interval by interval (SPEC section 9).

    Attributes:
        report: the :class:`~agreement.agree.report.AgreementReport` (what ``lars agree`` prints).
        csparql, cqels: the answers of each side (C-SPARQL at pull times, CQELS at push times).
        input_counts: stream triples per time point (computed checks only).
        prefixes: ``(prefix, namespace)`` pairs used to shorten IRIs in labels.
        warnings: what reading the input reported, and doubts about the two queries.
        title: what was compared (the query's file name, or the two answer files), for plots.
    """

    report: AgreementReport
    csparql: AnswerSeries
    cqels: AnswerSeries
    input_counts: Mapping[int, int] = field(default_factory=dict)
    prefixes: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    title: str = ""

    @property
    def agree(self) -> bool:
        """True when they agree on every pulling interval."""
        return self.report.agree

    @property
    def verdicts(self) -> list[IntervalVerdict]:
        return self.report.verdicts

    def summary(self) -> str:
        return self.report.summary()

    def text(self, prefixes: bool = True, verbose: bool = False) -> str:
        """The report as ``lars agree`` prints it: IRIs shortened with the query's prefixes
        (unless ``prefixes=False``), the first few witnesses of each reason (``verbose``: all)."""
        return render_text(self.report, self.prefixes if prefixes else (), verbose)

    def to_json(self) -> dict:
        """The document ``lars agree --format json`` prints."""
        return to_json(self.report)

    @cached_property
    def _labelling(self) -> tuple[dict[Row, str], str]:
        first: dict[Row, int] = {}
        for series in (self.csparql, self.cqels):
            for t, rows in series.answers.items():
                for row in rows:
                    first[row] = min(first.get(row, t), t)
        rows = sorted(first, key=lambda r: (first[r], self.report.row_text(r)))
        labeller = Labeller(self.prefixes)
        return dict(zip(rows, labeller.labels([self.report.row_text(r) for r in rows]))), labeller.note()

    @property
    def row_labels(self) -> dict[Row, str]:
        """Short unique labels of every answer either side gave, by first time given."""
        return self._labelling[0]

    @property
    def label_note(self) -> str:
        """The prefixes the labels made up, or ``""``."""
        return self._labelling[1]

    def row_label(self, row: Row) -> str:
        return self.row_labels.get(row) or Labeller(self.prefixes).label(self.report.row_text(row))

    def answers(self, side: str = "csparql"):
        """A DataFrame of one side's answers: ``time``, ``label``, then one column per result
        variable (Python values: numbers, strings, IRIs). ``side`` is ``csparql`` or ``cqels``."""
        import pandas as pd  # optional dependency, only for notebooks

        series = {"csparql": self.csparql, "cqels": self.cqels}.get(side)
        if series is None:
            raise InputError(f"unknown side '{side}'", hint="use side='csparql' or side='cqels'")
        records = [[t, self.row_label(row), *(python_value(v) for v in row)]
                   for t in sorted(series.answers)
                   for row in sorted(series.answers[t], key=self.report.row_text)]
        return pd.DataFrame.from_records(records, columns=["time", "label", *series.variables])

    def to_pandas(self):
        """One row per pulling interval: ``start``, ``end``, ``agree``, ``common``,
        ``only_cqels``, ``only_csparql`` (counts), ``only_cqels_answers`` (``answer at t1, t2``
        texts), ``only_csparql_answers``, ``reasons`` (the conditions that explain it)."""
        import pandas as pd  # optional dependency, only for notebooks

        text = self.report.row_text
        records = []
        for v in self.verdicts:
            reasons = self.report.explanations.get((v.start, v.end), [])
            records.append({
                "start": v.start, "end": v.end, "agree": v.agree, "common": len(v.both),
                "only_cqels": len(v.only_cqels), "only_csparql": len(v.only_csparql),
                "only_cqels_answers": [f"{text(r)} at {points_text(ts)}"
                                       for r, ts in sorted(v.only_cqels.items(), key=lambda i: text(i[0]))],
                "only_csparql_answers": sorted(text(r) for r in v.only_csparql),
                "reasons": list(dict.fromkeys(e.condition for e in reasons))})
        return pd.DataFrame.from_records(records, columns=[
            "start", "end", "agree", "common", "only_cqels", "only_csparql",
            "only_cqels_answers", "only_csparql_answers", "reasons"])

    def timeline_data(self) -> CheckTimeline:
        """What the plots of this check draw, as plain data."""
        report = self.report
        causes = {(v.start, v.end): ", ".join(dict.fromkeys(
                      e.condition for e in report.explanations.get((v.start, v.end), []))) or "cause not found"
                  for v in report.disagreeing}
        return CheckTimeline(title=self.title, report=report, row_labels=self.row_labels,
                             label_note=self.label_note, csparql=self.csparql.answers,
                             cqels=self.cqels.answers, causes=causes, unchecked=unchecked(report))

    def plot(self, kind: str = "timeline", **options: Any):
        """A matplotlib figure: ``timeline`` (both sides' answers over time, disagreeing intervals
        shaded), ``strip`` (one cell per pulling interval) or ``input`` (triples per time point)."""
        from agreement.notebook import plots  # matplotlib is optional, only for notebooks

        if kind == "timeline":
            return plots.agreement_timeline(self.timeline_data(), **options)
        if kind == "strip":
            return plots.agreement_strip(self.timeline_data(), **options)
        if kind == "input":
            return plots.input_rate(self.input_counts, unit=self.report.unit, kind="triples",
                                    timeline=self.report.timeline, name=self.title, **options)
        raise InputError(f"unknown plot '{kind}'", hint="use kind='timeline', 'strip' or 'input'")

    def _reason_html(self, reason: Explanation) -> str:
        """One reason: the condition, its message and up to five witnesses, IRIs shortened."""
        labeller = Labeller(self.prefixes)
        shown = [f"&nbsp;&nbsp;{escape(labeller.label(w, width=200))}" for w in reason.witnesses[:5]]
        if len(reason.witnesses) > 5:
            shown.append(f"&nbsp;&nbsp;… {len(reason.witnesses) - 5} more")
        return "<br>".join([f"<b>{escape(reason.condition)}</b>: "
                            f"{escape(labeller.label(reason.message, width=400))}", *shown])

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.agree else "#cf222e"
        title = f"{escape(self.title)}: " if self.title else ""
        parts = [f"<p style='color:{colour}'><b>{title}{escape(self.summary())}</b></p>"]
        parts += [f"<p><small>note: {escape(n)}</small></p>" for n in self.report.notes]
        parts += [f"<p><small>{escape(w)}</small></p>" for w in self.warnings]
        rows = []
        for v in self.report.disagreeing[:MAX_ROWS]:
            only_cq = "<br>".join(f"{escape(self.row_label(r))} at {points_text(ts)}"
                                  for r, ts in v.only_cqels.items())
            only_cs = "<br>".join(escape(self.row_label(r)) for r in v.only_csparql)
            reasons = self.report.explanations.get((v.start, v.end), [])
            why = "<br>".join([self._reason_html(e) for e in reasons[:MAX_REASONS]]
                              + ([f"… {len(reasons) - MAX_REASONS} more reasons (all in .text())"]
                                 if len(reasons) > MAX_REASONS else []))
            rows.append([interval_name(v), str(len(v.both)), only_cq, only_cs, why])
        if rows:
            parts.append(html_table(["interval", "common", "only CQELS (at)", "only C-SPARQL", "why"],
                                    rows, max(0, len(self.report.disagreeing) - MAX_ROWS)))
            if self.label_note:
                parts.append(f"<p><small>prefixes in labels: {escape(self.label_note)}</small></p>")
        return "".join(parts)


def unchecked(report: AgreementReport) -> list[tuple[int, int]]:
    """The stretches ``[a, b]`` of the timeline outside every pulling interval (time points
    before the first pulling interval's pushes, after the last pull)."""
    first, last = report.timeline
    if not report.verdicts:
        return [(first, last)]
    stretches = []
    if first <= report.verdicts[0].start:
        stretches.append((first, report.verdicts[0].start))
    if report.verdicts[-1].end < last:
        stretches.append((report.verdicts[-1].end + 1, last))
    return stretches
