"""The data of a query run: RDF stream files and static files → LARS stream and background.

Both ``lars run QUERY`` and ``lars agree`` read data this way, with one
:class:`~translate.rdf.RdfTermEncoder` shared by every translation of the run, so that the
same RDF term is the same LARS constant on both sides of a comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rdflib import URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Dataset, Graph

from lars.atoms import Atom
from lars.errors import InputError
from lars.readpolicy import ReadPolicy, ReadReport
from lars.streams import Stream, Timeline
from translate.api import Translation, input_atoms, query_background
from translate.rdf import RdfTermEncoder
from translate.rdfstreams import (
    CSRBENCH_STREAM, StreamTriple, load_static, read_timestamped_ntriples, read_turtle_folder,
)
from translate.rsp import RspQuery


def read_rdf_stream(path: str, stream: URIRef | None, policy: ReadPolicy,
                    report: ReadReport) -> list[StreamTriple]:
    """A timestamped N-Triples file, or a folder of Turtle files named by timestamp."""
    if Path(path).is_dir():
        return list(read_turtle_folder(path, stream=stream or CSRBENCH_STREAM, policy=policy,
                                       report=report))
    return list(read_timestamped_ntriples(path, default_stream=stream, policy=policy, report=report))


def static_graphs(specs: Sequence[str], query: RspQuery) -> dict[URIRef | None, Graph]:
    """Graphs by IRI (``None``: unnamed files) from ``--static`` specs.

    Unnamed files (``--static FILE``) form one graph; when the query has exactly one
    ``FROM <iri>`` and no file is mapped to it, that graph is taken as it.
    """
    dataset: Dataset = load_static(list(specs)) if specs else Dataset()
    graphs: dict[URIRef | None, Graph] = {}
    for graph in dataset.graphs():
        key = None if graph.identifier == DATASET_DEFAULT_GRAPH_ID else URIRef(graph.identifier)
        if len(graph) or key is not None:
            graphs[key] = graph
    if None in graphs and len(query.dataset.default) == 1 and query.dataset.default[0] not in graphs:
        graphs[query.dataset.default[0]] = graphs.pop(None)
    if not (query.dataset.default or query.dataset.named):
        graphs.setdefault(None, Graph())
    return graphs


@dataclass(frozen=True)
class QueryData:
    """What the solver needs for a translated query: the stream, the background, the encoder."""

    stream: Stream
    background: frozenset[Atom]
    encoder: RdfTermEncoder


def query_data(translations: Iterable[Translation], elements: Sequence[StreamTriple],
               graphs: dict[URIRef | None, Graph],
               timeline: tuple[int | None, int | None] = (None, None)) -> QueryData:
    """Encode static and stream data once for all ``translations`` (of the same query)."""
    translations = list(translations)
    encoder = translations[0].encoder()
    for other in translations[1:]:
        for term in other.query_terms:
            encoder.encode(term)
    background = query_background(translations[0].query, graphs, encoder)
    contents = input_atoms(elements, encoder)
    times = sorted(contents)
    line = Timeline(min([0, *times]) if timeline[0] is None else timeline[0],
                    (times[-1] if times else 0) if timeline[1] is None else timeline[1])
    if line.start > line.end:
        raise InputError(f"empty timeline [{line.start},{line.end}]: --from is after --to")
    outside = [t for t in times if t not in line]
    if outside:
        raise InputError(f"the stream has triples at time point {outside[0]}, outside the "
                         f"timeline [{line.start},{line.end}]", hint="widen --from/--to")
    return QueryData(Stream.from_mapping(line, contents), background, encoder)
