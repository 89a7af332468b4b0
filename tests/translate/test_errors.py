"""Every error path of the readers: message, position (mapped to the user's text), type."""

from __future__ import annotations

import pytest

from lars.errors import InputError, ParseError, Position, UnsupportedError
from translate import parse_query

AFTER_STREAM_CLAUSE = """REGISTER QUERY q AS
SELECT ?s
FROM STREAM <http://ex.org/s> [RANGE 10s STEP 5s]
WHERE { ?s <http://ex.org/p> ?o ?z }"""
INSIDE_STREAM_BLOCK = """SELECT ?s WHERE {
  STREAM <http://ex.org/s> [RANGE 10s] { ?s <http://ex.org/p> ?o ?z }
}"""
AFTER_STREAM_BLOCK = """SELECT ?s WHERE {
  STREAM <http://ex.org/a-long-stream-name> [RANGE 10s SLIDE 5s] { ?s <http://ex.org/p> ?o }
  ?o <http://ex.org/q> ?r ?z }"""


@pytest.mark.parametrize(("text", "line", "column", "found"), [
    pytest.param(AFTER_STREAM_CLAUSE, 4, 33, "'?z'", id="after-from-stream"),
    pytest.param(INSIDE_STREAM_BLOCK, 2, 66, "'?z'", id="inside-stream-block"),
    pytest.param(AFTER_STREAM_BLOCK, 3, 27, "'?z'", id="after-stream-block"),
    pytest.param("SELECT * WHERE { ?s ?p ?o FILTER (?o > ) }", 1, 27, "'FILTER'", id="bad-filter"),
    pytest.param("SELEC * WHERE { ?s ?p ?o }", 1, 1, "'SELEC'", id="misspelt-select"),
    pytest.param("SELECT * WHERE { ?s ?p ?o ", 1, 27, "end of input", id="unclosed-group"),
])
def test_syntax_errors_point_into_the_original_text(text, line, column, found) -> None:
    with pytest.raises(ParseError) as error:
        parse_query(text, source="q.rq")
    assert error.value.position == Position("q.rq", line, column)
    assert str(error.value).startswith(f"q.rq:{line}:{column}: error: SPARQL syntax error: expected ")
    assert str(error.value).endswith(f"but found {found}")


@pytest.mark.parametrize(("text", "message", "column"), [
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [RANGE 10 STEP 5s] WHERE { ?s ?p ?o }",
                 "expected a time unit (ms, s, m, h, d) after the number but found 'STEP'", 43,
                 id="duration-without-unit"),
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [RANGE 10sec] WHERE { ?s ?p ?o }",
                 "did you mean 's'?", 43, id="misspelt-unit"),
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [RANGE 10s STEPS 5s] WHERE { ?s ?p ?o }",
                 "expected ']' closing the window but found 'STEPS'", 47, id="bad-window-keyword"),
    pytest.param("SELECT ?s FROM STREAM <http://e/s> WHERE { ?s ?p ?o }",
                 "expected a window such as [RANGE 10s STEP 5s] after the stream IRI", 36,
                 id="csparql-missing-window"),
    pytest.param("SELECT ?s WHERE { STREAM <http://e/s> { ?s ?p ?o } }",
                 "expected a window such as [RANGE 10s] after the stream IRI but found '{'", 39,
                 id="cqels-missing-window"),
    pytest.param("SELECT ?s FROM STREAM [RANGE 1s] WHERE { ?s ?p ?o }",
                 "expected a stream IRI (<...> or a prefixed name) but found '['", 23,
                 id="missing-stream-iri"),
    pytest.param("SELECT ?s FROM STREAM foo:s [RANGE 1s] WHERE { ?s ?p ?o }",
                 "unknown prefix 'foo:'", 23, id="unknown-prefix-in-stream-clause"),
    pytest.param("SELECT ?s WHERE { ?s foo:p ?o }", "unknown prefix 'foo:'", 22,
                 id="unknown-prefix-in-pattern"),
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [TRIPLES 0] WHERE { ?s ?p ?o }",
                 "at least one triple", 45, id="zero-triples"),
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [RANGE 2s STEP 0s] WHERE { ?s ?p ?o }",
                 "STEP/SLIDE must be at least one tick", 51, id="zero-step"),
])
def test_stream_clause_errors(text: str, message: str, column: int) -> None:
    with pytest.raises(ParseError) as error:
        parse_query(text, source="q.rq")
    assert message in str(error.value)
    assert error.value.position == Position("q.rq", 1, column)


def test_duration_not_whole_ticks_has_a_position() -> None:
    with pytest.raises(InputError) as error:
        parse_query("SELECT ?s FROM STREAM <http://e/s> [RANGE 500ms] WHERE { ?s ?p ?o }",
                    source="q.rq", unit="1s")
    assert str(error.value).startswith("q.rq:1:43: error: 500ms is not a whole number of ticks")


