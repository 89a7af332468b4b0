"""How every stream reader treats bad lines and time order (SPEC sections 2 and 11).

All readers (timestamped N-Triples, Turtle folders, LARS atom streams, and the Spark slicing job)
share one policy:

* ``on_error="stop"`` (the default) raises the first bad line's error, with ``file:line:col``;
  ``on_error="skip"`` skips bad lines, counts them and keeps the first five messages in a
  :class:`ReadReport` for the caller to print at the end.
* ``order="strict"`` (the default) refuses a timestamp that goes back in time, naming both lines;
  under ``on_error="skip"`` such a line is skipped like any other bad line.
  ``order="sort"`` accepts it and sorts the elements by time (stably: arrival order within a time
  point), counting the lines that came out of order as a warning in the report.

Nothing is dropped silently: every skipped line and every reordering is in the report.

A *line parser* turns one line into ``(t, elements)``, or ``None`` for a blank or comment line,
and raises :class:`~lars.errors.ParseError` with the position of anything wrong; it has the
signature of :func:`lars.parser.parse_stream_line`.

>>> def parse(line, source, number):
...     time, _, word = line.partition(" ")
...     return (int(time), [word]) if line else None
>>> report = ReadReport()
>>> [tuple(entry[:2]) for entry in parse_lines(["3 a", "", "5 b", "4 c"], "s.txt", parse,
...                                            ReadPolicy(order="sort"), report)]
[(3, ('a',)), (4, ('c',)), (5, ('b',))]
>>> report.summary()
['s.txt:4:1: warning: timestamp 4 goes back in time (line 3 had 5); 1 line out of time order was sorted']
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import gt
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from lars.errors import InputError, LarsError, ParseError, Position
from ingest.timeorder import (  # noqa: F401 (TimeOrder, combine_orders: read from here too)
    Entry, StreamMerge, TimeOrder, at_timestamp, combine_orders, stream_of,
)
from lars.filekinds import kind_of
from solver.keys import KeyedSlice
from translate.documents import decode_text

LineParser = Callable[[str, str, int], "tuple[int, list[Any]] | None"]
"""``(line, source, line_number) -> (t, elements) | None``; raises ``ParseError``."""

ON_ERROR = ("stop", "skip")
ORDER = ("strict", "sort")
MAX_MESSAGES = 5
"""How many error messages a :class:`ReadReport` keeps (it counts all of them)."""


def _check_choice(option: str, value: str, choices: tuple[str, ...]) -> None:
    if value in choices:
        return
    close = difflib.get_close_matches(str(value), choices, n=1)
    hint = f"did you mean {close[0]!r}?" if close else None
    expected = " or ".join(repr(choice) for choice in choices)
    raise InputError(f"unknown {option} {value!r}: expected {expected}", hint=hint)


@dataclass(frozen=True)
class ReadPolicy:
    """What a reader does with bad lines (``on_error``) and backwards timestamps (``order``).

    >>> ReadPolicy(on_error="skp")
    Traceback (most recent call last):
    lars.errors.InputError: error: unknown on_error 'skp': expected 'stop' or 'skip' (did you mean 'skip'?)
    """

    on_error: str = "stop"
    order: str = "strict"

    def __post_init__(self) -> None:
        _check_choice("on_error", self.on_error, ON_ERROR)
        _check_choice("order", self.order, ORDER)

    @property
    def quiet(self) -> bool:
        """Whether this policy can never add anything to a report (stop and strict)."""
        return self.on_error == "stop" and self.order == "strict"


@dataclass
class ReadReport:
    """What one read (of one or several sources) skipped and reordered.

    Attributes:
        records: lines (or files) read, blank and comment lines included.
        elements: elements delivered (triples or atoms).
        skipped: bad records skipped under ``on_error="skip"``.
        messages: the first :data:`MAX_MESSAGES` error messages of the skipped records.
        reordered: records that went back in time and were sorted under ``order="sort"``.
        first_reorder: the warning for the first of them.
        notes: further warnings about the input, e.g. what lay outside the timeline
            (:func:`within_timeline`).
    """

    records: int = 0
    elements: int = 0
    skipped: int = 0
    messages: list[str] = field(default_factory=list)
    reordered: int = 0
    first_reorder: str | None = None
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        """Add the warning ``text`` to :attr:`notes`, once."""
        if text not in self.notes:
            self.notes.append(text)

    def skip(self, error: LarsError) -> None:
        """Count a skipped record, keeping its message if it is among the first few."""
        self.skipped += 1
        if len(self.messages) < MAX_MESSAGES:
            self.messages.append(str(error))

    def reorder(self, error: InputError) -> None:
        """Count a record that came out of time order (``error`` says where)."""
        self.reordered += 1
        if self.first_reorder is None:
            prefix = f"{error.position}: " if error.position is not None else ""
            self.first_reorder = f"{prefix}warning: {error.message}"

    def summary(self) -> list[str]:
        """Lines for stderr: the skipped records and the reordering, if any (else ``[]``)."""
        lines = []
        if self.skipped:
            shown = len(self.messages)
            lines.append(f"warning: skipped {_plural(self.skipped, 'bad record')}"
                         + (f"; the first {shown}:" if shown < self.skipped else ":"))
            lines.extend(f"  {message}" for message in self.messages)
        if self.reordered:
            lines.append(f"{self.first_reorder}; {_plural(self.reordered, 'line')} out of time order"
                         f" {'was' if self.reordered == 1 else 'were'} sorted")
        return lines + self.notes


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def require_report(policy: ReadPolicy, report: ReadReport | None) -> ReadReport:
    """The report to fill: ``report``, or a fresh one when the policy cannot produce notes.

    Raises:
        ValueError: a non-quiet policy without a report would lose what it counts (a bug).
    """
    if report is not None:
        return report
    if not policy.quiet:
        raise ValueError(f"{policy} needs a ReadReport to count what it skips or sorts")
    return ReadReport()


def handle(error: LarsError, policy: ReadPolicy, report: ReadReport) -> None:
    """Raise ``error`` (``on_error="stop"``) or count it as skipped (``"skip"``)."""
    if policy.on_error == "stop":
        raise error
    report.skip(error)


def decode_line(raw: bytes | str, source: str, number: int) -> str:
    """``raw`` as text; a line that is not UTF-8 is a :class:`ParseError` at its first bad byte.
    A byte-order mark at the start of line 1 (of the file) is dropped."""
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff") if number == 1 else raw
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[:exc.start].decode("utf-8")) + 1
        raise ParseError(f"the line is not UTF-8 text (byte 0x{raw[exc.start]:02x})",
                         Position(source, number, column)) from None
    return text.removeprefix("\ufeff") if number == 1 else text


def parse_lines(lines: Iterable[bytes | str], source: str, parser: LineParser, policy: ReadPolicy,
                report: ReadReport, first_number: int = 1, per_stream: bool = True
                ) -> Iterator[Entry]:
    """Parse numbered lines under ``policy``: entries in time order.

    Under ``order="strict"`` each stream's lines must ascend in time; lines of several streams
    may interleave (one stream's lines may go back behind another's), and are merged by time
    (:class:`StreamMerge`). Under ``order="sort"`` all entries are sorted at the end.

    Args:
        lines: the lines of one source, without line ends (bytes are decoded as UTF-8).
        source: the file name used in positions.
        parser: the line parser.
        policy: what to do with bad lines and backwards timestamps.
        report: where skipped and reordered lines are counted.
        first_number: the line number of the first line (a part of a file read from its middle).
        per_stream: ``False`` asks the lines of all streams together to ascend: a worker's byte
            range of a file (:mod:`ingest.ranges`, whose neighbours read the other lines), a
            LARS atom stream (one stream, handed on without the merge's delay).

    Raises:
        ParseError: a bad line, under ``on_error="stop"``.
        InputError: a timestamp going back in time within its stream (or, without
            ``per_stream``, at all), under ``order="strict"``.
    """
    reading = _Reading(source, parser, policy, report, per_stream)
    yield from reading.lines(lines, first_number)
    yield from reading.flush()


class Runs(NamedTuple):
    """What a :class:`BlockParser` read in a block of lines, all of the common shape.

    Attributes:
        stream: the stream of every element (:func:`ingest.timeorder.stream_of` of each line's).
        runs: ``(t, line, elements)`` per run of consecutive lines of one timestamp (blank and
            comment lines between them do not break a run), ``line`` the number of its first line.
        last: the number of the last line holding elements.
    """

    stream: Any
    runs: list[tuple[int, int, list[Any]]]
    last: int


class BlockParser(Protocol):
    """A line parser (:data:`LineParser`) that also reads a block of lines at once.

    ``block(text, source, first)`` reads ``text``, whole lines joined by LF (a line may end in
    CR, which is not part of it), numbered from ``first``: their :class:`Runs` when every line
    is blank, a comment or of a shape it reads itself, all on one stream; ``None`` otherwise
    (then :func:`parse_blocks` gives each line of the block to the line parser). Where it gives
    runs, their elements are those the line parser gives, line by line.
    """

    def __call__(self, line: str, source: str, number: int) -> tuple[int, list[Any]] | None: ...

    def block(self, text: str, source: str, first: int) -> Runs | None: ...


MAX_BLOCKS_WAITED = 63
"""At most this many blocks read line by line, untried, after blocks refused in a row
(:func:`parse_blocks`): a file that changes shape is read by blocks again within ~2 MiB."""


def parse_blocks(blocks: Iterable[bytes], source: str, parser: BlockParser, policy: ReadPolicy,
                 report: ReadReport, first_number: int = 1, per_stream: bool = True
                 ) -> Iterator[Entry]:
    """:func:`parse_lines` over blocks of lines (:func:`read_blocks`), with the same entries'
    elements, the same report and the same errors, a block at a time where it can.

    A block whose lines ``parser.block`` reads, all on the stream read so far, ascending in time
    from where that stream stands, is taken in one step: one entry per run of lines with one
    timestamp (its position is its first line's; per line, the reading and the bookkeeping of
    :func:`parse_lines` cost twice the parsing itself). Any other block (a bad, unusual or
    backwards line, a second stream, bytes that are not UTF-8) is read line by line by
    :func:`parse_lines`'s own steps, so every error and count is exactly theirs. After ``n``
    blocks refused in a row, the next ``2^(n-1) - 1`` (at most :data:`MAX_BLOCKS_WAITED`) are
    read line by line without trying: a file whose streams interleave throughout would
    otherwise pay for every block twice (55% more CPU than line by line, measured).

    Raises:
        ParseError, InputError: as :func:`parse_lines`.
    """
    reading = _Reading(source, parser, policy, report, per_stream)
    number, refused, wait = first_number, 0, 0
    for raw in blocks:
        count = raw.count(b"\n") + 1
        entries = None
        if wait:
            wait -= 1
        else:
            entries = reading.block(raw, number, count)
            refused = 0 if entries is not None else refused + 1
            wait = min((1 << refused >> 1) - 1, MAX_BLOCKS_WAITED) if refused else 0
        if entries is None:
            lines = raw.split(b"\n")
            if b"\r" in raw:
                lines = [line.removesuffix(b"\r") for line in lines]
            yield from reading.lines(lines, number)
        else:
            yield from entries
        number += count
    yield from reading.flush()


class _Reading:
    """The state of one :func:`parse_lines` or :func:`parse_blocks` run: the time order (one
    :class:`TimeOrder`, or a :class:`StreamMerge` of the streams), the entries held for sorting,
    and the report."""

    def __init__(self, source: str, parser: LineParser, policy: ReadPolicy, report: ReadReport,
                 per_stream: bool):
        self.source, self.parser, self.policy, self.report = source, parser, policy, report
        self.order, self.pending = TimeOrder(source), []
        self.merge = StreamMerge(source) if per_stream and policy.order == "strict" else None
        self.sort = policy.order == "sort"

    def lines(self, lines: Iterable[bytes | str], first_number: int) -> Iterator[Entry]:
        """The entries of numbered lines, one line at a time."""
        source, parser, policy, report, order, merge = (
            self.source, self.parser, self.policy, self.report, self.order, self.merge)
        sort, strict = self.sort, policy.order == "strict"
        push = merge.push if merge is not None else None
        for number, raw in enumerate(lines, start=first_number):
            report.records += 1
            try:
                if type(raw) is bytes and number != 1:  # decode_line's common case, without the call
                    try:
                        text = raw.decode()
                    except UnicodeDecodeError:
                        text = decode_line(raw, source, number)  # raises, placed at the bad byte
                else:
                    text = decode_line(raw, source, number)
                parsed = parser(text, source, number)
            except ParseError as error:
                handle(error, policy, report)
                continue
            if parsed is None:
                continue
            time, elements = parsed
            backwards = order.check(time, number) if merge is None else merge.check(
                time, number, stream_of(elements))
            if backwards is not None:
                backwards = at_timestamp(backwards, text, time, parser)
                if strict:
                    handle(backwards, policy, report)
                    continue
                report.reorder(backwards)
            kept = elements if type(elements) is KeyedSlice else tuple(elements)  # atoms made lazily
            report.elements += len(kept)
            entry = Entry(time, kept, Position(source, number))
            if sort:
                self.pending.append(entry)
            elif push is not None:
                released = push(entry)
                if released:
                    yield from released
            else:
                yield entry

    def block(self, raw: bytes, first: int, count: int) -> list[Entry] | None:
        """The entries of the ``count`` lines of ``raw`` (joined by LF) read at once by the
        parser's ``block``, if it reads them and they pass the time order without a word (see
        :func:`parse_blocks`); else ``None``, and nothing has changed (but the stream's order,
        made as its first line would make it: :meth:`StreamMerge.only`)."""
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            return None
        read = self.parser.block(text, self.source, first)  # a byte-order mark: read line by line
        if read is None:
            return None
        if read.runs:
            order = self.order if self.merge is None else self.merge.only(read.stream)
            times = [run[0] for run in read.runs]
            if order is None or (order.state is not None and times[0] < order.state[0]) \
                    or any(map(gt, times, times[1:])):
                return None
            order.check(times[-1], read.last)  # passes: the state of the block's last line
        self.report.records += count
        entries = [Entry(time, tuple(elements), Position(self.source, line))
                   for time, line, elements in read.runs]
        self.report.elements += sum(len(entry.elements) for entry in entries)
        if self.sort:
            self.pending.extend(entries)
            return []
        if self.merge is not None:
            return [released for entry in entries for released in self.merge.push(entry)]
        return entries

    def flush(self) -> Iterator[Entry]:
        """What is still held, in time order, once the source has ended."""
        if self.merge is not None:
            yield from self.merge.flush()
        yield from sorted(self.pending, key=lambda entry: entry.time)


def within_timeline(slices: Iterable[tuple[int, Sequence[Any]]], start: int, end: int,
                    report: ReadReport, noun: str = "element") -> Iterator[tuple[int, Sequence[Any]]]:
    """The slices ``(t, elements)`` with ``start <= t <= end``, for slices ascending in ``t``.

    Slices outside the timeline are read all the same, to the end of the stream, so that a bad
    line after ``--to`` is refused as it would be without it (issue 18: no input goes unread);
    they are counted in two notes of ``report``. The iterator of ``slices`` is closed when this
    one is.

    >>> report = ReadReport()
    >>> list(within_timeline([(0, "a"), (2, "bc"), (5, "d"), (9, "e")], 1, 6, report, "atom"))
    [(2, 'bc'), (5, 'd')]
    >>> report.notes
    ['warning: left out 1 atom before the timeline [1,6] (from time point 0)', \
'note: read 1 atom after the timeline [1,6] (from time point 9) but did not evaluate it']
    """
    iterator, before, first, after, later = iter(slices), 0, None, 0, None
    try:
        for t, elements in iterator:
            if t < start:
                before += len(elements)
                first = t if first is None else first
            elif t > end:
                after += len(elements)
                later = t if later is None else later
            else:
                yield t, elements
    finally:
        if before:
            report.notes.insert(0, f"warning: left out {_plural(before, noun)} before the timeline "
                                   f"[{start},{end}] (from time point {first})")
        if after:
            report.notes.append(f"note: read {_plural(after, noun)} after the timeline [{start},{end}] "
                                f"(from time point {later}) but did not evaluate {'it' if after == 1 else 'them'}")
        close = getattr(iterator, "close", None)
        if close is not None:
            close()


def refuse_special_file(path: str | Path) -> None:
    """Refuse a pipe, a device or a socket as a stream file, before opening it (opening a FIFO
    waits for a writer); a missing file or a folder is left to ``open`` to name."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise InputError(f"the stream must be a regular file, not {kind_of(mode)}: it is read more "
                         "than once (its last time point first)", Position(str(path)),
                         hint="save it to a file first")


