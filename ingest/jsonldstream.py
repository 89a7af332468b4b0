"""One RDF stream element in JSON-LD, as TripleWave publishes them over a WebSocket (issue 31).

An element is a named graph with its time: ``{"@context": {…}, "@id": G, "@graph": [triples],
"http://www.w3.org/ns/prov#generatedAtTime": T}``, ``T`` an ``xsd:dateTime`` (read as
milliseconds since 1970-01-01T00:00Z, a time zone required) or a whole number of ticks. Its
triples arrive at ``floor(T / unit)`` on the stream the caller names (the graph's IRI names the
element, not the stream). A context given by address (a string) is refused: lars never reaches
the network (SPEC section 11).

>>> text = ('{"@id": "http://e/g1", "http://www.w3.org/ns/prov#generatedAtTime": '
...         '"1970-01-01T00:00:12.5Z", "@graph": [{"@id": "http://e/a", "http://e/p": 1}]}')
>>> time, [element] = jsonld_element(text, "ws", 1, 1000, None)
>>> time, element.triple[2].n3()
(12, '"1"^^<http://www.w3.org/2001/XMLSchema#integer>')
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from rdflib import Dataset, URIRef

from ingest.kafkatime import stamp_of
from ingest.rdffiles import StreamTriple, parse_ntriples_line
from lars.errors import InputError, ParseError, Position

GENERATED_AT = URIRef("http://www.w3.org/ns/prov#generatedAtTime")


def jsonld_element(text: str, source: str, number: int, unit_ms: int, stream: URIRef | None,
                   timed_apart: bool = False) -> tuple[int, list[StreamTriple]]:
    """``(t, triples)`` of one JSON-LD stream element (see the module docstring); with
    ``timed_apart`` (its time is the Kafka message's) it needs no ``generatedAtTime`` (``t``
    is then 0 for the caller to replace).

    Raises:
        ParseError: not JSON, or not JSON-LD rdflib can read.
        InputError: a remote context, no time, or a time that is neither a dateTime with a
            time zone nor a whole number.
    """
    where = Position(source, number)
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ParseError(f"not JSON: {error}", where) from None
    if not isinstance(document, dict):
        raise InputError("a JSON-LD stream element is an object", where)
    if remote_context(document.get("@context")):
        raise InputError("a JSON-LD @context given by address is not fetched (lars never reaches "
                         "the network)", where, hint="give the context inline")
    dataset = Dataset()
    try:
        dataset.parse(data=text, format="json-ld")
    except Exception as error:  # noqa: BLE001 - rdflib's JSON-LD parser raises many kinds
        raise ParseError(f"not JSON-LD rdflib reads: {error}", where) from None
    times = [o for _, _, o, g in dataset.quads((None, GENERATED_AT, None, None))]
    if timed_apart and not times:
        time = 0
    elif len(times) != 1:
        raise InputError(f"a stream element has one prov:generatedAtTime, not {len(times)}", where)
    else:
        time = element_time(str(times[0]), unit_ms, where)
    triples = [StreamTriple(time, stream, (s, p, o), where)
               for s, p, o, g in dataset.quads((None, None, None, None))
               if not (p == GENERATED_AT and times and o == times[0])]
    return time, triples


def remote_context(context: object) -> bool:
    """Whether a ``@context`` names a document to fetch (a string, or a list holding one)."""
    if isinstance(context, str):
        return True
    return isinstance(context, list) and any(isinstance(item, str) for item in context)


def element_time(text: str, unit_ms: int, where: Position) -> int:
    """A ``generatedAtTime`` in ticks: a dateTime with a time zone, or a whole number of ticks."""
    if text.strip().lstrip("-").isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise InputError(f"prov:generatedAtTime {text!r} is neither a dateTime with a time zone "
                         "nor a whole number of ticks", where)
    delta = moment - datetime(1970, 1, 1, tzinfo=timezone.utc)
    milliseconds = (delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000)
    return milliseconds // unit_ms


def stream_line(text: str, source: str, number: int, unit_ms: int, stream: URIRef | None
                ) -> tuple[int, list[StreamTriple]] | None:
    """One line of a live stream: a JSON-LD element (it starts with ``{``) or a timestamped
    N-Triples line (:func:`ingest.rdffiles.parse_ntriples_line`; ``None`` if blank or a comment).

    A :class:`~ingest.kafkatime.StampedLine` (``--kafka-time``) is at its message's time,
    ``floor(ms / unit)``, not at the one written in it; its N-Triples line may then end with
    ``.`` and no time of its own, as plain N-Triples.

    >>> from ingest.kafkatime import StampedLine
    >>> stream_line(StampedLine("<http://e/a> <http://e/p> <http://e/b> .", 12500), "k", 1, 1000, None)[0]
    12
    """
    stamp = stamp_of(text)
    if stamp is not None and text.rstrip().endswith("."):
        text = f"{text} 0"  # plain N-Triples: the time is the message's
    if text.lstrip().startswith("{"):
        parsed = jsonld_element(text, source, number, unit_ms, stream, stamp is not None)
    else:
        parsed = parse_ntriples_line(text, source, number, default_stream=stream)
    if stamp is None or parsed is None:
        return parsed
    time = stamp // unit_ms
    return time, [element._replace(time=time) for element in parsed[1]]
