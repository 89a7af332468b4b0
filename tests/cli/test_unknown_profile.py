"""An unknown ``--profile``/``--profiles`` name is the option's error, said the same way by
``run``, ``agree`` and ``check`` (newcomer finding: ``run`` put it on the query file's name)."""

from __future__ import annotations

from pathlib import Path

from tests.badinput.clirun import assert_refused, lars

CSRBENCH = Path(__file__).resolve().parents[2] / "examples" / "csrbench"
QUERY, STREAM = CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "stream"
ANSWERS = CSRBENCH / "engine-answers" / "csparql-answer-1.json"


def test_run_agree_and_check_refuse_an_unknown_profile_alike():
    messages = set()
    for argv in (["run", QUERY, "--stream", STREAM, "--profile", "csparq"],
                 ["agree", QUERY, "--stream", STREAM, "--profiles", "csparq,cqels"],
                 ["check", QUERY, "--stream", STREAM, "--answers", ANSWERS, "--profile", "csparq"]):
        status, _, err = lars(*argv)
        messages.add(assert_refused(status, err))
    assert messages == {"error: unknown profile 'csparq' (did you mean 'csparql'?)"}
