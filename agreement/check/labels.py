"""Whether a recording's time labels can be times of the stream it is judged against.

A CSRBench recording labels each relation in milliseconds from the stream's start
(:mod:`agreement.recorded`); ``lars check`` reads a label ``l`` as the time point
``floor((l - label_ms) / unit)``. A recording written in another unit is still read, and under
the default comparison, which places relations by their order and not by their labels, it may
even be judged CORRECT (newcomer finding: labels in seconds, so every relation fell on time point
0, passed without a word). :func:`label_warning` says when the labels cannot be this stream's
times, and which unit would make them so:

* labels far outside the timeline: past its end, or before its start, by more than its length
  (microseconds or nanoseconds read as milliseconds);
* many relations on one time point while the stream's input spans many, and another unit
  spreads them over the timeline (seconds or minutes read as milliseconds). Without such a unit
  this is no warning: an engine may well report many relations at one tick (CQELS reports one
  per result).

>>> from lars.streams import Timeline
>>> seconds = [RecordedRelation(t, ()) for t in (10, 20, 30, 40)]
>>> print(label_warning(seconds, 1000, 0, Timeline(0, 53), range(34)))
warning: the recording's time labels cannot be times of this stream: its 4 relations all fall on \
time point 0 (labels 10–40 ms), while the stream's input spans time points 0–33; read as seconds \
(label × 1000 = ms) they fall at 10–40: the recording is likely in seconds, and CSRBench labels \
are milliseconds from the stream's start
>>> label_warning([RecordedRelation(t * 1000, ()) for t in (10, 20, 30, 40)], 1000, 0,
...               Timeline(0, 53), range(34)) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from agreement.recorded import RecordedRelation
from lars.streams import Timeline

SCALES = (("seconds", 1000, 1), ("minutes", 60_000, 1), ("microseconds", 1, 1000),
          ("nanoseconds", 1, 1_000_000))
"""Units a recording may have been written in instead of milliseconds: ``(name, ×, ÷)``, the
factor that turns one of its labels into milliseconds."""

MANY = 3
"""How many relations on one time point, and how many time points with input, count as many."""


def label_warning(relations: Sequence[RecordedRelation], unit_ms: int, label_ms: int,
                  timeline: Timeline, inputs: Collection[int]) -> str | None:
    """A warning when the labels of ``relations`` cannot be times of the stream (see the module
    docstring), naming the unit that fits them if one does; ``None`` when they can.

    Args:
        unit_ms: one tick in milliseconds; ``label_ms`` the profile's label offset, taken off a
            label first.
        timeline: the check's timeline; ``inputs`` the time points with stream input.
    """
    if not relations:
        return None
    points = [(r.timestamp - label_ms) // unit_ms for r in relations]
    margin = max(timeline.end - timeline.start, 1)
    far = [p for p in points if not timeline.start - margin <= p <= timeline.end + margin]
    crowded = len(relations) >= MANY and len(set(points)) == 1 and len(set(inputs)) >= MANY
    if not far and not crowded:
        return None
    rescaled = next(((name, factor, divisor, fitted) for name, factor, divisor in SCALES
                     for fitted in [[(r.timestamp * factor // divisor - label_ms) // unit_ms
                                     for r in relations]]
                     if _fits(fitted, timeline)), None)
    if not far and rescaled is None:
        return None
    labels = _span([r.timestamp for r in relations])
    if far:
        share = f"all {len(far)} of its" if len(far) == len(relations) else f"{len(far)} of its {len(relations)}"
        what = (f"{share} relations fall at time points "
                f"{_span(far)} (labels {labels} ms), far outside the timeline "
                f"[{timeline.start},{timeline.end}]")
    else:
        what = (f"its {len(relations)} relations all fall on time point {points[0]} (labels "
                f"{labels} ms), while the stream's input spans time points {_span(inputs)}")
    if rescaled is None:
        return (f"warning: the recording's time labels cannot be times of this stream: {what}; "
                "CSRBench labels are milliseconds from the stream's start: is the recording in "
                "another unit, or of another stream?")
    name, factor, divisor, fitted = rescaled
    scale = f"label × {factor} = ms" if divisor == 1 else f"label ÷ {divisor} = ms"
    return (f"warning: the recording's time labels cannot be times of this stream: {what}; read "
            f"as {name} ({scale}) they fall at {_span(fitted)}: the recording is likely in "
            f"{name}, and CSRBench labels are milliseconds from the stream's start")


def _fits(points: Sequence[int], timeline: Timeline) -> bool:
    """Whether ``points`` lie in the timeline, spread over more than one time point (unless
    there is only one)."""
    return (all(timeline.start <= p <= timeline.end for p in points)
            and (len(points) == 1 or len(set(points)) > 1))


def _span(values: Collection[int]) -> str:
    """``10–40``: the least and the largest of ``values`` (``10`` when they are one)."""
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"
