"""Recorded answers in the CSRBench JSON format, validated before use (SPEC section 9, issue 28).

The shape is documented as a JSON Schema in ``docs/schemas/recorded-answers.schema.json``;
this reader checks that shape and what a schema cannot say, and refuses anything else in one
line naming the file and the JSON path of the bad value::

    a.json: error: relations[2].timestamp: must be a whole number of milliseconds from 0 to
    9223372036854775807, not -5000

What is checked, each a case that once gave an internal error or a silently wrong answer:

* timestamps are JSON integers in ``[0, 2^63-1]`` (not ``Infinity``, ``1e30``, ``1.5``, a
  number of 5,000 digits, or a negative number on a timeline that starts at 0);
* ``head.vars`` is a list of distinct variable names (not a string, which Python would read as
  one variable per character, nor an object), the same set in every relation;
* ``results.bindings`` is a list of objects with a ``binding`` object, whose every variable is
  one of ``head.vars`` (a binding of an undeclared variable is not dropped);
* terms are well formed: an IRI without white space or ``<>``, a literal with at most one of
  ``xml:lang`` (a BCP 47 tag) and ``datatype`` (an IRI), strings without lone surrogates.

>>> terms = {"x": {"type": "literal", "value": "a", "xml:lang": "en", "datatype": "http://e/d"}}
>>> relation = {"head": {"vars": ["x"]}, "timestamp": 0, "results": {"bindings": [{"binding": terms}]}}
>>> relations_of({"relations": [relation]}, "a.json")
Traceback (most recent call last):
lars.errors.InputError: a.json: error: relations[0].results.bindings[0].binding.x: a literal has \
either xml:lang or datatype, not both
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from lars.errors import InputError, ParseError, Position
from lars.terms import is_iri_text
from translate.documents import read_document

MAX_TIMESTAMP = 2**63 - 1
LANGUAGE_TAG = re.compile(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")
VARIABLE = re.compile(r"[A-Za-z0-9_\u00b7\u00c0-\ud7ff\ue000-\ufffd]+")
LONGEST_INTEGER = 40
"""Digits past which a JSON integer is not even converted (Python refuses 4,300 and more)."""

RecordedRow = tuple[Node | None, ...]
KINDS = {list: "a list", dict: "an object", str: "a string"}


@dataclass(frozen=True)
class NotANumber:
    """A JSON value Python would read as a number but no timestamp can be: ``Infinity``, ``NaN``,
    an integer of too many digits; kept as text so that the message can show it."""

    text: str

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 20 else f"an integer of {len(self.text)} digits"


def _integer(text: str) -> int | NotANumber:
    return NotANumber(text) if len(text.lstrip("-")) > LONGEST_INTEGER else int(text)


def parse_json(text: str, source: str) -> object:
    """The JSON document ``text``; syntax errors name the line and column."""
    try:
        return json.loads(text, parse_constant=NotANumber, parse_int=_integer)
    except json.JSONDecodeError as error:
        raise ParseError(f"not JSON: {error.msg}", Position(source, error.lineno, error.colno)) from None
    except RecursionError:
        raise ParseError("the JSON is nested too deeply", Position(source)) from None


def refuse(source: str, path: str, message: str) -> InputError:
    """The error for the value at JSON ``path`` of the file ``source``."""
    return InputError(f"{path}: {message}" if path else message, Position(source))


def shown(value: object) -> str:
    """``value`` for a message, short whatever it is (a file may hold anything)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _string(value: object, source: str, path: str, what: str) -> str:
    if not isinstance(value, str):
        raise refuse(source, path, f"{what} must be a string, not {shown(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise refuse(source, path, f"{what} holds a lone surrogate \\u{ord(value[error.start]):04x} "
                                   f"at character {error.start + 1}") from None
    return value


def _field(container: object, key: str, kind: type, source: str, path: str) -> object:
    """``container[key]``, which must be a ``kind``."""
    if not isinstance(container, dict):
        raise refuse(source, path, f"must be an object, not {shown(container)}")
    where = f"{path}.{key}" if path else key
    if key not in container:
        raise refuse(source, path, f"'{key}' is missing")
    value = container[key]
    if not isinstance(value, kind):
        raise refuse(source, where, f"must be {KINDS[kind]}, not {shown(value)}")
    return value


