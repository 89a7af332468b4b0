"""What a second newcomer tripped on with ``lars check`` and the Spark path (brief mend3):
each test reproduces the newcomer's command on a small file of its own."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("count", ["0", "-1"])
@pytest.mark.parametrize("command", ["run", "check"])
def test_partitions_below_one_are_refused(files: Path, recording: Path, command: str, count: str):
    """``--partitions 0`` was taken silently as "not cut"; leaving the option out says that."""
    extra = ["--answers", recording, "--profile", "csparql"] if command == "check" else []
    status, _, err = lars(command, files / "q.rq", "--stream", files / "s.nt", *extra,
                          "--partitions", count)
    line = assert_refused(status, err, "--partitions")
    assert "1 or more" in line


def test_run_says_a_cluster_master_is_not_used(files: Path):
    """``--master spark://...`` with ``--spark auto`` on a small stream ran here, silently
    (docs/spark.md: auto uses a cluster for streams over 256 MiB only): now a note says so.
    No cluster is reached, so the address needs nothing listening."""
    plain = lars("run", files / "q.rq", "--stream", files / "s.nt")
    status, out, err = lars("run", files / "q.rq", "--stream", files / "s.nt",
                            "--master", "spark://127.0.0.1:9")
    assert status == plain[0] == 0, err
    assert out == plain[1]
    assert "--master spark://127.0.0.1:9 is not used" in err
    assert "not used" not in plain[2]


def test_check_refuses_a_cluster_master_without_partitions(files: Path, recording: Path):
    """lars check used --master only with --partitions; without, it ran here, silently."""
    status, _, err = lars("check", files / "q.rq", "--stream", files / "s.nt", "--answers",
                          recording, "--profile", "csparql", "--master", "spark://127.0.0.1:9")
    line = assert_refused(status, err, "--master")
    assert "--partitions" in line or "--partitions" in err


AGREED = "SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?s ?p ?o } }\n"
LINES = "".join(f"<http://ex.org/a{t}> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> {t}\n"
                for t in range(1, 9))


@pytest.mark.parametrize("form", ["jsonl", "json", "text"])
def test_agree_output_cut_short_by_bad_input_says_so(tmp_path: Path, form: str):
    """``lars agree --format jsonl`` writes lines as intervals close: a bad line later ended it
    with exit 2 and stdout looking whole (no summary line, nothing said). The time named is the
    last one on stdout; text and json write nothing before the end, and say nothing more."""
    (tmp_path / "q.rq").write_text(AGREED, encoding="utf-8")
    (tmp_path / "s.nt").write_text(LINES + "bad line(\n", encoding="utf-8")
    status, out, err = lars("agree", tmp_path / "q.rq", "--stream", tmp_path / "s.nt",
                            "--period", "2s", "--format", form)
    line = assert_refused(status, err, f"{tmp_path / 's.nt'}:9:1: error: ")
    if form != "jsonl":
        assert out == "" and "incomplete" not in line
        return
    last = max(document.get("time", document.get("end", -1))
               for document in map(json.loads, out.splitlines()))
    assert line.endswith(f"; output stopped at time {last}: incomplete"), line
