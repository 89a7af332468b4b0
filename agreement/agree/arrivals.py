"""What the driver of ``lars agree --partitions`` learns of a stream file it does not read.

Over a stream file, each range's worker reads its own bytes (:mod:`ingest.ranges`); the driver
reads none of them. It needs three things of the stream besides the two sides' answers, and
each worker sends them back for its range's own time points (:class:`InputTally`, a
:class:`solver.partition.Tally`), compact whatever the stream's length:

* the time points with input and how many triples each holds (two arrays of 64-bit integers:
  where CQELS reports, and the counts a notebook's view shows);
* the triples that condition (ii) on the stream cites, C-SPARQL's default graph merging a triple
  that the STREAM patterns of its own stream do not read (:class:`~agreement.agree.conditions.MergedTriples`):
  per time point the streams and patterns met, how many triples each, and the first few of each;
* the streams met (the warning when none is one the query reads, :mod:`ingest.reach`).

The driver replays them in time order, in step with the answers (:class:`Arrivals`), so its
verdicts, its condition (ii) and its counts are those of a driver that reads the stream. The
triples a disagreeing interval's window snapshots need (condition iii) are not sent: the
workers explain their ranges' intervals (:mod:`agreement.agree.rangecheck`), re-reading those
few triples by seeking to them (:class:`WindowReader`), and send the explanations with the
summaries (:attr:`InputSummary.explained`); the driver re-reads them itself only for an
interval it explains that no worker did. So it holds the answers and the verdict state.
"""

from __future__ import annotations

import os
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rdflib import URIRef

from agreement.agree.conditions import MERGED_WITNESSES, MergedTriples
from agreement.agree.explain import Explanation
from agreement.agree.history import StreamHistory
from ingest.lazy import RdfSlice, atom_slices
from ingest.policy import ReadPolicy, ReadReport, parse_blocks, read_blocks
from ingest.rdffiles import NTriplesLines, StreamTriple
from ingest.ranges import first_at_or_after
from ingest.reach import unreached
from lars.atoms import Atom
from lars.errors import InputError, Position
from translate.rdf import from_constant
from translate.rsp import RspQuery

Merged = tuple[tuple, int, tuple[StreamTriple, ...]]
"""One stream and pattern of condition (ii) met at a time point: its key ``(stream, pattern)``,
how many triples met it there, and the first of them (as many as are still to be kept)."""


@dataclass(frozen=True)
class InputSummary:
    """What one range's worker sends back about its own time points' input, and the
    explanations it found of the disagreeing intervals that end in its range, by their end
    (:mod:`agreement.agree.rangecheck`; :meth:`~agreement.agree.streaming.ComputedCheck.witnessed`)."""

    times: array
    counts: array
    merged: dict[int, list[Merged]]
    streams: Counter
    explained: dict[int, list[Explanation]] = field(default_factory=dict)


class InputTally:
    """An executor's tally of its range's input (:class:`solver.partition.Tally`).

    Its triples arrive as ``striple`` atoms; only those on a stream and with a predicate for
    which some pattern of the query is not the stream's own are decoded and tried, as
    :meth:`MergedTriples.add` tries stream triples (a query reading one stream and no static
    data never decodes any)."""

    def __init__(self, merged: MergedTriples) -> None:
        self.merged = merged
        self.times, self.counts = array("q"), array("q")
        self.found: dict[int, list[Merged]] = {}
        self.streams: Counter = Counter()
        self.kept: Counter = Counter()
        self.tried: dict[tuple, tuple[URIRef | None, bool]] = {}

    def add(self, time: int, atoms: Sequence[Atom]) -> None:
        """The atoms of one time point of the range's span, in arrival order."""
        self.times.append(time)
        self.counts.append(len(atoms))
        self.streams.update(atom.args[-1] for atom in atoms)
        met: dict[tuple, tuple[int, list[StreamTriple]]] = {}
        for atom in atoms:
            element = self.candidate(time, atom)
            key = None if element is None else self.merged.match(element)
            if key is None:
                continue
            count, first = met.setdefault(key, (0, []))
            if self.kept[key] < MERGED_WITNESSES:
                self.kept[key] += 1
                first.append(element)
            met[key] = (count + 1, first)
        if met:
            self.found[time] = [(key, count, tuple(first)) for key, (count, first) in met.items()]

    def candidate(self, time: int, atom: Atom) -> StreamTriple | None:
        """The stream triple of ``atom`` when condition (ii) may hold for it, else ``None``."""
        subject, predicate, value, stream = atom.args
        key = (stream, predicate)
        tried = self.tried.get(key)
        if tried is None:
            iri = from_constant(stream)
            _, others = self.merged.patterns(iri, from_constant(predicate))
            tried = self.tried[key] = (iri, bool(others))
        if not tried[1]:
            return None
        triple = (from_constant(subject), from_constant(predicate), from_constant(value))
        return StreamTriple(time, tried[0], triple, Position(""))

    def summary(self) -> InputSummary:
        """What was added since the last call."""
        summary = InputSummary(self.times, self.counts, self.found,
                               Counter({from_constant(stream): count
                                        for stream, count in self.streams.items()}))
        self.times, self.counts, self.found, self.streams = array("q"), array("q"), {}, Counter()
        return summary


