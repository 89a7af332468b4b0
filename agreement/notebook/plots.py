"""Plots of answer streams and agreement checks (matplotlib), for notebooks.

* :func:`answer_timeline` — atoms on the y axis, time on the x axis, each maximal interval in
  which an atom holds as a horizontal bar (hatched where it holds in some answer streams only);
* :func:`agreement_timeline` — both sides of a check in one figure: C-SPARQL's answers at pull
  times, CQELS's at push times, answers only one side gave ringed in red, disagreeing intervals
  shaded and labelled with their cause, stretches no pulling interval checked hatched grey;
* :func:`agreement_strip` — one cell per pulling interval, green where the engines agree, red
  where they do not;
* :func:`input_rate` — input atoms or triples per time point, as bars.

Every function returns a :class:`matplotlib.figure.Figure` (closed in pyplot, so a notebook shows
it once, as the cell's value) or draws into ``ax`` when one is given. Rows beyond ``max_rows``
(default 50) are left out and the title says so; the figure grows with the number of rows, so
labels do not overlap. An empty answer stream gives a figure that says it is empty.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from agreement.notebook.display import MAX_ROWS, AnswerTimeline, CheckTimeline, time_label
from agreement.spans import interval_text

ROW_HEIGHT = 0.3
"""Inches per row of a timeline: 50 rows at 9 pt stay apart."""
WIDTH = 11.0
TITLE_WIDTH = 110
"""Characters per title line."""
OWN = "_lars_rsp_figure"
BAR, CELL = "bar", "cell"
"""The ``gid`` of bars (intervals, input counts) and of strip cells, to tell them from shading."""
ONE_SIDE, CAUSE, UNCHECKED_GID = "one-side", "cause", "unchecked"
"""The ``gid`` of the rings around answers one side only gave, of cause labels, of unchecked
stretches."""
UNCHECKED = "0.93"
CHAR_INCHES = 0.075
"""The width of one character of a strip label (8 pt, bold), to choose the label that fits."""
COLOURS = {"certain": "tab:blue", "some": "tab:orange", "csparql": "tab:blue", "cqels": "tab:orange",
           "agree": "#2da44e", "disagree": "#cf222e", "input": "tab:gray"}


def new_axes(ax: Axes | None, rows: int = 0, height: float | None = None) -> tuple[Figure, Axes]:
    """``ax``'s figure, or a new figure whose height fits ``rows`` rows."""
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(WIDTH, height or max(2.5, 1.4 + ROW_HEIGHT * rows)),
                           layout="constrained")
    setattr(fig, OWN, True)
    plt.close(fig)
    return fig, ax


def set_title(ax: Axes, text: str) -> None:
    """The title, wrapped to the figure's width, over the whole figure when the figure is ours."""
    lines = "\n".join(textwrap.fill(line, TITLE_WIDTH) for line in text.splitlines())
    if getattr(ax.figure, OWN, False):
        ax.figure.suptitle(lines, fontsize=11)
    else:
        ax.set_title(lines, fontsize=11)


def say_empty(ax: Axes, message: str) -> None:
    """Write ``message`` in the middle of ``ax`` (the figure of an empty result)."""
    ax.text(0.5, 0.5, message, transform=ax.transAxes, ha="center", va="center", fontsize=11,
            color="0.35")
    ax.set_yticks([])


def time_axis(ax: Axes, timeline: tuple[int, int], unit: str | None, note: str = "") -> None:
    """x from the first to the last time point (each point a unit-wide cell), integer ticks;
    ``note`` (the prefixes labels made up) goes on a line under the axis label."""
    ax.set_xlim(timeline[0] - 0.5, timeline[1] + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax.set_xlabel(time_label(unit) + (f"\nprefixes: {note}" if note else ""))


def row_axis(ax: Axes, labels: list[str], name: str) -> None:
    """One y tick per row, the first row at the top; room for at least three rows."""
    ax.set_yticks(range(len(labels)), labels, fontsize=9)
    middle, half = (len(labels) - 1) / 2, max(len(labels), 3) / 2
    ax.set_ylim(middle + half, middle - half)
    ax.set_ylabel(name)
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)


def cut(count: int, max_rows: int, noun: str) -> str:
    """The title's note when rows were left out."""
    return f" (first {max_rows} of {count} {noun})" if count > max_rows else ""


