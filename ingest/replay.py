"""Recorded streams published again at a multiple of real time, for tests and demos of
``lars agree --follow`` (issue 31, ``lars replay``).

:func:`timed_lines` reads a file of timestamped lines: timestamped N-Triples (the time point
in ticks of ``unit_ms``), JSON lines of answers (a CSRBench relation with ``timestamp`` in
milliseconds, or a ``lars run --format sparql-json`` line with ``time`` in ticks), or a whole
CSRBench answer document, whose relations become one line each. :func:`paced` hands the lines
of several files on, merged in time order, each when its time has come at ``rate`` times real
time (the first line at once); :func:`publish` sends them to standard output, a Kafka topic,
or the clients of a WebSocket server.

>>> files = {"a": iter([(0, "a0"), (2000, "a2")]), "b": iter([(1000, "b1")])}
>>> list(paced(files, rate=1000))
[('a', 'a0'), ('b', 'b1'), ('a', 'a2')]
>>> list(timed_lines_of(['<http://e/a> <http://e/p> "o" 3', '{"timestamp": 2500}'], "f", 1000))
[(3000, '<http://e/a> <http://e/p> "o" 3'), (2500, '{"timestamp": 2500}')]
"""

from __future__ import annotations

import heapq
import json
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

from ingest import live
from ingest.jsonldstream import jsonld_element
from ingest.rdffiles import parse_ntriples_line
from lars.errors import InputError, Position
from translate.documents import read_document

TimedLine = tuple[int, str]
"""``(time in milliseconds, line)``."""


def timed_lines(path: str, unit_ms: int) -> Iterator[TimedLine]:
    """The lines of one file with their times in milliseconds (see the module docstring)."""
    if Path(path).suffix.lower() == ".json":
        document = json.loads(read_document(path, "recorded answers"))
        relations = document.get("relations") if isinstance(document, dict) else None
        if not isinstance(relations, list):
            raise InputError("expected a CSRBench document {\"relations\": [...]}", Position(path))
        return timed_lines_of((json.dumps(r, ensure_ascii=False) for r in relations), path, unit_ms)
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 (read to its end by the caller)
    except OSError as error:
        raise InputError(f"cannot read the file: {error.strerror or error}", Position(path)) from None
    return timed_lines_of((line.rstrip("\r\n") for line in handle), path, unit_ms)


def timed_lines_of(lines: Iterable[str], source: str, unit_ms: int) -> Iterator[TimedLine]:
    """``(ms, line)`` for each line with a time; blank lines and comments are left out."""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("{"):
            yield json_time(stripped, source, number, unit_ms), line
            continue
        parsed = parse_ntriples_line(line, source, number)
        if parsed is not None:
            yield parsed[0] * unit_ms, line


def json_time(text: str, source: str, number: int, unit_ms: int) -> int:
    """The time of one JSON line in milliseconds: its ``timestamp`` (ms), ``time`` (ticks), or
    a JSON-LD stream element's ``prov:generatedAtTime`` (:mod:`ingest.jsonldstream`)."""
    try:
        document = json.loads(text)
        if "timestamp" in document:
            return int(document["timestamp"])
        if "time" in document:
            return int(document["time"]) * unit_ms
    except (ValueError, TypeError):
        raise InputError("expected a JSON object with \"timestamp\" (ms) or \"time\" (ticks), "
                         "or a JSON-LD stream element", Position(source, number)) from None
    return jsonld_element(text, source, number, 1, None)[0]


def paced(files: dict[str, Iterator[TimedLine]], rate: float,
          clock: Callable[[], float] = time.monotonic,
          sleep: Callable[[float], None] = time.sleep) -> Iterator[tuple[str, str]]:
    """``(file, line)`` of all ``files`` merged in time order (each file in its own order),
    each handed on ``(time - first time) / rate`` ms after the first."""
    def keyed(index: int, name: str, lines: Iterator[TimedLine]) -> Iterator[tuple[int, int, str, str]]:
        return ((ms, index, name, line) for ms, line in lines)

    merged = heapq.merge(*(keyed(index, name, lines)
                           for index, (name, lines) in enumerate(files.items())))
    start = first = None
    for ms, _, name, line in merged:
        if start is None:
            start, first = clock(), ms
        wait = start + (ms - first) / 1000 / rate - clock()
        if wait > 0:
            sleep(wait)
        yield name, line


