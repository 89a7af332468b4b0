"""The W3C conformance runner (benchmarks/sparql_conformance.py) judges what it should: the
expected rows of a SPARQL 1.0 result set keep their ``rs:index`` order, and OFFSET/LIMIT are
applied once to our rows (both once made right answers count as WRONG or ``dup``)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("sparql_conformance",
                                              ROOT / "benchmarks" / "sparql_conformance.py")
HARNESS = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(HARNESS)

RESULTS = """@prefix rs: <http://www.w3.org/2001/sw/DataAccess/tests/result-set#> .
[] a rs:ResultSet ; rs:resultVariable "v" ;
   rs:solution [ rs:index 2 ; rs:binding [ rs:variable "v" ; rs:value 2 ] ] ,
               [ rs:index 3 ; rs:binding [ rs:variable "v" ; rs:value 3 ] ] ,
               [ rs:index 1 ; rs:binding [ rs:variable "v" ; rs:value 1 ] ] ."""


def test_expected_rows_follow_rs_index(tmp_path) -> None:
    path = tmp_path / "results.ttl"
    path.write_text(RESULTS)
    kind, rows = HARNESS.expected(str(path))
    assert kind == "select" and [row["v"].toPython() for row in rows] == [1, 2, 3]


def test_offset_is_applied_once(tmp_path) -> None:
    data = tmp_path / "data.ttl"
    data.write_text("@prefix : <http://ex.org/> . :a :n 1 , 2 , 3 , 4 .")
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?v WHERE { :a :n ?v } ORDER BY ?v OFFSET 1 LIMIT 2")
    _, rows, order = HARNESS.ours(str(query), [str(data)], [])
    assert [row["v"].toPython() for row in rows] == [2, 3] and order == ["v"]
