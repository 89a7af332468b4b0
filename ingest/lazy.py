"""An RDF stream read lazily, one time point at a time, for runs over long streams (SPEC 8).

``lars run QUERY --stream FILE`` never holds the stream: :func:`rdf_slices` reads it as slices
``(t, elements)`` in ascending ``t`` (in process, or from the Spark job partition by partition),
and :class:`QueryInput` turns each slice into ``striple`` atoms just before the solver takes it.
What stays in memory is what the windows hold, plus the literals seen so far (the term encoder
remembers literals to refuse colliding ones; IRIs and blank nodes need no memory).

The default timeline is ``[min(0, first), last]`` over the time points with triples. Its ends
are found without reading the stream through (:func:`edge_time_point`): the first and last
well-formed line of a timestamped N-Triples file (read from its end), the first and last Turtle
file with triples of a folder. The timeline ends at the largest time point, never merely the
last line's: under ``order="strict"`` and ``on_error="stop"`` accepted lines ascend, so the last
well-formed line has the largest time point unless some line goes back in time; reading checks
it (:func:`ending_at`), and a time point after it makes the reader read on to the line that goes
back, which is refused with its file and line. Under ``on_error="skip"`` such a line would be
skipped, so the stream is read once more beforehand to find its largest time point; under
``order="sort"`` the stream is read once to sort it, so its slices are kept and the ends taken
from them. The timeline's length is bounded (:mod:`ingest.limits`).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from dataclasses import dataclass
from functools import partial
from operator import attrgetter
from pathlib import Path

from rdflib import URIRef

from lars.atoms import Atom
from lars.errors import InputError, LarsError, Position
from ingest.limits import check_timeline_length, max_time_points
from ingest.reach import count_reach
from ingest.policy import (
    Entry, ReadPolicy, ReadReport, decode_line, parse_blocks, read_blocks, read_lines, read_text,
    refuse_special_file, within_timeline,
)
from lars.streams import Timeline
from ingest.options import ReadOptions
from ingest.slicing import iter_slice_stream
from ingest.sparkchoice import SPARK_CHOICES, SPARK_THRESHOLD_BYTES, THRESHOLD_VARIABLE
from ingest.encoded import EncodedLines
from translate.rdf import RdfTermEncoder, from_constant
from ingest.rdffiles import (
    CSRBENCH_STREAM, StreamTriple, parse_ntriples_line, parse_turtle_document,
    read_timestamped_ntriples, read_turtle_folder, turtle_files,
)

RdfSlice = tuple[int, tuple[StreamTriple, ...]]
AtomSlice = tuple[int, tuple[Atom, ...]]


def input_bytes(path: str) -> int:
    """The size of a stream file, or of all files in a stream folder."""
    target = Path(path)
    if target.is_dir():
        return sum(f.stat().st_size for f in target.iterdir() if f.is_file())
    return target.stat().st_size if target.exists() else 0


NETWORK_SCHEMES = frozenset({"http", "https", "ftp", "ftps", "sftp"})
"""Addresses on the network, refused: Spark reads file systems (``hdfs://``, ``s3a://``, ...)."""


def uses_spark(path: str, spark: str, master: str) -> bool:
    """Whether ``--spark spark`` reads ``path`` with the Spark job on ``master``: ``always``,
    ``never``, or ``auto``: a stream only Spark can open (``scheme://…``), or one over
    :data:`SPARK_THRESHOLD_BYTES` when ``master`` is a cluster (not ``local[...]``).

    Raises:
        InputError: an unknown choice; a web address (:data:`NETWORK_SCHEMES`), which Spark
            cannot read either (it failed with ``IllegalArgumentException``, issue 28).
    """
    if spark not in SPARK_CHOICES:
        raise InputError(f"unknown --spark choice '{spark}'", hint="use auto, always or never")
    scheme = path.split("://", 1)[0].lower() if "://" in path else None
    if scheme in NETWORK_SCHEMES:
        raise InputError(f"a stream at a {scheme}:// address is not read: lars never reaches the "
                         "network (SPEC section 11)", Position(path),
                         hint="download it and give the file")
    if spark != "auto":
        return spark == "always"
    return "://" in path or (not master.startswith("local")
                             and input_bytes(path) > spark_threshold_bytes())


def spark_threshold_bytes() -> int:
    """:data:`SPARK_THRESHOLD_BYTES`, or ``LARS_SPARK_THRESHOLD_MIB`` MiB if that is set.

    Raises:
        InputError: the variable is not a whole number of MiB, 0 or more.
    """
    text = os.environ.get(THRESHOLD_VARIABLE)
    if text is None:
        return SPARK_THRESHOLD_BYTES
    if not text.strip().isdigit():
        raise InputError(f"{THRESHOLD_VARIABLE} must be a whole number of MiB, not {text!r}")
    return int(text) * 2**20


def atom_slices(entries: Iterable[Entry]) -> Iterator[AtomSlice]:
    """Entries of :class:`~ingest.encoded.EncodedLines` grouped into slices, ascending in time."""
    return ((t, tuple(itertools.chain.from_iterable(entry.elements for entry in group)))
            for t, group in itertools.groupby(entries, key=attrgetter("time")))


def rdf_slices(path: str, options: ReadOptions, report: ReadReport,
               encoded: EncodedLines | None = None) -> Iterator[RdfSlice] | Iterator[AtomSlice]:
    """The slices of a timestamped N-Triples file or a Turtle folder, ascending in time, read
    lazily in process or by the Spark job (:mod:`ingest.slicing`; both give the same slices).

    With ``encoded``, the slices hold ``striple`` atoms instead of :class:`StreamTriple`
    elements: a file read in process is parsed into atoms line by line (:mod:`ingest.encoded`),
    other slices are encoded as they come."""
    folder = Path(path).is_dir()
    stream, policy = options.stream, options.policy
    if encoded is not None:
        if folder or uses_spark(path, options.spark, options.master):
            return ((t, tuple(encoded.encode(t, elements)))
                    for t, elements in rdf_slices(path, options, report))
        return atom_slices(parse_blocks(read_blocks(path), path, encoded, policy, report))
    if uses_spark(path, options.spark, options.master):
        if folder:
            paths = [str(p) for p in turtle_files(path, policy=policy, report=report)]
            parser = partial(parse_turtle_document, stream=stream or CSRBENCH_STREAM)
        else:
            paths, parser = [path], partial(parse_ntriples_line, default_stream=stream)
        return iter_slice_stream(paths, parser, whole_files=folder, master=options.master,
                                 policy=policy, report=report)
    if folder:
        elements = read_turtle_folder(path, stream=stream or CSRBENCH_STREAM, policy=policy,
                                      report=report)
    else:
        elements = read_timestamped_ntriples(path, default_stream=stream, policy=policy, report=report)
    return ((t, tuple(group)) for t, group in itertools.groupby(elements, key=attrgetter("time")))


def lines_from_end(path: str, block: int = 1 << 16) -> Iterator[bytes]:
    """The lines of a file, last first, read in blocks from its end (line ends removed).

    Raises:
        InputError: the file cannot be opened, or is a pipe or a device.
    """
    refuse_special_file(path)
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(path)) from None
    with file:
        position, rest = file.seek(0, os.SEEK_END), b""
        while position > 0:
            size = min(block, position)
            position -= size
            file.seek(position)
            lines = (file.read(size) + rest).split(b"\n")
            rest = lines[0]
            for line in reversed(lines[1:]):
                yield line.removesuffix(b"\r")
        yield rest.removesuffix(b"\r")


