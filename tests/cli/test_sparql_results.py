"""``lars run --format sparql-json|sparql-csv|sparql-tsv``: the SPARQL 1.1 results formats, read
back with rdflib's parsers; one document over static data, JSON lines (or a time column) over a
stream; ``FROM <data.ttl>`` is the file next to the query."""

import io
import json
from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.query import Result

from agreement.cli import main

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
EX = "http://ex.org/"
DATA = """@prefix : <http://ex.org/> .
:a :p :b . :b :p :c . :c :q "x"@en . :c :q 5 ."""


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def query_dir(tmp_path: Path) -> Path:
    (tmp_path / "data.ttl").write_text(DATA)
    (tmp_path / "paths.rq").write_text(
        "PREFIX : <http://ex.org/>\nSELECT ?x ?v FROM <data.ttl>\n"
        "WHERE { :a :p+ ?x OPTIONAL { ?x :q ?v } } ORDER BY ?x DESC(?v)\n")
    (tmp_path / "ask.rq").write_text("PREFIX : <http://ex.org/>\nASK FROM <data.ttl> { :a :p/:p :c }\n")
    return tmp_path


EXPECTED = [(URIRef(EX + "b"), None), (URIRef(EX + "c"), Literal("x", lang="en")),
            (URIRef(EX + "c"), Literal(5))]


@pytest.mark.parametrize("fmt", ["sparql-json", "sparql-csv", "sparql-tsv"])
def test_static_query_prints_one_results_document(query_dir, capsys, fmt):
    status, out, err = run(capsys, "run", str(query_dir / "paths.rq"), "--format", fmt, "--quiet")
    assert status == 0 and err == ""
    result = Result.parse(io.StringIO(out), format={"sparql-json": "json", "sparql-csv": "csv",
                                                     "sparql-tsv": "tsv"}[fmt])
    assert [str(v) for v in result.vars] == ["x", "v"]
    rows = [(row.get("x"), row.get("v")) for row in (
        {str(k): v for k, v in b.items()} for b in result.bindings)]
    if fmt == "sparql-csv":  # CSV keeps no datatypes or language tags
        assert [(x, None if v is None else str(v)) for x, v in rows] == \
            [(x, None if v is None else str(v)) for x, v in EXPECTED]
    else:
        assert rows == EXPECTED


def test_ask_is_a_boolean_document(query_dir, capsys):
    status, out, _ = run(capsys, "run", str(query_dir / "ask.rq"), "--format", "sparql-json")
    assert status == 0 and json.loads(out) == {"head": {}, "boolean": True}


def test_a_stream_gives_one_json_line_per_time_point(capsys):
    status, out, _ = run(capsys, "run", str(COUPONS / "csparql.rq"), "--stream",
                         str(COUPONS / "stream.nt"), "--static", f"{EX}static={COUPONS / 'static.ttl'}",
                         "--unit", "1m", "--format", "sparql-json", "--to", "20", "--quiet")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["time"] for line in lines] == list(range(21))
    assert all(line["results"]["head"]["vars"] == ["shop", "product", "percent"] for line in lines)
    assert lines[0]["results"]["results"]["bindings"] == []


def test_a_stream_as_tsv_has_a_time_column(capsys):
    status, out, _ = run(capsys, "run", str(COUPONS / "csparql.rq"), "--stream",
                         str(COUPONS / "stream.nt"), "--static", f"{EX}static={COUPONS / 'static.ttl'}",
                         "--unit", "1m", "--format", "sparql-tsv", "--to", "3", "--quiet")
    assert status == 0 and out.splitlines()[0] == "time\t?shop\t?product\t?percent"


def test_results_format_of_a_lars_program_is_refused(tmp_path, capsys):
    program = tmp_path / "p.lars"
    program.write_text("x :- p.\n")
    status, _, err = run(capsys, "run", str(program), "--format", "sparql-json")
    assert status == 2 and "writes the answers of a query" in err


def test_from_a_missing_local_file_is_one_line(tmp_path, capsys):
    query = tmp_path / "q.rq"
    query.write_text("SELECT * FROM <nothere.ttl> WHERE { ?s ?p ?o }\n")
    status, _, err = run(capsys, "run", str(query), "--format", "sparql-json")
    assert status == 2 and "nothere.ttl" in err and len(err.strip().splitlines()) == 1


def test_construct_writes_the_graph_in_ntriples(query_dir, capsys):
    (query_dir / "c.rq").write_text(
        "PREFIX : <http://ex.org/>\nCONSTRUCT { ?x :reach ?y . ?x :via [ :to ?y ] } "
        "FROM <data.ttl> WHERE { ?x :p+ ?y FILTER (?x = :a) }\n")
    status, out, _ = run(capsys, "run", str(query_dir / "c.rq"), "--format", "sparql-tsv")
    assert status == 0
    expected = Graph().parse(data="""@prefix : <http://ex.org/> .
        :a :reach :b , :c . :a :via [ :to :b ] , [ :to :c ] .""", format="turtle")
    assert isomorphic(Graph().parse(data=out, format="nt"), expected)


