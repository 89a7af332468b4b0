"""What a caller chooses about reading a stream: one frozen value instead of repeated arguments.

The ``lars`` options ``--stream-iri``, ``--on-error``, ``--order``, ``--spark`` and ``--master``
travel together from the command line (or a notebook call) to the reader that needs them; the
counts of what was skipped or reordered go separately into a mutable
:class:`~ingest.policy.ReadReport`.

>>> ReadOptions(order="sort").policy
ReadPolicy(on_error='stop', order='sort')
>>> ReadOptions(on_error="skp")
Traceback (most recent call last):
lars.errors.InputError: error: unknown on_error 'skp': expected 'stop' or 'skip' (did you mean 'skip'?)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rdflib import URIRef

from ingest.policy import ReadPolicy


@dataclass(frozen=True)
class ReadOptions:
    """How to read a stream.

    Attributes:
        stream_iri: the stream IRI of triples whose line names none (RDF streams only).
        on_error: ``stop`` at the first bad line, or ``skip`` it and count it.
        order: ``strict`` (a timestamp going back is an error) or ``sort``.
        spark: read with Spark: ``auto`` (big inputs on a cluster), ``always`` or ``never``
            (checked where a stream is opened: :func:`ingest.lazy.uses_spark`).
        master: the Spark master (``local[*]``, ``spark://host:7077``).
    """

    stream_iri: str | None = None
    on_error: str = "stop"
    order: str = "strict"
    spark: str = "auto"
    master: str = "local[*]"

    def __post_init__(self) -> None:
        self.policy  # noqa: B018 -- a bad on_error or order is refused when the options are made

    @cached_property
    def policy(self) -> ReadPolicy:
        """The reading policy of every reader (:class:`~ingest.policy.ReadPolicy`)."""
        return ReadPolicy(on_error=self.on_error, order=self.order)

    @property
    def stream(self) -> URIRef | None:
        """``stream_iri`` as an rdflib IRI."""
        return URIRef(self.stream_iri) if self.stream_iri else None
