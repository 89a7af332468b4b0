"""The slices of a live stream, put back in time order by the watermark (issue 31, ``--follow``).

:class:`LiveSlices` reads timestamped N-Triples lines, or JSON-LD elements as TripleWave sends
them, as they arrive, and hands each time point on as one slice ``(t, triples)`` once the
watermark (:class:`ingest.watermark.Reorder`, ``--max-delay D``, per stream) has passed it:
every line of it has then come, a later one is *late* and handed to the caller's ``late``
instead. ``lars agree QUERY --follow`` and ``lars check --follow`` solve over these slices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ingest.jsonldstream import stream_line
from ingest.lazy import RdfSlice
from ingest.rdffiles import StreamTriple
from ingest.watermark import Reorder, Timed


@dataclass
class LiveSlices:
    """The slices of a live stream's lines, ``(t, triples)`` ascending, read as they come.

    Args:
        lines: ``(line number, text)`` of the stream as they arrive: timestamped N-Triples, or
            JSON-LD elements as TripleWave sends them (:mod:`ingest.jsonldstream`).
        source: the stream's address, for errors.
        default_stream: the stream of a line that names none.
        unit_ms: one tick in milliseconds (a JSON-LD element's time is a dateTime).
        reorder: the watermark.
        late: called with each late triple (see the module docstring).
    """

    lines: Iterator[tuple[int, str]]
    source: str
    default_stream: object
    unit_ms: int
    reorder: Reorder
    late: Callable[[Timed], None]
    last: int | None = field(default=None, init=False)
    """The largest time point handed on."""
    ended: bool = field(default=False, init=False)

    def __iter__(self) -> Iterator[RdfSlice]:
        for number, text in self.lines:
            parsed = stream_line(text, self.source, number, self.unit_ms, self.default_stream)
            if parsed is None:
                continue
            time, elements = parsed
            for element in elements:
                yield from self.slices(self.reorder.push(time, element, stream=element.stream))
        yield from self.slices(self.reorder.flush())
        self.ended = True

    def slices(self, released: Iterator[Timed]) -> Iterator[RdfSlice]:
        """The released lines grouped by time point: every time point released is complete."""
        group: list[StreamTriple] = []
        for item in released:
            if item.late:
                self.late(item)
                continue
            if group and item.time != group[0].time:
                yield self.handed(group)
                group = []
            group.append(item.item)
        if group:
            yield self.handed(group)

    def handed(self, group: list[StreamTriple]) -> RdfSlice:
        self.last = group[0].time
        return group[0].time, tuple(group)
