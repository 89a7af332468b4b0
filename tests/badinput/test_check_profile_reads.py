"""``lars check`` refuses a C-SPARQL query under a profile of CQELS's translation τ2, as
``lars run`` does: τ2 reads STREAM patterns, which a C-SPARQL query has none of, so the
expected run is empty and a correct recording was judged INCORRECT, blaming the recording
(newcomer finding, 2026-11-27: AVG per room, ``--profile cqels``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.badinput.clirun import lars

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"


@pytest.mark.parametrize("profile", ["cqels", "rsp4j"])
def test_check_refuses_a_csparql_query_under_a_tau2_profile(tmp_path, profile):
    recording = tmp_path / "rec.jsonl"
    query = CSRBENCH / "queries" / "q1-csparql.rq"
    run_status, _, run_err = lars("run", query, "--stream", CSRBENCH / "stream", "--profile", profile)
    recording.write_text("")
    status, out, err = lars("check", query, "--stream", CSRBENCH / "stream", "--answers", recording,
                            "--profile", profile)
    assert run_status == status == 2 and out == ""
    assert err.splitlines()[0].startswith(f"{query}: error: profile {profile} reads")
    assert "reads the query's STREAM patterns" in err and "reads the query's STREAM patterns" in run_err


def test_check_of_the_cqels_form_is_not_refused(tmp_path):
    recording = tmp_path / "rec.jsonl"
    status, out, _ = lars("run", CSRBENCH / "queries" / "q1-cqels.rq", "--stream", CSRBENCH / "stream",
                          "--profile", "cqels", "--format", "sparql-json")
    recording.write_text(out)
    status, out, err = lars("check", CSRBENCH / "queries" / "q1-cqels.rq", "--stream",
                            CSRBENCH / "stream", "--answers", recording, "--profile", "cqels")
    assert status == 0 and out.startswith("CORRECT"), err
