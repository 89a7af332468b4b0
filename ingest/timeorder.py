"""Time order of stream records: one source's order, and the merge of several streams' orders.

:class:`TimeOrder` follows the latest time point of one source (or one stream) and flags a record
that goes back in time; :func:`combine_orders` folds its states (the Spark job checks the order
partition by partition). :class:`StreamMerge` merges the records of several streams of one
source, each in time order, into time order (issue 26: RSP4J's multi-stream inputs interleave
their streams). :func:`ingest.policy.parse_lines` applies them under the reading policy.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from lars.errors import InputError, LarsError, Position


class Entry(NamedTuple):
    """One parsed record: its time point, its elements in order, and where it was read; or
    consecutive records of one time point read together (:func:`ingest.policy.parse_blocks`),
    placed at the first of them (a stream triple keeps its own line)."""

    time: int
    elements: tuple[Any, ...]
    position: Position


class TimeOrder:
    """Follows the latest timestamp of one source and flags records that go back in time.

    The state is ``(latest time, the last line that had it)``; a record before the latest time
    is flagged and leaves the state alone. :func:`combine_orders` folds states, so the check can
    also run over the partitions of a Spark job.

    >>> order = TimeOrder("s.nt")
    >>> order.check(7, 9) is None, str(order.check(5, 12))
    (True, 's.nt:12: error: timestamp 5 goes back in time (line 9 had 7)')
    """

    def __init__(self, source: str, state: tuple[int, int] | None = None):
        self.source = source
        self.state = state

    def check(self, time: int, line: int, where: str = "") -> InputError | None:
        """Record ``time`` read on ``line``; the error if it goes back in time (else ``None``);
        ``where`` is added to the message (``" on stream <s>"``)."""
        if self.state is not None and time < self.state[0]:
            latest, latest_line = self.state
            return InputError(f"timestamp {time} goes back in time (line {latest_line} had "
                              f"{latest}{where})", Position(self.source, line))
        self.state = (time, line)
        return None


INTEGER = re.compile(r"-?[0-9]+")


def timestamp_column(text: str, time: int, parser: Callable[[str, str, int], Any],
                     source: str = "", number: int = 1) -> int | None:
    """The column (1-based) of the timestamp of stream line ``text``, which ``parser`` (a line
    parser, :data:`ingest.policy.LineParser`) reads as time point ``time``; ``None`` when no
    integer written in the line is its time (a JSON-LD element's dateTime).

    The parser is asked rather than the line's syntax guessed: the timestamp is the integer
    equal to ``time`` whose change changes the time the parser reads (an IRI's or a literal's
    digits change the triple, not the time). One rule serves every line syntax, a LARS line's
    leading ``t:``, an N-Triples line's trailing time, a JSON-LD element's whole-number time;
    it runs only for a line being refused, so its few parses cost nothing that matters.

    >>> from lars.parser import parse_stream_line
    >>> timestamp_column("  5: p(5)", 5, parse_stream_line)
    3
    """
    other = time ^ 1  # another time point with no more digits (0 -> 1, 7 -> 6, -3 -> -4)
    for match in INTEGER.finditer(text):
        if int(match.group()) != time:
            continue
        probe = f"{text[:match.start()]}{other}{text[match.end():]}"
        try:
            parsed = parser(probe, source, number)
        except LarsError:
            continue
        if parsed is not None and parsed[0] == other:
            return match.start() + 1
    return None


def at_timestamp(error: InputError, text: str, time: int,
                 parser: Callable[[str, str, int], Any]) -> InputError:
    """``error`` about line ``text`` going back in time, placed at the line's timestamp
    (:func:`timestamp_column`; newcomer: ``s.nt:12: error: timestamp 5 goes back in time`` named
    no column, where every other error about a line points at the spot)."""
    where = error.position or Position()
    column = timestamp_column(text, time, parser, where.source or "", where.line or 1)
    if column is None:
        return error
    return InputError(error.message, Position(where.source, where.line, column), error.hint)


def combine_orders(first: tuple[int, int] | None, then: tuple[int, int] | None) -> tuple[int, int] | None:
    """The :class:`TimeOrder` state after reading a part with end state ``first``, then ``then``."""
    if first is None or (then is not None and then[0] >= first[0]):
        return then if then is not None else first
    return first


def stream_of(elements: Sequence[Any]) -> Any:
    """The stream a line's elements arrive on: a stream triple's ``stream``, a ``striple``
    atom's last argument; ``None`` (one stream) for other elements, such as a LARS file's atoms."""
    if not elements:
        return None
    first = elements[0]
    if hasattr(first, "stream"):
        return first.stream
    args = getattr(first, "args", ())
    return args[-1] if getattr(first, "predicate", None) == "striple" and args else None


class StreamMerge:
    """Merges the lines of several streams, each ascending in time, into time order.

    Each stream has its own :class:`TimeOrder`. An entry is held until no line still to come can
    have an earlier or equal time point: every stream seen so far has passed it (the
    *watermark* is the least of their latest time points; entries at it wait, since more lines
    at that time point may come, from any stream). A single stream in time order therefore flows
    through with one time point of delay, and interleaved streams are held only as far as they
    are apart; within a time point the entries keep their arrival (line) order.

    A stream that first appears with a time point before one already handed on cannot be merged
    without reading the whole source first: it is refused, naming the line (``--order sort``
    reads the whole source and sorts it).

    >>> merge = StreamMerge("s.nt")
    >>> out = []
    >>> for time, line, stream in [(1, 1, "a"), (2, 2, "b"), (3, 3, "a"), (1, 4, "b"), (5, 5, "b")]:
    ...     error = merge.check(time, line, stream)
    ...     out += [(time, str(error))] if error else [e.time for e in merge.push(
    ...         Entry(time, (stream,), Position("s.nt", line)))]
    >>> out + [e.time for e in merge.flush()]
    [1, (1, 's.nt:4: error: timestamp 1 goes back in time (line 2 had 2 on stream b)'), 2, 3, 5]
    """

    def __init__(self, source: str):
        self.source = source
        self.orders: dict[Any, TimeOrder] = {}
        self.held: list[tuple[int, int, Entry]] = []
        self.handed: tuple[int, int] | None = None
        """The latest time point handed on, and the line it came from."""

    def check(self, time: int, line: int, stream: Any) -> InputError | None:
        """Record ``time`` on ``line`` of ``stream``; the error if it goes back in time within
        its stream, or if a new stream starts before what was handed on (else ``None``)."""
        order = self.orders.get(stream)
        if order is None:
            if self.handed is not None and time < self.handed[0]:
                return InputError(
                    f"timestamp {time} of a stream first seen here goes back in time (line "
                    f"{self.handed[1]} had {self.handed[0]}, already read): streams whose lines "
                    "interleave must each start before the others pass its first time point",
                    Position(self.source, line), hint="use --order sort to sort the whole file")
            order = self.orders[stream] = TimeOrder(self.source)
        return order.check(time, line, f" on stream {_stream_text(stream)}"
                           if len(self.orders) > 1 else "")

    def only(self, stream: Any) -> TimeOrder | None:
        """The order of ``stream`` if it is the only stream seen (made for it, as :meth:`check`
        makes it, if none was seen yet), else ``None``: the order a block of lines all on
        ``stream`` is checked against at once (:func:`ingest.policy.parse_blocks`), where
        :meth:`check` would say nothing of any line that neither goes back behind the order's
        latest time point nor behind the line before it."""
        if not self.orders:
            self.orders[stream] = TimeOrder(self.source)
        return self.orders.get(stream) if len(self.orders) == 1 else None

    def push(self, entry: Entry) -> list[Entry]:
        """Hold ``entry``; hand on what no later line can precede (most lines hand on nothing,
        so this is a plain call, not a generator).

        While one stream has been seen, no heap is needed: its entries arrive in time order, so
        those held are the entries of its latest time point, in line order (a sorted list, a
        heap as it is, should another stream come), and an entry of a later time point hands
        them all on."""
        held = self.held
        if len(self.orders) == 1:
            if held and held[-1][0] < entry.time:
                released = [item[2] for item in held]
                self.handed = held[-1][:2]
                held[:] = [(entry.time, entry.position.line or 0, entry)]
                return released
            held.append((entry.time, entry.position.line or 0, entry))
            return []
        heapq.heappush(held, (entry.time, entry.position.line or 0, entry))
        watermark = min(order.state[0] for order in self.orders.values())
        if held[0][0] >= watermark:
            return []
        released = []
        while held and held[0][0] < watermark:
            time, line, entry = heapq.heappop(held)
            released.append(entry)
        self.handed = (time, line)
        return released

    def flush(self) -> Iterator[Entry]:
        """Everything still held, in time order (the source has ended)."""
        while self.held:
            yield heapq.heappop(self.held)[2]


def _stream_text(stream: Any) -> str:
    text = getattr(stream, "value", stream)
    return f"<{text}>" if isinstance(text, str) and ":" in text else str(text)