def answer_timeline(data: AnswerTimeline, *, max_rows: int = MAX_ROWS, ax: Axes | None = None,
                    title: str | None = None) -> Figure:
    """Atoms × time: a bar for each maximal interval in which an atom holds.

    Solid bars: the atom holds in every answer stream at those time points; hatched: in some
    only (a program with several answer streams). ``×`` marks atoms that heads ``@_T a`` put at
    other time points; grey bands are time points with no answer stream.
    """
    segments, elsewhere = data.runs, data.elsewhere
    atoms = list(dict.fromkeys([*segments, *(a for _, a in elsewhere)]))
    shown = atoms[:max_rows]
    fig, ax = new_axes(ax, len(shown))
    noun = "answers" if data.variables else "atoms"
    what = f", answers {variables_text(data.variables)}" if data.variables else ""
    several = data.several
    many = f"\nseveral answer streams at {len(several)} of {data.points} time points" if several else ""
    set_title(ax, title or f"{data.title}{what}{cut(len(atoms), max_rows, noun)}{many}")
    time_axis(ax, data.timeline, data.unit, data.label_note if atoms else "")
    if not atoms:
        say_empty(ax, f"empty answer stream: no atom holds at any of the {data.points} time points")
        return fig
    index = {atom: row for row, atom in enumerate(shown)}
    handles = []
    for certain, key, label in ((True, "certain", "holds"), (False, "some", "holds in some answer streams")):
        bars = [(index[a], s, e) for a, runs in segments.items() if a in index for s, e, c in runs if c == certain]
        if bars:
            ax.barh([r for r, _, _ in bars], [e - s + 1 for _, s, e in bars], left=[s - 0.5 for _, s, _ in bars],
                    height=0.6, color=COLOURS[key], alpha=1 if certain else 0.5,
                    hatch=None if certain else "//", edgecolor=COLOURS[key], gid=BAR)
            handles.append(Patch(facecolor=COLOURS[key], alpha=1 if certain else 0.5,
                                 hatch=None if certain else "//", label=label))
    marks = [(t, index[a]) for t, a in elsewhere if a in index]
    if marks:
        handles.append(ax.scatter([t for t, _ in marks], [r for _, r in marks], marker="x",
                                  color="tab:red", zorder=3, label="put at this time by an @ head"))
    for t in data.none:
        ax.axvspan(t - 0.5, t + 0.5, color="0.85", zorder=0)
    if data.none:
        handles.append(Patch(facecolor="0.85", label="no answer stream"))
    row_axis(ax, list(shown), "answer" if data.variables else "atom")
    if len(handles) > 1 or not data.stratified:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return fig


def variables_text(variables: Sequence[str]) -> str:
    return "(" + ", ".join(f"?{v}" for v in variables) + ")"


def agreement_timeline(data: CheckTimeline, *, max_rows: int = MAX_ROWS, ax: Axes | None = None,
                       title: str | None = None) -> Figure:
    """Both sides of a check: C-SPARQL's answers at pull times (squares), CQELS's at push times
    (dots), pull times as dashed lines, disagreeing intervals shaded red."""
    report = data.report
    rows = list(data.row_labels)
    shown = rows[:max_rows]
    fig, ax = new_axes(ax, len(shown))
    set_title(ax, title or f"{verdict_title(data)}{cut(len(rows), max_rows, 'answers')}\nanswers ("
              + ", ".join(f"?{v}" for v in report.variables) + ")")
    time_axis(ax, report.timeline, report.unit, data.label_note)
    for v in report.verdicts:
        ax.axvline(v.end, color="0.5", linestyle="--", linewidth=0.8, zorder=1)
        if not v.agree:
            ax.axvspan(v.start + 0.5, v.end + 0.5, color=COLOURS["disagree"], alpha=0.12, zorder=0)
            label_cause(ax, v, data.causes.get((v.start, v.end), ""))
    shade_unchecked(ax, data.unchecked)
    if not rows:
        say_empty(ax, "no answers on either side")
        return fig
    index = {row: i for i, row in enumerate(shown)}
    handles = []
    for series, key, marker, offset, label in (
            (data.csparql, "csparql", "s", -0.15, "C-SPARQL (pull)"),
            (data.cqels, "cqels", "o", 0.15, "CQELS (push)")):
        points = [(t, index[r] + offset) for t, found in sorted(series.items())
                  for r in found if r in index]
        handles.append(ax.scatter([t for t, _ in points], [y for _, y in points], marker=marker, s=28,
                                  color=COLOURS[key], label=label, zorder=3))
    one_side = [(t, index[r] + offset) for v in report.disagreeing
                for rows_at, offset in (([(r, ts) for r, ts in v.only_cqels.items()], 0.15),
                                        ([(r, (v.end,)) for r in v.only_csparql], -0.15))
                for r, ts in rows_at if r in index for t in ts]
    if one_side:
        handles.append(ax.scatter([t for t, _ in one_side], [y for _, y in one_side], marker="o", s=110,
                                  facecolors="none", edgecolors=COLOURS["disagree"], linewidths=1.5,
                                  zorder=4, label="given by one side only", gid=ONE_SIDE))
    handles.append(Line2D([], [], color="0.5", linestyle="--", linewidth=0.8, label="pull time"))
    if report.disagreeing:
        handles.append(Patch(facecolor=COLOURS["disagree"], alpha=0.12, label="disagreeing interval"))
    if data.unchecked:
        handles.append(Patch(facecolor=UNCHECKED, hatch="xx", edgecolor="0.7", label="not checked"))
    row_axis(ax, [data.row_labels[r] for r in shown], "answer")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return fig


