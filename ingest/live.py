"""Lines of a source that is still being written: a file being appended to, a pipe, standard
input, a WebSocket, a Kafka topic (issue 31, ``lars agree --follow``).

:func:`live_lines` gives the lines of one source as they arrive, one text line at a time
(line ends removed), and ends when the source does: a pipe or standard input at end of file,
a WebSocket when the server closes it, a followed file or a Kafka topic after ``idle``
seconds without a new line (``None``: never; Ctrl-C stops the caller). Nothing is kept but
an incomplete last line of a followed file, held until its line end is written, or read as
the last line when the file has ended (as ``lars agree`` reads a file's last line without one).

Addresses:

* ``-``: standard input; a path to a FIFO: read to its end; any other path: a regular file,
  read from its start and then followed as it grows (``tail -f``);
* ``ws://host:port/path`` or ``wss://…``: one message is one line or several (split at line
  ends), through the ``websockets`` package;
* ``kafka://host:port/topic``: each message's value is one line or several, through
  ``confluent-kafka`` (the optional extra ``lars-rsp[kafka]``), read from the topic's start
  by a consumer of its own group.

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".nt", delete=False) as f:
...     _ = f.write("a 1\\nb 2\\nhalf")
>>> list(live_lines(f.name, idle=0.05))
['a 1', 'b 2', 'half']
>>> os.unlink(f.name)
"""

from __future__ import annotations

import os
import queue
from collections import deque
import stat
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

from ingest.kafkatime import KafkaTime, StampedLine, message_ms
from lars.errors import InputError, Position

POLL_SECONDS = 0.02
"""How long a followed file or a Kafka consumer waits before looking for new lines again."""


def live_lines(address: str, idle: float | None = None, kafka_time: KafkaTime | None = None
               ) -> Iterator[str]:
    """The lines of ``address`` as they arrive (see the module docstring); a Kafka message's
    lines are :class:`~ingest.kafkatime.StampedLine` at the message's time when ``kafka_time``
    says where to take it from (other sources ignore it).

    Raises:
        InputError: an unknown scheme, a source that cannot be opened, a Kafka address without
            a topic or without confluent-kafka installed.
    """
    scheme = urlsplit(address).scheme.lower() if "://" in address else ""
    reader = READERS.get(scheme)
    if reader is None:
        raise InputError(f"cannot follow a {scheme}:// address", Position(address),
                         hint="give a file, a pipe, '-', ws://, wss:// or kafka://")
    if scheme == "kafka":
        return reader(address, idle, kafka_time)
    return reader(address, idle)


def split_lines(chunks: Iterator[str | bytes]) -> Iterator[str]:
    """The lines of messages that each hold one line or several (a trailing line end, a
    carriage return before it and blank lines dropped)."""
    for chunk in chunks:
        text = chunk.decode("utf-8") if isinstance(chunk, bytes) else chunk
        for line in text.split("\n"):
            line = line.removesuffix("\r")
            if line.strip():
                yield line


def file_lines(address: str, idle: float | None) -> Iterator[str]:
    """Standard input or a pipe to its end; a regular file followed as it grows."""
    if address == "-":
        yield from (line.rstrip("\r\n") for line in sys.stdin)
        return
    try:
        mode = os.stat(address).st_mode
        handle = open(address, encoding="utf-8", newline="")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise InputError(f"cannot read the file: {error.strerror or error}", Position(address)) from None
    with handle:
        if not stat.S_ISREG(mode):  # a FIFO or a device: it ends when its writer closes it
            yield from (line.rstrip("\r\n") for line in handle)
            return
        yield from follow(handle.readline, idle)


def follow(readline: Callable[[], str], idle: float | None) -> Iterator[str]:
    """Complete lines from ``readline`` (a file's, at its end it returns what is there so far),
    waiting for more at the end; ends after ``idle`` seconds without a new complete line, with
    the incomplete last line if there is one (the file has ended without its line end)."""
    partial, quiet_since = "", time.monotonic()
    while True:
        text = readline()
        if text:
            partial += text
            if partial.endswith("\n"):
                yield partial.rstrip("\r\n")
                partial, quiet_since = "", time.monotonic()
            continue
        if idle is not None and time.monotonic() - quiet_since >= idle:
            if partial.strip():
                yield partial.rstrip("\r\n")
            return
        time.sleep(POLL_SECONDS)