def read_lines(path: str | Path, block: int = 1 << 20, start: int = 0,
               end: int | None = None) -> Iterator[bytes]:
    """The lines of a file as bytes, without their LF or CRLF ends (with ``start`` and ``end``,
    those of the bytes ``[start, end)``, both line starts: a worker's range, :mod:`ingest.ranges`).

    Read in blocks of ``block`` bytes, each split at once (:func:`read_blocks`), not line by
    line: a tenth of ``lars run``'s CPU on long streams went to taking lines one at a time and
    trimming each.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as file:
    ...     _ = file.write(b"a\\r\\nb\\n\\nc\\r\\r\\nd")
    >>> list(read_lines(file.name, block=3))
    [b'a', b'b', b'', b'c\\r', b'd']

    Raises:
        InputError: as :func:`read_blocks`.
    """
    for data in read_blocks(path, block, start, end):
        lines = data.split(b"\n")
        if b"\r" in data:
            lines = [line.removesuffix(b"\r") for line in lines]
        yield from lines


def read_blocks(path: str | Path, block: int = 1 << 15, start: int = 0,
                end: int | None = None) -> Iterator[bytes]:
    """The lines of a file (of its bytes ``[start, end)``, as :func:`read_lines`) in blocks of
    whole lines of about ``block`` bytes: each block is its lines joined by LF, so
    ``data.split(b"\\n")`` gives them, each still ending in CR if it ended in CRLF (a file's
    last line, without an LF, is a block of its own when it is not empty).

    The default suits :func:`parse_blocks`: what it makes of a block of 32 KiB (some 130
    CSRBench lines) is still in the processor's caches when it is used; blocks of 1 MiB were
    read 30% slower, blocks of 4 to 64 KiB alike (``benchmarks/bench_reading.py``).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as file:
    ...     _ = file.write(b"a\\r\\nb\\n\\nc\\r\\r\\nd")
    >>> list(read_blocks(file.name, block=5))
    [b'a\\r\\nb', b'\\nc\\r\\r', b'd']

    Raises:
        InputError: the file cannot be opened (missing, a folder, no permission), or it is not
            a regular file: a pipe or a device (``--stream <(cmd)``) is refused before it is
            opened, since streams are read more than once (the last time point first, to size
            the timeline; worker ranges by offset), which a pipe cannot give (issue 28).
    """
    refuse_special_file(path)
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(str(path))) from None
    with file:
        file.seek(start)
        rest, left = b"", (None if end is None else end - start)
        while chunk := file.read(block if left is None else min(block, left)):
            if left is not None:
                left -= len(chunk)
            data = rest + chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                continue
            rest = data[cut + 1:]
            yield data[:cut]
        if rest:
            yield rest


def read_text(path: str | Path) -> str:
    """A whole UTF-8 file as text (for formats read a file at a time, such as Turtle); a
    byte-order mark at its start is dropped.

    Raises:
        InputError: the file cannot be opened.
        ParseError: the file is not UTF-8 text, at the line and column of its first bad byte.
    """
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(str(path))) from None
    return decode_text(data, str(path))


def group_by_time(entries: Iterable[Entry]) -> list[tuple[int, tuple[Any, ...]]]:
    """Per-instant slices ``(t, elements)``, ascending in ``t``, arrival order within ``t``.

    >>> group_by_time([Entry(5, ("b",), Position()), Entry(3, ("a",), Position()),
    ...                Entry(5, ("c", "d"), Position())])
    [(3, ('a',)), (5, ('b', 'c', 'd'))]
    """
    slices: dict[int, list[Any]] = {}
    for entry in entries:
        slices.setdefault(entry.time, []).extend(entry.elements)
    return [(time, tuple(slices[time])) for time in sorted(slices)]
