"""A followed file whose last line has no line end (issue 31, a newcomer's report): when
``--idle`` ends the file, that line is read, as ``lars agree`` reads it without --follow, and
the verdicts are the batch ones; while the file may still grow it is held."""

from __future__ import annotations

import json

from agreement.cli.app import main
from ingest.live import live_lines


def relation(ms: int, value: str) -> str:
    return json.dumps({"head": {"vars": ["x"]}, "timestamp": ms, "results": {"bindings": [
        {"binding": {"x": {"type": "uri", "value": f"http://e/{value}"}}}]}})


def test_the_last_line_without_a_line_end_is_read_when_the_file_ends(tmp_path):
    path = tmp_path / "a.nt"
    path.write_text("a 1\nb 2\r\nlast 3", encoding="utf-8")
    assert list(live_lines(str(path), idle=0.1)) == ["a 1", "b 2", "last 3"]


def test_follow_gives_the_batch_verdict_on_a_file_without_a_final_line_end(tmp_path, capsys):
    csparql, cqels = tmp_path / "csparql.jsonl", tmp_path / "cqels.jsonl"
    csparql.write_text(relation(10000, "a") + "\n", encoding="utf-8")
    cqels.write_text(relation(3000, "a") + "\n" + relation(8000, "b"), encoding="utf-8")
    batch = {"csparql": tmp_path / "csparql.json", "cqels": tmp_path / "cqels.json"}
    for side, path in (("csparql", csparql), ("cqels", cqels)):  # the same answers as documents
        batch[side].write_text(json.dumps({"relations": [json.loads(line) for line in
                                                         path.read_text().splitlines()]}))
    argv = ["agree", "--period", "10s", "--format", "jsonl"]
    assert main([*argv, "--recorded-csparql", str(batch["csparql"]),
                 "--recorded-cqels", str(batch["cqels"])]) == 1
    files = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main([*argv, "--recorded-csparql", str(csparql), "--recorded-cqels", str(cqels),
                 "--follow", "--idle", "0.2"]) == 1
    live = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    [judged] = [item for item in live if item["kind"] == "interval"]
    assert "http://e/b" in json.dumps(judged["only_cqels"])
    assert judged["only_cqels"] == [item for item in files if item.get("end") == 10][0]["only_cqels"]
