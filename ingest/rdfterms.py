"""rdflib terms made once: the readers' caches of IRIs and literals.

Stream readers build the same terms over and over (predicates, classes, datatypes, a sensor's
repeated values), and an rdflib literal converts its value on every construction. Both fast
readers, timestamped N-Triples (:mod:`ingest.rdffiles`) and Turtle (:mod:`ingest.turtlefast`),
take their terms from here. The terms are immutable, so sharing them is safe. The readers'
memories by text (:mod:`ingest.rdffiles`, :mod:`ingest.encoded`) keep two generations
(:func:`translate.rdf.remembered`).
"""

from __future__ import annotations

import functools

from rdflib.term import Literal, URIRef

iri_term = functools.lru_cache(maxsize=1 << 14)(URIRef)
"""``URIRef`` by IRI, cached: predicates, streams and datatypes repeat element after element."""


@functools.lru_cache(maxsize=1 << 14)
def literal_term(text: str, lang: str | None, datatype: str | None) -> Literal:
    """``Literal`` by lexical form, language tag and datatype IRI, cached: a sensor stream
    repeats its values, and making an rdflib literal (which converts its value) costs several
    times reading the whole N-Triples line."""
    return Literal(text, lang, iri_term(datatype) if datatype else None)
