"""The C-SPARQL and CQELS readers: the paper's Example 9, CSRBench, and the stream clauses."""

from __future__ import annotations

import pytest
from rdflib import URIRef

from lars.analysis import check_safety, is_stratified
from lars.atoms import Atom
from lars.formulas import WindowAtom
from lars.windows import TimeWindow
from tests.translate import csrbench
from translate import cs, parse_query, translate
from translate.engines import guess_engine
from translate.rsp import (
    BGP, AllWindow, BlankVar, Dataset, Filter, NowWindow, RangeWindow, StreamPattern,
    TriplesWindow, Var,
)
from translate.scope import stream_patterns
from translate.variants import abstract_pattern

EX = "http://ex.org/"
Q1 = """PREFIX : <http://ex.org/>
SELECT ?shop ?product ?percent
FROM <http://ex.org/static>
FROM STREAM <http://ex.org/s1> [RANGE 30m]
FROM STREAM <http://ex.org/s2> [RANGE 5m]
WHERE {
  ?shop :offers ?coupon . ?coupon :reduce ?percent . ?coupon :on ?product .
  ?user :isNear ?shop .
  ?product :g_classify ?gender .
  FILTER (?percent >= 20 && ?gender != 1) }"""
Q2 = """PREFIX : <http://ex.org/>
SELECT ?shop ?product ?percent
FROM <http://ex.org/static>
WHERE {
  STREAM <http://ex.org/s1> [RANGE 30m] {
    ?shop :offers ?coupon . ?coupon :reduce ?percent . ?coupon :on ?product . }
  STREAM <http://ex.org/s2> [RANGE 5m] { ?user :isNear ?shop . }
  ?product :g_classify ?gender .
  FILTER (?percent >= 20 && ?gender != 1) }"""


@pytest.fixture(scope="module")
def example9():
    return parse_query(Q1, unit="1m"), parse_query(Q2, unit="1m")


# --- Example 9 ----------------------------------------------------------------------------------

def test_example9_engines(example9) -> None:
    q1, q2 = example9
    assert (q1.engine, q2.engine) == ("csparql", "cqels")


def test_example9_same_abstract_query(example9) -> None:
    q1, q2 = example9
    assert q1.variables == q2.variables == (Var("shop"), Var("product"), Var("percent"))
    assert q1.dataset == q2.dataset == Dataset((URIRef(EX + "static"),))
    assert abstract_pattern(q2.pattern) == q1.pattern
    assert isinstance(q1.pattern, Filter) and len(q1.pattern.pattern.triples) == 5
    assert [(s.stream, s.window) for s in q1.streams] == [(s.stream, s.window) for s in q2.streams]
    assert cs(q1) == cs(q2)


def test_example9_stream_graph_patterns(example9) -> None:
    q1, q2 = example9
    assert [s.pattern for s in q1.streams] == [BGP(), BGP()]
    first, second = q2.streams
    assert (first.stream, first.window, len(first.pattern.triples)) \
        == (URIRef(EX + "s1"), RangeWindow(30), 3)
    assert (second.stream, second.window, len(second.pattern.triples)) \
        == (URIRef(EX + "s2"), RangeWindow(5), 1)
    assert [p.pattern for p in stream_patterns(q2.pattern)] == [first.pattern, second.pattern]


def _window_atoms(rule) -> list[WindowAtom]:
    return [lit.formula for lit in rule.body if isinstance(lit.formula, WindowAtom)]


def test_tau1_has_one_import_rule_per_stream(example9) -> None:
    q1, q2 = example9
    for query in (q1, q2):
        program = translate(query, "csparql").program
        imports = [r for r in program if isinstance(r.head, Atom) and r.head.predicate == "triple"]
        assert len(imports) == 2
        assert [(_window_atoms(r)[0].window, _window_atoms(r)[0].atom.args[3].value) for r in imports] \
            == [(TimeWindow(30), EX + "s1"), (TimeWindow(5), EX + "s2")]
        assert all(len(r.body) == 1 for r in imports)


def test_tau2_one_rule_per_stream_pattern(example9) -> None:
    _, q2 = example9
    program = translate(q2, "cqels").program
    stream_rules = [r for r in program if _window_atoms(r)]
    assert [len(_window_atoms(r)) for r in stream_rules] == [3, 1]
    assert all(len(r.body) == len(_window_atoms(r)) for r in stream_rules)
    assert {a.window for r in stream_rules for a in _window_atoms(r)} == {TimeWindow(30), TimeWindow(5)}
    assert all(a.atom.predicate == "striple" for r in stream_rules for a in _window_atoms(r))


