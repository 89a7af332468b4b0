"""Any graph pattern inside a window block (issue 26 item 1), against rdflib on each window.

RSP-QL's ``WINDOW <w> { P }`` and CQELS's ``STREAM <s> [ω] { P }`` evaluate ``P`` over the
window's content: the window's graph is the active graph inside the block (RSP-QL, Dell'Aglio
et al. 2014, section 4: ``WINDOW`` evaluates its pattern over the window's RDF graph). The
differential oracle is rdflib's SPARQL engine run on each window's triples loaded as a graph,
at each time point the profile reports; the window's scope at that time point is read from the
profile's sources independently of LARS (:mod:`tests.oracles.windowing` for ``rsp4j``; the
paper's ``[t-L, t]`` for ``paper-push``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef

from agreement.check.expected import reports
from ingest.eager import query_data
from ingest.rdffiles import StreamTriple
from lars.errors import Position, UnsupportedError
from lars.printer import print_program
from lars.streams import Timeline
from tests.oracles.windowing import content_change, window_close
from translate.api import parse_query, translate
from translate.profiles import PROFILES, profile
from translate.reports import compile_profile
from translate.rsp import StreamPattern

EX = "http://ex.org/"
STREAM = URIRef(EX + "s")
PREFIX = "PREFIX : <http://ex.org/>\n"

BLOCKS = {
    "filter": "?x :p ?y FILTER(?y > 1)",
    "optional-filter": "?x :p ?y OPTIONAL { ?y :q ?z FILTER(?z != :a) }",
    "union": "{ ?x :p ?y } UNION { ?x :q ?y }",
    "bind": "?x :p ?y BIND(?y + 1 AS ?z)",
    "path-sequence": "?x :p/:q ?y",
    "path-plus": "?x :p+ ?y",
    "path-star-alternative": "?x (:p|^:q)* ?y",
    "path-star-constant": ":a :p* ?y",
    "values": "VALUES ?x { :a :b } ?x :p ?y",
    "minus": "?x :p ?y MINUS { ?y :q ?z }",
    "not-exists": "?x :p ?y FILTER NOT EXISTS { ?y :q ?x }",
    "subquery-count": "{ SELECT ?x (COUNT(?y) AS ?n) WHERE { ?x :p ?y } GROUP BY ?x }",
    "nested-group": "?x :p ?y { ?y :q ?z FILTER(?z != :b) } UNION { BIND(:c AS ?z) }",
}
"""Block patterns over ``?x ?y ?z``: each operator the issue names, alone."""

QUICK = (Phase.explicit, Phase.generate)
"""No shrinking: a failing example is printed as found (shrinking a solver run takes minutes)."""
TERMS = [URIRef(EX + n) for n in "abc"] + [Literal(k) for k in (1, 2, 3)]

elements = st.lists(st.tuples(st.integers(0, 4), st.sampled_from(TERMS[:3]),
                              st.sampled_from([URIRef(EX + "p"), URIRef(EX + "q")]),
                              st.sampled_from(TERMS + TERMS[:3])), max_size=10)
"""Small streams, dense enough that joins inside a window meet (IRI objects twice as likely)."""


def stream_triples(items) -> list[StreamTriple]:
    return [StreamTriple(t, STREAM, (s, p, o), Position()) for t, s, p, o in sorted(
        items, key=lambda item: item[0])]


def rspql(block: str, length: int, step: int) -> str:
    return (PREFIX + f"REGISTER RSTREAM :out AS SELECT * FROM NAMED WINDOW :w ON :s "
            f"[RANGE PT{length}S STEP PT{step}S] WHERE {{ WINDOW :w {{ {block} }} }}")


def cqels(block: str, length: int) -> str:
    return PREFIX + f"SELECT * WHERE {{ STREAM :s [RANGE {length}s] {{ {block} }} }}"


def ours(translation, items, end: int) -> dict[int, frozenset]:
    """The relation reported at each time point, rows as tuples of n3 text (None: unbound)."""
    data = query_data([translation], stream_triples(items), {None: Graph()}, Timeline(0, end))
    return {r.time: frozenset(tuple(None if v is None else v.n3() for v in row) for row in r.rows)
            for r in reports(translation, data)}


def rdflib_on(block: str, variables, triples) -> frozenset:
    """rdflib's answers to ``SELECT variables WHERE { block }`` over ``triples`` (a graph)."""
    graph = Graph()
    for triple in triples:
        graph.add(triple)
    heading = " ".join(f"?{v.name}" for v in variables)
    result = graph.query(PREFIX + f"SELECT {heading} WHERE {{ {block} }}")
    return frozenset(tuple(None if v is None else v.n3() for v in row) for row in result)


