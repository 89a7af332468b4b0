"""A Kafka message's own time as the time of its lines (issue 31, ``--kafka-time``).

By default a line read from a ``kafka://`` source is at the time written in it, as a line of
any other source. ``--kafka-time timestamp`` takes the Kafka timestamp of the message instead
(the producer's create time or the broker's log-append time, whichever the topic keeps), and
``--kafka-time field:NAME`` the integer field ``NAME`` of the message, a JSON object; either in
milliseconds since the epoch, turned into ticks of ``--unit`` by the line's reader
(``floor(ms / unit)``, less the profile's label offset for an engine's answers).

The time travels with the text as a :class:`StampedLine`, a ``str`` that carries it: the
readers of each line kind (:func:`ingest.jsonldstream.stream_line`, the live answer readers)
put it in place of the line's own. A message without a timestamp, without the field, or whose
time is not an integer is refused in one line naming its topic, partition and offset.

>>> mode = kafka_time_mode("field:ts")
>>> mode
KafkaTime(field='ts')
>>> kafka_time_mode("timestamp"), kafka_time_mode(None)
(KafkaTime(field=None), None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from lars.errors import InputError, Position

TIMESTAMP_NOT_AVAILABLE = 0
"""confluent-kafka's ``TIMESTAMP_NOT_AVAILABLE``: the message carries no timestamp."""


@dataclass(frozen=True)
class KafkaTime:
    """Where a message's time is taken from: its Kafka timestamp (``field`` ``None``) or the
    JSON field ``field`` of its value."""

    field: str | None = None


def kafka_time_mode(text: str | None) -> KafkaTime | None:
    """``--kafka-time``: ``timestamp``, ``field:NAME``, or ``None`` (the line's own time).

    Raises:
        InputError: any other text, or an empty field name.
    """
    if text is None:
        return None
    if text == "timestamp":
        return KafkaTime()
    kind, _, name = text.partition(":")
    if kind == "field" and name:
        return KafkaTime(name)
    raise InputError(f"--kafka-time is 'timestamp' or 'field:NAME', not {text!r}")


class StampedLine(str):
    """A line whose time is given apart from its text: ``time_ms``, milliseconds since the
    epoch (see the module docstring)."""

    time_ms: int

    def __new__(cls, text: str, time_ms: int) -> StampedLine:
        line = super().__new__(cls, text)
        line.time_ms = time_ms
        return line


def stamp_of(line: str) -> int | None:
    """The time of a :class:`StampedLine` in milliseconds; ``None`` for a line of its own time."""
    return getattr(line, "time_ms", None)


def message_position(message: object, address: str) -> Position:
    """A message's place: the address (topic), its partition and offset (``?`` where the
    client does not say, as in-memory fakes do not)."""
    offset = message.offset()
    return Position(f"{address} partition {message.partition()} "
                    f"offset {'?' if offset is None else offset}")


def message_ms(message: object, mode: KafkaTime, address: str) -> int:
    """The time of a confluent-kafka message in milliseconds, as ``mode`` says.

    Raises:
        InputError: no timestamp, no such field (or a value that is not a JSON object), or a
            time that is not an integer.
    """
    where = message_position(message, address)
    if mode.field is None:
        kind, value = message.timestamp()
        if kind == TIMESTAMP_NOT_AVAILABLE:
            raise InputError("the message has no Kafka timestamp (--kafka-time timestamp)", where)
        return value
    try:
        document = json.loads(message.value() or b"")
    except (ValueError, RecursionError):
        document = None
    if not isinstance(document, dict) or mode.field not in document:
        raise InputError(f"the message is not a JSON object with the field {mode.field!r} "
                         f"(--kafka-time field:{mode.field})", where)
    value = document[mode.field]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"the field {mode.field!r} of the message is {value!r}, not an integer "
                         "number of milliseconds", where)
    return value

