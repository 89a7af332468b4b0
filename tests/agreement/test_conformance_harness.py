"""The W3C conformance harness (``benchmarks/sparql_conformance.py``) judges what it should: exact
terms, the ``value`` outcome for other spellings of a number, SPARQL 1.0's ``rs:index`` order,
and OFFSET applied once."""

import importlib.util
from pathlib import Path

from rdflib import Literal
from rdflib.namespace import XSD

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("sparql_conformance",
                                              ROOT / "benchmarks" / "sparql_conformance.py")
harness = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(harness)


def judge(got, want, order=()):
    """The outcome for one-column rows, read as the harness reads them (:func:`_bound`)."""
    return harness.judge("select", [harness._bound({"v": g}) for g in got], "select",
                         [harness._bound({"v": w}) for w in want], list(order))


def test_terms_compare_as_written_and_numbers_by_value_apart() -> None:
    one, spelled = Literal(1), Literal("01", datatype=XSD.integer, normalize=False)
    assert judge([one], [one]) == "pass"
    assert judge([spelled], [one]) == "value"
    assert judge([Literal("2.1E3", datatype=XSD.double)],
                 [Literal("2100", datatype=XSD.double, normalize=False)]) == "value"
    assert judge([Literal("a", lang="EN")], [Literal("a", lang="en")]) == "pass"
    assert judge([Literal("a", datatype=XSD.string)], [Literal("a")]) == "pass"
    assert judge([Literal("a")], [Literal("b")]) == "WRONG"
    assert judge([Literal(1), Literal(1)], [Literal(1)]) == "dup"


def test_sparql10_results_come_in_rs_index_order(tmp_path) -> None:
    result = tmp_path / "result.ttl"
    result.write_text("""@prefix rs: <http://www.w3.org/2001/sw/DataAccess/tests/result-set#> .
        [] a rs:ResultSet ; rs:resultVariable "v" ;
           rs:solution [ rs:index 2 ; rs:binding [ rs:variable "v" ; rs:value 20 ] ] ,
                       [ rs:index 1 ; rs:binding [ rs:variable "v" ; rs:value 10 ] ] .""")
    kind, rows = harness.expected(str(result))
    assert kind == "select" and [row["v"] for row in rows] == [Literal(10), Literal(20)]


def test_offset_is_applied_once(tmp_path) -> None:
    (tmp_path / "data.ttl").write_text("<http://e/a> <http://e/p> 1, 2, 3 .")
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?v WHERE { ?s <http://e/p> ?v } ORDER BY ?v OFFSET 1")
    _, rows, order = harness.ours(str(query), [str(tmp_path / "data.ttl")], [])
    assert [row["v"] for row in rows] == [Literal(2), Literal(3)] and order == ["v"]
