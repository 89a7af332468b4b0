"""Bad input to ``lars agree --follow`` (issue 31): one line naming what is wrong, exit 2, no
traceback; options of the live check are refused without --follow rather than ignored."""

from __future__ import annotations

import json

import pytest

from agreement.cli.app import main


def relation(ms: int) -> str:
    return json.dumps({"head": {"vars": ["x"]}, "timestamp": ms, "results": {"bindings": []}})


@pytest.fixture
def answers(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(relation(10000) + "\n", encoding="utf-8")
    return str(path)


def refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize(("extra", "message"), [
    (["--max-delay", "2s"], "--max-delay, --idle and --kafka-time apply to --follow only"),
    (["--idle", "1"], "--max-delay, --idle and --kafka-time apply to --follow only"),
    (["--kafka-time", "timestamp"], "--max-delay, --idle and --kafka-time apply to --follow only"),
])
def test_live_options_without_follow_are_refused(capsys, answers, extra, message):
    err = refused(capsys, ["agree", "--recorded-csparql", answers, "--recorded-cqels", answers,
                           "--period", "10s", *extra])
    assert message in err


def test_follow_needs_both_engines_answers(capsys, answers):
    assert "give --recorded-csparql and --recorded-cqels" in refused(
        capsys, ["agree", "--follow", "--recorded-csparql", answers, "--period", "10s"])


def test_follow_writes_text_or_jsonl(capsys, answers):
    assert "--format text or jsonl" in refused(capsys, [
        "agree", "--follow", "--format", "json", "--recorded-csparql", answers,
        "--recorded-cqels", answers, "--period", "10s"])


def test_a_bad_answer_line_is_named_by_source_line_and_column(capsys, tmp_path, answers):
    bad = tmp_path / "b.jsonl"
    bad.write_text(relation(10000) + "\n" + '{"head": oops}\n', encoding="utf-8")
    err = refused(capsys, ["agree", "--follow", "--idle", "0.2", "--recorded-csparql", answers,
                           "--recorded-cqels", str(bad), "--period", "10s"])
    assert err.startswith(f"{bad}:2:10: error: not JSON")


def test_an_unknown_scheme_is_refused(capsys, answers):
    assert "cannot follow a http:// address" in refused(capsys, [
        "agree", "--follow", "--recorded-csparql", answers, "--recorded-cqels", "http://h/x",
        "--period", "10s", "--idle", "0.2"])


@pytest.mark.parametrize("idle", ["-1", "0", "soon"])
def test_idle_must_be_a_positive_number_of_seconds(capsys, answers, idle):
    with pytest.raises(SystemExit) as stopped:
        main(["agree", "--follow", "--idle", idle, "--recorded-csparql", answers,
              "--recorded-cqels", answers, "--period", "10s"])
    assert stopped.value.code == 2
    assert f"expected a number of seconds above 0 but found '{idle}'" in capsys.readouterr().err
