"""SPARQL's grouping and scope rules, which rdflib does not enforce, refused with a position.

Negative cases are the W3C SPARQL 1.1 suite's negative syntax tests that rdflib accepts
(w3c/rdf-tests, sparql/sparql11: aggregates/agg08-12, grouping/group06-07,
syntax-query/syn-bad-01-03, syntax-SELECTscope2, syntax-BINDscope6-8,
syn-bad-values-too-many/-few; their text, trimmed) and issue 27's query (``?zone`` next to
``AVG(?temp)`` without GROUP BY). Positive cases are the suite's valid neighbours (agg08b,
syntax-SELECTscope1/3) and the forms the rules allow.
"""

from __future__ import annotations

import pytest
from rdflib.plugins.sparql.parser import parseQuery

from lars.errors import ParseError
from tests.badinput.clirun import lars
from translate.grouping import check_projections
from translate.scanner import SourceText

P = "PREFIX : <http://www.example.org/>\n"


def refusal(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        check_projections(parseQuery(text), SourceText(text, "q.rq"))
    return caught.value


@pytest.mark.parametrize("text, message, column", [
    pytest.param("SELECT ?zone (AVG(?temp) AS ?avg) WHERE { ?s :zone ?zone ; :temp ?temp }",
                 "?zone is selected but neither grouped nor aggregated", 8, id="issue-27"),
    pytest.param("SELECT ?P (COUNT(?O) AS ?C) WHERE { ?S ?P ?O } GROUP BY ?S",
                 "?P is selected but neither grouped", 8, id="agg09"),
    pytest.param("SELECT ?P (COUNT(?O) AS ?C) WHERE { ?S ?P ?O }",
                 "?P is selected but neither grouped", 8, id="agg10"),
    pytest.param("SELECT ((?O1 + ?O2) AS ?O12) (COUNT(?O1) AS ?C) WHERE { ?S :p ?O1; :q ?O2 } "
                 "GROUP BY (?S)", "?O1 is used in SELECT outside an aggregate", 10, id="agg11"),
    pytest.param("SELECT ?s ?v { ?s :p ?v . } GROUP BY ?s", "?v is selected but neither", 11, id="group06"),
    pytest.param("SELECT * { ?s ?p ?o } GROUP BY ?s", "SELECT * in a grouped query", 1, id="syn-bad-01"),
    pytest.param("SELECT ?o { ?s ?p ?o } GROUP BY ?s", "?o is selected but neither", 8, id="syn-bad-02"),
    pytest.param("SELECT (1 AS ?X) (1 AS ?X) {}", "?X is selected twice", 24, id="syn-bad-03"),
    pytest.param("SELECT ?t ?t { ?s :p ?t }", "?t is selected twice", 11, id="selected-twice"),
    pytest.param("SELECT (?o + 1 AS ?o) { ?s ?p ?o }", "?o is already in scope", 19, id="SELECTscope2"),
    pytest.param("SELECT * { ?s ?p ?o1 BIND (1 AS ?o1) }", "BIND to ?o1, which is already in scope",
                 33, id="BINDscope6"),
    pytest.param("SELECT * { { ?s ?p ?o1 } UNION { ?s ?q ?o2 } BIND (1 AS ?o1) }",
                 "BIND to ?o1", 57, id="BINDscope7"),
    pytest.param("SELECT ?zone { ?s :z ?zone ; :t ?t } GROUP BY ?zone HAVING (?t > 1)",
                 "?t is used in HAVING outside an aggregate", 61, id="having-ungrouped"),
    pytest.param("SELECT ?zone (COUNT(?t) AS ?n) { ?s :z ?zone ; :t ?t } GROUP BY ?zone HAVING (?n > 1)",
                 "?n is named by SELECT's (... AS ?n), which HAVING cannot see", 79,
                 id="having-select-alias"),
    pytest.param("SELECT ?zone { ?s :z ?zone ; :t ?t } GROUP BY ?zone ORDER BY ?t",
                 "?t is used in ORDER BY outside an aggregate", 62, id="order-ungrouped"),
    pytest.param("SELECT (COUNT(*) AS ?c) ?s { ?s :t ?t }", "?s is selected but neither", 25,
                 id="count-then-variable"),
    pytest.param("SELECT ?x { { SELECT ?x (MAX(?y) AS ?m) { ?x :p ?y } } }",
                 "?x is selected but neither", 22, id="subquery"),
    pytest.param("SELECT * WHERE { VALUES (?a ?b) { (1 2 3) } }", "a VALUES row with 3 value(s) for 2",
                 18, id="values-too-many"),
    pytest.param("SELECT * WHERE { VALUES (?a ?b) { (1) } }", "a VALUES row with 1 value(s) for 2",
                 18, id="values-too-few"),
])
def test_refused_with_position(text, message, column):
    error = refusal(P + text)
    assert message in str(error)
    assert (error.position.line, error.position.column) == (2, column)


@pytest.mark.parametrize("text", [
    pytest.param("SELECT ?O12 (COUNT(?O1) AS ?C) WHERE { ?S :p ?O1; :q ?O2 } GROUP BY ((?O1 + ?O2) AS ?O12)",
                 id="agg08b"),
    pytest.param("SELECT ?zone (AVG(?t) AS ?a) (COUNT(*) AS ?n) { ?s :z ?zone ; :t ?t } GROUP BY ?zone "
                 "HAVING (AVG(?t) > 1) ORDER BY DESC(?a) ?zone", id="keys-aggregates-aliases"),
    pytest.param("SELECT (COUNT(?v) AS ?c) (?c + 1 AS ?d) { ?s :p ?v }", id="earlier-alias"),
    pytest.param("SELECT (STR(?zone) AS ?name) (SAMPLE(?t) AS ?any) { ?s :z ?zone ; :t ?t } GROUP BY ?zone",
                 id="expression-over-key"),
    pytest.param("SELECT ?x (?y AS ?z) { ?x :p ?y }", id="SELECTscope1"),
    pytest.param("SELECT * { { SELECT (1 AS ?X) {} } { SELECT (2 AS ?X) {} } }", id="SELECTscope3-like"),
    pytest.param("SELECT (COUNT(?t) AS ?t2) { ?s :t ?t }", id="alias-of-aggregate"),
    pytest.param("SELECT * { ?s :p ?o FILTER (?o > 1) BIND (1 AS ?x) { BIND (2 AS ?o) } }",
                 id="bind-in-nested-group"),
    pytest.param("SELECT ?x { ?x :p ?y } ORDER BY ?y", id="plain-order"),
])
def test_accepted(text):
    check_projections(parseQuery(P + text), SourceText(P + text))


def test_a_key_the_pattern_does_not_bind_is_refused_not_an_internal_error(tmp_path):
    (tmp_path / "q.rq").write_text(P + "SELECT (COUNT(*) AS ?c) WHERE { ?s :t ?t } GROUP BY ?zone")
    status, out, err = lars("run", tmp_path / "q.rq")
    assert status == 2 and err.count("\n") == 1
    assert ":2:53: error: unsupported: GROUP BY ?zone, which the WHERE clause does not bind" in err


def test_command_line_refuses_in_one_line_with_exit_2(tmp_path):
    query = tmp_path / "warm.rq"
    query.write_text("PREFIX : <http://e/>\nSELECT ?zone (AVG(?temp) AS ?avg)\n"
                     "WHERE { ?s :zone ?zone ; :temp ?temp }\n")
    (tmp_path / "d.ttl").write_text("<http://e/s> <http://e/zone> <http://e/n> ; <http://e/temp> 1 .\n")
    status, out, err = lars("run", query, "--static", tmp_path / "d.ttl")
    assert status == 2 and out == ""
    assert err.startswith(f"{query}:2:8: error: ?zone is selected but neither grouped nor aggregated")
    assert err.count("\n") == 1


def test_rsp_queries_are_checked_too(tmp_path):
    query = tmp_path / "warm.rq"
    query.write_text("REGISTER QUERY w AS\nPREFIX : <http://e/>\nSELECT ?zone (AVG(?temp) AS ?avg)\n"
                     "FROM STREAM <http://e/s> [RANGE 5s STEP 5s]\nWHERE { ?s :zone ?zone ; :temp ?temp }\n")
    status, _, err = lars("translate", query)
    assert status == 2 and f"{query}:3:8: error: ?zone is selected" in err