@pytest.mark.parametrize("engine", ["csparql", "cqels"])
@pytest.mark.parametrize("mode", ["none", "push", "pull"])
def test_example9_programs_are_safe_and_stratified(example9, engine: str, mode: str) -> None:
    query = example9[0] if engine == "csparql" else example9[1]
    program = translate(query, engine, mode=mode, period_ticks=5).program
    check_safety(program)
    assert is_stratified(program)


# --- CSRBench -----------------------------------------------------------------------------------

SUPPORTED = [1, 2, 3, 5, 6, 7]


@pytest.mark.parametrize("number", SUPPORTED, ids=[f"q{n}" for n in SUPPORTED])
@pytest.mark.parametrize("syntax", ["csparql", "cqels"])
def test_csrbench_queries_parse(number: int, syntax: str) -> None:
    text = getattr(csrbench, syntax)(number)
    query = parse_query(text)
    assert query.engine == syntax
    select = csrbench.QUERIES[number][0]
    assert [f"?{v.name}" for v in query.variables] == select.split()
    (stream,) = query.streams
    assert stream.stream == URIRef(csrbench.STREAM)
    assert isinstance(stream.window, RangeWindow)
    translation = translate(query, syntax)
    check_safety(translation.program)
    assert is_stratified(translation.program)


@pytest.mark.parametrize("number", SUPPORTED, ids=[f"q{n}" for n in SUPPORTED])
def test_csrbench_both_syntaxes_give_the_same_cs(number: int) -> None:
    assert cs(parse_query(csrbench.csparql(number))) == cs(parse_query(csrbench.cqels(number)))


def test_csrbench_windows() -> None:
    windows = {n: parse_query(csrbench.cqels(n)).streams[0].window for n in SUPPORTED}
    assert windows == {1: RangeWindow(10, 10), 2: RangeWindow(1, 1), 3: RangeWindow(4, 4),
                       5: RangeWindow(5, 1), 6: RangeWindow(5, 5), 7: RangeWindow(5, 5)}


def test_csrbench_blank_node_property_lists() -> None:
    query = parse_query(csrbench.cqels(6))
    blanks = {t for triple in query.streams[0].pattern.triples for t in triple.terms()
              if isinstance(t, BlankVar)}
    assert len(blanks) == 2
    assert not any(v.name.startswith("b") for v in query.variables)


@pytest.mark.parametrize("syntax", ["csparql", "cqels"])
def test_csrbench_q4_reads_as_a_group_with_avg(syntax: str) -> None:
    extend = parse_query(getattr(csrbench, syntax)(4)).pattern
    (_, aggregate), = extend.pattern.aggregates
    assert (extend.var.name, aggregate.function) == ("avg", "avg")


# --- stream clauses -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "stream", "window"), [
    pytest.param("PREFIX : <http://ex.org/> SELECT ?s FROM STREAM :s1 [RANGE 10s STEP 5s] "
                 "WHERE { ?s :p ?o }", EX + "s1", RangeWindow(10, 5), id="csparql-prefixed-name"),
    pytest.param("register query q as prefix : <http://ex.org/> select ?s "
                 "from named stream <http://ex.org/s1> [range 4s tumbling] where { ?s :p ?o }",
                 EX + "s1", RangeWindow(4, 4), id="csparql-lower-case"),
    pytest.param("REGISTER STREAM out AS SELECT ?s FROM STREAM <http://ex.org/s1> [TRIPLES 5] "
                 "WHERE { ?s ?p ?o }", EX + "s1", TriplesWindow(5), id="csparql-triples"),
    pytest.param("SELECT ?s FROM STREAM <http://ex.org/s1> [RANGE TRIPLES 5] WHERE { ?s ?p ?o }",
                 EX + "s1", TriplesWindow(5), id="csparql-range-triples"),
    pytest.param("PREFIX om-owl: <http://ex.org/> SELECT ?s WHERE { STREAM om-owl:s1 [NOW] "
                 "{ ?s om-owl:p ?o } }", EX + "s1", NowWindow(), id="cqels-prefixed-name"),
    pytest.param("select ?s where { stream <http://ex.org/s1> [all] { ?s ?p ?o } }", EX + "s1",
                 AllWindow(), id="cqels-lower-case-all"),
    pytest.param("SELECT ?s WHERE { STREAM <http://ex.org/s1> [TRIPLES 3] { ?s ?p ?o } }",
                 EX + "s1", TriplesWindow(3), id="cqels-triples"),
    pytest.param("SELECT ?s WHERE { STREAM <http://ex.org/s1> [RANGE 2s TUMBLING] { ?s ?p ?o } }",
                 EX + "s1", RangeWindow(2, 2), id="cqels-tumbling"),
    pytest.param("BASE <http://ex.org/> SELECT ?s WHERE { STREAM <s1> [RANGE 2s] { ?s ?p ?o } }",
                 EX + "s1", RangeWindow(2), id="cqels-relative-iri"),
])
def test_stream_clauses(text: str, stream: str, window) -> None:
    (spec,) = parse_query(text).streams
    assert (spec.stream, spec.window) == (URIRef(stream), window)


