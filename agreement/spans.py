"""Intervals and sets of time points as a reader expects them in reports.

An interval is printed with the brackets of the bounds in force: a pulling interval
``(i·U, (i+1)·U]`` is left-open (CQELS's pushes after ``i·U`` up to the pull at ``(i+1)·U``),
a window ``[t-L, t]`` closed, ``(t-L, t]`` or ``[t-L, t)`` under the other window readings. A
single time point is ``18`` (``[18]`` would read as LARS window syntax); a set of time points is
compressed into ranges (``21–29, 31``).

>>> interval_text(20, 30, "left-open"), interval_text(20, 30, "right-open"), interval_text(5, 5)
('(20,30]', '[20,30)', '5')
>>> points_text([21, 22, 23, 24, 29, 31, 32])
'21–24, 29, 31–32'
"""

from __future__ import annotations

from collections.abc import Iterable

BRACKETS = {"closed": ("[", "]"), "left-open": ("(", "]"), "right-open": ("[", ")")}


def interval_text(start: int, end: int, bounds: str = "closed") -> str:
    """``start..end`` with the brackets of ``bounds`` (``closed``, ``left-open``, ``right-open``);
    a closed interval of one point is the point itself."""
    if bounds == "closed" and start == end:
        return str(start)
    left, right = BRACKETS[bounds]
    return f"{left}{start},{end}{right}"


def point_ranges(points: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted distinct ``points`` as maximal runs ``(first, last)`` of consecutive integers."""
    runs: list[list[int]] = []
    for p in sorted(set(points)):
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return [(a, b) for a, b in runs]


def points_text(points: Iterable[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1–3, 7`` (an en dash between the ends of a run)."""
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in point_ranges(points))
