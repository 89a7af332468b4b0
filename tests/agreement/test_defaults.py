"""Defaults of ``lars agree`` that do not hide work (issue 16): the timeline runs to the end of
the last pulling interval the input reaches, the period comes from the C-SPARQL STEP, a stream
without stream IRIs is read as the query's only stream, and a C-SPARQL query is enough."""

import json
from pathlib import Path

import jsonschema
import pytest

from agreement.cli.app import main
from agreement.defaults import default_period, derive_cqels, pulling_timeline
from agreement.facade import check_agreement
from ingest.rdffiles import read_timestamped_ntriples
from lars.streams import Timeline
from translate.api import parse_query
from translate.variants import cs

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
CSRBENCH = ROOT / "examples" / "csrbench"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
DATA = ["--stream", str(COUPONS / "stream.nt"), "--static", str(COUPONS / "static.ttl"), "--unit", "1m"]
STREAM_NOTE = "triples whose line names no stream are read as arriving on"


def agree(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.startswith("{") else out), err


# --- the timeline ---------------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["cqels.rq", "csparql.rq"])
def test_running_example_without_to_checks_the_interval_the_input_ends_in(capsys, query):
    """The input ends at 18; with U = 30 the pull at 30 is still checked and disagrees."""
    status, report, _ = agree(capsys, "agree", COUPONS / query, *DATA, "--period", "30m",
                              "--format", "json")
    jsonschema.validate(report, SCHEMA)
    assert status == 1
    assert report["timeline"] == {"start": 0, "end": 30}
    [interval] = report["intervals"]
    assert interval["interval"] == "(0,30]" and not interval["agree"]
    assert [a["times"] for a in interval["only_cqels"]] == [[18]]
    assert "the input ends at 18, inside the pulling interval (0,30]: the timeline runs to 30, its end" \
        in report["notes"]


@pytest.mark.parametrize("query, period", [("q1-cqels.rq", ["--period", "10s"]), ("q1-csparql.rq", [])])
def test_csrbench_q1_without_stream_iri_and_to_reports_30_40(capsys, query, period):
    status, report, err = agree(capsys, "agree", CSRBENCH / "queries" / query, "--stream",
                                CSRBENCH / "stream", *period, "--format", "json")
    assert status == 1
    ends = [(i["interval"], i["agree"]) for i in report["intervals"]]
    assert ends == [("(0,10]", True), ("(10,20]", True), ("(20,30]", False), ("(30,40]", False)]
    assert any("ends at 33, inside the pulling interval (30,40]" in n for n in report["notes"])
    assert err.count(STREAM_NOTE) == 1


def test_given_to_is_kept():
    line, note = pulling_timeline(Timeline(0, 18), 30, end_given=True, last_input=18)
    assert line == Timeline(0, 18) and note is None


def test_input_ending_on_a_pull_is_not_extended():
    line, note = pulling_timeline(Timeline(0, 30), 10, end_given=False, last_input=30)
    assert line == Timeline(0, 30) and note is None


def test_nothing_to_check_is_an_error_not_agreement(tmp_path, capsys):
    empty = tmp_path / "empty.nt"
    empty.write_text("")
    status, out, err = agree(capsys, "agree", COUPONS / "cqels.rq", "--stream", empty, "--static",
                             COUPONS / "static.ttl", "--unit", "1m", "--period", "30m")
    assert status == 2 and out == ""
    assert "holds no pulling interval" in err


# --- the period ---------------------------------------------------------------------------------

def test_period_defaults_to_the_csparql_step(capsys):
    status, report, _ = agree(capsys, "agree", COUPONS / "csparql.rq", *DATA, "--format", "json")
    assert report["period"] == 1 and status == 0  # STEP 1m: a pull at every minute agrees


def test_period_defaults_to_a_cqels_slide():
    query = parse_query((CSRBENCH / "queries" / "q1-cqels.rq").read_text(), engine="cqels")
    assert default_period(query) == 10


def test_no_step_and_no_period_is_refused(capsys):
    status, _, err = agree(capsys, "agree", COUPONS / "cqels.rq", *DATA)
    assert status == 2 and "give the pulling period with --period" in err


def test_windows_stepping_differently_give_no_default():
    query = parse_query("REGISTER QUERY q AS PREFIX : <http://ex.org/> SELECT ?x "
                        "FROM STREAM :s [RANGE 10s STEP 2s] FROM STREAM :t [RANGE 10s STEP 5s] "
                        "WHERE { ?x :p ?y . ?y :q ?z }")
    assert default_period(query) is None


# --- the stream IRI -------------------------------------------------------------------------------

def without_stream_iris(tmp_path) -> Path:
    lines = [" ".join(part for part in line.split(" ") if part not in ("<http://ex.org/s1>",))
             for line in (COUPONS / "stream.nt").read_text().splitlines()
             if line and not line.startswith("#") and "<http://ex.org/s1>" in line]
    path = tmp_path / "offers.nt"
    path.write_text("\n".join(lines) + "\n")
    return path


ONE_STREAM = ("PREFIX : <http://ex.org/> SELECT ?shop ?coupon "
              "WHERE { STREAM :s1 [RANGE 30m] { ?shop :offers ?coupon } }")


