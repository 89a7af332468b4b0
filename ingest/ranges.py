"""A timestamped N-Triples file cut into time ranges that workers read themselves (SPEC 8).

``lars run --partitions N`` on a stream file: the driver reads no triple. It finds the range
boundaries by seeking (:func:`plan_ranges`): it probes the timestamp at ``size·k/N`` bytes,
moves back to the first line of that time point (a binary search over byte offsets, since the
lines of a stream ascend in time), and finds where each range's look-back history starts the
same way. Each worker then opens the file, seeks to its offset and reads only its bytes
(:class:`FileRange`): the history before its range, which the windows need, and its own
lines. So the driver's work is a few dozen seeks, whatever the stream's length, and the two
halves of a stream are parsed and encoded on two cores.

Only a local file read under the default policy (``on_error="stop"``, ``order="strict"``) is cut
this way: a line going back in time or a bad line is an error wherever it is (also a line of
one stream behind another's, which ``lars run`` alone merges, :class:`ingest.timeorder.StreamMerge`:
the workers' ranges must ascend over all streams, so such a file is refused here, never cut
wrong; ``--order sort`` reads it), and each worker
also reads the line before its own first one, so every pair of neighbouring lines is checked by
some worker and the first error of the file is the one the earliest range reports (with its
line number, counted only then). Other streams are read by the driver and shipped
(:func:`solver.partition.evaluate_partitioned`).

>>> import tempfile, os
>>> lines = [f'<http://ex.org/a> <http://ex.org/p> "{i:02}" <http://ex.org/s> {i // 3}\\n' for i in range(12)]
>>> path = os.path.join(tempfile.mkdtemp(), "s.nt")
>>> _ = open(path, "w").write("".join(lines))
>>> size = len(lines[0])
>>> [(span.start, span.end, start // size, end // size)
...  for span, (start, end) in plan_ranges(path, 2, Timeline(0, 3), history=1)]
[(0, 1, 0, 6), (2, 3, 3, 12)]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from rdflib import URIRef

from ingest.encoded import EncodedLines
from ingest.lazy import AtomSlice, atom_slices, line_time
from ingest.options import ReadOptions
from ingest.policy import ReadPolicy, ReadReport, parse_blocks, parse_lines, read_blocks, read_lines
from lars.errors import InputError, LarsError, ParseError, Position
from lars.streams import Timeline
from translate.rdf import RdfTermEncoder


def line_start(file: BinaryIO, offset: int) -> int:
    """The offset of the first line that starts at or after ``offset``."""
    if offset <= 0:
        return 0
    file.seek(offset - 1)
    file.readline()
    return file.tell()


def time_from(file: BinaryIO, offset: int, source: str, stream: URIRef | None
              ) -> tuple[int, int | None]:
    """The first line with a time point that starts at or after ``offset``: its offset and time
    point (the file's size and ``None`` if there is none)."""
    file.seek(line_start(file, offset))
    while True:
        start, raw = file.tell(), file.readline()
        if not raw:
            return start, None
        time = line_time(raw.rstrip(b"\r\n"), source, stream)
        if time is not None:
            return start, time


def first_at_or_after(file: BinaryIO, size: int, time: int, source: str,
                      stream: URIRef | None) -> int:
    """The offset of the first line with a time point ``>= time`` (``size`` if none), found by
    a binary search over byte offsets: the lines of a stream in strict order ascend in time."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        _, found = time_from(file, middle, source, stream)
        if found is None or found >= time:
            high = middle
        else:
            low = middle + 1
    return time_from(file, low, source, stream)[0]


def previous_line_start(file: BinaryIO, offset: int, block: int = 1 << 12) -> int:
    """The offset of the line that ends just before ``offset`` (a line start), 0 if none."""
    position = offset - 1  # the line end of the previous line
    while position > 0:
        step = min(block, position)
        file.seek(position - step)
        found = file.read(step).rfind(b"\n")
        if found >= 0:
            return position - step + found + 1
        position -= step
    return 0


@dataclass(frozen=True)
class FileRange:
    """One worker's part of a stream file: the lines in ``[start, end)`` bytes, as slices.

    A picklable value (:data:`solver.partition.RangeSource`): the worker opens the file, seeks
    to ``start`` and parses, encodes and groups its lines as ``lars run`` does in one process.

    Attributes:
        path: the stream file, as the worker opens it (absolute: a Spark executor works in a
            folder of its own).
        start, end: byte offsets of line starts; the lines before the range's own first one
            are the history its windows need.
        encoder: the query's term encoder.
        stream_iri: the stream of lines that name none (``--stream-iri``), when given.
        sole: else, the query's one stream, given to such lines with ``sole_note`` as a warning.
        name: the file as the user named it, in messages (``path`` if empty).
    """

    path: str
    start: int
    end: int
    encoder: RdfTermEncoder
    stream_iri: URIRef | None = None
    sole: URIRef | None = None
    sole_note: str = ""
    name: str = ""

    def __call__(self, notes: list[str]) -> Iterator[AtomSlice]:
        """The range's slices of ``striple`` atoms; warnings about them go to ``notes``.

        Raises:
            InputError, ParseError: a bad line or one going back in time, with its line number.
        """
        try:
            yield from self.slices(1, notes)
        except LarsError:
            try:
                for _ in self.slices(self.first_line_number(), []):
                    pass  # read again with the real line numbers: raises the same error with them
            except ParseError:
                raise
            except InputError as error:
                if error.position is not None and error.position.line:  # a line out of order
                    self.diagnose(error)
                raise
            raise

    def diagnose(self, error: InputError) -> None:
        """Raise what the uncut run says of the file up to this range's end: its own error, or,
        when it accepts those lines (streams interleaving, each in its own time order, which it
        merges but byte ranges cannot), ``error`` with the reason and the ways out.

        Only called on the error path; it reads the file from its start to ``end`` once.
        """
        parser = EncodedLines(self.encoder, self.stream_iri, self.sole, lambda: None)
        lines = read_lines(self.path, start=0, end=self.end)
        for _ in parse_lines(lines, self.name or self.path, parser, ReadPolicy(), ReadReport()):
            pass  # the uncut run's reading: raises its own error, if it has one
        raise InputError(error.message, error.position, hint=(
            "the file interleaves streams, each in its own time order: a partitioned run reads "
            "it in byte ranges, which needs one time order over all its lines; run it without "
            "--partitions or with --order sort")) from None

    def slices(self, first_number: int, notes: list[str]) -> Iterator[AtomSlice]:
        """The slices of the range's lines, read as ``lars run`` reads a whole file
        (:class:`ingest.encoded.EncodedLines`), the lines numbered from ``first_number``."""
        def noted() -> None:
            if self.sole_note not in notes:
                notes.append(self.sole_note)

        parser = EncodedLines(self.encoder, self.stream_iri, self.sole, noted)
        blocks = read_blocks(self.path, start=self.start, end=self.end)
        return atom_slices(parse_blocks(blocks, self.name or self.path, parser, ReadPolicy(),
                                        ReadReport(), first_number, per_stream=False))

    def first_line_number(self) -> int:
        """The line number of the line at ``start`` (counted from the file's start)."""
        count, left = 1, self.start
        try:
            file = open(self.path, "rb")  # noqa: SIM115 (closed by the with below)
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc.strerror or exc}",
                             Position(self.name or self.path)) from None
        with file:
            while left > 0:
                block = file.read(min(left, 1 << 20))
                if not block:
                    break
                count += block.count(b"\n")
                left -= len(block)
        return count