def line_time(raw: bytes, path: str, stream: URIRef | None) -> int | None:
    """The time point of one well-formed N-Triples stream line, else ``None``."""
    try:
        parsed = parse_ntriples_line(decode_line(raw, path, 0), path, 0, default_stream=stream)
    except LarsError:
        return None
    return None if parsed is None else parsed[0]


def _file_time(path: str, stream: URIRef | None) -> int | None:
    """The time point of one well-formed Turtle stream file with triples, else ``None``."""
    try:
        time, elements = parse_turtle_document(read_text(path), path, stream=stream or CSRBENCH_STREAM)
    except LarsError:
        return None
    return time if elements else None


def edge_time_point(path: str, stream: URIRef | None, last: bool) -> int | None:
    """The time point of the first (or ``last``) well-formed triple of a stream file or folder,
    found from that end; ``None`` when there is none."""
    if Path(path).is_dir():
        files = turtle_files(path, policy=ReadPolicy(on_error="skip"), report=ReadReport())
        times = (_file_time(file, stream) for file in (reversed(files) if last else files))
    else:
        lines = lines_from_end(path) if last else read_lines(path)
        times = (line_time(raw, path, stream) for raw in lines)
    return next((t for t in times if t is not None), None)


@dataclass(frozen=True)
class QueryInput:
    """What a query run reads: the timeline, the background, the encoder, and the stream, read
    again at each :meth:`slices` call (nothing of it is kept between calls).

    Attributes:
        read: ``() -> slices of striple atoms`` over the whole stream (:func:`rdf_slices` with
            :class:`~ingest.encoded.EncodedLines`).
        report: where reading problems and input outside the timeline are counted.
        streams: the constants of the streams the query reads: when no triple read is on one,
            :meth:`slices` adds a warning to ``report`` (:mod:`ingest.reach`).
    """

    timeline: Timeline
    background: frozenset[Atom]
    encoder: RdfTermEncoder
    read: Callable[[], Iterator[AtomSlice]]
    report: ReadReport
    streams: frozenset = frozenset()

    def slices(self) -> Iterator[tuple[int, list[Atom]]]:
        """``(t, striple atoms in arrival order)`` inside the timeline, encoded as they come."""
        inside = within_timeline(self.read(), self.timeline.start, self.timeline.end, self.report, "triple")
        for t, atoms in count_reach(inside, self.streams, self.report, stream_of=_stream_constant,
                                    name=lambda constant: from_constant(constant).n3()):
            yield t, list(atoms)


