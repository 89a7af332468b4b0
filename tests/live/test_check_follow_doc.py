"""The example of ``lars check --follow`` in docs/live.md prints what the page shows: YASPER's
answers to the 2023 study's Q3 and the CSRBench stream, published by ``lars replay``'s server on
a loopback WebSocket at 50× real time (issue 31); and Ctrl-C writes the summary, exit 130."""

from __future__ import annotations

import _thread
import io
import re
import threading
import time

import pytest

from agreement.cli.app import main
from ingest.replay import paced, publish, timed_lines
from tests.live.conftest import ROOT, TimedOut, free_port

pytest.importorskip("websockets")

STUDY = ROOT / "examples" / "csrbench-2023"
PAGE = ROOT / "docs" / "live.md"


def documented() -> tuple[list[str], list[str]]:
    """The command's options and the output lines of the page's first ``lars check --follow``
    example."""
    section = PAGE.read_text(encoding="utf-8").split("## `lars check --follow`", 1)[1]
    command = re.findall(r"```sh\n(.*?)```", section, re.S)[1]
    output = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    check = command.replace("\\\n", " ").splitlines()[-1].split()
    return check, output.splitlines()


def test_the_documented_example_prints_what_the_page_shows(monkeypatch, stream_file):
    command, expected = documented()
    port = free_port()
    answers = STUDY / "answers" / "yasper-answer-3.json"
    files = {"stream.nt": timed_lines(str(stream_file), 1000),
             answers.name: timed_lines(str(answers), 1000)}
    server = threading.Thread(target=publish, daemon=True, args=(
        paced(files, 50), list(files), f"ws://127.0.0.1:{port}"))
    server.start()
    time.sleep(0.3)  # the server listens
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.chdir(ROOT)
    argv = [word.replace("8765", str(port)) for word in command[1:]]
    assert main(argv) == 0, out.getvalue()
    server.join(5)
    assert out.getvalue().splitlines() == expected


def test_ctrl_c_writes_the_summary_and_exits_130(monkeypatch, tmp_path, stream_file):
    """Neither source ends (files followed without --idle): the relations whose partners the
    stream reaches are judged, then Ctrl-C writes the summary, CORRECT so far."""
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(line + "\n" for _, line in timed_lines(
        str(STUDY / "answers" / "yasper-answer-3.json"), 1000)), encoding="utf-8")
    out = TimedOut()
    monkeypatch.setattr("sys.stdout", out)

    def interrupt_after_the_second_verdict() -> None:
        deadline = time.monotonic() + 120
        while not any(line.startswith("relation 2 ") for line in out.text()):
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        _thread.interrupt_main()

    threading.Thread(target=interrupt_after_the_second_verdict, daemon=True).start()
    status = main(["check", str(STUDY / "queries" / "q3.rspql"), "--profile", "yasper",
                   "--select", "sensor,obs,value", "--csrbench", "--follow",
                   "--stream", str(stream_file), "--answers", str(answers)])
    lines = out.text()
    assert status == 130, lines
    judged = sum(line.startswith("relation ") for line in lines)  # 2, or more if judged meanwhile
    assert judged >= 2 and lines[-1].startswith(f"CORRECT so far: the {judged} recorded relation(s)"), lines
    assert lines[-1].endswith("; interrupted")