def publish(lines: Iterator[tuple[str, str]], names: list[str], address: str,
            clients: int = 1) -> int:
    """Send ``(file, line)`` to ``address``; the number of lines sent.

    * ``-``: standard output, flushed after each line;
    * ``kafka://host:port/topic``: one message per line (one file), or ``kafka://host:port``:
      each file to the topic of its name;
    * ``ws://host:port``: a server on ``host:port`` publishing each file at ``/NAME`` (its file
      name); the replay starts once ``clients`` clients are connected to each file's path, and
      the connections are closed when it ends.
    """
    scheme = urlsplit(address).scheme.lower() if "://" in address else ""
    if address == "-":
        return write_lines(lines)
    if scheme == "kafka":
        return kafka_publish(lines, names, address)
    if scheme == "ws":
        return websocket_publish(lines, names, address, clients)
    raise InputError(f"cannot publish to {address}", hint="give -, ws://host:port or kafka://host:port/topic")


def write_lines(lines: Iterator[tuple[str, str]]) -> int:
    """Each line to the standard output, flushed at once (a pipe's reader sees it then)."""
    sent = 0
    for _, line in lines:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        sent += 1
    return sent


def kafka_publish(lines: Iterator[tuple[str, str]], names: list[str], address: str) -> int:
    """Each line one message: of the topic of ``kafka://host:port/topic`` (one file), or of
    the topic named after its file (``kafka://host:port``, several files)."""
    servers, topic = live.kafka_address(address, topic_needed=False)
    if len(names) > 1 and topic:
        raise InputError("kafka://host:port/topic takes one file; with several, give "
                         "kafka://host:port and each goes to the topic of its name", Position(address))
    failed: list[str] = []

    def delivered(error, _message) -> None:
        if error is not None:
            failed.append(live.kafka_reason(error))

    producer = live.kafka_client(live.kafka_producer, servers, address, **{
        "message.timeout.ms": int(KAFKA_DELIVERY_SECONDS * 1000)})
    sent = 0
    for name, line in lines:
        producer.produce(topic or name, value=line.encode("utf-8"), on_delivery=delivered)
        producer.poll(0)
        if failed:
            break
        sent += 1
    left = producer.flush(KAFKA_DELIVERY_SECONDS + 1)
    if failed or left:
        reason = failed[0] if failed else f"{left} messages not delivered"
        raise InputError(f"the Kafka broker {servers} did not take the lines ({reason})",
                         Position(address))
    return sent


KAFKA_DELIVERY_SECONDS = 5.0
"""How long a message may wait for the Kafka broker before the replay fails."""


def websocket_publish(lines: Iterator[tuple[str, str]], names: list[str], address: str,
                      clients: int) -> int:
    """A WebSocket server publishing each file at ``/NAME`` (see :func:`publish`)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.server import serve

    parts = live.checked_address(address)
    connected: dict[str, list] = {f"/{name}": [] for name in names}
    ready, done = threading.Event(), threading.Event()
    lock = threading.Lock()

    def handler(connection) -> None:
        path = connection.request.path
        if path not in connected:
            connection.close(code=1008, reason=f"no stream at {path}; try {', '.join(connected)}")
            return
        with lock:
            connected[path].append(connection)
            if all(len(c) >= clients for c in connected.values()):
                ready.set()
        done.wait()

    try:
        server = serve(handler, parts.hostname or "127.0.0.1", parts.port or 80)
    except (OSError, UnicodeError) as error:  # a port taken, a host that is no name
        raise InputError(f"cannot listen: {error.strerror or error}", Position(address)) from None
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    sent = 0
    try:
        while not ready.wait(0.2):
            pass
        for name, line in lines:
            for connection in list(connected[f"/{name}"]):
                try:
                    connection.send(line)
                except ConnectionClosed:
                    connected[f"/{name}"].remove(connection)
            sent += 1
    finally:
        done.set()
        for group in connected.values():
            for connection in group:
                connection.close()
        server.shutdown()
    return sent