def websocket_lines(address: str, idle: float | None) -> Iterator[str]:
    """The messages of a WebSocket until the server closes it (``idle``: at most that long
    between two messages)."""
    from websockets.exceptions import ConnectionClosedError, InvalidURI, WebSocketException
    from websockets.sync.client import connect

    checked_address(address)
    try:
        connection = connect(address, open_timeout=10, max_size=None)
    except (OSError, InvalidURI, WebSocketException) as error:
        raise InputError(f"cannot connect: {error}", Position(address)) from None
    with connection:
        try:
            while True:
                try:
                    message = connection.recv(timeout=idle)
                except TimeoutError:
                    return
                yield from split_lines(iter((message,)))
        except ConnectionClosedError as error:
            raise InputError(f"the connection broke: {error}", Position(address)) from None
        except WebSocketException:  # closed normally by the server: the stream has ended
            return


def confluent_kafka():
    """The confluent-kafka module.

    Raises:
        InputError: it is not installed.
    """
    try:
        import confluent_kafka as module
    except ImportError:
        raise InputError("kafka:// addresses need confluent-kafka",
                         hint="pip install 'lars-rsp[kafka]'") from None
    return module


def kafka_consumer(config: dict) -> object:
    """A confluent-kafka consumer (the tests put an in-memory fake here)."""
    return confluent_kafka().Consumer(config)


def kafka_producer(config: dict) -> object:
    """A confluent-kafka producer (the tests put an in-memory fake here)."""
    return confluent_kafka().Producer(config)


KAFKA_CONNECT_SECONDS = 5.0
"""How long a Kafka client waits for the broker before the address is refused as unreachable."""


def kafka_address(address: str, topic_needed: bool) -> tuple[str, str]:
    """``(host:port, topic)`` of ``kafka://host:port/topic`` (the topic may be empty unless
    ``topic_needed``).

    Raises:
        InputError: no host, a port out of range, a topic with a slash or a missing topic.
    """
    parts = checked_address(address)
    topic = parts.path.strip("/")
    if not parts.hostname or "/" in topic or (topic_needed and not topic):
        raise InputError("a Kafka address is kafka://host:port/topic", Position(address))
    return parts.netloc, topic


def checked_address(address: str):
    """The parts of a ws:// or kafka:// address whose port, if given, is a port.

    Raises:
        InputError: a port that is not a number from 0 to 65535.
    """
    parts = urlsplit(address)
    try:
        parts.port
    except ValueError:
        raise InputError("the port is not a number from 0 to 65535", Position(address)) from None
    return parts


def kafka_client(make: Callable[[dict], object], servers: str, address: str,
                 **config: object) -> object:
    """A Kafka client of ``servers`` whose broker has answered within
    :data:`KAFKA_CONNECT_SECONDS`, librdkafka's own log silenced (its errors are ours to say).

    Raises:
        InputError: the broker did not answer (one line naming the address).
    """
    failures: list[str] = []
    client = make({"bootstrap.servers": servers, "log_level": 0,
                   "error_cb": lambda error: failures.append(kafka_reason(error)), **config})
    try:
        client.list_topics(timeout=KAFKA_CONNECT_SECONDS)
    except Exception as error:  # noqa: BLE001 - confluent_kafka.KafkaException, no import at start-up
        reason = failures[-1] if failures else kafka_reason(error.args[0] if error.args else error)
        raise InputError(f"the Kafka broker {servers} is unreachable ({reason})",
                         Position(address)) from None
    return client


def kafka_reason(error: object) -> str:
    """The text of a confluent-kafka ``KafkaError`` (its ``str()``), or of any other error."""
    text = getattr(error, "str", None)
    return text() if callable(text) else str(error)


def kafka_lines(address: str, idle: float | None, kafka_time: KafkaTime | None = None
                ) -> Iterator[str]:
    """The messages of a Kafka topic from its start, read by a consumer group of their own;
    each line at its message's time if ``kafka_time`` is given (:mod:`ingest.kafkatime`)."""
    servers, topic = kafka_address(address, topic_needed=True)
    consumer = kafka_client(kafka_consumer, servers, address, **{
        "group.id": f"lars-{uuid.uuid4().hex}", "auto.offset.reset": "earliest",
        "enable.auto.commit": False})
    consumer.subscribe([topic])
    quiet_since = time.monotonic()
    try:
        while idle is None or time.monotonic() - quiet_since < idle:
            message = consumer.poll(POLL_SECONDS)
            if message is None:
                time.sleep(POLL_SECONDS)
                continue
            if message.error():
                raise InputError(f"Kafka: {message.error()}", Position(address))
            quiet_since = time.monotonic()
            lines = split_lines(iter((message.value() or b"",)))
            if kafka_time is None:
                yield from lines
            else:
                stamp = message_ms(message, kafka_time, address)
                yield from (StampedLine(line, stamp) for line in lines)
    finally:
        consumer.close()


