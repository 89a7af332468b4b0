"""``lars check --follow`` and ``lars agree --follow`` of a regular file without ``--idle`` never
end by themselves (a file may grow): they say so once on stderr as they start reading, where
they waited in silence (newcomer). With ``--idle`` no note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.badinput.clirun import lars

EX = "http://ex.org/"
QUERY = f"PREFIX : <{EX}>\nSELECT ?s WHERE {{ STREAM :s [RANGE 4s SLIDE 2s] {{ ?s :p ?o }} }}\n"
STREAM = f"<{EX}x> <{EX}p> <{EX}o> <{EX}s> 1\n<{EX}y> <{EX}p> <{EX}o> <{EX}s> 5\n"
RELATION = '{"head": {"vars": ["s"]}, "timestamp": %d, "results": {"bindings": []}}\n'


@pytest.fixture
def ending(monkeypatch):
    """Followed files read to their end, then ended, as --idle would (the test cannot wait)."""
    monkeypatch.setattr("agreement.cli.live.live_lines",
                        lambda address, idle, mode: iter(Path(address).read_text().splitlines()))


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    paths = {"query": tmp_path / "q.rq", "stream": tmp_path / "s.nt", "answers": tmp_path / "a.jsonl"}
    for name, text in (("query", QUERY), ("stream", STREAM), ("answers", RELATION % 2000 + RELATION % 4000)):
        paths[name].write_text(text)
    return paths


def command(name: str, files: dict[str, Path]) -> list:
    query, stream, answers = files["query"], files["stream"], files["answers"]
    return {"check": ["check", query, "--stream", stream, "--answers", answers, "--profile", "cqels"],
            "agree-query": ["agree", query, "--stream", stream, "--period", "2s"],
            "agree-recorded": ["agree", "--recorded-csparql", answers, "--recorded-cqels", answers,
                               "--period", "2s"]}[name]


@pytest.mark.parametrize(("name", "followed"), [
    pytest.param("check", lambda f: f"{f['stream']} and {f['answers']} as they grow", id="check"),
    pytest.param("agree-query", lambda f: f"{f['stream']} as it grows", id="agree-query"),
    pytest.param("agree-recorded", lambda f: f"{f['answers']} as it grows", id="agree-recorded"),
])
def test_a_followed_file_without_idle_is_announced_once(ending, files, name, followed):
    status, out, err = lars(*command(name, files), "--follow")
    assert status in (0, 1), err
    expected = (f"note: following {followed(files)}; Ctrl-C ends the check with its summary, or "
                "give --idle SECONDS to end it after SECONDS without a new line")
    assert err.splitlines() == [expected], err


@pytest.mark.parametrize("name", ["check", "agree-query", "agree-recorded"])
def test_no_note_with_idle(files, name):
    status, _, err = lars(*command(name, files), "--follow", "--idle", "0.2")
    assert status in (0, 1) and "note: following" not in err, err
