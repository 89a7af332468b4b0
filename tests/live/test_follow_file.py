"""``lars agree --follow`` on a file being appended to, and Ctrl-C (issue 31): lines written
after the check started are judged as they come, one flushed line per interval; an incomplete
last line waits for its line end; Ctrl-C writes the summary and exits 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LARS = [sys.executable, "-c", "import sys; from agreement.cli import main; sys.exit(main(sys.argv[1:]))"]


def relation(ms: int, value: str | None) -> str:
    bindings = [] if value is None else [{"binding": {"x": {"type": "uri", "value": f"http://e/{value}"}}}]
    return json.dumps({"head": {"vars": ["x"]}, "timestamp": ms, "results": {"bindings": bindings}}) + "\n"


def read_line(process: subprocess.Popen, timeout: float = 10) -> str:
    """The next line of the check's output (it is flushed per line)."""
    start = time.monotonic()
    line = process.stdout.readline()
    assert time.monotonic() - start < timeout
    return line


def test_a_growing_file_is_judged_as_it_grows_and_ctrl_c_gives_the_summary(tmp_path):
    csparql, cqels = tmp_path / "csparql.jsonl", tmp_path / "cqels.jsonl"
    csparql.write_text(relation(5000, "a") + relation(10000, None), encoding="utf-8")
    cqels.write_text(relation(3000, "a"), encoding="utf-8")
    process = subprocess.Popen(
        [*LARS, "agree", "--follow", "--period", "5s", "--format", "jsonl",
         "--recorded-csparql", str(csparql), "--recorded-cqels", str(cqels)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        with cqels.open("a", encoding="utf-8") as file:
            file.write(relation(7000, "b")[:20])  # half a line: not read yet
            file.flush()
            time.sleep(0.3)
            file.write(relation(7000, "b")[20:])
        first = json.loads(read_line(process))
        assert (first["interval"], first["agree"]) == ("(0,5]", True)
        with csparql.open("a", encoding="utf-8") as file:
            file.write(relation(15000, None))
        with cqels.open("a", encoding="utf-8") as file:  # CQELS too has passed (5,10]
            file.write(relation(11000, None))
        second = json.loads(read_line(process))
        assert (second["interval"], second["agree"]) == ("(5,10]", False)
        assert [item["times"] for item in second["only_cqels"]] == [[7]]
        assert "http://e/b" in json.dumps(second["only_cqels"])
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    summary = json.loads(out.splitlines()[-1])
    assert summary["kind"] == "summary" and summary["interrupted"] and not summary["agree"]
    assert summary["intervals"] == 2
    assert process.returncode == 130 and "interrupted" in err