def test_a_stream_without_iris_is_the_query_s_only_stream(tmp_path, capsys):
    query = tmp_path / "one.rq"
    query.write_text(ONE_STREAM)
    stream = without_stream_iris(tmp_path)
    status, report, err = agree(capsys, "agree", query, "--stream", stream, "--unit", "1m",
                                "--period", "10m", "--format", "json")
    assert status == 0 and err.count(STREAM_NOTE) == 1
    cqels = {(a["time"], a["binding"]["shop"]) for a in report["answers"]["cqels"]}
    assert cqels == {(10, "<http://ex.org/a>"), (15, "<http://ex.org/a>"), (15, "<http://ex.org/b>")}
    status, out, err = agree(capsys, "run", query, "--stream", stream, "--unit", "1m", "--format", "csv")
    assert status == 0 and err.count(STREAM_NOTE) == 1
    assert out.splitlines()[1] == "10,<http://ex.org/a>,<http://ex.org/c1>"


def test_a_query_reading_two_streams_still_needs_the_iri(tmp_path, capsys):
    stream = without_stream_iris(tmp_path)
    status, _, err = agree(capsys, "agree", COUPONS / "cqels.rq", "--stream", stream, "--static",
                           COUPONS / "static.ttl", "--unit", "1m", "--period", "10m")
    assert status == 2 and "no stream IRI" in err


# --- a C-SPARQL query is enough ---------------------------------------------------------------------

def test_cqels_side_derived_from_csparql_matches_the_hand_written_one():
    elements = list(read_timestamped_ntriples(COUPONS / "stream.nt"))
    from ingest.eager import static_graphs
    csparql = parse_query((COUPONS / "csparql.rq").read_text(), unit="1m")
    cqels = parse_query((COUPONS / "cqels.rq").read_text(), unit="1m")
    derived = derive_cqels(csparql, elements, static_graphs([str(COUPONS / "static.ttl")], csparql))
    assert derived.engine == "cqels"
    assert {(s.stream, frozenset(s.pattern.triples)) for s in derived.streams} == {
        (s.stream, frozenset(s.pattern.triples)) for s in cqels.streams}
    assert cs(derived).pattern == cs(csparql).pattern


def test_csparql_and_cqels_queries_give_the_same_verdicts():
    options = {"stream": COUPONS / "stream.nt", "static": [str(COUPONS / "static.ttl")], "unit": "1m"}
    for period in ("5m", "30m"):
        from_csparql = check_agreement(COUPONS / "csparql.rq", period=period, **options)
        from_cqels = check_agreement(COUPONS / "cqels.rq", period=period, **options)
        assert [(v.start, v.end, v.agree) for v in from_csparql.verdicts] == \
            [(v.start, v.end, v.agree) for v in from_cqels.verdicts]
        assert not any("do not describe the same" in w for w in from_csparql.warnings)


def test_a_pattern_matching_two_streams_asks_for_the_cqels_query(tmp_path, capsys):
    stream = tmp_path / "two.nt"
    stream.write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> 1\n"
                      "<http://ex.org/a> <http://ex.org/p> <http://ex.org/c> <http://ex.org/t> 2\n")
    query = tmp_path / "q.rq"
    query.write_text("REGISTER QUERY q AS PREFIX : <http://ex.org/> SELECT ?x "
                     "FROM STREAM :s [RANGE 2s STEP 1s] FROM STREAM :t [RANGE 2s STEP 1s] "
                     "WHERE { ?x :p ?y }")
    status, _, err = agree(capsys, "agree", query, "--stream", stream)
    assert status == 2 and "matches triples of several streams" in err and "--csparql FILE" in err


def test_analyze_takes_a_single_stream_csparql_query(capsys):
    walk = ROOT / "examples" / "walkthrough"
    status, out, _ = agree(capsys, "agree", "--analyze", walk / "hot-rooms.rq", "--static",
                           walk / "building.ttl")
    assert status == 0 and out.startswith("agreement NOT GUARANTEED")
    assert "hopping window (step 5s)" in out  # the period defaulted to the STEP, the window is derived


def test_analyze_refuses_to_guess_the_streams_of_a_csparql_query(capsys):
    status, _, err = agree(capsys, "agree", "--analyze", COUPONS / "csparql.rq", "--unit", "1m",
                           "--static", COUPONS / "static.ttl", "--period", "30m")
    assert status == 2 and "cannot be told" in err


@pytest.mark.parametrize("name", ["q1", "q3", "q6", "q7"])
def test_derived_cqels_queries_of_csrbench_match_the_hand_written_ones(name):
    """Differential: the CQELS query derived from each CSRBench C-SPARQL query over the real
    stream has the stream patterns and windows of the CQELS query the benchmark wrote."""
    from ingest.eager import read_rdf_stream, static_graphs
    from ingest.options import ReadOptions
    from ingest.policy import ReadReport
    elements, _ = read_rdf_stream(CSRBENCH / "stream", ReadOptions(), ReadReport())
    queries = CSRBENCH / "queries"
    csparql = parse_query((queries / f"{name}-csparql.rq").read_text())
    cqels = parse_query((queries / f"{name}-cqels.rq").read_text())
    derived = derive_cqels(csparql, elements, static_graphs([], csparql))
    assert [(s.stream, s.window, frozenset(s.pattern.triples)) for s in derived.streams] == \
        [(s.stream, s.window, frozenset(s.pattern.triples)) for s in cqels.streams]
    assert cs(derived) == cs(csparql)
