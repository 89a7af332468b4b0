"""A recorded relation stream against the expected one, the first mismatch marked (notebooks).

Takes plain data (time points and sizes of relations), as :mod:`agreement.notebook.plots` does;
:func:`judgement_series` extracts it from a :class:`~agreement.check.judge.Judgement`.
"""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from agreement.check.judge import Judgement
from agreement.notebook.plots import COLOURS, new_axes, row_axis, set_title, time_axis

Series = Sequence[tuple[int, int]]
"""``(time point, number of bindings)`` per relation."""


def judgement_series(judgement: Judgement) -> tuple[Series, Series, int | None]:
    """The expected relations (of the passing run, or of the explanation's t0), the recorded
    ones at their ticks, and the mismatch's time point."""
    expected = judgement.expected
    mismatch = judgement.mismatch
    if mismatch is not None and mismatch.t0 in judgement.runs:
        expected = judgement.runs[mismatch.t0].reports
    label, unit = judgement.profile.label_ms, judgement.unit_ms
    recorded = [((r.timestamp - label) // unit, len(r.rows)) for r in judgement.recorded]
    marked = None
    if mismatch is not None:
        marked = (mismatch.expected.time if mismatch.expected is not None
                  else (mismatch.recorded.timestamp - label) // unit)
    return [(r.time, len(r.rows)) for r in expected], recorded, marked


def relations_plot(expected: Series, recorded: Series, mismatch: int | None = None, *,
                   unit: str | None = "1s", title: str = "", ax: Axes | None = None) -> Figure:
    """Two rows of relations over time, the number of bindings written on each; a red line at
    the first mismatch."""
    fig, ax = new_axes(ax, rows=2)
    times = [t for t, _ in [*expected, *recorded]] or [0]
    for row, (series, colour) in enumerate(((expected, COLOURS["csparql"]),
                                            (recorded, COLOURS["cqels"]))):
        ax.scatter([t for t, _ in series], [row] * len(series), s=60, color=colour, zorder=3)
        sizes: dict[int, list[str]] = {}
        for time, size in series:
            sizes.setdefault(time, []).append(str(size))
        for time, texts in sizes.items():  # several relations at one time point: "1+1"
            ax.annotate("+".join(texts), (time, row), textcoords="offset points", xytext=(0, 7),
                        ha="center", fontsize=8)
    if mismatch is not None:
        ax.axvline(mismatch, color=COLOURS["disagree"], linewidth=2, zorder=2)
    row_axis(ax, ["expected", "recorded"], "relations")
    time_axis(ax, (min(times + [mismatch or times[0]]), max(times + [mismatch or times[0]])), unit)
    set_title(ax, title or "relations (bindings per relation); red: first mismatch")
    return fig
