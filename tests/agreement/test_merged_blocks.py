"""Condition (ii) on the stream with one stream read by several STREAM blocks (a C-SPARQL
OPTIONAL derives one block per group): each block's patterns are the stream's own, so a triple
one of them reads is not "merged" (a newcomer met a spurious ``stream-merged`` cause: only the
last block's patterns counted)."""

from __future__ import annotations

from rdflib import URIRef

from agreement.agree.conditions import MergedTriples
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from translate.api import parse_query

QUERY = """PREFIX : <http://ex.org/>
SELECT ?r ?o WHERE {
  STREAM :s [RANGE 10s] { ?r :sensor ?x }
  OPTIONAL { STREAM :s [RANGE 10s] { ?r :p0 ?o } }
  OPTIONAL { STREAM :t [RANGE 10s] { ?r :p1 ?o } }
}
"""


def element(predicate: str, stream: str) -> StreamTriple:
    e = "http://ex.org/"
    return StreamTriple(1, URIRef(e + stream), (URIRef(e + "r1"), URIRef(e + predicate), URIRef(e + "v")),
                        Position("s.nt"))


def test_patterns_of_every_block_on_a_stream_are_its_own():
    merged = MergedTriples(parse_query(QUERY, "q.rq", "cqels", "1s"))
    assert merged.match(element("sensor", "s")) is None
    assert merged.match(element("p0", "s")) is None
    assert merged.match(element("p1", "s")) is not None  # only :t's block reads :p1
