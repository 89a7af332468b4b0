"""An independent reading of engine-profile reporting, straight from its sources (SPEC section 12).

For a stream with at most one event per time point, the relation an engine reports at each
evaluation is the set of event times inside the window scope. This module computes that set
directly, without LARS, following the CSRBench oracle's ``WindowOperator`` and
``StreamProcessorOutputBuilder`` (dellaglio/csrbench-oracle) and RSP4J's
``CSPARQLStreamToRelationOp`` (windows ``[o, o+L)`` opened at ``o = t0 + k·β`` for every integer
``k``), so that :mod:`translate.reports` can be tested against it.
"""

from __future__ import annotations

from collections.abc import Sequence


def window_close(times: Sequence[int], length: int, step: int, t0: int, end: int,
                 partial: bool = False, non_empty: bool = True) -> list[tuple[int, frozenset[int]]]:
    """(close time, events in ``[c - L, c)``) for every window close up to ``end``.

    Without partial windows the first close is ``t0 + L`` (the oracle's ``actualTime += size``);
    with them every ``c ≡ t0 + L (mod β)`` with ``c > 0`` closes a window clipped at 0 (RSP4J).
    """
    first = t0 + length
    if partial:
        first -= ((first - 1) // step) * step
    found = []
    for close in range(first, end + 1, step):
        content = frozenset(t for t in times if max(close - length, 0) <= t < close)
        if content or not non_empty:
            found.append((close, content))
    return found


def content_change(times: Sequence[int], length: int, step: int, t0: int
                   ) -> list[tuple[int, frozenset[int]]]:
    """(τ, events in ``[max(t0, t0 + aβ), τ]``) for each event time ``τ > t0``, ``a`` the least
    with ``t0 + aβ + L > τ`` (the oracle's content-change scope)."""
    found = []
    for tau in sorted(set(times)):
        if tau <= t0:
            continue
        a = 0
        while a * step + t0 + length <= tau:
            a += 1
        start = max(t0, t0 + a * step)
        found.append((tau, frozenset(t for t in times if start <= t <= tau)))
    return found


def istream(relations: Sequence[tuple[int, frozenset[int]]]) -> list[tuple[int, frozenset[int]]]:
    """The oracle's Istream: each relation minus the previous *relation*, empty ones dropped."""
    found, previous = [], None
    for time, content in relations:
        emitted = content if previous is None else content - previous
        if emitted:
            found.append((time, emitted))
        previous = content
    return found
