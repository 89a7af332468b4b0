"""Condition (ii) on the stream (:class:`agreement.agree.conditions.MergedTriples`): the triples it
keeps and counts are those the definition picks when read triple by triple over all patterns."""

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.agree.conditions import MERGED_WITNESSES, MergedTriples, bind, witness
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from translate.rsp import BGP, RangeWindow, StreamSpec, TriplePattern, Var

EX = "http://ex.org/"
STREAMS = [URIRef(EX + "s1"), URIRef(EX + "s2")]
terms = st.sampled_from([URIRef(EX + "a"), URIRef(EX + "b")])
predicates = st.sampled_from([URIRef(EX + "p"), URIRef(EX + "q"), URIRef(EX + "r")])
pattern_terms = st.one_of(terms, st.sampled_from([Var("x"), Var("y")]))
patterns = st.builds(TriplePattern, pattern_terms, st.one_of(predicates, st.just(Var("z"))),
                     pattern_terms)


def merged_by_definition(query, elements, merging):
    """Per (stream, first pattern matched): the triples of the streams C-SPARQL merges
    (``merging``), read with every pattern tried."""
    own = {spec.stream: spec.pattern.triples for spec in query.streams}
    every = [p for spec in query.streams for p in spec.pattern.triples] + list(query.pattern.triples)
    found = {}
    for e in elements:
        if e.stream not in merging or any(bind(p, e.triple, {}) is not None
                                          for p in own.get(e.stream, ())):
            continue
        other = next((p for p in every if bind(p, e.triple, {}) is not None), None)
        if other is not None:
            found.setdefault((e.stream, other), []).append(e)
    return found


@settings(max_examples=200, deadline=None)
@given(st.lists(patterns, min_size=1, max_size=2), st.lists(patterns, max_size=2),
       st.lists(patterns, max_size=2),
       st.lists(st.tuples(st.sampled_from(STREAMS + [URIRef(EX + "s3")]), terms, predicates, terms),
                max_size=30),
       st.one_of(st.none(), st.sets(st.sampled_from(STREAMS + [URIRef(EX + "s3")]))))
def test_merged_triples_are_those_of_the_definition(first, second, static, triples, merging):
    query = SimpleNamespace(
        streams=[StreamSpec(STREAMS[0], RangeWindow(5, 1), BGP(tuple(first))),
                 StreamSpec(STREAMS[1], RangeWindow(5, 1), BGP(tuple(second)))],
        pattern=BGP(tuple(static)))
    elements = [StreamTriple(i, stream, (s, p, o), Position("s.nt", i + 1))
                for i, (stream, s, p, o) in enumerate(triples)]
    merged = MergedTriples(query, merging)
    merged.add(elements[:10])
    merged.add(elements[10:])
    expected = merged_by_definition(query, elements, STREAMS if merging is None else merging)
    assert {key: (kept, count) for key, (_, kept, [count]) in merged.found.items()} == {
        key: (found[:MERGED_WITNESSES], len(found)) for key, found in expected.items()}
    explanations = merged.explanations()
    assert len(explanations) == len(expected)
    for why, found in zip(explanations, expected.values()):
        assert why.condition == "stream-merged"
        assert why.witnesses == tuple(witness(e) for e in found[:MERGED_WITNESSES])
        assert (f"the first {MERGED_WITNESSES} shown" in why.message) == (len(found) > MERGED_WITNESSES)