def cuttable(path: str, options: ReadOptions) -> bool:
    """Whether workers can read their ranges of the stream ``path`` themselves: a local file (not
    a folder, not ``scheme://…``) read under the default policy (see the module docstring)."""
    return "://" not in path and os.path.isfile(path) and options.policy.quiet


def plan_ranges(path: str | os.PathLike, parts: int, timeline: Timeline, history: int | None,
                stream: URIRef | None = None, after: int = 0) -> list[tuple[Timeline, tuple[int, int]]]:
    """Cut a stream file into at most ``parts`` ranges of about equal size in bytes.

    Args:
        path: a timestamped N-Triples file whose lines ascend in time.
        parts: how many ranges.
        timeline: the run's timeline; the ranges' spans cover it.
        history: how far back before its first time point a range reads (ticks; ``None``: from
            the file's start), :attr:`solver.partition.Lookback.ticks`.
        stream: the stream of lines that name none (only to read their time points).
        after: how far past its last time point a range reads (ticks: ``lars agree``'s workers
            compare the answers of the next pulling interval too, :mod:`agreement.agree.rangecheck`).

    Returns:
        Each range's span of reference times and the byte offsets ``(start, end)`` its worker
        reads: the lines from ``span.start - history`` (and at least the line before its own
        first one) to its last own line (to the last at ``span.end + after``).

    Raises:
        InputError: ``parts`` is less than 1, or the file cannot be read.
    """
    if parts < 1:
        raise InputError(f"cannot split the timeline into {parts} parts", hint="use 1 or more")
    source = os.fspath(path)
    try:
        file = open(source, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(source)) from None
    from solver.partition import cut_before  # worker pools (issue 29: lars agree reads here too)
    with file:
        size = os.fstat(file.fileno()).st_size
        probed = (time_from(file, size * k // parts, source, stream)[1] for k in range(1, parts))
        spans = cut_before(timeline, [t for t in probed if t is not None])
        owns = [0 if index == 0 else first_at_or_after(file, size, span.start, source, stream)
                for index, span in enumerate(spans)]
        planned = []
        for span, own, end in zip(spans, owns, [*owns[1:], size]):
            start = 0 if history is None or own == 0 else min(
                first_at_or_after(file, size, span.start - history, source, stream),
                previous_line_start(file, own))
            if after and end < size:
                end = max(end, first_at_or_after(file, size, span.end + after + 1, source, stream))
            planned.append((span, (start, end)))
    return planned


def file_ranges(path: str | os.PathLike, parts: int, history: int | None, *, timeline: Timeline,
                encoder: RdfTermEncoder, stream_iri: URIRef | None = None,
                sole: URIRef | None = None, sole_note: str = "",
                after: int = 0) -> list[tuple[Timeline, FileRange]]:
    """The ranges of :func:`plan_ranges` (``history``, ``after``), each with the
    :class:`FileRange` its worker reads (the other arguments are those of :class:`FileRange`)."""
    source = os.fspath(path)
    opened = source if "://" in source else os.path.abspath(source)
    return [(span, FileRange(opened, start, end, encoder, stream_iri, sole, sole_note, source))
            for span, (start, end) in plan_ranges(source, parts, timeline, history, stream_iri or sole,
                                                  after)]