@pytest.mark.parametrize("name", sorted(BLOCKS))
@settings(max_examples=6, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements, window=st.sampled_from([(2, 1), (3, 2), (2, 2)]))
def test_rsp4j_windows_answer_as_rdflib_on_each_window(name, items, window) -> None:
    # rsp4j: a window [o, o+L) closes at c = o+L, o = kβ (also before 0), and is reported there
    length, step = window
    block, end = BLOCKS[name], 7
    query = parse_query(rspql(block, length, step))
    got = ours(compile_profile(query, profile("rsp4j")), items, end)
    closes = window_close([t for t, *_ in items], length, step, 0, end, partial=True,
                          non_empty=False)
    expected = {c: rdflib_on(block, query.variables,
                             [(s, p, o) for t, s, p, o in items if t in content])
                for c, content in closes}
    assert got == expected


@pytest.mark.parametrize("name", sorted(BLOCKS))
@settings(max_examples=5, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements, length=st.integers(0, 2))
def test_paper_push_answers_as_rdflib_on_each_window(name, items, length) -> None:
    # paper-push: τ2 evaluated at each time point with input, the window [t-L, t]
    block, end = BLOCKS[name], 6
    query = parse_query(cqels(block, length))
    got = ours(compile_profile(query, profile("paper-push")), items, end)
    expected = {t: rdflib_on(block, query.variables,
                             [(s, p, o) for u, s, p, o in items if t - length <= u <= t])
                for t in sorted({t for t, *_ in items})}
    assert got == expected


@pytest.mark.parametrize("name", ["optional-filter", "path-plus", "minus", "not-exists"])
@settings(max_examples=4, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements, window=st.sampled_from([(2, 1), (3, 2)]))
def test_cqels_istream_reports_rdflibs_new_rows_at_each_content_change(name, items, window):
    # cqels: at each input time τ > t0, the rows over the scope [t0 + aβ, τ], Istream against the
    # previous evaluation's relation, empty outputs dropped (the CSRBench oracle's reading)
    length, step = window
    block, end = BLOCKS[name], 6
    query = parse_query(rspql(block, length, step).replace("RSTREAM", "ISTREAM"))
    got = ours(compile_profile(query, profile("cqels")), items, end)
    expected, previous = {}, None
    for tau, content in content_change([t for t, *_ in items], length, step, 0):
        rows = rdflib_on(block, query.variables, [(s, p, o) for t, s, p, o in items if t in content])
        if rows - (previous or frozenset()):
            expected[tau] = rows - (previous or frozenset())
        previous = rows
    assert got == expected


SPLIT = {
    "union": ("{ ?x :p ?y } UNION { ?x :q ?y }",
              "{ WINDOW :w { ?x :p ?y } } UNION { WINDOW :w { ?x :q ?y } }"),
    "optional-filter": ("?x :p ?y OPTIONAL { ?y :q ?z FILTER(?z != :a) }",
                        "WINDOW :w { ?x :p ?y } OPTIONAL { WINDOW :w { ?y :q ?z } FILTER(?z != :a) }"),
    "minus": ("?x :p ?y MINUS { ?y :q ?z }", "WINDOW :w { ?x :p ?y } MINUS { WINDOW :w { ?y :q ?z } }"),
}
"""A block and the same pattern with a BGP block per triple pattern (the translation before
blocks could hold more): over one window they have the same solutions."""


