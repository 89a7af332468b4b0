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

``lars check`` also reads the SPARQL-results JSON lines ``lars run --format sparql-json`` writes
(one line ``{"time": t, "results": {"head": ..., "results": {"bindings": [...]}}}`` per time point,
``t`` in ticks; :func:`translate.results.stream_line`), told apart by content
(:func:`read_relations`): each line is a relation labelled ``t × unit``, an empty one too:
under a profile or a mode ``lars run`` writes a line at each evaluation the profile reports and
nowhere else, an empty line where a reported relation is empty (C-SPARQL's empty relations; a
CQELS profile reports none). Reading such lines as no report, as this module once did, lost a
C-SPARQL recording's empty relations, and its check then chose a wrong t0 or judged a right
recording INCORRECT.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from agreement.compare import AnswerSeries, Row
from ingest.kafkatime import stamp_of
from ingest.recordedjson import parse_json, relations_of
from lars.errors import InputError, ParseError, Position
from translate.documents import read_document


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


def is_json_lines(text: str) -> bool:
    """Whether ``text`` holds JSON lines with a ``time`` field (``lars run --format
    sparql-json``), not one CSRBench document: its first line is a whole JSON object with
    ``time`` and ``results``."""
    try:
        line = json.loads(text.split("\n", 1)[0])
    except (ValueError, RecursionError):  # not JSON, too deep, or a number past Python's digit limit: the reader says which
        return False
    return isinstance(line, dict) and "time" in line and "results" in line


def sparql_json_lines(text: str, source: str, unit_ms: int) -> list[dict]:
    """The lines of ``lars run --format sparql-json`` output as CSRBench relations (``head``,
    ``timestamp`` = time × ``unit_ms``, ``results``), one per line, empty ones included."""
    relations = []
    for number, line_text in enumerate(text.splitlines(), 1):
        if not line_text.strip():
            continue
        try:
            line = json.loads(line_text)
            time, results = line["time"], line["results"]
            relation = {"head": results["head"], "timestamp": int(time) * unit_ms,
                        "results": {"bindings": [{"binding": b} for b in results["results"]["bindings"]]}}
        except json.JSONDecodeError as error:
            raise ParseError(f"not JSON: {error.msg}", Position(source, number, error.colno)) from None
        except (KeyError, TypeError, ValueError, OverflowError):
            raise ParseError("expected {\"time\": t, \"results\": {\"head\": ..., \"results\": "
                             "{\"bindings\": [...]}}}", Position(source, number)) from None
        relations.append(relation)
    return relations


ACCEPTED = ("--answers reads CSRBench answer JSON or the JSON lines of lars run --format "
            "sparql-json; record one with: lars run QUERY --stream FILE --profile PROFILE --format "
            "sparql-json > answers.jsonl")
"""What ``lars check --answers`` reads and how to make one: the hint of a file in neither format."""
UNKNOWN_SHAPES = ("not JSON", "'relations' is missing")
"""The starts of the readers' messages for a file that is in neither format as a whole."""


def other_output(text: str) -> str | None:
    """Which other output of ``lars run`` (or a table) ``text`` is, by its first line, if it is
    one: a newcomer gave ``--answers`` the ``--format json`` document, the ``--output`` JSON
    lines and a CSV table, and was told only "'relations' is missing" or "not JSON".

    >>> other_output('{"format": "lars-solutions", "version": 1, "answers": [')
    'lars run --format json output'
    >>> other_output('time,room') is None, other_output('{"head": {}}') is None
    (False, True)
    """
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    if first.startswith(("time,", "time\t", "?time\t")):
        return "a CSV or TSV table (lars run --format csv, sparql-csv or sparql-tsv)"
    if '"lars-solutions"' in first:
        return "lars run --format json output"
    try:
        line = json.loads(first)
    except (ValueError, RecursionError):
        return None
    if isinstance(line, dict) and "time" in line and "binding" in line:
        return "JSON lines of lars run --output"
    return None


def read_relations(path: str | Path, unit_ms: int = 1000) -> RecordedStream:
    """The relations recorded in a CSRBench answer file, or in the SPARQL-results JSON lines of
    ``lars run --format sparql-json`` (times in ticks of ``unit_ms``), one by one (nothing
    merged), checked by :func:`ingest.recordedjson.relations_of`.

    Raises:
        ParseError, InputError: the file is neither; the message says so, and which of
            ``lars run``'s other outputs it is if it is one (:func:`other_output`), the hint
            what is read (:data:`ACCEPTED`).
    """
    source = os.fspath(path)
    text = read_document(source, "recorded answers")
    try:
        document = ({"relations": sparql_json_lines(text, source, unit_ms)}
                    if is_json_lines(text) else parse_json(text, source))
        checked = relations_of(document, source)
    except (InputError, ParseError) as error:
        found = other_output(text)
        if found is not None:
            raise type(error)(f"this is {found}, not recorded answers", Position(source),
                              ACCEPTED) from None
        if error.message.startswith(UNKNOWN_SHAPES):  # neither format: say which are read
            raise type(error)(error.message, error.position, error.hint or ACCEPTED) from None
        raise
    return RecordedStream(checked.variables, tuple(RecordedRelation(timestamp, rows)
                                                   for timestamp, rows in checked.relations))


def relation_line(text: str, source: str, number: int, unit_ms: int) -> RecordedStream:
    """The relations of one line of recorded answers read live (``--follow``): a CSRBench
    relation or a ``lars run --format sparql-json`` line, checked as the files are, errors at
    the line's position. A :class:`~ingest.kafkatime.StampedLine` (``--kafka-time``) is at its
    message's time: a CSRBench relation then needs no ``timestamp`` of its own.

    >>> line = '{"head": {"vars": ["x"]}, "timestamp": 2000, "results": {"bindings": []}}'
    >>> relation_line(line, "a.jsonl", 3, 1000).relations
    (RecordedRelation(timestamp=2000, rows=()),)
    """
    if not text.strip():
        return RecordedStream((), ())
    stamp = stamp_of(text)
    try:
        document = parse_json(text, source)
        if isinstance(document, dict) and "time" in document:
            relations = sparql_json_lines(text, source, unit_ms)
        else:
            if stamp is not None and isinstance(document, dict):
                document.setdefault("timestamp", stamp)  # the message's time replaces it
            relations = [document]
        checked = relations_of({"relations": relations}, source)
    except (InputError, ParseError) as error:  # the readers' positions: a one-line file
        where = error.position or Position(source)
        column = where.column or len(text) - len(text.lstrip()) + 1  # else the line's object
        raise type(error)(error.message.removeprefix("relations[0]."),
                          Position(source, number, column), error.hint) from None
    return RecordedStream(checked.variables, tuple(
        RecordedRelation(timestamp if stamp is None else stamp, rows)
        for timestamp, rows in checked.relations))


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
