"""``lars agree --profiles``: the agreement check under engine profiles (SPEC section 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agreement.cli import main
from agreement.compare import AnswerSeries, compare
from agreement.facade import profile_pair
from lars.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "examples" / "csrbench" / "engine-answers"
RECORDED_Q1 = ["agree", "--recorded-csparql", str(ANSWERS / "csparql-answer-1.json"),
               "--recorded-cqels", str(ANSWERS / "cqels-answer-1.json"), "--period", "10s"]


def agree(capsys, *argv):
    status = main(list(argv))
    out, _ = capsys.readouterr()
    return status, out


def test_recorded_q1_agrees_under_the_engines_profiles(capsys):
    status, out = agree(capsys, *RECORDED_Q1, "--profiles", "csparql,cqels")
    assert status == 0 and out.startswith("AGREE")
    assert "[k·U, (k+1)·U)" in out


@pytest.mark.parametrize("profiles", [(), ("--profiles", "paper-pull,paper-push")],
                         ids=["default", "paper-profiles"])
def test_recorded_q1_keeps_its_verdict_under_the_paper_profiles(capsys, profiles):
    status, out = agree(capsys, *RECORDED_Q1, *profiles)
    assert status == 1 and out.startswith("DISAGREE") and "3 of 4" in out


@pytest.mark.slow
def test_computed_q1_agrees_under_the_engines_profiles(capsys):
    status, out = agree(capsys, "agree", str(ROOT / "examples/csrbench/queries/q1-cqels.rq"),
                        "--stream", str(ROOT / "examples/csrbench/stream"), "--period", "10s",
                        "--to", "40", "--profiles", "csparql,cqels")
    assert status == 0 and out.startswith("AGREE")


def test_half_open_intervals_take_the_push_at_the_start_not_at_the_end():
    pulled = AnswerSeries(("x",), {10: frozenset({("a",)}), 20: frozenset({("b",)})})
    pushed = AnswerSeries(("x",), {0: frozenset({("a",)}), 10: frozenset({("b",)})})
    assert [v.agree for v in compare(pulled, pushed, 10, (0, 20), half_open=True)] == [True, True]
    assert [v.agree for v in compare(pulled, pushed, 10, (0, 20))] == [False, False]


def test_profile_pairs():
    assert profile_pair(None) is None and profile_pair("paper-pull,paper-push") is None
    assert [p.name for p in profile_pair("csparql, cqels")] == ["csparql", "cqels"]
    with pytest.raises(InputError, match="pulling side"):
        profile_pair("cqels,csparql")
    with pytest.raises(InputError, match="two profiles"):
        profile_pair("csparql")
