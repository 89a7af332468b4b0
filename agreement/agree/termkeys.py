"""The keys of a time point's ``striple`` atoms, straight from its stream triples.

``lars agree`` hands the engine each time point's triples as a :class:`~solver.keys.KeyedSlice`.
Made from atoms (:func:`translate.api.slice_atoms`), every triple became four constants and an
atom, and the slice then keyed each argument again (:func:`solver.keys.key_of`) for the index
the patterns read: CSRBench Q1 replayed to 10^6 triples spent a tenth of the run so. Here each
RDF term's key is remembered by the term, so a triple costs four look-ups; the slice is made from
the keys (:meth:`~solver.keys.KeyedSlice.from_keys`) and its atoms only if asked. A term met
for the first time is encoded as before (:meth:`translate.rdf.RdfTermEncoder.encode`) and
keyed, so the keys are those of :func:`~translate.api.slice_atoms`'s atoms by construction;
a slice with a triple naming no stream or a term that cannot be encoded is left to
:func:`~translate.api.slice_atoms`, which says why.
"""

from __future__ import annotations

from collections.abc import Sequence

from rdflib import URIRef
from rdflib.term import Identifier

from ingest.rdffiles import StreamTriple
from lars.errors import LarsError
from solver.keys import Key, key_of
from translate.rdf import ENCODED_KEPT, RdfTermEncoder, iri_constant, remembered


class TermKeys:
    """The key of each RDF term's constant under ``encoder``, remembered in two generations
    (:func:`translate.rdf.remembered`); a copy sent to another process starts empty."""

    def __init__(self, encoder: RdfTermEncoder) -> None:
        self.encoder = encoder
        self.keys: dict[Identifier, Key] = {}
        self.older: dict[Identifier, Key] = {}

    def __getstate__(self) -> dict:
        return {"encoder": self.encoder}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["encoder"])

    def key(self, term: Identifier) -> Key:
        """The key of ``term``'s constant (encoded if not remembered)."""
        return remembered(self.keys, self.older, term, self._new, ENCODED_KEPT)

    def _new(self, term: Identifier) -> Key:
        if isinstance(term, URIRef):  # a fresh subject on every line: only its key is wanted,
            return key_of(iri_constant(str(term)))  # not a place in the encoder's memory too
        return key_of(self.encoder.encode(term))

    def slice_keys(self, elements: Sequence[StreamTriple]) -> list[tuple] | None:
        """The keys of the ``striple(s, p, o, stream)`` atom of each element, in order; ``None``
        when an element names no stream or a term cannot be encoded."""
        if not all(type(element.stream) is URIRef for element in elements):
            return None
        known, key = self.keys.get, self.key
        try:
            return [(known(s) or key(s), known(p) or key(p), known(o) or key(o),
                     known(stream) or key(stream))
                    for (s, p, o), stream in ((element.triple, element.stream) for element in elements)]
        except LarsError:
            return None
