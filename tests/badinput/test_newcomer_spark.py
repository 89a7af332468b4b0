"""What a second newcomer tripped on with ``lars check`` and the Spark path (brief mend3):
each test reproduces the newcomer's command on a small file of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.badinput.clirun import assert_refused, lars

QUERY = """REGISTER QUERY hot AS
PREFIX v: <http://sensors.example/v#>
SELECT ?o ?c
FROM STREAM <http://sensors.example/stream/temp> [RANGE 4s STEP 2s]
WHERE { ?o v:temp ?c }
"""
STREAM = ('<http://sensors.example/obs/a> <http://sensors.example/v#temp> '
          '"18.0"^^<http://www.w3.org/2001/XMLSchema#decimal> <http://sensors.example/stream/temp> 0\n')


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "q.rq").write_text(QUERY, encoding="utf-8")
    (tmp_path / "s.nt").write_text(STREAM, encoding="utf-8")
    return tmp_path


@pytest.fixture
def recording(files: Path) -> Path:
    """``lars run --format sparql-json`` of the query: a recording ``--answers`` reads."""
    status, out, err = lars("run", files / "q.rq", "--stream", files / "s.nt", "--format", "sparql-json")
    assert status == 0, err
    (files / "rec.jsonl").write_text(out, encoding="utf-8")
    return files / "rec.jsonl"


@pytest.mark.parametrize("profile", ["csparql", "paper-pull"])
def test_a_missing_query_file_is_refused_like_elsewhere(files: Path, recording: Path, profile: str):
    """Under csparql this was ``internal error: FileNotFoundError(...)``."""
    missing = files / "nope.rq"
    status, _, err = lars("check", missing, "--stream", files / "s.nt", "--answers", recording,
                          "--profile", profile)
    line = assert_refused(status, err, missing)
    assert "cannot read the file" in line


def test_debug_is_accepted_after_the_command(files: Path):
    """The messages say "run with --debug"; ``lars check ... --debug`` was an unknown option."""
    before = lars("--debug", "translate", files / "q.rq")
    after = lars("translate", files / "q.rq", "--debug")
    assert before[0] == after[0] == 0, after[2]
    assert before[1] == after[1]


def test_debug_after_the_command_shows_the_traceback(files: Path, monkeypatch):
    """Not only accepted: ``--debug`` after the command turns on the traceback of a bug."""
    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr("agreement.cli.app.implementation", lambda _handler: broken)
    plain = lars("translate", files / "q.rq")
    debug = lars("translate", files / "q.rq", "--debug")
    assert plain[0] == debug[0] == 2
    assert "Traceback" not in plain[2] and "Traceback" in debug[2]
