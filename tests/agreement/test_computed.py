"""``lars agree`` computing both sides from a query: the paper's running example, condition (ii),
and CSRBench Q1 on the real stream (SPEC section 9, paper section 5)."""

import json
from pathlib import Path

import jsonschema
import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
CSRBENCH = ROOT / "examples" / "csrbench"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
RUNNING = ["agree", str(COUPONS / "cqels.rq"), "--stream", str(COUPONS / "stream.nt"),
           "--static", str(COUPONS / "static.ttl"), "--unit", "1m", "--to", "50", "--format", "json"]
EX = "http://ex.org/"


def agree(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    report = json.loads(out) if out.startswith(("{", "[")) else out
    return status, report, err


@pytest.mark.parametrize("period", ["5m", "10m"])
def test_running_example_agrees_for_short_periods(capsys, period):
    status, report, _ = agree(capsys, *RUNNING, "--period", period)
    jsonschema.validate(report, SCHEMA)
    assert status == 0 and report["agree"] and report["disagreeing"] == 0


def test_running_example_disagrees_for_30_minutes_because_isnear_expired(capsys):
    status, report, _ = agree(capsys, *RUNNING, "--period", "30m")
    jsonschema.validate(report, SCHEMA)
    assert status == 1
    [interval] = report["intervals"]
    assert (interval["start"], interval["end"], interval["agree"]) == (0, 30, False)
    assert interval["interval"] == "(0,30]"
    [only] = interval["only_cqels"]
    assert only["binding"] == {"shop": f"<{EX}b>", "product": f"<{EX}rayban>", "percent": "25"}
    assert only["times"] == [18]
    assert interval["only_csparql"] == [] and interval["explanations"] == []
    assert interval["cause"] == "push snapshots at 18 differ from the pull snapshot at 30"
    [why] = only["explanations"]
    assert why["condition"] == "snapshot-differs"
    assert "[RANGE 5m] of <http://ex.org/s2>" in why["message"] and "push at 18" in why["message"]
    assert "those at 18 are no longer in the window" in why["message"]
    assert f"<{EX}claire> <{EX}isNear> <{EX}b> <{EX}s2> 18" in why["witnesses"]


def test_static_data_sharing_a_stream_pattern_is_named(tmp_path, capsys):
    static = tmp_path / "static.ttl"
    static.write_text((COUPONS / "static.ttl").read_text()
                      + "<http://ex.org/claire> <http://ex.org/isNear> <http://ex.org/b> .\n")
    argv = [a if a != str(COUPONS / "static.ttl") else str(static) for a in RUNNING]
    status, report, _ = agree(capsys, *argv, "--period", "10m", "--variant", "cautious")
    jsonschema.validate(report, SCHEMA)
    assert status == 1
    reasons = [e for i in report["intervals"] for e in i["explanations"]
               if e["condition"] == "static-shares-pattern"]
    assert reasons, report
    assert reasons[0]["witnesses"] == ["pattern ?user <http://ex.org/isNear> ?shop .",
                                       f"static triple <{EX}claire> <{EX}isNear> <{EX}b> ."]


def test_csrbench_q1_computed_with_10s_period(capsys):
    status, report, _ = agree(capsys, "agree", str(CSRBENCH / "queries" / "q1-cqels.rq"),
                              "--stream", str(CSRBENCH / "stream"), "--period", "10s", "--format", "json")
    jsonschema.validate(report, SCHEMA)
    assert status == 1
    verdicts = [(i["start"], i["end"], i["agree"]) for i in report["intervals"]]
    # the input ends at 33: the timeline runs to the end of its pulling interval, (30,40]
    assert verdicts == [(0, 10, True), (10, 20, True), (20, 30, False), (30, 40, False)]
    assert report["timeline"] == {"start": 0, "end": 40}
    assert any("ends at 33, inside the pulling interval (30,40]" in n for n in report["notes"])
    bad = report["intervals"][2]
    assert bad["only_csparql"] == [] and len(bad["only_cqels"]) == 5
    assert all(t in range(21, 30) for a in bad["only_cqels"] for t in a["times"])
    assert {e["condition"] for a in bad["only_cqels"] for e in a["explanations"]} == {
        "snapshot-differs", "other-interval"}


def test_separate_queries_that_differ_are_warned_about(tmp_path, capsys):
    other = tmp_path / "other.rq"
    other.write_text((COUPONS / "csparql.rq").read_text().replace("RANGE 5m", "RANGE 6m"))
    status, report, err = agree(capsys, *RUNNING, "--period", "10m", "--csparql", str(other))
    assert "warning: the C-SPARQL and CQELS queries do not describe the same abstract query" in err


def test_separate_queries_that_match_agree_quietly(capsys):
    status, report, err = agree(capsys, *RUNNING, "--period", "10m", "--csparql",
                                str(COUPONS / "csparql.rq"))
    assert status == 0 and err == ""


def test_an_rspql_query_is_checked_as_its_cqels_reading(tmp_path, capsys):
    """RSP-QL (RSP4J's syntax) reads into the CQELS query (translate.rspql): `lars agree` takes
    it as QUERY and reports exactly what the CQELS form gets."""
    rspql = tmp_path / "q1.rspql"
    rspql.write_text(
        "PREFIX om-owl: <http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#>\n"
        "PREFIX weather: <http://knoesis.wright.edu/ssw/ont/weather.owl#>\n"
        "REGISTER RSTREAM <http://ex.org/out> AS\n"
        "SELECT ?sensor ?obs\n"
        "FROM NAMED WINDOW <http://ex.org/w> ON <http://ex.org/streams/test> [RANGE PT10S STEP PT10S]\n"
        "WHERE { WINDOW <http://ex.org/w> {\n"
        "          ?obs om-owl:observedProperty weather:_AirTemperature ;\n"
        "               om-owl:procedure ?sensor ; om-owl:result ?res .\n"
        "          ?res om-owl:floatValue ?value . }\n"
        "        FILTER(?value > 80) }\n")
    common = ("--stream", str(CSRBENCH / "stream"), "--period", "10s", "--format", "json")
    ours = agree(capsys, "agree", str(rspql), *common)
    cqels = agree(capsys, "agree", str(CSRBENCH / "queries" / "q1-cqels.rq"), *common)
    assert ours[0] == cqels[0] == 1
    assert ours[1] == cqels[1]
