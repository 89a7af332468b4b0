"""Arguments given as text or as a path: queries, LARS programs, background facts, atom streams.

The façade (:mod:`agreement.facade`) takes each of them either way, as ``lars`` does: a
:class:`~pathlib.Path`, or a one-line string naming a file or ending in a known suffix, is read;
anything else is the text itself. :func:`is_event_source` tells an event query apart (the
``lars`` commands hand those to :mod:`agreement.events.pipeline`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ingest.policy import ReadPolicy, ReadReport, parse_lines, read_text
from lars.atoms import Atom
from lars.errors import InputError
from lars.streams import Stream, Timeline
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.scanner import is_event_query

Source = str | os.PathLike
"""Text, or a path: a :class:`~pathlib.Path`, or a one-line string naming an existing file or
ending in a known suffix (``.lars``, ``.rq``, ``.sparql``, ``.csparql``, ``.cqels``, ``.txt``)."""

QUERY_SUFFIXES = (".rq", ".sparql", ".csparql", ".cqels")
SOURCE_SUFFIXES = (".lars", ".txt", *QUERY_SUFFIXES)
QUERY_START = re.compile(r"\A(?:\s|#[^\n]*\n)*(PREFIX|BASE|SELECT|ASK|CONSTRUCT|REGISTER)\b",
                         re.IGNORECASE)
TEXT_SOURCE = "<string>"


def read_source(value: Source) -> tuple[str, str]:
    """``(text, source name)`` of a text-or-path argument (see :data:`Source`).

    >>> read_source("x :- p.")
    ('x :- p.', '<string>')
    """
    if isinstance(value, os.PathLike):
        return read_text(value), os.fspath(value)
    if "\n" not in value and (value.lower().endswith(SOURCE_SUFFIXES) or names_file(value)):
        return read_text(value), value
    return value, TEXT_SOURCE


def names_file(value: str) -> bool:
    """Whether ``value`` is one line naming an existing file."""
    try:
        return "\n" not in value and Path(value).is_file()
    except OSError:  # a name too long for the system is no file's name
        return False


def atom_stream_reader(stream: Source, policy: ReadPolicy, report: ReadReport
                       ) -> tuple[Callable[[], Iterator[tuple[int, Sequence[Atom]]]], int | None, int | None]:
    """A function reading the slices of a LARS atom stream, and its first and largest time
    points: a file under the default policy is read lazily at each call
    (:func:`ingest.larsfile.stream_reader`), anything else is read here into memory."""
    from ingest.larsfile import stream_reader  # the stream readers (issue 29: not translate's)
    if policy.quiet and is_file(stream):
        return stream_reader(stream, report)
    atoms = read_atom_stream(stream, policy, report)
    items = atoms.items
    return (lambda: iter(items)), atoms.timeline.start, atoms.timeline.end


def is_file(stream: Source) -> bool:
    """Whether a stream argument names a file rather than holding the stream's text."""
    return isinstance(stream, os.PathLike) or not ("\n" in stream or ":" in stream) or names_file(stream)


def read_atom_stream(stream: Source, policy: ReadPolicy, report: ReadReport) -> Stream:
    """A LARS atom stream from a file, or from text (lines ``t: a(1), b``; text is what holds a
    line break, or a colon without naming a file).

    >>> read_atom_stream("1: p(1)\\n3: q", ReadPolicy(), ReadReport()).time_points()
    [1, 3]
    """
    if is_file(stream):
        from ingest.larsfile import read_stream  # the stream readers (issue 29: not translate's)
        return read_stream(stream, policy=policy, report=report)
    from lars.parser import parse_stream_line  # LARS text (issue 29: not lars agree's)
    contents: dict[int, list[Atom]] = {}
    for entry in parse_lines(stream.splitlines(), TEXT_SOURCE, parse_stream_line, policy, report):
        contents.setdefault(entry.time, []).extend(entry.elements)
    return Stream.from_mapping(Timeline(min(contents, default=0), max(contents, default=0)), contents)


def is_query(path: str, text: str) -> bool:
    """A query file by its suffix, or, for other names, by its first keyword."""
    return path.lower().endswith(QUERY_SUFFIXES) or (
        not path.lower().endswith(".lars") and QUERY_START.match(text) is not None)


def period_ticks(period: str | int | None, unit: str) -> int | None:
    """A pulling period in ticks: a duration such as ``"10s"``, or a number of ticks."""
    if period is None or isinstance(period, int):
        return period
    return to_ticks(parse_duration(period), parse_unit(unit))


def is_event_source(value: Source | None) -> bool:
    """Whether ``value`` (text or a path) is a query (not a LARS program) in the event syntax.

    >>> is_event_source("timestamp(X) :- p(X).")
    False
    """
    if value is None:
        return False
    try:
        text, source = read_source(value)
    except InputError:
        return False
    return is_query(source, text) and is_event_query(text)
