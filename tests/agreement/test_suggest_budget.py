"""An INCORRECT verdict tries profile changes that would accept the recording within a time
budget, and says when it stopped (issue 26: each verdict in under 10 s; the changes are whole
runs, 15 s of CPU on the 2023 study's incorrect recordings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agreement.check.judge import suggestion_seconds
from agreement.cli.app import main
from lars.errors import InputError

RDF = Path(__file__).resolve().parents[2] / "examples" / "coupons" / "rdf"
WRONG = {"relations": [{"head": {"vars": ["shop", "product", "percent"]}, "timestamp": 1800000,
                        "results": {"bindings": [{"binding": {
                            "shop": {"type": "uri", "value": "http://ex.org/a"},
                            "product": {"type": "uri", "value": "http://ex.org/mbt"},
                            "percent": {"type": "literal", "value": "30"}}}]}}]}


def check(tmp_path: Path, capsys) -> tuple[int, dict, str]:
    (tmp_path / "wrong.json").write_text(json.dumps(WRONG), encoding="utf-8")
    status = main(["check", str(RDF / "cqels.rq"), "--stream", str(RDF / "stream.nt"), "--static",
                   str(RDF / "static.ttl"), "--unit", "1m", "--answers", str(tmp_path / "wrong.json"),
                   "--profile", "cqels", "--format", "json"])
    out, err = capsys.readouterr()
    return status, json.loads(out), err


def test_a_spent_budget_is_said(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LARS_SUGGEST_SECONDS", "0")
    status, document, err = check(tmp_path, capsys)
    assert status == 1
    assert not document.get("accepted_with")
    assert "were tried for 0 s only; LARS_SUGGEST_SECONDS=S gives them longer" in err


def test_within_the_budget_nothing_is_said(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LARS_SUGGEST_SECONDS", "600")
    status, _, err = check(tmp_path, capsys)
    assert status == 1
    assert "tried for" not in err


@pytest.mark.parametrize("text", ["x", "-1", "nan"])
def test_a_bad_budget_is_refused(text, monkeypatch):
    monkeypatch.setenv("LARS_SUGGEST_SECONDS", text)
    with pytest.raises(InputError, match="LARS_SUGGEST_SECONDS must be a number of seconds"):
        suggestion_seconds()


def test_the_text_verdict_does_not_claim_every_change_was_tried(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LARS_SUGGEST_SECONDS", "0")
    (tmp_path / "wrong.json").write_text(json.dumps(WRONG), encoding="utf-8")
    assert main(["check", str(RDF / "cqels.rq"), "--stream", str(RDF / "stream.nt"), "--static",
                 str(RDF / "static.ttl"), "--unit", "1m", "--answers", str(tmp_path / "wrong.json"),
                 "--profile", "cqels"]) == 1
    out = capsys.readouterr().out
    assert "no single change of the profile tried" not in out
    assert "none of the profile changes tried within the time budget" in out