def timestamp_of(value: object, source: str, path: str) -> int:
    """A timestamp: a JSON integer of milliseconds in ``[0, MAX_TIMESTAMP]``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIMESTAMP:
        raise refuse(source, path, "must be a whole number of milliseconds from 0 to "
                                   f"{MAX_TIMESTAMP}, not {shown(value)}")
    return value


def variables_of(head: object, source: str, path: str) -> tuple[str, ...]:
    """``head.vars``: distinct variable names."""
    names = _field(head, "vars", list, source, path)
    where = f"{path}.vars"
    for number, name in enumerate(names):
        _string(name, source, f"{where}[{number}]", "a variable")
        if not VARIABLE.fullmatch(name):
            raise refuse(source, f"{where}[{number}]", f"{shown(name)} is not a variable name")
    if len(set(names)) < len(names):
        raise refuse(source, where, "a variable is named twice")
    return tuple(names)


def term_of(value: object, source: str, path: str) -> Node:
    """An rdflib term from a SPARQL JSON results binding value."""
    kind = _string(_field(value, "type", str, source, path), source, f"{path}.type", "type")
    text = _string(value.get("value"), source, f"{path}.value", "a value")  # type: ignore[union-attr]
    if kind == "uri":
        if not is_iri_text(text):
            raise refuse(source, f"{path}.value", f"{shown(text)} is not an IRI (it is empty or "
                                                  "holds white space, '<', '>' or control characters)")
        return URIRef(text)
    if kind == "bnode":
        if not text:
            raise refuse(source, f"{path}.value", "a blank node needs a label")
        return BNode(text)
    if kind not in ("literal", "typed-literal"):
        raise refuse(source, f"{path}.type", f"unknown binding type {shown(kind)} (expected uri, "
                                             "bnode or literal)")
    language, datatype = value.get("xml:lang"), value.get("datatype")  # type: ignore[union-attr]
    if language is not None and datatype is not None:
        raise refuse(source, path, "a literal has either xml:lang or datatype, not both")
    if language is not None:
        _string(language, source, f"{path}.xml:lang", "xml:lang")
        if not LANGUAGE_TAG.fullmatch(language):
            raise refuse(source, f"{path}.xml:lang", f"{shown(language)} is not a language tag")
    if datatype is not None:
        if not is_iri_text(_string(datatype, source, f"{path}.datatype", "datatype")):
            raise refuse(source, f"{path}.datatype", f"{shown(datatype)} is not an IRI")
    return Literal(text, lang=language, datatype=datatype)


@dataclass(frozen=True)
class RecordedDocument:
    """A recorded-answers file, checked: its variables and its relations in file order, each a
    timestamp in milliseconds and rows in file order (columns in the order of ``variables``,
    ``None`` for a variable a row leaves unbound)."""

    variables: tuple[str, ...]
    relations: tuple[tuple[int, tuple[RecordedRow, ...]], ...]


def relations_of(document: object, source: str) -> RecordedDocument:
    """The checked content of a parsed recorded-answers document read from ``source``."""
    relations = _field(document, "relations", list, source, "")
    variables: tuple[str, ...] | None = None
    found = []
    for number, relation in enumerate(relations):
        where = f"relations[{number}]"
        names = variables_of(_field(relation, "head", dict, source, where), source, f"{where}.head")
        if variables is not None and set(names) != set(variables):
            raise refuse(source, f"{where}.head.vars", f"variables {', '.join(names) or 'none'} differ "
                                                       f"from the first relation's {', '.join(variables) or 'none'}")
        variables = variables or names
        timestamp = timestamp_of(relation.get("timestamp"), source, f"{where}.timestamp")
        bindings = _field(_field(relation, "results", dict, source, where), "bindings", list,
                          source, f"{where}.results")
        found.append((timestamp, tuple(row_of(binding, variables, source, f"{where}.results.bindings[{i}]")
                                       for i, binding in enumerate(bindings))))
    return RecordedDocument(variables or (), tuple(found))


def row_of(binding: object, variables: tuple[str, ...], source: str, path: str) -> RecordedRow:
    """One result: its terms in the order of ``variables``."""
    values = _field(binding, "binding", dict, source, path)
    if "timestamp" in binding:  # type: ignore[operator]
        timestamp_of(binding["timestamp"], source, f"{path}.timestamp")  # type: ignore[index]
    for name in values:
        if name not in variables:
            raise refuse(source, f"{path}.binding", f"binds {shown(name)}, which head.vars does not declare")
    return tuple(term_of(values[name], source, f"{path}.binding.{name}") if name in values else None
                 for name in variables)


def read_recorded_document(path: str | os.PathLike) -> RecordedDocument:
    """The checked content of the recorded-answers file ``path``.

    Raises:
        InputError: the file cannot be read, is not a regular file, is too large, or its
            content is not recorded answers (the JSON path of the first bad value named).
        ParseError: it is not UTF-8 text, or not JSON.
    """
    source = os.fspath(path)
    return relations_of(parse_json(read_document(source, "recorded answers"), source), source)