def _stream_constant(atom: Atom) -> object:
    """The stream of a ``striple(s, p, o, stream)`` atom, as its constant."""
    return atom.args[-1]


def ending_at(read: Callable[[], Iterator[tuple[int, Any]]], last: int | None
              ) -> Iterator[tuple[int, Any]]:
    """The slices of ``read()``, checked to end at ``last``, the time point of the stream's last
    well-formed line (under ``on_error="stop"`` and ``order="strict"``).

    A slice after ``last`` means some later line goes back in time within its stream, or that
    the file interleaves streams and its largest time point is not on its last line: the rest of
    the stream is read so that the strict order check refuses such a line with its file and line
    number; if there is none, the file is refused as a whole (the default timeline, which ends
    at the last line, would leave its later time points out).

    Raises:
        InputError: the line that goes back in time, or the interleaved file.
    """
    slices = read()
    try:
        for t, elements in slices:
            if last is not None and t > last:
                largest = max([t, *(u for u, _ in slices)])
                raise InputError(f"time point {largest} comes after the stream's last line, which "
                                 f"has {last}: the file interleaves several streams and ends "
                                 "before its largest time point, where the default timeline ends",
                                 hint=f"give --to {largest}, read it with --order sort, or end its "
                                      "last line with the largest time point")
            yield t, elements
    finally:
        close = getattr(slices, "close", None)
        if close is not None:
            close()


def stream_reader(path: str | os.PathLike | None, options: ReadOptions, report: ReadReport,
                  encoded: EncodedLines | None = None, end: int | None = None
                  ) -> tuple[Callable[[], Iterator[RdfSlice]], int | None, int | None]:
    """A function reading the stream's slices, and the first and largest time points with triples.
    With ``encoded``, the slices hold ``striple`` atoms (:func:`rdf_slices`). With ``end`` (``--to``),
    the timeline does not rest on the last line, so a file of interleaved streams whose last line
    is not its largest time point is read as it is (each stream is still checked in its order).

    Under ``order="sort"`` (or for a stream only Spark can open, ``scheme://…``) the slices are
    read once here and kept; under ``on_error="skip"`` the stream is read once here for its ends
    only; otherwise nothing is read but the stream's two ends (see the module docstring).

    Raises:
        InputError: under the default policy, a last line before the first goes back in time:
            the line that does is refused here.
    """
    if path is None:
        return (lambda: iter(())), None, None
    path, iri = os.fspath(path), options.stream
    read = partial(rdf_slices, path, options, report, encoded)
    uses_spark(path, options.spark, options.master)  # a bad --spark choice or address: refused first
    if options.order == "sort" or "://" in path:
        kept = list(read())
        return (lambda: iter(kept)), (kept[0][0] if kept else None), (kept[-1][0] if kept else None)
    if not options.policy.quiet:
        times = [t for t, _ in rdf_slices(path, options, ReadReport())]
        return read, (times[0] if times else None), (times[-1] if times else None)
    first, last = edge_time_point(path, iri, last=False), edge_time_point(path, iri, last=True)
    return checked_reader(read, first, last if end is None else None), first, last


def checked_reader(read: Callable[[], Iterator[tuple[int, Any]]], first: int | None,
                   last: int | None) -> Callable[[], Iterator[tuple[int, Any]]]:
    """``read``, its slices checked to end at ``last`` (:func:`ending_at`), for a stream whose
    ends ``first`` and ``last`` were read from its two ends under the default policy; when
    ``last < first`` some line goes back in time, and the stream is read here to refuse it.

    Raises:
        InputError: the line that goes back in time, when ``last < first``.
    """
    checked = partial(ending_at, read, last)
    if first is not None and last is not None and last < first:
        for _ in checked():
            pass
    return checked


def choose_timeline(first: int | None, last: int | None, start: int | None, end: int | None,
                    limit: int | None = None) -> Timeline:
    """``start``/``end`` when given; else from 0 (or the first time point, if earlier) to the last.

    Args:
        first, last: the stream's first and largest time points (``None``: no input).
        start, end: ``--from`` and ``--to``, when given.
        limit: the most time points the timeline may have (``None``: :func:`ingest.limits.max_time_points`).

    Raises:
        InputError: the timeline would be empty, saying which option or input makes it so.
        LimitError: it would be longer than ``limit``.
    """
    line = Timeline(min(0, first if first is not None else 0) if start is None else start,
                    (last if last is not None else 0) if end is None else end)
    if line.start > line.end:
        if start is not None and end is not None:
            raise InputError(f"empty timeline [{line.start},{line.end}]: --from is after --to")
        if start is not None:
            raise InputError(f"--from {start} is after the last time point with input, {line.end}",
                             hint="give --to as well")
        if end is not None:
            raise InputError(f"--to {end} is before the first time point of the timeline, {line.start}",
                             hint="give --from as well")
        raise InputError(f"the input's last time point {line.end} is before its first {line.start}")
    check_timeline_length(line.start, line.end, max_time_points(limit))
    return line