class InputCounts:
    """A worker's tally of how many triples each time point holds, and nothing else (the
    :class:`Arrivals` a worker explaining its range replays itself, :mod:`agreement.agree.rangecheck`)."""

    def __init__(self) -> None:
        self.times, self.counts = array("q"), array("q")

    def add(self, time: int, atoms: Sequence[Atom]) -> None:
        self.times.append(time)
        self.counts.append(len(atoms))

    def summary(self) -> InputSummary:
        """What was added since the last call."""
        summary = InputSummary(self.times, self.counts, {}, Counter())
        self.times, self.counts = array("q"), array("q")
        return summary


class Arrivals:
    """The ranges' summaries as they come (:func:`solver.partition.evaluate_ranges` appends
    each range's before its answers), read once in time order (:meth:`upto`); once all are
    read, the warning when no triple is on a stream of ``query`` goes to ``report``, as
    :func:`ingest.reach.count_reach` gives it. The explanations the workers found wait in
    :attr:`explained` until the driver's check takes them."""

    def __init__(self, query: RspQuery, report: ReadReport) -> None:
        self.query, self.report = query, report
        self.summaries: list[InputSummary | None] = []
        self.index = self.at = 0
        self.streams: Counter = Counter()
        self.explained: dict[int, list[Explanation]] = {}

    def append(self, summary: InputSummary) -> None:
        self.summaries.append(summary)
        self.explained.update(summary.explained)

    def upto(self, end: int | None) -> Iterator[tuple[int, int, list[Merged]]]:
        """``(t, triples at t, condition (ii)'s meetings at t)`` for the next time points with
        input up to ``end`` (``None``: all that are left); a range read through is dropped."""
        while self.index < len(self.summaries):
            summary = self.summaries[self.index]
            while self.at < len(summary.times):
                time = summary.times[self.at]
                if end is not None and time > end:
                    return
                yield time, summary.counts[self.at], summary.merged.get(time, [])
                self.at += 1
            self.streams.update(summary.streams)
            self.summaries[self.index] = None
            self.index, self.at = self.index + 1, 0

    def finish(self) -> None:
        """Read the rest; then note the warning of :func:`ingest.reach.count_reach`, if any."""
        for _ in self.upto(None):
            pass
        note = unreached(self.streams, {spec.stream for spec in self.query.streams})
        if note is not None:
            self.report.note(note)


@dataclass
class WindowReader:
    """The triples of a stream file at ``[lo, hi]``, re-read by seeking there: the window
    snapshots of a disagreeing interval (a binary search over byte offsets, as
    :func:`ingest.ranges.plan_ranges` cuts, then the lines up to ``hi``).

    Attributes:
        path: the stream file (a local file whose lines ascend in time: the workers read it so).
        stream_iri: the stream of lines that name none (``--stream-iri``), when given.
        sole: else the query's one stream, given to such lines.
    """

    path: str
    stream_iri: URIRef | None = None
    sole: URIRef | None = None

    def slices(self, lo: int, hi: int | None) -> Iterator[RdfSlice]:
        """The slices at ``[lo, hi]`` (``hi`` ``None``: to the end), as the driver would read them."""
        try:
            with open(self.path, "rb") as file:
                size = os.fstat(file.fileno()).st_size
                start = first_at_or_after(file, size, lo, self.path, self.stream_iri or self.sole)
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(self.path)) from None
        entries = parse_blocks(read_blocks(self.path, start=start), self.path,
                               NTriplesLines(self.stream_iri), ReadPolicy(), ReadReport(), per_stream=False)
        for time, elements in atom_slices(entries):  # grouped by time, whatever they hold
            if hi is not None and time > hi:
                return
            if self.sole is not None and any(e.stream is None for e in elements):
                elements = tuple(e if e.stream is not None else e._replace(stream=self.sole)
                                 for e in elements)
            yield time, elements

    def history(self, lo: int, hi: int | None) -> StreamHistory:
        """The triples at ``[lo, hi]`` as a :class:`StreamHistory`."""
        history = StreamHistory()
        for time, elements in self.slices(lo, hi):
            history.add(time, elements)
        return history
