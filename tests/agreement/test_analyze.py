"""``lars agree --analyze``: the paper's sufficient conditions, checked without a stream."""

import json
from pathlib import Path

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"


def analyze(capsys, *argv):
    status = main(["agree", "--analyze", *argv, "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


def test_short_window_against_a_long_period_is_not_guaranteed_to_agree(capsys):
    status, result = analyze(capsys, str(COUPONS / "cqels.rq"), "--unit", "1m", "--period", "30m")
    assert status == 0 and result["verdict"] == "not guaranteed"
    assert "sufficient, not necessary" in result["note"]
    statuses = {c["condition"]: c["status"] for c in result["conditions"]}
    assert statuses["(ii) no shared patterns"] == "met"
    assert statuses["(iii) window [RANGE 5m] of <http://ex.org/s2>"] == "not met"


def test_static_data_sharing_a_stream_pattern_fails_condition_ii(tmp_path, capsys):
    static = tmp_path / "static.ttl"
    static.write_text("<http://ex.org/claire> <http://ex.org/isNear> <http://ex.org/b> .\n")
    status, result = analyze(capsys, str(COUPONS / "cqels.rq"), "--unit", "1m", "--period", "5m",
                             "--static", str(static))
    [ii] = [c for c in result["conditions"] if c["condition"].startswith("(ii)")]
    assert ii["status"] == "not met" and "isNear" in ii["reason"]
    assert status == 0 and result["verdict"] == "not guaranteed"


def test_hopping_window_is_reported(capsys):
    status, result = analyze(capsys, str(ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"),
                             "--period", "10s")
    assert status == 0
    assert any("hopping window (step 10s)" in c["reason"] for c in result["conditions"])


def test_a_check_without_period_is_refused(capsys):
    status = main(["agree", str(COUPONS / "cqels.rq"), "--stream", str(COUPONS / "stream.nt")])
    assert status == 2 and "give the pulling period with --period" in capsys.readouterr().err


def test_analysis_says_its_conditions_are_sufficient_not_necessary_and_exits_0(capsys):
    """A failed sufficient condition proves no disagreement: the text says so, the exit is 0."""
    status = main(["agree", "--analyze", str(COUPONS / "cqels.rq"), "--unit", "1m", "--period", "30m"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("agreement NOT GUARANTEED")
    assert "sufficient, not necessary" in out


def test_a_stream_predicate_inside_a_static_property_path_is_a_possible_clash(tmp_path, capsys):
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT * WHERE { STREAM :s [RANGE 5m] "
                     "{ ?s :offers ?c } ?c (:on/:offers)* ?x }\n")
    _, result = analyze(capsys, str(query), "--unit", "1m", "--period", "5m")
    [ii] = [c for c in result["conditions"] if c["condition"].startswith("(ii)")]
    assert ii["status"] == "unknown" and "in a property path" in ii["reason"]
    query.write_text("PREFIX : <http://ex.org/>\nSELECT * WHERE { STREAM :s [RANGE 5m] "
                     "{ ?s :offers ?c } ?c !:on ?x }\n")
    _, result = analyze(capsys, str(query), "--unit", "1m", "--period", "5m")
    [ii] = [c for c in result["conditions"] if c["condition"].startswith("(ii)")]
    assert ii["status"] == "unknown" and "negated property set" in ii["reason"]