@pytest.mark.parametrize(("text", "engine", "message"), [
    pytest.param("SELECT ?s FROM STREAM <http://e/s> [NOW] WHERE { ?s ?p ?o }", "cqels",
                 "FROM STREAM is C-SPARQL syntax", id="from-stream-as-cqels"),
    pytest.param("REGISTER QUERY q AS SELECT ?s WHERE { ?s ?p ?o }", "cqels",
                 "REGISTER is C-SPARQL syntax", id="register-as-cqels"),
    pytest.param("SELECT ?s WHERE { ?s ?p ?o }", "csparql", "not a C-SPARQL query",
                 id="plain-as-csparql"),
    pytest.param("SELECT ?s WHERE { ?s <urn:lars:stream:1> ?o }", "cqels", "reserves",
                 id="placeholder-iri"),
])
def test_wrong_engine(text: str, engine: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_query(text, engine=engine)


@pytest.mark.parametrize(("text", "feature", "line", "column"), [
    pytest.param("DESCRIBE ?s WHERE { ?s ?p ?o }", "DESCRIBE query", 1, 1, id="describe"),
    pytest.param("SELECT ?s WHERE { { SELECT DISTINCT ?s WHERE { ?s ?p ?o } ORDER BY ?o "
                 "OFFSET 2 } }", "ORDER BY a variable that a SELECT DISTINCT subquery", 1, 59,
                 id="distinct-subquery-slice-ordered-by-a-hidden-variable"),
    pytest.param("SELECT ?s WHERE { ?s ?p ?o FILTER (?o < NOW()) }",
                 "function NOW (its value is not a function of its arguments)", 1, 41, id="now"),
    pytest.param("SELECT (COUNT(?o) AS ?n) WHERE { ?s ?p ?o } GROUP BY (STR(?s))",
                 "GROUP BY an expression without AS", 1, 45, id="group-by-expression"),
    pytest.param("SELECT ?s WHERE { SERVICE <http://e/sparql> { ?s ?p ?o } }", "SERVICE", 1, 19,
                 id="service"),
    pytest.param("SELECT ?s WHERE { STREAM <http://e/s> [NOW] { ?s ?p ?o GRAPH ?g { ?o ?q ?r } } }",
                 "GRAPH or another STREAM/WINDOW block inside a STREAM/WINDOW block", 1, 19,
                 id="graph-in-stream"),
])
def test_unsupported_features_are_named_with_positions(text, feature, line, column) -> None:
    with pytest.raises(UnsupportedError) as error:
        parse_query(text, source="q.rq")
    assert str(error.value).startswith(f"q.rq:{line}:{column}: error: unsupported: {feature}")


def test_collect_then_fail_lists_every_feature() -> None:
    text = """SELECT (SAMPLE(?s) AS ?t) (NOW() AS ?n) WHERE { ?s ?p ?o .
  { SELECT DISTINCT ?s WHERE { ?s ?p ?o } ORDER BY ?o LIMIT 1 }
  FILTER(RAND() > 0.5) }
GROUP BY (STR(?s)) ORDER BY ?t"""
    with pytest.raises(UnsupportedError) as error:
        parse_query(text, source="q.rq")
    assert str(error.value).splitlines() == [
        "q.rq:1:28: error: unsupported: function NOW (its value is not a function of its arguments)",
        ("q.rq:2:43: error: unsupported: ORDER BY a variable that a SELECT DISTINCT subquery "
         "with LIMIT or OFFSET does not select"),
        "q.rq:4:1: error: unsupported: GROUP BY an expression without AS (write GROUP BY (expr AS ?k))",
    ]
    assert [feature for feature, _ in error.value.features][2].startswith("GROUP BY")


def test_service_is_refused_before_rdflib_parses_it() -> None:
    """A SERVICE nested in another took rdflib's parser minutes; it is refused at once."""
    text = ("SELECT * { SERVICE <http://e/1> { ?s ?p ?o OPTIONAL { SERVICE <http://e/2> "
            "{ ?s ?q ?r } } } }")
    with pytest.raises(UnsupportedError, match=r"^q.rq:1:12: error: unsupported: SERVICE"):
        parse_query(text, source="q.rq")




@pytest.mark.parametrize(("call", "meant"), [("CONT", "COUNT"), ("SUMM", "SUM"), ("STRLN", "STRLEN"),
                                             ("Group_Concat2", "GROUP_CONCAT"), ("REGX", "REGEX")])
def test_a_misspelt_function_is_named_at_its_own_position(call, meant) -> None:
    """rdflib reports a misspelt aggregate at the expression's ``(``, naming nothing (newcomer
    finding); the error names the call and points at it."""
    text = f"SELECT ?s ({call}(?v) AS ?n)\nWHERE {{ STREAM <http://s> [RANGE 3s] {{ ?s ?p ?v }} }}"
    with pytest.raises(ParseError) as error:
        parse_query(text, source="q.rq")
    assert error.value.position == Position("q.rq", 1, 12)
    assert f"unknown function {call}() (did you mean {meant}?)" in str(error.value)


def test_a_name_close_to_no_function_keeps_the_plain_syntax_error() -> None:
    text = "SELECT ?s WHERE { STREAM <http://s> [RANGE 3s] { ?s ?p ?v } FILTER(foo(?v) > 1) }"
    with pytest.raises(ParseError) as error:
        parse_query(text, source="q.rq")
    assert "unknown function" not in str(error.value) and "but found" in str(error.value)
