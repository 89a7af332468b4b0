"""``lars witness`` on the command line: the paper's running example, CSRBench Q1, a query
without witness, and every error path (message and status). Each witness found is written to a
file and handed to ``lars agree``, which must find the same disagreement."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema
import pytest

from agreement.cli import main

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
Q1 = ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "witness.schema.json").read_text())
AGREEMENT_SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
COUPON_ARGS = [str(COUPONS / "cqels.rq"), "--period", "30m", "--unit", "1m",
               "--static", str(COUPONS / "static.ttl")]
ALL_WINDOW = """PREFIX : <http://ex.org/>
SELECT ?x ?y WHERE { STREAM <http://ex.org/s> [ALL] { ?x :p ?y . ?y :q ?x } }
"""


def run(capsys, *argv):
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exit_:  # a bad option value, refused by the option reader
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def witness_json(capsys, tmp_path, *argv) -> tuple[dict, Path]:
    stream = tmp_path / "witness.nt"
    status, out, _ = run(capsys, "witness", *argv, "--output", stream, "--format", "json")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert status == 1 and document["witness"], document
    return document, stream


def agree_json(capsys, document: dict) -> tuple[int, dict]:
    """Run the ``lars agree`` command the witness report gives, in JSON."""
    argv = document["check"].split()[1:]
    status, out, _ = run(capsys, *argv, "--format", "json")
    report = json.loads(out)
    jsonschema.validate(report, AGREEMENT_SCHEMA)
    return status, report


def assert_agree_confirms(capsys, document: dict) -> None:
    status, report = agree_json(capsys, document)
    interval = document["interval"]
    [verdict] = [i for i in report["intervals"] if (i["start"], i["end"]) == (interval["start"], interval["end"])]
    assert status == 1 and not verdict["agree"]
    assert ([{k: a[k] for k in ("binding", "times")} for a in verdict["only_cqels"]]
            == document["only_cqels"])
    assert ([{k: a[k] for k in ("binding", "times")} for a in verdict["only_csparql"]]
            == document["only_csparql"])


def test_running_example_finds_a_witness_no_larger_than_the_bundled_stream(capsys, tmp_path):
    document, stream = witness_json(capsys, tmp_path, *COUPON_ARGS)
    assert document["minimal"] and len(document["triples"]) <= 8
    assert stream.read_text().startswith("# a witness of disagreement")
    assert document["failing"], "the report names the paper condition that fails"
    assert_agree_confirms(capsys, document)


def test_running_example_with_own_streams_is_the_expired_isnear(capsys, tmp_path):
    document, _ = witness_json(capsys, tmp_path, *COUPON_ARGS, "--own-streams", "--earliest", "1")
    assert document["minimal"] and len(document["triples"]) == 4
    assert document["only_cqels"] and not document["only_csparql"]
    assert "(iii)" in document["failing"]
    near = [t for t in document["triples"] if t["predicate"] == "<http://ex.org/isNear>"]
    assert near and all(t["time"] < 25 for t in near), "isNear left the 5-minute window before the pull"
    assert_agree_confirms(capsys, document)


def test_csrbench_q1_hopping_window_needs_one_observation_in_seconds(capsys, tmp_path):
    began = time.monotonic()
    document, _ = witness_json(capsys, tmp_path, Q1, "--period", "10s", "--earliest", "1")
    assert time.monotonic() - began < 30
    assert document["minimal"] and len(document["triples"]) == 4  # one observation: 4 triples
    assert document["interval"] == {"start": 0, "end": 10}
    assert document["only_csparql"] and not document["only_cqels"]
    assert_agree_confirms(capsys, document)


def test_text_report_prints_the_stream_and_the_check(capsys):
    status, out, _ = run(capsys, "witness", Q1, "--period", "10s", "--earliest", "1")
    assert status == 1
    assert out.startswith("WITNESS: 4 triple(s), last at 1 (minimal within the bounds)")
    assert "<http://ex.org/streams/test> 1" in out and "check: lars agree" in out


def test_no_witness_within_the_bounds(capsys, tmp_path):
    query = tmp_path / "all.rq"
    query.write_text(ALL_WINDOW)
    status, out, _ = run(capsys, "witness", query, "--period", "3s", "--earliest", "1",
                         "--max-triples", "3")
    assert status == 0
    assert out.splitlines()[0].startswith("no disagreement with ≤ 3 triples within [1, 3] over 2 fresh constants;")


def test_no_witness_message_with_the_default_start(capsys, tmp_path):
    query = tmp_path / "all.rq"
    query.write_text(ALL_WINDOW)
    status, out, _ = run(capsys, "witness", query, "--period", "3s", "--max-triples", "1",
                         "--format", "json")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert status == 0 and not document["witness"]
    assert document["summary"].startswith("no disagreement with ≤ 1 triples within [0, 3] over 2 fresh constants;")


@pytest.mark.parametrize("argv, message", [
    pytest.param(["--period", "10s", "--horizon", "5"], "holds no pulling instant", id="horizon-short"),
    pytest.param(["--period", "10s", "--max-ground", "100"], "lower --constants (now 2), give --own-streams, "
                 "or raise --max-ground", id="too-large"),
    pytest.param(["--period", "10s", "--profiles", "rsp4j,cqels"], "unknown profile 'rsp4j'",
                 id="profile"),
    pytest.param(["--period", "10s", "--max-triples", "0"], "--max-triples must be 1 or more",
                 id="triples"),
    pytest.param(["--period", "10s", "--earliest", "11"], "--earliest must lie within", id="earliest"),
    pytest.param(["--period", "10x"], "error: argument --period:", id="period"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "witness", Q1, *argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_static_data_sharing_a_stream_pattern_makes_the_empty_stream_a_witness(capsys, tmp_path):
    query, static = tmp_path / "q.rq", tmp_path / "static.nt"
    query.write_text("PREFIX : <http://ex.org/>\n"
                     "SELECT ?x WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?x :p ?y } }\n")
    static.write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n")
    document, _ = witness_json(capsys, tmp_path, query, "--period", "3s", "--static", static)
    assert document["triples"] == []
    assert document["only_csparql"] == [{"binding": {"x": "<http://ex.org/a>"}, "times": [3]}]
    assert document["failing"] == ["(ii)"]
    assert_agree_confirms(capsys, document)


def test_a_query_without_streams_disagrees_on_the_empty_stream_when_static_data_answers(capsys, tmp_path):
    query, static = tmp_path / "q.rq", tmp_path / "static.nt"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?x WHERE { ?x :p ?y }\n")
    static.write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n")
    status, out, _ = run(capsys, "agree", "--analyze", query, "--period", "3s", "--static", static)
    # --analyze once said GUARANTEED here, and this witness refuted it: CQELS never evaluates
    assert status == 0 and out.startswith("agreement DEPENDS ON THE DATA")
    document, _ = witness_json(capsys, tmp_path, query, "--period", "3s", "--static", static)
    assert document["triples"] == [] and document["failing"] == ["(ii)"]
    assert [c["condition"] for c in document["conditions"]] == ["static-only"]
    assert_agree_confirms(capsys, document)


def test_a_query_without_streams_or_static_data_has_no_witness(capsys, tmp_path):
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?x WHERE { ?x :p ?y }\n")
    status, out, _ = run(capsys, "agree", "--analyze", query, "--period", "3s")
    assert status == 0 and out.startswith("agreement DEPENDS ON THE DATA")
    status, out, _ = run(capsys, "witness", query, "--period", "3s")
    assert status == 0
    assert out.splitlines()[0].startswith("no disagreement with ≤ 6 triples within [0, 3] over 2 fresh constants;")


def test_tuple_window_needs_three_triples_to_push_one_out(capsys, tmp_path):
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\n"
                     "SELECT ?x WHERE { STREAM <http://ex.org/s> [TRIPLES 2] { ?x :p ?y } }\n")
    document, stream = witness_json(capsys, tmp_path, query, "--period", "3s", "--earliest", "1")
    assert document["minimal"] and len(document["triples"]) == 3 and document["only_cqels"]
    assert_agree_confirms(capsys, document)
