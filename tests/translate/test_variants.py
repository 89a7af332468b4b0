"""cs(Q) and cq(Q): the C-SPARQL query and the 2^|S| CQELS variants (SPEC section 4)."""

from __future__ import annotations

import pytest

from lars.errors import InputError
from translate import cq, cq_variant, cs, parse_query
from translate.rsp import BGP, BlankVar, Join, StreamPattern, Union
from translate.scope import stream_patterns
from translate.variants import abstract_pattern, variant_ids

QUERY = """PREFIX : <http://ex.org/>
SELECT * WHERE { STREAM :s1 [RANGE 3s] { ?a :p ?b } STREAM :s2 [NOW] { ?b :q [ :r ?c ] } ?c :t ?d }"""


@pytest.fixture(scope="module")
def query():
    return parse_query(QUERY)


def test_variant_ids() -> None:
    assert variant_ids(0) == ("",)
    assert variant_ids(2) == ("bb", "bc", "cb", "cc")


def test_cq_has_two_to_the_streams_variants(query) -> None:
    variants = cq(query)
    assert [v.id for v in variants] == ["bb", "bc", "cb", "cc"]
    assert variants[0].query == cq_variant(query, "brave") == query


@pytest.mark.parametrize(("variant", "kinds"), [
    pytest.param("brave", [StreamPattern, StreamPattern], id="brave"),
    pytest.param("cautious", [Union, Union], id="cautious"),
    pytest.param("bc", [StreamPattern, Union], id="bc"),
    pytest.param("cb", [Union, StreamPattern], id="cb"),
])
def test_variant_shapes(query, variant: str, kinds: list[type]) -> None:
    pattern = cq_variant(query, variant).pattern
    left = pattern.left  # Join(Join(stream 1, stream 2), BGP)
    assert isinstance(pattern, Join) and [type(p) for p in (left.left, left.right)] == kinds
    for part in (left.left, left.right):
        if isinstance(part, Union):
            assert isinstance(part.left, StreamPattern) and part.right == part.left.pattern


@pytest.mark.parametrize("variant", ["b", "bbb", "bx", "sometimes"])
def test_bad_variant_ids(query, variant: str) -> None:
    with pytest.raises(InputError, match="unknown CQELS variant"):
        cq_variant(query, variant)


def test_cs_empties_the_stream_graph_patterns(query) -> None:
    plain = cs(query)
    assert [s.pattern for s in plain.streams] == [BGP(), BGP()]
    assert stream_patterns(plain.pattern) == []
    assert isinstance(plain.pattern, BGP) and len(plain.pattern.triples) == 4


def test_cs_drops_repeated_stream_windows() -> None:
    query = parse_query("SELECT * WHERE { STREAM <http://e/s> [NOW] { ?a ?p ?b } "
                        "STREAM <http://e/s> [NOW] { ?b ?p ?c } }")
    assert len(query.streams) == 2 and len(cs(query).streams) == 1


def test_abstract_pattern_keeps_blank_nodes_apart() -> None:
    query = parse_query("SELECT * WHERE { STREAM <http://e/s> [NOW] { ?a <http://e/p> [] } "
                        "?a <http://e/q> [] }")
    merged = abstract_pattern(query.pattern)
    blanks = {t for triple in merged.triples for t in triple.terms() if isinstance(t, BlankVar)}
    assert len(blanks) == 2


def test_csparql_query_has_nothing_to_vary() -> None:
    query = parse_query("SELECT * FROM STREAM <http://e/s1> [NOW] FROM STREAM <http://e/s2> [NOW] "
                        "WHERE { ?a ?p ?b }")
    assert {v.query for v in cq(query)} == {query}
