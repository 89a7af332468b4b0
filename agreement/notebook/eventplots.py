"""Matched events as bars on the timeline (matplotlib), for notebooks.

:func:`event_bars` takes plain data — ``(label, evaluation time, t1, t2)`` per event — and draws
one row per event: a bar over ``[t1, t2]``, the input interval that justifies the event, and a
marker at the evaluation time that reported it. Returns a :class:`~matplotlib.figure.Figure`
(closed in pyplot, so a notebook shows it once) or draws into ``ax``.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

WIDTH, ROW_HEIGHT = 11.0, 0.35
PAD = 0.25
"""Bars reach a quarter tick past both ends, so that a point event ``[t, t]`` shows."""


def event_bars(events: Sequence[tuple[str, int, int, int]], timeline: tuple[int, int],
               unit: str | None = None, *, ax: Axes | None = None, title: str = "") -> Figure:
    """One row per event ``(label, time, t1, t2)``: a bar over ``[t1, t2]``, a dot at ``time``.

    >>> fig = event_bars([("e1", 8, 4, 6), ("e2", 8, 2, 6)], (0, 10), "1s")
    >>> [float(p.get_width()) for p in fig.axes[0].patches]
    [2.5, 4.5]
    """
    if ax is None:
        fig, ax = plt.subplots(figsize=(WIDTH, max(2.0, 1.2 + ROW_HEIGHT * len(events))),
                               layout="constrained")
        plt.close(fig)
    else:
        fig = ax.figure
    labels = [f"{label} @{time}" for label, time, _, _ in events]
    for row, (_, time, start, end) in enumerate(events):
        ax.barh(row, end - start + 2 * PAD, left=start - PAD, height=0.5, color="tab:blue",
                edgecolor="black", linewidth=0.6)
        ax.plot([time], [row], marker="v", color="tab:red", linestyle="none")
    ax.set_yticks(range(len(events)), labels)
    ax.invert_yaxis()
    ax.set_xlim(timeline[0] - 0.5, timeline[1] + 0.5)
    ax.set_xlabel(f"time ({unit} ticks)" if unit else "time")
    ax.grid(axis="x", alpha=0.3)
    if not events:
        ax.text(0.5, 0.5, "no event matched", transform=ax.transAxes, ha="center", va="center")
    if title:
        ax.set_title(title, fontsize=10, loc="left")
    return fig
