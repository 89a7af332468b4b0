"""LARS atom stream files: lines ``t: a(1), b(x,"y")`` (SPEC section 2).

One line holds a time point, a colon and the ground atoms that arrive then, in arrival order
(``5:`` with no atoms is allowed). Blank lines and ``#`` comments are skipped. Several lines may
share a time point; their atoms join in line order. Bad lines and backwards timestamps follow the
shared :class:`~ingest.policy.ReadPolicy`. The line syntax itself is
:func:`lars.parser.parse_stream_line`.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "s.stream"
>>> _ = path.write_text("# offers\\n10: offer(a,\\"mbt\\",30)\\n18: isNear(a), isNear(b)\\n")
>>> stream = read_stream(path, Timeline(0, 50))
>>> stream.time_points(), [str(atom.predicate) for atom in stream.at(18)]
([10, 18], ['isNear', 'isNear'])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from operator import attrgetter, methodcaller
from pathlib import Path

from ingest.lazy import checked_reader, lines_from_end
from ingest.policy import (
    Entry,
    LineParser,
    ReadPolicy,
    ReadReport,
    decode_line,
    handle,
    parse_lines,
    read_lines,
    require_report,
)
from lars.atoms import Atom
from lars.errors import InputError, LarsError
from lars.parser import parse_stream_line, stream_line_parts, uniform_stream_line
from lars.streams import Stream, Timeline
from lars.terms import RESERVED_WORD
from solver.keys import KeyedSlice


def read_stream_entries(path: str | Path, *, policy: ReadPolicy = ReadPolicy(),
                        report: ReadReport | None = None, parse: LineParser = parse_stream_line
                        ) -> Iterator[Entry]:
    """The lines of a LARS atom stream file as entries ``(t, atoms, position)``.

    In arrival order, or sorted by time under ``order="sort"``.

    Args:
        path: the stream file (UTF-8).
        policy: what to do with bad lines and backwards timestamps.
        report: where skipped and reordered lines are counted; needed unless the policy is the
            default (stop, strict).
        parse: the line parser (:func:`keyed_stream_line` gives the atoms of a line as keys).

    Raises:
        InputError: the file cannot be read; a timestamp goes back in time (strict order).
        ParseError: a bad line (``on_error="stop"``), with file, line and column.
    """
    report = require_report(policy, report)
    return parse_lines(read_lines(path), str(path), parse, policy, report, per_stream=False)


def keyed_stream_line(line: str, source: str, line_number: int
                      ) -> tuple[int, Sequence[Atom]] | None:
    """:func:`~lars.parser.parse_stream_line`, with the atoms of a line of the common shape
    (:func:`~lars.parser.uniform_stream_line`, else :func:`~lars.parser.stream_line_parts`) and
    of one signature given as a
    :class:`~solver.keys.KeyedSlice` made from their text: no atom is made unless a reader of
    the slice asks for it (the incremental engine reads keys only). Other lines are parsed.

    >>> keyed_stream_line("3: p(1,a), p(-2, b)", "s", 1)
    (3, (Atom(predicate='p', args=(Number(value=1), Name(value='a'))), Atom(predicate='p', args=(Number(value=-2), Name(value='b')))))
    >>> keyed_stream_line("3: p(1), q", "s", 1)[1]
    [Atom(predicate='p', args=(Number(value=1),)), Atom(predicate='q', args=())]
    """
    uniform = uniform_stream_line(line)
    if uniform is not None:
        time, predicate, arity, values = uniform
        return time, KeyedSlice.from_keys((predicate, arity), list(zip(*[iter(values)] * arity)))
    parts = stream_line_parts(line)
    if parts is not None:
        time, found = parts
        keyed = keyed_parts(found)
        if keyed is not None:
            return time, keyed
    return parse_stream_line(line, source, line_number)


def keyed_parts(parts: list[tuple[str, str]]) -> KeyedSlice | None:
    """The slice of the atoms of :func:`~lars.parser.stream_line_parts`, if there are some, all
    of one signature, and none names the reserved word ``not`` (else ``None``). Numbers only,
    the common case, are read for the whole line at once: the arguments of all atoms joined,
    split and made ``int`` by one ``map``, and cut into tuples of the arity by ``zip``."""
    if not parts:
        return None
    predicate = parts[0][0]
    inners = [inner for other, inner in parts if other == predicate]
    if len(inners) < len(parts) or predicate == RESERVED_WORD:
        return None
    if "" not in inners:
        commas = set(map(COMMAS, inners))
        if len(commas) > 1:
            return None
        arity = commas.pop() + 1
        try:
            values = list(map(int, ",".join(inners).split(",")))
            return KeyedSlice.from_keys((predicate, arity), list(zip(*[iter(values)] * arity)))
        except ValueError:  # a name
            pass
    keys = [argument_keys(inner) for inner in inners]
    if None in keys:
        return None
    arities = set(map(len, keys))
    return KeyedSlice.from_keys((predicate, arities.pop()), keys) if len(arities) == 1 else None


COMMAS = methodcaller("count", ",")


def argument_keys(inner: str) -> tuple[int | str, ...] | None:
    """The keys of the arguments of :func:`~lars.parser.stream_line_parts` (numbers and names),
    ``None`` if one is the reserved word ``not``."""
    texts = [text.strip() for text in inner.split(",")] if inner else []
    if RESERVED_WORD in texts:
        return None
    return tuple([text if text[0].isalpha() else int(text) for text in texts])


def stream_slices(path: str | Path, policy: ReadPolicy, report: ReadReport
                  ) -> Iterator[tuple[int, Sequence[Atom]]]:
    """The slices ``(t, atoms in arrival order)`` of a LARS atom stream file, read lazily (the
    lines of one time point joined, in line order), a line's atoms as keys where it can
    (:func:`keyed_stream_line`)."""
    entries = read_stream_entries(path, policy=policy, report=report, parse=keyed_stream_line)
    for t, group in itertools.groupby(entries, key=attrgetter("time")):
        first = next(group)
        rest = list(group)
        yield t, first.elements if not rest else joined([first.elements] + [e.elements for e in rest])


def joined(slices: list[Sequence[Atom]]) -> Sequence[Atom]:
    """The atoms of several lines of one time point, in line order: keys if all are keys of
    one signature."""
    if all(type(part) is KeyedSlice for part in slices) and len({part.signature for part in slices}) == 1:
        return KeyedSlice.from_keys(slices[0].signature, [keys for part in slices for keys in part.keys()])
    return tuple(itertools.chain.from_iterable(slices))


def line_time(raw: bytes, path: str) -> int | None:
    """The time point of a well-formed stream line, else ``None`` (blank, comment or bad)."""
    try:
        parsed = parse_stream_line(decode_line(raw, path, 0), path, 0)
    except LarsError:
        return None
    return None if parsed is None else parsed[0]


def stream_reader(path: str | Path, report: ReadReport
                  ) -> tuple[Callable[[], Iterator[tuple[int, Sequence[Atom]]]], int | None, int | None]:
    """A function reading a LARS atom stream file's slices lazily (:func:`stream_slices`) under
    the default policy (stop, strict), and its first and largest time points, read from its two
    ends without reading it through (as :func:`ingest.lazy.stream_reader` does for RDF streams:
    accepted lines ascend, so the last well-formed line has the largest time point, and a line
    that goes back is refused when reading reaches it).

    Raises:
        InputError: the file cannot be read; its last line is before its first.
    """
    path = str(path)
    times = (line_time(raw, path) for raw in read_lines(path))
    first = next((t for t in times if t is not None), None)
    last = next((t for t in map(partial(line_time, path=path), lines_from_end(path)) if t is not None), None)
    read = partial(stream_slices, path, ReadPolicy(), report)
    return checked_reader(read, first, last), first, last


def read_stream(path: str | Path, timeline: Timeline | None = None, *,
                policy: ReadPolicy = ReadPolicy(), report: ReadReport | None = None) -> Stream:
    """A LARS atom stream file as a :class:`~lars.streams.Stream`.

    Args:
        path: the stream file.
        timeline: the timeline; by default the smallest one holding every line's time point
            (``[0, 0]`` for an empty stream).
        policy: what to do with bad lines and backwards timestamps.
        report: where skipped and reordered lines are counted.

    Raises:
        InputError: a time point outside ``timeline`` (naming its line; skipped and counted
            under ``on_error="skip"``), an unreadable file, or a timestamp going back in time.
        ParseError: a bad line (``on_error="stop"``).
    """
    report = require_report(policy, report)
    contents: dict[int, list] = {}
    for entry in read_stream_entries(path, policy=policy, report=report):
        if timeline is not None and entry.time not in timeline:
            handle(InputError(f"time point {entry.time} is outside the timeline "
                              f"[{timeline.start}, {timeline.end}]", entry.position), policy, report)
            report.elements -= len(entry.elements)
            continue
        contents.setdefault(entry.time, []).extend(entry.elements)
    if timeline is None:
        timeline = Timeline(min(contents, default=0), max(contents, default=0))
    return Stream.from_mapping(timeline, contents)
