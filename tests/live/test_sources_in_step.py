"""The watermark of ``lars agree --follow`` over recorded answers is per input (issue 31, a
newcomer's report): the least over the inputs still running of each one's largest time point,
less ``D``. So two finished files followed at once give the batch verdicts whichever is read
first (they used to race, with answers of the slower one reported late), and a bad first line
of one input is refused before any verdict it could change is printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agreement.cli.app import main
from tests.live.conftest import ANSWERS, verdicts


def json_lines(source: Path, target: Path, head: int | None = None) -> str:
    """A CSRBench answer file as JSON lines, one relation a line (the first ``head``)."""
    relations = json.loads(source.read_text(encoding="utf-8"))["relations"][:head]
    target.write_text("".join(json.dumps(r) + "\n" for r in relations), encoding="utf-8")
    return str(target)


def test_two_finished_files_give_the_batch_verdicts_without_late_answers(tmp_path, capsys,
                                                                         file_verdicts):
    csparql = json_lines(ANSWERS["csparql"], tmp_path / "csparql.jsonl")
    cqels = json_lines(ANSWERS["cqels"], tmp_path / "cqels.jsonl")
    assert main(["agree", "--follow", "--period", "10s", "--idle", "0.3", "--format", "jsonl",
                 "--recorded-csparql", csparql, "--recorded-cqels", cqels]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert verdicts(lines) == file_verdicts
    assert json.loads(lines[-1])["late"] == 0 and not any('"late"' in line for line in lines[:-1])


@pytest.mark.parametrize(("bad_line", "column"), [
    ('{"time": "x", "results": {}}', 1),
    ("<http://e/s> <http://e/p> <http://e/o> 3", 1),
])
def test_a_bad_first_line_is_refused_before_any_verdict(tmp_path, capsys, bad_line, column):
    csparql = json_lines(ANSWERS["csparql"], tmp_path / "csparql.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(bad_line + "\n", encoding="utf-8")
    assert main(["agree", "--follow", "--period", "10s", "--idle", "0.3",
                 "--recorded-csparql", csparql, "--recorded-cqels", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{bad}:1:{column}: error: "), err
