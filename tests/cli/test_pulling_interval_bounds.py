"""A pulling interval is printed with the bounds of the pushes it compares (SPEC section 12).

Under ``--profiles csparql,cqels`` the pulling side's windows are right-open, so the pull at
``(k+1)·U`` is compared with the pushes of ``[k·U, (k+1)·U)`` (the report's note says so), but
every interval was printed as ``(k·U,(k+1)·U]``, in the text and in JSON: a push exactly at
``k·U`` sat in an interval printed as excluding it (newcomer finding). The tests read the
printed interval as a set of time points and check that the CQELS answers an interval holds
are exactly those at its time points.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agreement.agree.live import LateAnswers, late_json, late_text
from tests.badinput.clirun import lars

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "examples" / "csrbench" / "engine-answers"
QUERY = ("PREFIX : <http://ex.org/>\n"
         "SELECT ?s ?o FROM STREAM <http://ex.org/s> [RANGE 5s STEP 5s] WHERE { ?s :p ?o }\n")
STREAM = "".join(f"<http://ex.org/a{t}> <http://ex.org/p> <http://ex.org/z> <http://ex.org/s> {t}\n"
                 for t in (2, 5, 7, 10, 13))
"""Pushes at multiples of the period (5, 10): left-open and right-open intervals hold them
in different intervals."""


def points(interval: str) -> range:
    """The time points of a printed interval ``(a,b]`` or ``[a,b)``."""
    match = re.fullmatch(r"([(\[])(-?\d+),(-?\d+)([)\]])", interval)
    assert match, f"not an interval: {interval}"
    left, a, b, right = match.groups()
    return range(int(a) + (left == "("), int(b) + (right == "]"))


def binding_key(binding: dict) -> tuple:
    return tuple(sorted(binding.items()))


def assert_intervals_hold_their_pushes(document: dict) -> None:
    """Each interval's CQELS rows (common and only CQELS) are the CQELS answers at the time
    points of the interval as printed, and each only-CQELS time lies in it."""
    assert document["intervals"]
    for interval in document["intervals"]:
        inside = points(interval["interval"])
        assert (inside.start, inside.stop) in ((interval["start"] + 1, interval["end"] + 1),
                                               (interval["start"], interval["end"]))
        pushed = {binding_key(a["binding"]) for a in document["answers"]["cqels"]
                  if a["time"] in inside}
        held = {binding_key(b) for b in interval["common"]}
        held |= {binding_key(a["binding"]) for a in interval["only_cqels"]}
        assert held == pushed, interval["interval"]
        assert all(t in inside for a in interval["only_cqels"] for t in a["times"])


@pytest.mark.parametrize(("profiles", "shown"), [
    pytest.param((), ["(0,5]", "(5,10]", "(10,15]"], id="paper-left-open"),
    pytest.param(("--profiles", "paper-pull,paper-push"), ["(0,5]", "(5,10]", "(10,15]"],
                 id="paper-profiles-left-open"),
    pytest.param(("--profiles", "csparql,cqels"), ["[0,5)", "[5,10)", "[10,15)"],
                 id="csparql-right-open"),
    pytest.param(("--profiles", "sparqlstream,cqels"), ["[0,5)", "[5,10)", "[10,15)"],
                 id="sparqlstream-right-open"),
])
def test_computed_intervals_print_their_bounds(tmp_path, profiles, shown):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(STREAM)
    status, out, err = lars("agree", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", *profiles,
                            "--format", "json")
    assert status in (0, 1), err
    document = json.loads(out)
    assert [i["interval"] for i in document["intervals"]] == shown
    assert_intervals_hold_their_pushes(document)


def test_recorded_intervals_under_csparql_profile_are_right_open():
    """CSRBench's recordings of Q3 disagree under the engines' profiles; every interval, in the
    text and in JSON, is ``[k·U,(k+1)·U)`` as the note says, and holds the pushes it prints."""
    argv = ("agree", "--recorded-csparql", RECORDED / "csparql-answer-3.json", "--recorded-cqels",
            RECORDED / "cqels-answer-3.json", "--period", "10s", "--profiles", "csparql,cqels")
    status, out, err = lars(*argv)
    assert status == 1, err
    assert "answers in [k·U, (k+1)·U)" in out
    printed = re.findall(r"^interval (\S+):", out, re.MULTILINE)
    assert printed == ["[10,20)", "[20,30)", "[30,40)"]
    status, out, err = lars(*argv, "--format", "json")
    assert status == 1, err
    document = json.loads(out)
    assert [i["interval"] for i in document["intervals"]] == ["[0,10)", "[10,20)", "[20,30)", "[30,40)"]
    assert_intervals_hold_their_pushes(document)


def test_follow_prints_the_intervals_the_batch_check_prints(tmp_path):
    """``lars agree --follow`` on the same recordings, one relation a line: the same intervals."""
    for side in ("csparql", "cqels"):
        relations = json.loads((RECORDED / f"{side}-answer-3.json").read_text())["relations"]
        (tmp_path / f"{side}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in relations))
    status, out, err = lars("agree", "--follow", "--idle", "0.3", "--period", "10s",
                            "--recorded-csparql", tmp_path / "csparql.jsonl", "--recorded-cqels",
                            tmp_path / "cqels.jsonl", "--profiles", "csparql,cqels")
    assert status == 1, err
    assert re.findall(r"^interval (\S+):", out, re.MULTILINE) == [
        "[0,10)", "[10,20)", "[20,30)", "[30,40)"]


@pytest.mark.parametrize(("half_open", "shown"), [
    pytest.param(False, "(10,20]", id="left-open"),
    pytest.param(True, "[10,20)", id="right-open"),
])
def test_late_answers_name_their_interval_with_its_bounds(half_open, shown):
    """``lars agree --follow``'s late answers name the interval they were judged without."""
    late = LateAnswers(10, 20, "cqels", (12,), 1, False, half_open)
    assert late_json(late)["interval"] == shown
    assert late_text(late).startswith(f"interval {shown}: ")
