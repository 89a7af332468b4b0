"""The leaf of the notebook room: HTML helpers, and the plain data that plots draw.

Views (:mod:`agreement.notebook.views`, :mod:`agreement.notebook.checkview`) build HTML with these
helpers and hand plots (:mod:`agreement.notebook.plots`) the plain data below, never themselves,
so nothing here imports a view or matplotlib.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_ROWS = 50
"""Rows a view shows in a notebook before it says how many more there are."""


def html_table(headers: Sequence[str], rows: Sequence[Sequence[str]], more: int = 0) -> str:
    """An HTML table of already-escaped cells, with a ``… N more`` line when rows were cut."""
    head = "".join(f"<th style='text-align:left'>{h}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{c}</td>" for c in row) + "</tr>"
                   for row in rows)
    tail = f"<p>… {more} more</p>" if more else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{tail}"


def escape(text: object) -> str:
    return html.escape(str(text), quote=False)


def time_label(unit: str | None) -> str:
    """The x-axis label: ``time (1m)``, or ``time`` without a unit."""
    return f"time ({unit})" if unit else "time"


def python_value(value: Any) -> Any:
    """An rdflib term as a Python value (``toPython``: numbers, strings, IRIs); others as they are."""
    return value.toPython() if hasattr(value, "toPython") else value


# --- what plots draw ------------------------------------------------------------------------------

@dataclass(frozen=True)
class AnswerTimeline:
    """An answer stream as a timeline plot needs it: labelled rows of maximal intervals.

    Attributes:
        title: what was run; variables: the query's answer variables (empty for a program).
        timeline, unit: the time axis; label_note: the prefixes used in the labels.
        runs: label → ``[(start, end, certain)]``, the maximal intervals in which it holds
            (``certain``: in every answer stream).
        elsewhere: ``(time, label)`` of atoms that ``@`` heads put at other time points.
        points: evaluated time points; several, none: those with several / no answer streams.
        stratified: whether the program is stratified.
    """

    title: str
    timeline: tuple[int, int]
    unit: str | None = None
    label_note: str = ""
    variables: tuple[str, ...] = ()
    runs: Mapping[str, Sequence[tuple[int, int, bool]]] = field(default_factory=dict)
    elsewhere: Sequence[tuple[int, str]] = ()
    points: int = 0
    several: Sequence[int] = ()
    none: Sequence[int] = ()
    stratified: bool = True


@dataclass(frozen=True)
class CheckTimeline:
    """An agreement check as its plots need it: the report and each side's answers by time.

    Attributes:
        title: what was compared; report: the :class:`~agreement.agree.report.AgreementReport`.
        row_labels: answer row → label, in plotting order; label_note: prefixes used.
        csparql, cqels: time → the rows each side gave then.
        causes, unchecked: see below.
    """

    title: str
    report: Any
    row_labels: Mapping[Hashable, str] = field(default_factory=dict)
    label_note: str = ""
    csparql: Mapping[int, Iterable[Hashable]] = field(default_factory=dict)
    cqels: Mapping[int, Iterable[Hashable]] = field(default_factory=dict)
    causes: Mapping[tuple[int, int], str] = field(default_factory=dict)
    """A short cause per disagreeing interval ``(start, end)``, to label it."""
    unchecked: Sequence[tuple[int, int]] = ()
    """Stretches ``[a, b]`` of the timeline that no pulling interval covers."""
