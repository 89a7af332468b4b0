"""Static data at scale: N-Triples and N-Quads files read by Oxigraph, never held whole (issue 29).

An rdflib graph of 10^6 triples (a 75 MB N-Triples file) took 1.84 GB and more than a minute to
build. Static N-Triples and N-Quads files are instead read by Oxigraph's parser (Rust) as a
stream: once when they are given, to check them (every error is reported before any
evaluation, ``file:line:col``), and again each time their triples are asked for, keeping only
the triples asked for. A query reads only the static triples its patterns can match
(:mod:`translate.background`), compared by predicate IRI before any rdflib term is made, so the
memory holds what the query reads, not the file.

The triples are the ones rdflib's reader gives, as rdflib terms, so every constant stays as it
was (:func:`translate.rdf.to_constant`). Where Oxigraph's reading could differ from rdflib's, the
file goes to rdflib (:func:`ingest.rdffiles.load_static`) as before:

- a line Oxigraph refuses and rdflib accepts (Oxigraph checks IRIs by RFC 3987, refuses ``\\uD800``
  escapes); when rdflib refuses that line too, the error is reported at once, with Oxigraph's
  line, column and reason;
- a literal ``"\\"…"^^xsd:string`` (Oxigraph drops ``^^xsd:string``; the constant of a literal
  starting with ``"`` keeps it), RDF 1.2 (triple terms, directional language tags) and blank
  graph names.

Oxigraph lowercases language tags (rdflib keeps them; the constants lowercase them anyway). Blank
nodes get labels of their own per file (``N<hex>`` + the file's label), so that two files'
``_:b`` stay apart as rdflib keeps them.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import pyoxigraph as ox
import rdflib
from rdflib import BNode, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Graph
from rdflib.term import Node

from ingest.rdffiles import LINE_FORMATS, line_refused, load_static, split_spec, static_format
from ingest.rdfterms import iri_term, literal_term
from lars.errors import InputError, ParseError, Position
from lars.terms import Constant, Iri
from translate.rdf import ENCODED_KEPT, iri_constant, literal_constant, to_constant

Triple = tuple[Node, Node, Node]
GraphKey = URIRef | None
"""A graph of the static data: ``None`` for the default graph, else its IRI."""

_OXIGRAPH_FORMATS = {"nt": ox.RdfFormat.N_TRIPLES, "nquads": ox.RdfFormat.N_QUADS}
_XSD_STRING = ox.NamedNode("http://www.w3.org/2001/XMLSchema#string")
_LANG_STRING = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#langString")
_DEFAULT = ox.DefaultGraph()
_REASON = re.compile(r"Parser error at line \d+ column \d+: ")


@dataclass(frozen=True)
class FilePart:
    """The triples of one graph of one N-Triples or N-Quads file, read again when asked for.

    ``kept`` holds the constants of the triples whose predicate is one of ``kept_predicates``,
    taken while the file was checked (:func:`read_static` with ``predicates``), so that a query
    that reads those predicates only does not parse the file twice."""

    path: str
    fmt: str
    graph: ox.NamedNode | ox.DefaultGraph
    blank_prefix: str
    kept_predicates: frozenset[str] | None = None
    kept: tuple[tuple[Constant, Constant, Constant], ...] = field(default=(), repr=False, compare=False)

    def _quads(self, predicates: frozenset[str] | None) -> Iterator[ox.Quad]:
        graph, named = self.graph, self.fmt == "nquads"
        for quad in ox.parse(path=self.path, format=_OXIGRAPH_FORMATS[self.fmt]):
            if (named and quad.graph_name != graph) or (predicates is not None and quad.predicate.value not in predicates):
                continue
            yield quad

    def triples(self, predicates: frozenset[str] | None = None) -> Iterator[Triple]:
        """The triples (rdflib terms), repeated as often as the file repeats them; with
        ``predicates``, only those whose predicate IRI is one of them."""
        for quad in self._quads(predicates):
            yield self._term(quad.subject), iri_term(quad.predicate.value), self._term(quad.object)

    def constants(self, predicates: frozenset[str] | None = None) -> Iterator[tuple[Constant, Constant, Constant]]:
        """:meth:`triples` as constants, made from Oxigraph's terms without rdflib terms
        (:func:`translate.rdf.iri_constant`, :func:`~translate.rdf.literal_constant`)."""
        if predicates is not None and self.kept_predicates is not None and predicates <= self.kept_predicates:
            wanted = {Iri(iri) for iri in predicates}
            yield from (triple for triple in self.kept if triple[1] in wanted)
            return
        known = _Constants(self.blank_prefix)
        for quad in self._quads(predicates):
            yield known(quad.subject), known(quad.predicate), known(quad.object)

    def _term(self, term: object) -> Node:
        if type(term) is ox.NamedNode:
            return iri_term(term.value)
        if type(term) is ox.BlankNode:
            return BNode(self.blank_prefix + term.value)
        datatype = None if term.language is not None or term.datatype == _XSD_STRING else term.datatype.value
        return literal_term(term.value, term.language, datatype)


class _Constants:
    """Oxigraph term → constant, remembering the last :data:`translate.rdf.ENCODED_KEPT` terms
    (predicates, classes and datatypes repeat; a file of fresh IRIs must not fill the memory)."""

    def __init__(self, blank_prefix: str):
        self.blank_prefix = blank_prefix
        self.known: dict[object, Constant] = {}

    def __call__(self, term: object) -> Constant:
        found = self.known.get(term)
        if found is None:
            found = self._encode(term)
            if len(self.known) >= ENCODED_KEPT:
                self.known.clear()
            self.known[term] = found
        return found

    def _encode(self, term: object) -> Constant:
        if type(term) is ox.NamedNode:
            return iri_constant(term.value)
        if type(term) is ox.BlankNode:
            return Iri(f"_:{self.blank_prefix}{term.value}")
        datatype = None if term.language is not None or term.datatype == _XSD_STRING else term.datatype.value
        return literal_constant(term.value, term.language, datatype)  # xsd:string: written plain


Part = FilePart | Graph


class StaticGraph:
    """One graph of the static data: the union of its parts (file parts read by Oxigraph, and
    rdflib graphs of the other formats). Iterable like an rdflib graph, and :meth:`triples`
    takes an rdflib pattern; :meth:`triples_with_predicates` is the cheap way in for many
    triples, :meth:`encoded_triples` the cheapest, straight to constants
    (:func:`translate.api.query_background`)."""

    def __init__(self, parts: Sequence[Part] = ()):
        self.parts = tuple(parts)

    def __repr__(self) -> str:
        return f"StaticGraph({len(self.parts)} parts)"

    def triples_with_predicates(self, predicates: Iterable[str] | None) -> Iterator[Triple]:
        """The triples whose predicate IRI is in ``predicates`` (all for ``None``), a triple
        possibly more than once."""
        wanted = None if predicates is None else frozenset(predicates)
        for part in self.parts:
            if isinstance(part, FilePart):
                yield from part.triples(wanted)
            elif wanted is None:
                yield from part.triples((None, None, None))
            else:
                for predicate in sorted(wanted):
                    yield from part.triples((None, URIRef(predicate), None))

    def encoded_triples(self, predicates: Iterable[str] | None) -> Iterator[tuple[Constant, Constant, Constant]]:
        """:meth:`triples_with_predicates` as constants (:func:`translate.rdf.to_constant`)."""
        wanted = None if predicates is None else frozenset(predicates)
        for part in self.parts:
            if isinstance(part, FilePart):
                yield from part.constants(wanted)
            else:
                for triple in StaticGraph([part]).triples_with_predicates(wanted):
                    yield to_constant(triple[0]), to_constant(triple[1]), to_constant(triple[2])

    def triples(self, pattern: tuple[Node | None, Node | None, Node | None]) -> Iterator[Triple]:
        """The distinct triples matching an rdflib pattern (``None``: any term)."""
        s, p, o = pattern
        seen: set[Triple] = set()
        for triple in self.triples_with_predicates(None if p is None else [str(p)]):
            if (s is None or triple[0] == s) and (p is None or triple[1] == p) \
                    and (o is None or triple[2] == o) and triple not in seen:
                seen.add(triple)
                yield triple

    def __iter__(self) -> Iterator[Triple]:
        return self.triples((None, None, None))


_UNSURE = (b"<<", b"--", b"XMLSchema#string", b"\\u", b"\\U")
"""Text without which no triple of an N-Triples file can be one Oxigraph reads otherwise than
rdflib (a triple term, a directional language tag, ``xsd:string``, written or escaped)."""


def _may_be_unsure(path: str, block: int = 1 << 24) -> bool:
    """Whether the file holds some text of :data:`_UNSURE` (read in blocks that overlap)."""
    tail = b""
    with open(path, "rb") as file:
        while chunk := file.read(block):
            text = tail + chunk
            if any(needle in text for needle in _UNSURE):
                return True
            tail = text[-16:]
    return False


def _unsure(quad: ox.Quad) -> bool:
    """Whether Oxigraph's reading of ``quad`` might not be rdflib's (see the module)."""
    value = quad.object
    if type(value) is ox.Literal:
        if value.language is None:
            return value.datatype == _XSD_STRING and value.value.startswith('"')
        return value.datatype != _LANG_STRING  # a directional language tag (RDF 1.2)
    return type(value) is ox.Triple or type(quad.subject) is ox.Triple \
        or type(quad.graph_name) is ox.BlankNode


@dataclass
class _Checked:
    """What one pass over a file found: its graph names, and the kept triples by graph."""

    names: set[object]
    kept: dict[object, list[tuple[Constant, Constant, Constant]]]


def _checked(path: str, fmt: str, predicates: frozenset[str] | None, blank_prefix: str) -> _Checked | None:
    """One pass over an N-Triples/N-Quads file: its graph names and the constants of its
    triples whose predicate IRI is in ``predicates`` (none for ``None``), by graph; ``None``
    when rdflib must read it (see the module).

    Raises:
        InputError: the file cannot be read.
        ParseError: a line both parsers refuse, at Oxigraph's line and column.
    """
    found = _Checked(set(), {})
    known = _Constants(blank_prefix)
    try:
        careful = fmt == "nquads" or _may_be_unsure(path)
        for quad in ox.parse(path=path, format=_OXIGRAPH_FORMATS[fmt]):
            if careful:
                if _unsure(quad):
                    return None
                found.names.add(quad.graph_name)
            if predicates is not None and quad.predicate.value in predicates:
                found.kept.setdefault(quad.graph_name, []).append(
                    (known(quad.subject), known(quad.predicate), known(quad.object)))
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(path)) from None
    except SyntaxError as error:
        if error.lineno is not None and line_refused(path, fmt, error.lineno):
            reason = _REASON.sub("", str(error.msg))
            raise ParseError(f"syntax error: not a valid {LINE_FORMATS[fmt]} line: {reason}",
                             Position(path, error.lineno, error.offset)) from None
        return None
    if not careful and (found.kept or _has_triples(path, fmt)):
        found.names.add(_DEFAULT)
    return found


def _has_triples(path: str, fmt: str) -> bool:
    return next(iter(ox.parse(path=path, format=_OXIGRAPH_FORMATS[fmt])), None) is not None


def static_parts(spec: str, predicates: frozenset[str] | None = None) -> list[tuple[GraphKey, Part]]:
    """The parts of the graphs one ``--static`` spec (``FILE`` or ``IRI=FILE``) gives, by graph;
    with ``predicates``, N-Triples and N-Quads parts keep the triples of those predicates.

    A default graph without triples gives no part; a graph named by ``IRI=`` always gives one.

    Raises:
        InputError, ParseError: as :func:`ingest.rdffiles.load_static`.
    """
    graph_iri, path = split_spec(spec)
    fmt = static_format(path, graph_iri)
    prefix = f"N{uuid.uuid4().hex}"
    found = _checked(path, fmt, predicates, prefix) if fmt in _OXIGRAPH_FORMATS else None
    if found is None:
        return _rdflib_parts(spec)

    def part(name: object) -> FilePart:
        return FilePart(path, fmt, name, prefix, predicates, tuple(found.kept.get(name, ())))
    if graph_iri is not None:
        return [(URIRef(graph_iri), part(_DEFAULT))]
    return [(None if name == _DEFAULT else URIRef(name.value), part(name))
            for name in sorted(found.names, key=str)]


def _rdflib_parts(spec: str) -> list[tuple[GraphKey, Part]]:
    dataset: rdflib.Dataset = load_static([spec])
    parts: list[tuple[GraphKey, Part]] = []
    for graph in dataset.graphs():
        key = None if graph.identifier == DATASET_DEFAULT_GRAPH_ID else URIRef(graph.identifier)
        if len(graph) or key is not None:
            parts.append((key, graph))
    return parts


def read_static(specs: Sequence[str], predicates: frozenset[str] | None = None) -> dict[GraphKey, StaticGraph]:
    """The static graphs of ``--static`` specs, by graph, in the order they first appear; with
    ``predicates`` (IRIs), the triples of those predicates are kept from the one pass that
    checks each N-Triples or N-Quads file (the others are read again when asked for)."""
    parts: dict[GraphKey, list[Part]] = {}
    for spec in specs:
        for key, part in static_parts(spec, predicates):
            parts.setdefault(key, []).append(part)
    return {key: StaticGraph(found) for key, found in parts.items()}
