"""``lars agree`` on answers recorded from the real engines (CSRBench Q1, ``U = 10s``)."""

import json
from pathlib import Path

import jsonschema
import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "examples" / "csrbench" / "engine-answers"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
Q1 = ["agree", "--recorded-csparql", str(ANSWERS / "csparql-answer-1.json"),
      "--recorded-cqels", str(ANSWERS / "cqels-answer-1.json"), "--period", "10s"]
SSW = "http://knoesis.wright.edu/ssw/"


def agree(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # a bad option value, refused by the option reader
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def test_q1_recorded_engines_disagree_at_window_edges(capsys):
    status, out, _ = agree(capsys, *Q1, "--format", "json")
    assert status == 1
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert [(i["start"], i["end"], i["agree"]) for i in report["intervals"]] == [
        (0, 10, True), (10, 20, False), (20, 30, False), (30, 40, False)]
    second = report["intervals"][1]
    assert second["only_csparql"] == [] and len(second["common"]) == 5
    assert second["interval"] == "(10,20]"
    [only] = second["only_cqels"]
    assert only["binding"] == {"sensor": f"<{SSW}System_C0837>",
                               "obs": f"<{SSW}Observation_AirTemperature_C0837_2004_08_08_07_45_00>"}
    assert only["times"] == [20]
    conditions = {e["condition"] for i in report["intervals"]
                  for a in i["only_cqels"] + i["only_csparql"] for e in a["explanations"]}
    assert conditions == {"window-boundary"}
    assert all(not i["explanations"] for i in report["intervals"])


def test_text_report_starts_with_a_summary_line(capsys):
    status, out, _ = agree(capsys, *Q1)
    assert status == 1
    assert out.splitlines()[0].startswith("DISAGREE: C-SPARQL and CQELS (recorded answers) "
                                          "disagree on 3 of 4 pulling intervals")
    assert "only CQELS" in out and "why (window-boundary)" in out
    # then one line per disagreeing interval, with its cause
    assert out.splitlines()[2:6] == [
        "", "interval (10,20]: 1 only in CQELS, 5 in common; cause: answers depend on a window's edge",
        "interval (20,30]: 1 only in CQELS, 1 only in C-SPARQL, 6 in common; cause: answers "
        "depend on a window's edge",
        "interval (30,40]: 1 only in C-SPARQL, 2 in common; cause: answers depend on a window's edge"]


def test_same_file_on_both_sides_agrees(capsys):
    answers = str(ANSWERS / "csparql-answer-1.json")
    status, out, _ = agree(capsys, "agree", "--recorded-csparql", answers, "--recorded-cqels",
                           answers, "--period", "10s")
    assert status == 0 and out.startswith("AGREE")


@pytest.mark.parametrize("argv, message", [
    pytest.param(["--period", "10x"], "argument --period: expected a time unit", id="bad-period-unit"),
    pytest.param(["--period", "1500ms"], "1500ms is not a whole number of ticks of 1s", id="period-not-whole"),
    pytest.param(["--period", "0s"], "argument --period: a pulling period must be longer than zero",
                 id="period-zero"),
])
def test_bad_period_exits_2(capsys, argv, message):
    status, out, err = agree(capsys, *Q1[:-2], *argv)
    assert status == 2 and out == ""
    assert message in err


def test_malformed_json_names_line_and_column(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text('{"relations": [\n  {"head": }\n]}')
    status, _, err = agree(capsys, "agree", "--recorded-csparql", str(broken), "--recorded-cqels",
                           str(broken), "--period", "10s")
    assert status == 2
    assert err.startswith(f"{broken}:2:12: error: not JSON")


def test_json_of_the_wrong_shape_is_refused(tmp_path, capsys):
    odd = tmp_path / "odd.json"
    odd.write_text('{"relations": [{"timestamp": 1000}]}')
    status, _, err = agree(capsys, "agree", "--recorded-csparql", str(odd), "--recorded-cqels",
                           str(odd), "--period", "10s")
    assert status == 2 and "odd.json: error: relations[0]: 'head' is missing" in err
