"""``lars translate``, ``run`` and ``agree`` on event queries: output, exit status, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agreement.cli import main
from lars.parser import parse_program

EVENTS = Path(__file__).resolve().parents[2] / "examples" / "events"
QUERY, STREAM = str(EVENTS / "figure1.rq"), str(EVENTS / "figure1.nt")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("profile", ["epsparql-unrestricted", "epsparql-chronological",
                                     "epsparql-recent", "csparql-seq"])
def test_translate_prints_a_program_that_parses_back(capsys, profile):
    status, out, _ = run(capsys, "translate", QUERY, "--profile", profile, "--syntax", "ascii")
    assert status == 0 and out.startswith("# RSEP-QL MATCH { E1 SEQ")
    assert f"profile {profile}" in out.splitlines()[0]
    assert len(parse_program(out, "out")) > 3


def test_translate_json_lists_rules_with_comments(capsys):
    status, out, _ = run(capsys, "translate", QUERY, "--profile", "epsparql-recent", "--syntax", "json")
    document = json.loads(out)
    assert status == 0 and document["profile"] == "epsparql-recent"
    assert any("equation (11)" in rule["comment"] for rule in document["rules"])


def test_run_prints_events_with_intervals(capsys):
    status, out, _ = run(capsys, "run", QUERY, "--stream", STREAM, "--profile",
                         "epsparql-chronological", "--at", "8,10")
    rows = [line.split() for line in out.splitlines() if not line.startswith("#")][1:]
    assert status == 0
    assert rows == [["8", "[2,6]", "?x=:a1", "?y=:b1", "?z=:c1"],
                    ["8", "[4,6]", "?x=:a2", "?y=:b2", "?z=:c2"]]


def test_run_json(capsys):
    status, out, _ = run(capsys, "run", QUERY, "--stream", STREAM, "--profile",
                         "epsparql-unrestricted", "--at", "8,10", "--format", "json")
    events = json.loads(out)["events"]
    assert status == 0 and [(e["time"], e["start"], e["end"]) for e in events] == [
        (8, 2, 6), (8, 4, 6), (8, 4, 8), (10, 2, 10)]


def test_agree_exits_1_and_explains(capsys):
    status, out, _ = run(capsys, "agree", QUERY, "--stream", STREAM, "--profiles",
                         "epsparql-unrestricted,epsparql-recent", "--at", "8,10")
    assert status == 1 and "DISAGREE" in out.splitlines()[0]
    assert "why: epsparql-recent consumed :a1 :p :b1 (at 2, window :w1) when it evaluated at 8" in out


def test_agree_exits_0_when_profiles_agree(capsys):
    """Evaluated whenever input arrives, both settings find e1 and e2 at 6 and consume all."""
    status, out, _ = run(capsys, "agree", QUERY, "--stream", STREAM, "--profiles",
                         "epsparql-chronological,epsparql-recent", "--at", "2,4,6,8,10")
    assert status == 0 and "AGREE" in out


@pytest.mark.parametrize("argv, message", [
    pytest.param(["run", QUERY, "--stream", STREAM], "the rsep profile needs evaluation times",
                 id="no-evaluation-times"),
    pytest.param(["run", QUERY, "--profile", "epsparql-recnet", "--stream", STREAM],
                 "did you mean 'epsparql-recent'", id="unknown-profile"),
    pytest.param(["run", QUERY, "--profile", "epsparql-recent"], "needs a stream", id="no-stream"),
    pytest.param(["agree", QUERY, "--stream", STREAM], "needs two profiles", id="agree-no-profiles"),
    pytest.param(["translate", QUERY, "--syntax", "asp"], "not available for event queries",
                 id="no-asp"),
    pytest.param(["run", QUERY, "--stream", STREAM, "--at", "8", "--output", "x.jsonl"],
                 "--output does not apply to event queries", id="output-refused"),
    pytest.param(["translate", QUERY, "--window-bounds", "left-open"],
                 "--window-bounds does not apply to event queries", id="window-bounds-refused"),
    pytest.param(["translate", str(EVENTS.parents[0] / "coupons" / "rdf" / "cqels.rq"), "--at", "8"],
                 "--at applies to event queries", id="at-for-cqels"),
    pytest.param(["translate", QUERY, "--t0", "3"], "--t0 does not apply to event queries",
                 id="t0-refused"),
])
def test_errors_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
