"""Input that reaches nothing: triples on streams the query does not read (issue 28).

A stream whose every triple names a stream the query does not read (``<…/S>`` for ``<…/s>``)
gave ``lars run`` no answers, ``lars agree`` AGREE and ``lars check`` CORRECT for an empty
recording, exit 0, and nothing said why. :func:`count_reach` passes the slices on unchanged and,
when they end, adds a warning to the read report if triples were read and none of them is on a
stream the query reads.

>>> from rdflib import URIRef
>>> from ingest.policy import ReadReport
>>> from ingest.rdffiles import StreamTriple
>>> s, S = URIRef("http://e/s"), URIRef("http://e/S")
>>> report = ReadReport()
>>> _ = list(count_reach([(1, (StreamTriple(1, S, (s, s, s), None),))], {s}, report))
>>> print(report.notes[0])
warning: none of the 1 triple read reaches the query: every one is on a stream it does not read \
(<http://e/S>); it reads <http://e/s>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from operator import attrgetter
from typing import Any

from ingest.policy import ReadReport


def count_reach(slices: Iterable[tuple[int, Any]], streams: Collection[Any], report: ReadReport,
                stream_of: Callable[[Any], Any] = attrgetter("stream"),
                name: Callable[[Any], str] = lambda stream: f"<{stream}>") -> Iterator[tuple[int, Any]]:
    """``slices`` as they are; at their end, a warning in ``report`` when some elements were
    read and none is on one of ``streams`` (the query's).

    Args:
        stream_of: an element's stream (default: a stream triple's ``.stream``; for encoded
            ``striple`` atoms, their last argument, with ``streams`` encoded alike).
        name: a stream as the message shows it (called once per distinct stream, at the end).
    """
    found: Counter = Counter()
    iterator = iter(slices)
    try:
        for t, elements in iterator:
            found.update(map(stream_of, elements))
            yield t, elements
    finally:
        note = unreached(found, streams, name)
        if note is not None:
            report.note(note)


def unreached(found: Counter, streams: Collection[Any],
              name: Callable[[Any], str] = lambda stream: f"<{stream}>") -> str | None:
    """The warning for elements counted by stream in ``found`` of which none is on ``streams``."""
    total = sum(found.values())
    if not total or not streams or any(stream in streams for stream in found):
        return None
    names = sorted("no stream" if stream is None else name(stream) for stream in found)
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    reads = ", ".join(sorted(map(name, streams)))
    noun = "triple" if total == 1 else "triples"
    return (f"warning: none of the {total} {noun} read reaches the query: every one is on a stream "
            f"it does not read ({shown}); it reads {reads}")