@pytest.mark.parametrize("name", sorted(SPLIT))
@pytest.mark.parametrize("engine", ["cqels", "csparql", "rsp4j"])
@settings(max_examples=3, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements)
def test_a_block_answers_as_its_bgps_in_blocks_of_their_own(name, engine, items) -> None:
    # under every R2S and report policy, including Istream's recomputed previous relation
    block, split = SPLIT[name]
    whole = parse_query(rspql(block, 3, 2))
    parts = parse_query(rspql(block, 3, 2).replace(f"WINDOW :w {{ {block} }}", split))
    assert len(parts.streams) > 1
    assert ours(compile_profile(whole, profile(engine)), items, 6) == ours(
        compile_profile(parts, profile(engine)), items, 6)


STATIC = [(URIRef(EX + "b"), URIRef(EX + "q"), URIRef(EX + "c")),
          (URIRef(EX + "a"), URIRef(EX + "p"), Literal(3))]
"""Static triples that the blocks' patterns also match (so merging or UNION shows)."""


def ours_with_static(translation, items, end: int) -> dict[int, frozenset]:
    static = Graph()
    for triple in STATIC:
        static.add(triple)
    data = query_data([translation], stream_triples(items), {None: static}, Timeline(0, end))
    return {r.time: frozenset(tuple(None if v is None else v.n3() for v in row) for row in r.rows)
            for r in reports(translation, data)}


@pytest.mark.parametrize("name", ["optional-filter", "path-plus", "union", "minus", "values"])
@settings(max_examples=4, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements)
def test_the_cautious_variant_adds_the_block_over_the_static_data(name, items) -> None:
    # cq(Q)'s cautious variant is (STREAM s ω P) UNION P, the right branch over the default graph
    block, end, length = BLOCKS[name], 5, 1
    query = parse_query(cqels(block, length))
    got = ours_with_static(compile_profile(query, profile("paper-push"), variant="cautious"),
                           items, end)
    static = rdflib_on(block, query.variables, STATIC)
    expected = {t: rdflib_on(block, query.variables,
                             [(s, p, o) for u, s, p, o in items if t - length <= u <= t]) | static
                for t in sorted({t for t, *_ in items})}
    assert got == expected


@pytest.mark.parametrize("name", ["optional-filter", "path-plus", "not-exists", "minus"])
@settings(max_examples=4, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements)
def test_cs_reads_the_block_over_the_merged_default_graph(name, items) -> None:
    # cs(Q): C-SPARQL merges the window and the static data into one default graph, and the
    # block is a group over it (paper-pull: τ1(cs(Q)) at the multiples of U, window [t-L, t])
    block, end, length, period = BLOCKS[name], 6, 2, 2
    query = parse_query(cqels(block, length))
    got = ours_with_static(compile_profile(query, profile("paper-pull"), period=period), items,
                           end)
    expected = {t: rdflib_on(block, query.variables, STATIC + [
        (s, p, o) for u, s, p, o in items if t - length <= u <= t])
        for t in range(0, end + 1, period)}
    assert got == expected


MOVABLE = {
    "filter-over-bgp": ("?x :p ?y", "FILTER(?y > 1)"),
    "filter-over-optional": ("?x :p ?y OPTIONAL { ?y :q ?z }", "FILTER(!BOUND(?z) || ?z != :a)"),
    "filter-over-union": ("{ ?x :p ?y } UNION { ?x :q ?y }", "FILTER(?y != :b)"),
}
"""A FILTER that applies to the whole block: inside or after the block, SPARQL gives the same
solutions (the group's filter applies to the group's solutions, section 18.2.2.6, and here the
block is the only pattern of its group)."""


