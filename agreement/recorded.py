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
(:func:`read_relations`): each line with bindings is a relation labelled ``t × unit``; a line
without bindings is read as no report, since ``lars run`` writes one for every time point it
evaluated, reported or not (as CQELS's recordings, which never hold an empty relation).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from agreement.compare import AnswerSeries, Row
from lars.errors import InputError, ParseError, Position
from lars.terms import is_iri_text


def term_of(value: object, where: str) -> Node:
    """An rdflib term from a SPARQL JSON results binding value."""
    if not isinstance(value, dict) or "type" not in value or "value" not in value:
        raise InputError(f"{where}: a binding must be an object with 'type' and 'value'")
    kind, text = value["type"], value["value"]
    if not isinstance(text, str):
        raise InputError(f"{where}: a binding's value must be a string, not {text!r}")
    if kind == "uri":
        if not text or not is_iri_text(text):
            raise InputError(f"{where}: {text!r} is not an IRI (it holds white space, '<', '>' or "
                             "control characters)")
        return URIRef(text)
    if kind == "bnode":
        return BNode(text)
    if kind in ("literal", "typed-literal"):
        return Literal(text, lang=value.get("xml:lang"), datatype=value.get("datatype"))
    raise InputError(f"{where}: unknown binding type {kind!r} (expected uri, bnode or literal)")


def load_json(path: str | Path) -> object:
    """The JSON document in ``path``; syntax errors name the line and column."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read the file: {error.strerror or error}", Position(str(path))) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(f"not JSON: {error.msg}", Position(str(path), error.lineno, error.colno)) from None


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


def is_json_lines(path: str | Path) -> bool:
    """Whether ``path`` holds JSON lines with a ``time`` field (``lars run --format
    sparql-json``), not one CSRBench document: its first line is a whole JSON object with
    ``time`` and ``results``."""
    try:
        with open(path, encoding="utf-8") as file:
            first = file.readline()
    except OSError:
        return False
    try:
        line = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(line, dict) and "time" in line and "results" in line


def sparql_json_lines(path: str | Path, unit_ms: int) -> list[dict]:
    """The lines of ``lars run --format sparql-json`` output as CSRBench relations (``head``,
    ``timestamp`` = time × ``unit_ms``, ``results``); lines without bindings are left out."""
    relations = []
    for number, text in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            time, results = line["time"], line["results"]
            document = {"head": results["head"], "timestamp": int(time) * unit_ms,
                        "results": {"bindings": [{"binding": b} for b in results["results"]["bindings"]]}}
        except json.JSONDecodeError as error:
            raise ParseError(f"not JSON: {error.msg}", Position(str(path), number, error.colno)) from None
        except (KeyError, TypeError, ValueError):
            raise ParseError("expected {\"time\": t, \"results\": {\"head\": ..., \"results\": "
                             "{\"bindings\": [...]}}}", Position(str(path), number)) from None
        if document["results"]["bindings"]:
            relations.append(document)
    return relations


def read_relations(path: str | Path, unit_ms: int = 1000) -> RecordedStream:
    """The relations recorded in a CSRBench answer file, or in the SPARQL-results JSON lines of
    ``lars run --format sparql-json`` (times in ticks of ``unit_ms``), one by one (nothing
    merged)."""
    if is_json_lines(path):
        relations = sparql_json_lines(path, unit_ms)
    else:
        document = load_json(path)
        relations = document.get("relations") if isinstance(document, dict) else None
    if not isinstance(relations, list):
        raise InputError("expected an object with a list 'relations', or JSON lines with 'time' "
                         "and 'results' (lars run --format sparql-json)", Position(str(path)))
    variables: tuple[str, ...] | None = None
    found = []
    for number, relation in enumerate(relations, 1):
        where = f"{path}: relation {number}"
        try:
            names = tuple(relation["head"]["vars"])
            timestamp = int(relation["timestamp"])
            bindings = relation["results"]["bindings"]
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{where}: expected head.vars, timestamp and results.bindings") from None
        if variables is not None and set(names) != set(variables):
            raise InputError(f"{where}: variables {names} differ from the first relation's {variables}")
        variables = variables or names
        rows = []
        for binding in bindings:
            values = binding.get("binding", {}) if isinstance(binding, dict) else None
            if not isinstance(values, dict):
                raise InputError(f"{where}: a result must have a 'binding' object")
            rows.append(tuple(term_of(values[name], where) if name in values else None
                              for name in variables))
        found.append(RecordedRelation(timestamp, tuple(rows)))
    return RecordedStream(variables or (), tuple(found))


def read_recorded(path: str | Path, unit_ms: int, label_ms: int = 0) -> AnswerSeries:
    """The answers recorded in a CSRBench answer file, on time points of ``unit_ms`` milliseconds
    (relations at the same time point merged); ``label_ms`` is the engine profile's time label
    minus its report time, taken off first."""
    recorded = read_relations(path)
    answers: dict[int, set[Row]] = {}
    for relation in recorded.relations:
        answers.setdefault((relation.timestamp - label_ms) // unit_ms, set()).update(relation.rows)
    return AnswerSeries(recorded.variables, {t: frozenset(rows) for t, rows in answers.items()})