def label_cause(ax: Axes, verdict, cause: str) -> None:
    """The cause of a disagreeing interval, written at the top of its shading."""
    ax.text((verdict.start + verdict.end + 1) / 2, 1.0, cause, transform=ax.get_xaxis_transform(),
            ha="center", va="bottom", fontsize=7, color=COLOURS["disagree"], clip_on=False, gid=CAUSE)


def shade_unchecked(ax: Axes, stretches) -> None:
    """Grey hatching over the stretches of the timeline no pulling interval checked."""
    for a, b in stretches:
        ax.axvspan(a - 0.5, b + 0.5, facecolor=UNCHECKED, hatch="xx", edgecolor="0.7", linewidth=0,
                   zorder=0, gid=UNCHECKED_GID)


def agreement_strip(data: CheckTimeline, *, ax: Axes | None = None, title: str | None = None) -> Figure:
    """One cell per pulling interval ``(i·U, (i+1)·U]``: green agree, red disagree, labelled;
    stretches of the timeline outside every pulling interval hatched grey."""
    report = data.report
    fig, ax = new_axes(ax, height=1.9)
    set_title(ax, title or verdict_title(data))
    time_axis(ax, report.timeline, report.unit)
    ax.set_yticks([])
    ax.set_ylim(0, 1)
    shade_unchecked(ax, data.unchecked)
    if not report.verdicts:
        say_empty(ax, "no complete pulling interval in the timeline")
        return fig
    span = report.timeline[1] - report.timeline[0] + 1
    inches = ax.figure.get_figwidth() * ax.get_position().width
    short = False
    for v in report.verdicts:
        key = "agree" if v.agree else "disagree"
        ax.add_patch(Rectangle((v.start + 0.5, 0.05), v.end - v.start, 0.9, facecolor=COLOURS[key],
                               edgecolor="white", linewidth=1.5, gid=CELL))
        fits = int(inches * (v.end - v.start) / span / CHAR_INCHES)
        text = cell_text(v, fits)
        short = short or "|" in text
        ax.text((v.start + v.end + 1) / 2, 0.5, text, ha="center", va="center", color="white",
                fontsize=8, fontweight="bold")
    extra = [Patch(facecolor="none", edgecolor="none", label="n | m: answers only CQELS | only C-SPARQL gave")
             ] if short else []
    if data.unchecked:
        extra.append(Patch(facecolor=UNCHECKED, hatch="xx", edgecolor="0.7", label="not checked"))
    ax.legend(handles=[Patch(facecolor=COLOURS["agree"], label="agree"),
                       Patch(facecolor=COLOURS["disagree"], label="disagree"), *extra],
              loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return fig


def verdict_title(data: CheckTimeline) -> str:
    """What was compared, on a line of its own, then ``C-SPARQL vs CQELS (computed answers),
    period 10 × 1s: disagree on 1 of 3 pulling intervals``."""
    report = data.report
    verdict = (f"agree on all {len(report.verdicts)} pulling intervals" if report.agree else
               f"disagree on {len(report.disagreeing)} of {len(report.verdicts)} pulling intervals")
    return (f"{data.title + chr(10) if data.title else ''}C-SPARQL vs CQELS ({report.source} answers), "
            f"period {report.period} × {report.unit}: {verdict}")


def cell_text(verdict, fits: int) -> str:
    """The longest label of a strip cell that fits in ``fits`` characters per line."""
    mark = "✓" if verdict.agree else "✗"
    a, b = len(verdict.only_cqels), len(verdict.only_csparql)
    details = [mark] if verdict.agree else [
        f"{mark} {a} only CQELS, {b} only C-SPARQL", f"{mark} {a} CQELS, {b} C-SPARQL", f"{mark} {a} | {b}", mark]
    interval = interval_text(verdict.start, verdict.end, verdict.bounds)
    for detail in details:
        if len(detail) <= fits:
            return f"{interval}\n{detail}" if len(interval) <= fits else detail
    return mark if fits >= 1 else ""


def input_rate(counts: Mapping[int, int], *, unit: str | None, kind: str = "atoms",
               timeline: tuple[int, int] | None = None, ax: Axes | None = None,
               title: str | None = None, name: str = "") -> Figure:
    """Input atoms (or triples) per time point, one bar per time point with input; ``name``
    (what was run) starts the title."""
    times = sorted(t for t, n in counts.items() if n)
    line = timeline or ((times[0], times[-1]) if times else (0, 0))
    fig, ax = new_axes(ax, height=3.0)
    total = sum(counts[t] for t in times)
    set_title(ax, title or f"{name + ': ' if name else ''}input rate: {total:,} {kind} at {len(times)} of "
              f"{line[1] - line[0] + 1} time points")
    time_axis(ax, line, unit)
    ax.set_ylabel(f"{kind} per time point")
    if not times:
        say_empty(ax, "no input")
        return fig
    ax.bar(times, [counts[t] for t in times], width=0.8, color=COLOURS["input"], gid=BAR)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax.grid(axis="y", color="0.9")
    ax.set_axisbelow(True)
    return fig