def test_construct_over_a_stream_writes_a_stream_another_query_reads(tmp_path, capsys):
    query = tmp_path / "sells.rq"
    query.write_text("REGISTER QUERY q AS PREFIX : <http://ex.org/>\nCONSTRUCT { ?shop :sells ?p } "
                     "FROM STREAM :s1 [RANGE 5m] WHERE { ?shop :offers ?c . ?c :on ?p }\n")
    status, out, _ = run(capsys, "run", str(query), "--stream", str(COUPONS / "stream.nt"),
                         "--unit", "1m", "--format", "sparql-json", "--quiet")
    assert status == 0 and out.splitlines()[0] == (
        "<http://ex.org/a> <http://ex.org/sells> <http://ex.org/mbt> 10")
    (tmp_path / "out.nt").write_text(out)
    second = tmp_path / "shops.rq"
    second.write_text("SELECT DISTINCT ?shop WHERE { STREAM <http://ex.org/out> [NOW] "
                      "{ ?shop <http://ex.org/sells> ?p } }\n")
    status, out, _ = run(capsys, "run", str(second), "--stream", str(tmp_path / "out.nt"),
                         "--stream-iri", "http://ex.org/out", "--unit", "1m",
                         "--format", "sparql-json", "--quiet")
    lines = [json.loads(line) for line in out.splitlines()]
    at15 = [b["shop"]["value"] for b in lines[15]["results"]["results"]["bindings"]]
    assert status == 0 and sorted(at15) == ["http://ex.org/a", "http://ex.org/b"]


def test_relative_iris_resolve_against_base_and_name_graphs(query_dir, tmp_path_factory, capsys):
    elsewhere = tmp_path_factory.mktemp("queries") / "q.rq"
    elsewhere.write_text(f"BASE <{query_dir.as_uri()}/>\nPREFIX : <http://ex.org/>\n"
                         "SELECT ?g ?x FROM NAMED <data.ttl> WHERE { GRAPH ?g { :a :p ?x } "
                         "GRAPH <data.ttl> { ?x :p :c } }\n")
    status, out, _ = run(capsys, "run", str(elsewhere), "--format", "sparql-json")
    [row] = json.loads(out)["results"]["bindings"]
    assert status == 0 and row == {"g": {"type": "uri", "value": (query_dir / "data.ttl").as_uri()},
                                   "x": {"type": "uri", "value": EX + "b"}}


def test_limit_and_offset_pick_the_answers_of_a_time_point_in_every_format(query_dir, capsys):
    query = query_dir / "paths.rq"
    query.write_text(query.read_text().replace("DESC(?v)", "DESC(?v) LIMIT 1 OFFSET 1"))
    status, out, _ = run(capsys, "run", str(query), "--format", "json")
    # the rows: (b), (c, "x"@en), (c, 5)
    assert status == 0 and json.loads(out)["answers"] == [
        {"time": 0, "binding": {"x": f"<{EX}c>", "v": '"x"@en'}}]
    status, out, _ = run(capsys, "run", str(query), "--format", "atoms")
    assert status == 0 and 'ans_1("\\"x\\"@en",<http://ex.org/c>,default)' in out
    status, out, _ = run(capsys, "run", str(query), "--format", "sparql-json")
    assert [b["x"]["value"] for b in json.loads(out)["results"]["bindings"]] == [EX + "c"]


def test_results_show_literals_as_the_data_writes_them(tmp_path, capsys):
    """Lexical forms survive reading, solving and writing: ``"01"^^xsd:integer`` and ``1.0E6``
    come out as written, and a FILTER by value keeps both spellings of one."""
    (tmp_path / "data.ttl").write_text(
        '@prefix : <http://ex.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n'
        ':a :p "01"^^xsd:integer . :b :p 1 . :c :p 1.0E6 .')
    (tmp_path / "q.rq").write_text("PREFIX : <http://ex.org/>\n"
                                   "SELECT ?s ?v FROM <data.ttl> WHERE { ?s :p ?v FILTER (?v < 2) }")
    status, out, _ = run(capsys, "run", str(tmp_path / "q.rq"), "--format", "sparql-json")
    found = {(b["s"]["value"], b["v"]["value"]) for b in json.loads(out)["results"]["bindings"]}
    assert status == 0 and found == {(EX + "a", "01"), (EX + "b", "1")}
    status, out, _ = run(capsys, "run", str(tmp_path / "q.rq"), "--format", "sparql-tsv")
    values = {str(v) for b in Result.parse(io.StringIO(out), format="tsv").bindings
              for k, v in b.items() if str(k) == "v"}
    assert values == {"01", "1"}  # a bare Turtle 01 is "01"^^xsd:integer
