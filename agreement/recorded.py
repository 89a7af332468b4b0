"""Answer streams recorded from real engines, in the CSRBench format (SPEC section 9).

A file is ``{"relations": [{"head": {"vars": [...]}, "timestamp": ms, "results": {"bindings":
[{"timestamp": ms, "binding": {var: {"type": ..., "value": ...}}}]}}]}`` with timestamps in
milliseconds. Each relation becomes the answer at time point ``floor(timestamp / unit)``:

* C-SPARQL reports when a window closes, at multiples of its step (``20000`` → 20 with unit
  ``1s``), one relation per evaluation, empty ones included;
* CQELS reports at wall-clock times a few milliseconds after the arrival that triggered it
  (``12047`` → 12), one relation per result and never an empty one. Flooring maps each result to
  the time point of the arrival that caused it, which is right as long as the engine answered
  within one tick; a slower engine would shift answers into the next time point.

Several relations at the same time point are merged (CQELS's one-result relations).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agreement.compare import AnswerSeries, Row
from ingest.recordedjson import read_recorded_document
from lars.errors import InputError, Position


@dataclass(frozen=True)
class RecordedRelation:
    """One relation as an engine reported it: its timestamp in milliseconds and its rows, in
    file order with duplicates kept (an engine with bag answers repeats rows)."""

    timestamp: int
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class RecordedStream:
    """The relations of a CSRBench answer file, in file order."""

    variables: tuple[str, ...]
    relations: tuple[RecordedRelation, ...]


def reorder(recorded: RecordedStream, variables: tuple[str, ...], where: str = "") -> RecordedStream:
    """The same relations with columns in the order of ``variables`` (the same set of names)."""
    if set(variables) != set(recorded.variables):
        raise InputError(f"{where}the recorded variables {', '.join(recorded.variables)} are not "
                         f"the query's {', '.join(variables)}")
    index = [recorded.variables.index(name) for name in variables]
    return RecordedStream(variables, tuple(
        RecordedRelation(r.timestamp, tuple(tuple(row[i] for i in index) for row in r.rows))
        for r in recorded.relations))


def read_relations(path: str | Path) -> RecordedStream:
    """The relations recorded in a CSRBench answer file, one by one (nothing merged), checked
    by :func:`ingest.recordedjson.read_recorded_document`."""
    document = read_recorded_document(path)
    return RecordedStream(document.variables, tuple(RecordedRelation(timestamp, rows)
                                                    for timestamp, rows in document.relations))


def read_recorded(path: str | Path, unit_ms: int, label_ms: int = 0) -> AnswerSeries:
    """The answers recorded in a CSRBench answer file, on time points of ``unit_ms`` milliseconds
    (relations at the same time point merged); ``label_ms`` is the engine profile's time label
    minus its report time, taken off first; a relation it moves before time 0 is refused (it
    would be compared with a pull outside the timeline)."""
    recorded = read_relations(path)
    answers: dict[int, set[Row]] = {}
    for number, relation in enumerate(recorded.relations):
        if relation.timestamp < label_ms:
            raise InputError(f"relations[{number}].timestamp: {relation.timestamp} ms less the "
                             f"profile's label-ms {label_ms} lies before the timeline's start 0",
                             Position(str(path)))
        answers.setdefault((relation.timestamp - label_ms) // unit_ms, set()).update(relation.rows)
    return AnswerSeries(recorded.variables, {t: frozenset(rows) for t, rows in answers.items()})