def test_register_clause() -> None:
    query = parse_query("REGISTER QUERY coupons COMPUTED EVERY 5m AS SELECT ?s "
                        "FROM STREAM <http://ex.org/s1> [RANGE 30m STEP 5m] WHERE { ?s ?p ?o }",
                        unit="1m")
    assert (query.name, query.every, query.streams[0].window) == ("coupons", 5, RangeWindow(30, 5))


def test_several_stream_blocks_same_and_different_streams() -> None:
    query = parse_query("""PREFIX : <http://ex.org/>
        SELECT * WHERE {
          STREAM :s1 [RANGE 10s] { ?a :p ?b }
          STREAM :s1 [NOW] { ?b :q ?c }
          STREAM :s2 [RANGE 5s SLIDE 5s] { ?c :r ?d }
          FILTER (?d > 3) }""")
    assert [(s.stream, s.window) for s in query.streams] == [
        (URIRef(EX + "s1"), RangeWindow(10)), (URIRef(EX + "s1"), NowWindow()),
        (URIRef(EX + "s2"), RangeWindow(5, 5))]
    assert isinstance(query.pattern, Filter)
    program = translate(query, "cqels").program
    assert sum(1 for r in program if _window_atoms(r)) == 3


def test_stream_block_inside_optional_and_union() -> None:
    query = parse_query("""SELECT * WHERE { ?a <http://ex.org/p> ?b
        OPTIONAL { STREAM <http://ex.org/s1> [NOW] { ?b <http://ex.org/q> ?c } }
        { STREAM <http://ex.org/s2> [ALL] { ?a ?x ?y } } UNION { ?a ?x ?y } }""")
    assert [s.stream for s in query.streams] == [URIRef(EX + "s1"), URIRef(EX + "s2")]
    assert all(isinstance(p, StreamPattern) for p in stream_patterns(query.pattern))


@pytest.mark.parametrize(("text", "engine"), [
    pytest.param(Q1, "csparql", id="from-stream"),
    pytest.param("REGISTER QUERY q AS SELECT * WHERE { ?s ?p ?o }", "csparql", id="register"),
    pytest.param(Q2, "cqels", id="stream-block"),
    pytest.param("SELECT * WHERE { ?s ?p ?o }", "sparql", id="plain"),
    pytest.param('SELECT * WHERE { ?s ?p "STREAM <x> [NOW] {" }', "sparql", id="stream-in-string"),
    pytest.param("SELECT * WHERE { ?s ?p ?o } # FROM STREAM <s> [NOW]", "sparql", id="in-comment"),
])
def test_engine_guess(text: str, engine: str) -> None:
    assert guess_engine(text) == engine


def test_plain_sparql_query() -> None:
    query = parse_query("SELECT DISTINCT * WHERE { ?s ?p ?o OPTIONAL { ?o ?q ?r } }")
    assert query.engine == "sparql" and query.streams == () and query.distinct
    assert query.variables == tuple(Var(n) for n in ("o", "p", "q", "r", "s"))


@pytest.mark.parametrize("text", [
    pytest.param("REGISTER QUERY q AS PREFIX : <http://ex.org/> SELECT ?s "
                 "FROM STREAM :s1 [RANGE 1s] WHERE { ?s :p ?o }", id="register-first"),
    pytest.param("PREFIX : <http://ex.org/> REGISTER QUERY q AS SELECT ?s "
                 "FROM STREAM :s1 [RANGE 1s] WHERE { ?s :p ?o }", id="prefixes-first"),
])
def test_register_before_or_after_prefixes(text: str) -> None:
    query = parse_query(text)
    assert (query.name, query.streams[0].stream) == ("q", URIRef(EX + "s1"))
