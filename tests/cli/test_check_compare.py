"""``lars check --compare`` (issue 27, item 4): whole bindings by default, CSRBench's reading on
request, the comparison named on every verdict; and ``--answers`` reading the SPARQL-results
JSON lines ``lars run --format sparql-json`` writes.

The example is issue 27's: a C-SPARQL query averaging and counting warm readings per zone
(GROUP BY, FILTER, a static join), tests/agreement/data/zones.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from agreement.cli import main

ROOT = Path(__file__).resolve().parents[2]
ZONES = ROOT / "tests" / "agreement" / "data" / "zones"
EX = "http://example.org/"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "check.schema.json").read_text())
DATA = ["--stream", str(ZONES / "readings.nt"), "--stream-iri", EX + "readings",
        "--static", str(ZONES / "zones.ttl")]


def run_sparql_json(capsys, path: Path) -> Path:
    status = main(["run", str(ZONES / "warm.rq"), *DATA, "--profile", "csparql",
                   "--format", "sparql-json"])
    out, _ = capsys.readouterr()
    assert status == 0
    path.write_text(out, encoding="utf-8")
    return path


def check(capsys, answers: Path, *options: str) -> tuple[int, str]:
    status = main(["check", str(ZONES / "warm.rq"), *DATA, "--answers", str(answers),
                   "--profile", "csparql", "--no-suggest", *options])
    out, _ = capsys.readouterr()
    return status, out


def swapped(path: Path, target: Path) -> Path:
    """The recording with the two zones' averages swapped in every relation."""
    lines = []
    for text in path.read_text().splitlines():
        line = json.loads(text)
        bindings = line["results"]["results"]["bindings"]
        if len(bindings) == 2:
            bindings[0]["avg"], bindings[1]["avg"] = bindings[1]["avg"], bindings[0]["avg"]
        lines.append(json.dumps(line))
    target.write_text("\n".join(lines) + "\n")
    return target


def test_lars_run_sparql_json_is_read_back_as_correct(capsys, tmp_path):
    answers = run_sparql_json(capsys, tmp_path / "run.jsonl")
    assert sum('"bindings": [{' in line for line in answers.read_text().splitlines()) >= 1
    status, out = check(capsys, answers)
    assert status == 0 and out.startswith("CORRECT")
    assert "comparison: whole bindings" in out.splitlines()[0]


def test_swapped_group_averages_are_rejected_by_default_and_pass_csrbench(capsys, tmp_path):
    """Issue 27: with the averages of the two zones swapped, CSRBench's reading (numeric
    values alone) says CORRECT; the default compares the zone too."""
    wrong = swapped(run_sparql_json(capsys, tmp_path / "run.jsonl"), tmp_path / "swapped.jsonl")
    status, out = check(capsys, wrong)
    assert status == 1 and out.startswith("INCORRECT") and "comparison: whole bindings" in out
    assert f"let through by CSRBench's comparison: recorded (<{EX}north>, 23.625, 2)" in out
    status, out = check(capsys, wrong, "--compare", "csrbench")
    assert status == 0 and "comparison: csrbench" in out.splitlines()[0]
    status, out = check(capsys, wrong, "--compare", "csrbench", "--format", "json")
    jsonschema.validate(json.loads(out), SCHEMA)
    assert json.loads(out)["comparison"] == "csrbench"
    status, out = check(capsys, wrong, "--format", "json")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert document["comparison"] == "bindings" and document["verdict"] == "incorrect"
    through = {(t["recorded"][0], t["expected"][0]) for t in document["mismatch"]["let_through"]}
    assert through == {(f"<{EX}north>", f"<{EX}south>"), (f"<{EX}south>", f"<{EX}north>")}


@pytest.mark.parametrize("options, name", [
    pytest.param((), "whole bindings", id="default"),
    pytest.param(("--compare", "csrbench"), "csrbench", id="csrbench"),
    pytest.param(("--csrbench",), "csrbench", id="csrbench-flag"),
    pytest.param(("--strict",), "strict", id="strict"),
    pytest.param(("--compare", "strict"), "strict", id="compare-strict"),
])
def test_every_verdict_line_names_its_comparison(capsys, tmp_path, options, name):
    answers = run_sparql_json(capsys, tmp_path / "run.jsonl")
    _, out = check(capsys, answers, *options)
    assert f"comparison: {name}" in out.splitlines()[0]


def test_strict_and_compare_cannot_be_combined(capsys, tmp_path):
    answers = run_sparql_json(capsys, tmp_path / "run.jsonl")
    with pytest.raises(SystemExit) as exit_:
        main(["check", str(ZONES / "warm.rq"), *DATA, "--answers", str(answers), "--profile",
              "csparql", "--strict", "--compare", "csrbench"])
    assert exit_.value.code == 2


def test_a_bad_json_line_is_refused_with_its_position(capsys, tmp_path):
    answers = tmp_path / "bad.jsonl"
    answers.write_text('{"time": 0, "results": {"head": {"vars": []}, "results": {"bindings": []}}}\n'
                       '{"time": 1, "results": {}}\n')
    status = main(["check", str(ZONES / "warm.rq"), *DATA, "--answers", str(answers),
                   "--profile", "csparql"])
    _, err = capsys.readouterr()
    assert status == 2 and err.startswith(f"{answers}:2:")


def test_correct_says_what_its_comparison_left_out(capsys, tmp_path):
    """A CORRECT verdict is no more than its comparison checked (newcomer finding): the default
    and csrbench lines say that time labels and duplicates were not compared; strict's says it
    compared them."""
    answers = run_sparql_json(capsys, tmp_path / "run.jsonl")
    for options, said in [((), "time labels and duplicates not compared"),
                          (("--compare", "csrbench"), "time labels and duplicates not compared"),
                          (("--strict",), "whole bindings, time labels and duplicates")]:
        status, out = check(capsys, answers, *options)
        assert status == 0 and said in out.splitlines()[0], out


def repeated(path: Path, target: Path) -> Path:
    """The recording with the first binding of its first non-empty relation written twice."""
    lines, done = [], False
    for text in path.read_text().splitlines():
        line = json.loads(text)
        bindings = line["results"]["results"]["bindings"]
        if bindings and not done:
            bindings.append(bindings[0])
            done = True
        lines.append(json.dumps(line))
    target.write_text("\n".join(lines) + "\n")
    return target


def test_strict_names_the_repeated_binding_and_both_counts(capsys, tmp_path):
    """``--strict`` on a relation repeating a binding names it, with how often it was recorded
    and expected (newcomer finding: the verdict said only that some binding repeats)."""
    twice = repeated(run_sparql_json(capsys, tmp_path / "run.jsonl"), tmp_path / "twice.jsonl")
    status, out = check(capsys, twice)
    assert status == 0, out
    status, out = check(capsys, twice, "--strict")
    assert status == 1, out
    named = [line for line in out.splitlines() if line.startswith("  repeated  (")]
    assert len(named) == 1 and "recorded 2 time(s), expected 1" in named[0], out
    assert f"<{EX}" in named[0]
