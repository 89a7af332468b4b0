"""The data of an agreement check: RDF stream files and static files → LARS stream and background.

``lars agree`` evaluates several translations over the same stream and explains disagreements
with the stream's triples, so it reads the whole stream (:func:`read_rdf_stream`; ``lars run``
reads lazily instead, :mod:`ingest.lazy`) and encodes it with one
:class:`~translate.rdf.RdfTermEncoder` shared by every translation, so that the same RDF term is
the same LARS constant on both sides of a comparison. Static files are read here for both.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse
from urllib.request import url2pathname
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rdflib import URIRef

from ingest.lazy import choose_timeline, stream_reader
from lars.atoms import Atom
from ingest.options import ReadOptions
from ingest.policy import ReadReport, within_timeline
from lars.streams import Stream, Timeline
from translate.api import Translation, input_atoms, query_background
from translate.background import BackgroundPatterns, background_patterns
from translate.rdf import RdfTermEncoder
from ingest.rdffiles import StreamTriple
from ingest.staticdata import StaticGraph, read_static
from translate.rsp import RspQuery


def read_rdf_stream(path: str | os.PathLike | None, options: ReadOptions, report: ReadReport,
                    timeline: tuple[int | None, int | None] = (None, None),
                    max_time_points: int | None = None) -> tuple[list[StreamTriple], Timeline]:
    """All triples of a stream file or folder inside the timeline (``--from``/``--to``, else the
    default one, :func:`ingest.lazy.choose_timeline`, at most ``max_time_points`` long), and that
    timeline."""
    inside, line = rdf_stream_slices(path, options, report, timeline, max_time_points)
    return [element for _, elements in inside for element in elements], line


def rdf_stream_slices(path: str | os.PathLike | None, options: ReadOptions, report: ReadReport,
                      timeline: tuple[int | None, int | None] = (None, None),
                      max_time_points: int | None = None
                      ) -> tuple[Iterator[tuple[int, Sequence[StreamTriple]]], Timeline]:
    """:func:`read_rdf_stream` one slice ``(t, triples)`` at a time, as the slices are read
    (``lars check`` encodes them as they come, holding no triple)."""
    read, first, last = stream_reader(path, options, report, end=timeline[1])
    line = choose_timeline(first, last, *timeline, max_time_points)
    return within_timeline(read(), line.start, line.end, report, "triple"), line


def static_graphs(specs: Sequence[str], query: RspQuery,
                  wanted: BackgroundPatterns | None = None) -> dict[URIRef | None, StaticGraph]:
    """Graphs by IRI (``None``: unnamed files) from ``--static`` specs
    (:func:`ingest.staticdata.read_static`: N-Triples and N-Quads files are read when asked for,
    not held; with ``wanted``, the patterns of the programs that will read them, the triples
    those can read are kept from the pass that checks the files).

    Unnamed files (``--static FILE``) form one graph; when the query has exactly one
    ``FROM <iri>`` and no file is mapped to it, that graph is taken as it.
    """
    graphs = read_static(list(specs) + local_dataset_files(query, specs),
                         None if wanted is None else wanted.predicates())
    if None in graphs and len(query.dataset.default) == 1 and query.dataset.default[0] not in graphs:
        graphs[query.dataset.default[0]] = graphs.pop(None)
    if not (query.dataset.default or query.dataset.named):
        graphs.setdefault(None, StaticGraph())
    return graphs


def local_dataset_files(query: RspQuery, specs: Sequence[str]) -> list[str]:
    """``IRI=FILE`` specs for FROM and FROM NAMED IRIs that name local files (``file:`` IRIs,
    e.g. ``FROM <data.ttl>`` resolved against the query file's location) and that no ``--static``
    maps; other IRIs are never fetched (SPEC section 11)."""
    mapped = {spec.split("=", 1)[0] for spec in specs if "=" in spec}
    found = []
    for iri in dict.fromkeys(query.dataset.default + query.dataset.named):
        if str(iri).startswith("file:") and str(iri) not in mapped:
            found.append(f"{iri}={url2pathname(urlparse(str(iri)).path)}")
    return found


@dataclass(frozen=True)
class QueryData:
    """What the solver needs for a translated query: the stream, the background, the encoder."""

    stream: Stream
    background: frozenset[Atom]
    encoder: RdfTermEncoder


def query_data(translations: Iterable[Translation], elements: Sequence[StreamTriple],
               graphs: dict[URIRef | None, StaticGraph], timeline: Timeline) -> QueryData:
    """Encode static and stream data once for all ``translations`` (of the same query);
    ``elements`` lie inside ``timeline`` (:func:`read_rdf_stream`). The background holds the
    static triples some translation can read (:func:`translate.background.background_patterns`)."""
    translations = list(translations)
    encoder = translations[0].encoder()
    return encoded_data(translations, Stream.from_mapping(timeline, input_atoms(elements, encoder)),
                        encoder, graphs)


def encoded_data(translations: Sequence[Translation], stream: Stream, encoder: RdfTermEncoder,
                 graphs: dict[URIRef | None, StaticGraph]) -> QueryData:
    """:func:`query_data` for a stream already encoded with ``encoder``."""
    background = query_background(translations[0].query, graphs, encoder,
                                  background_patterns(t.program for t in translations))
    return QueryData(stream, background, encoder)