READERS: dict[str, Callable[..., Iterator[str]]] = {
    "": file_lines, "ws": websocket_lines, "wss": websocket_lines, "kafka": kafka_lines,
}


END = object()
"""What a source's thread puts in the queue when its lines have ended."""


def interleave(sources: dict[str, Iterator[str]], ends: bool = False
               ) -> Iterator[tuple[str, int, str]]:
    """``(name, line number, line)`` of several sources, in the order their lines arrive (and
    ``(name, 0, END)`` when a source has ended, if ``ends``): each
    source is read by a thread of its own, started at once (a WebSocket replay waits for every
    file's client before it sends anything; daemon threads: Ctrl-C in the caller ends them
    with the program); the first error of any source is raised here, and the other sources
    stop at their next line (a source waiting for one stays blocked until it comes or the
    program ends).

    >>> sorted(interleave({"a": iter(["x", "y"]), "b": iter(["z"])}))
    [('a', 1, 'x'), ('a', 2, 'y'), ('b', 1, 'z')]
    """
    arrived: queue.Queue = queue.Queue(maxsize=QUEUE_LINES)
    stop = threading.Event()

    def pump(name: str, lines: Iterator[str]) -> None:
        try:
            if stop.is_set():  # another source failed before this one began
                return
            for number, line in enumerate(lines, 1):
                if stop.is_set():
                    break
                put((name, number, line))
            put((name, 0, END))
        except BaseException as error:  # noqa: BLE001 - handed to the reading thread
            put((name, -1, error))
        finally:
            close = getattr(lines, "close", None)
            if close is not None:
                close()  # a connection or a consumer is let go

    def put(item: tuple) -> None:
        while not stop.is_set():
            try:
                arrived.put(item, timeout=0.2)
                return
            except queue.Full:
                continue

    for name, lines in sources.items():
        threading.Thread(target=pump, args=(name, lines), daemon=True, name=f"lars-{name}").start()
    return arrivals(arrived, stop, len(sources), ends)


def arrivals(arrived: queue.Queue, stop: threading.Event, running: int, ends: bool
             ) -> Iterator[tuple[str, int, str]]:
    """What the threads of :func:`interleave` put in ``arrived``, until ``running`` sources
    have ended."""
    try:
        while running:
            try:
                name, number, line = arrived.get(timeout=0.2)  # a short wait lets Ctrl-C through
            except queue.Empty:
                continue
            if number == -1:
                raise line
            if line is END:
                running -= 1
                if not ends:
                    continue
            yield name, number, line
    finally:  # an error, Ctrl-C or the caller's end: the other sources stop at their next line
        stop.set()


class PerSource:
    """The lines of several sources read by one :func:`interleave`, handed out source by
    source (``lars check --follow`` reads the answers and the stream each as it needs them):
    while one source's lines are waited for, the others' are kept until asked for, so that no
    reading thread stalls on a full queue while a line of another source is awaited (a replay
    that sends every file in one time order would wait for it too).

    >>> both = PerSource({"a": iter(["x", "y"]), "b": iter(["z"])})
    >>> list(both.lines("b")), list(both.lines("a"))
    ([(1, 'z')], [(1, 'x'), (2, 'y')])
    """

    def __init__(self, sources: dict[str, Iterator[str]]) -> None:
        self.arrivals = interleave(sources, ends=True)
        self.kept: dict[str, deque] = {name: deque() for name in sources}

    def lines(self, name: str) -> Iterator[tuple[int, str]]:
        """``(line number, line)`` of source ``name`` as they arrive, until it ends."""
        kept = self.kept[name]
        while True:
            while kept:
                item = kept.popleft()
                if item is END:
                    return
                yield item
            arrived = next(self.arrivals, None)
            if arrived is None:
                return
            source, number, line = arrived
            self.kept[source].append(END if line is END else (number, line))


QUEUE_LINES = 10_000
"""Lines read ahead of the check at most (a source faster than the check waits)."""
