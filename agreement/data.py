"""The data of a query run: RDF stream files and static files → LARS stream and background.

Both ``lars run QUERY`` and ``lars agree`` read data this way, with one
:class:`~translate.rdf.RdfTermEncoder` shared by every translation of the run, so that the
same RDF term is the same LARS constant on both sides of a comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rdflib import URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Dataset, Graph

from lars.atoms import Atom
from lars.errors import InputError
from lars.readpolicy import ReadPolicy, ReadReport
from lars.streams import Stream, Timeline
from translate.api import Translation, input_atoms, query_background
from translate.rdf import RdfTermEncoder
from solver.slicing import slice_stream
from translate.rdfstreams import (
    CSRBENCH_STREAM, StreamTriple, load_static, parse_ntriples_line, parse_turtle_document,
    read_timestamped_ntriples, read_turtle_folder, turtle_files,
)
from translate.rsp import RspQuery


SPARK_THRESHOLD_BYTES = 256 * 2**20
"""``--spark auto`` reads inputs larger than this with Spark, smaller ones in process. Spark
starts in ~10 s and, on one 2-core machine, slices ~2.5x slower than plain Python
(benchmarks/bench_ingest.py), so it pays only on a cluster or past what one process holds."""

SPARK_CHOICES = ("auto", "always", "never")


def input_bytes(path: str) -> int:
    """The size of a stream file, or of all files in a stream folder."""
    target = Path(path)
    if target.is_dir():
        return sum(f.stat().st_size for f in target.iterdir() if f.is_file())
    return target.stat().st_size if target.exists() else 0


def read_rdf_stream(path: str, stream: URIRef | None, policy: ReadPolicy, report: ReadReport,
                    spark: str = "auto", master: str = "local[*]") -> list[StreamTriple]:
    """A timestamped N-Triples file, or a folder of Turtle files named by timestamp, read in
    process or by the Spark job (:mod:`solver.slicing`; both give the same elements in order)."""
    if spark not in SPARK_CHOICES:
        raise InputError(f"unknown --spark choice '{spark}'", hint="use auto, always or never")
    folder = Path(path).is_dir()
    if spark == "never" or (spark == "auto" and input_bytes(path) <= SPARK_THRESHOLD_BYTES):
        if folder:
            return list(read_turtle_folder(path, stream=stream or CSRBENCH_STREAM, policy=policy,
                                           report=report))
        return list(read_timestamped_ntriples(path, default_stream=stream, policy=policy,
                                              report=report))
    if folder:
        paths = [str(p) for p in turtle_files(path, policy=policy, report=report)]
        parser = partial(parse_turtle_document, stream=stream or CSRBENCH_STREAM)
    else:
        paths, parser = [path], partial(parse_ntriples_line, default_stream=stream)
    slices = slice_stream(paths, parser, whole_files=folder, master=master, policy=policy,
                          report=report)
    return [element for _, elements in slices for element in elements]


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