@pytest.mark.parametrize("name", sorted(MOVABLE))
@settings(max_examples=5, derandomize=True, deadline=None, phases=QUICK)
@given(items=elements)
def test_a_filter_moved_out_of_the_block_gives_the_same_answers(name, items) -> None:
    pattern, condition = MOVABLE[name]
    inside = parse_query(rspql(f"{pattern} {condition}", 2, 1))
    outside = parse_query(rspql(pattern, 2, 1).replace(f"{{ {pattern} }} }}",
                                                       f"{{ {pattern} }} {condition} }}"))
    assert not isinstance(outside.pattern, StreamPattern)  # the FILTER is outside the block
    assert ours(compile_profile(inside, profile("rsp4j")), items, 5) == ours(
        compile_profile(outside, profile("rsp4j")), items, 5)


def test_a_filter_inside_the_block_does_not_see_variables_bound_outside() -> None:
    # SPARQL scope: inside the block ?w is unbound, so ?y > ?w is an error and filters every
    # solution; written after the block it compares with the static ?w
    items = [(1, URIRef(EX + "a"), URIRef(EX + "p"), Literal(3))]
    static = "?x :r ?w ."
    inside = parse_query(PREFIX + "SELECT ?x WHERE { ?x :r ?w . STREAM :s [RANGE 1s] "
                         "{ ?x :p ?y FILTER(?y > ?w) } }")
    outside = parse_query(PREFIX + "SELECT ?x WHERE { ?x :r ?w . STREAM :s [RANGE 1s] "
                          "{ ?x :p ?y } FILTER(?y > ?w) }")
    graph = Graph()
    graph.add((URIRef(EX + "a"), URIRef(EX + "r"), Literal(1)))
    found = {}
    for name, query in (("inside", inside), ("outside", outside)):
        translation = compile_profile(query, profile("paper-push"))
        data = query_data([translation], stream_triples(items), {None: graph}, Timeline(0, 2))
        found[name] = {r.time: r.rows for r in reports(translation, data)}
    assert static and found["inside"] == {1: frozenset()}
    assert found["outside"] == {1: frozenset({(URIRef(EX + "a"),)})}


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_translates_a_block_with_filter_optional_union_bind_and_a_path(name):
    block = ("{ ?x :p ?y FILTER(?y != :b) OPTIONAL { ?y :q ?z } } UNION "
             "{ ?x :p/:q ?y BIND(:c AS ?z) }")
    query = parse_query(rspql(block, 2, 1))
    chosen = profile(name)
    if chosen.tick != "time":
        pytest.skip(f"profile {name} is not time-driven")
    translation = compile_profile(query, chosen, period=1)
    items = [(1, URIRef(EX + "a"), URIRef(EX + "p"), URIRef(EX + "b")),
             (1, URIRef(EX + "b"), URIRef(EX + "q"), URIRef(EX + "c"))]
    assert isinstance(ours(translation, items, 4), dict)


@pytest.mark.parametrize("text, message", [
    pytest.param("SELECT ?x WHERE { STREAM :s [NOW] { ?x :p ?y FILTER EXISTS { GRAPH ?g "
                 "{ ?y :q ?x } } } }", "GRAPH inside a STREAM/WINDOW block", id="graph-in-exists"),
])
def test_what_cannot_be_read_in_a_window_is_refused(text, message) -> None:
    with pytest.raises(UnsupportedError, match=message):
        translate(parse_query(PREFIX + text), "cqels")


def test_the_rules_shown_in_the_docs_are_the_rules_made() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "translation.md").read_text("utf-8")
    query = parse_query(PREFIX + "SELECT ?s ?t WHERE { STREAM :str [RANGE 4s] { ?s :p ?v "
                        "OPTIONAL { ?v :q+ ?t } FILTER(?v != :x) } }")
    rules = print_program(translate(query, "cqels").program, "unicode").splitlines()
    missing = [rule for rule in rules if rule and not rule.startswith("#") and rule not in doc]
    assert rules and not missing, missing
