"""``lars agree --follow`` over WebSockets (issue 31, "Done when"): a server on loopback
publishes the CSRBench stream and both engines' recorded answers of query 1 at 50× real time
(``lars replay``'s publisher); the live check prints the intervals ``lars agree`` prints on the
files, each within one second of the watermark passing the interval's end."""

from __future__ import annotations

import json
import threading
import time

import pytest

from agreement.cli.app import main
from ingest.replay import paced, publish, timed_lines
from tests.live.conftest import ANSWERS, TimedOut, free_port, verdicts

pytest.importorskip("websockets")

RATE = 50
DELAY = 3
"""--max-delay in seconds of stream time: 60 ms at 50×, for a busy machine's thread switches."""


def test_the_live_check_over_websockets_gives_the_file_verdicts_in_time(
        monkeypatch, stream_file, file_verdicts):
    port = free_port()
    files = {"stream.nt": timed_lines(str(stream_file), 1000),
             **{path.name: timed_lines(str(path), 1000) for path in ANSWERS.values()}}
    published: list[tuple[float, int]] = []

    def noted(lines):
        for name, line in lines:
            published.append((time.monotonic(), int(time_of(line))))
            yield name, line

    server = threading.Thread(target=publish, daemon=True, args=(
        noted(paced(files, RATE)), list(files), f"ws://127.0.0.1:{port}"))
    server.start()
    time.sleep(0.3)  # the server listens
    out = TimedOut()
    monkeypatch.setattr("sys.stdout", out)
    base = f"ws://127.0.0.1:{port}/"
    status = main(["agree", "--follow", "--format", "jsonl", "--period", "10s", "--max-delay", str(DELAY),
                   "--stream", base + "stream.nt",
                   "--recorded-csparql", base + ANSWERS["csparql"].name,
                   "--recorded-cqels", base + ANSWERS["cqels"].name])
    server.join(5)
    assert status == 1, out.text()
    assert verdicts(out.text()) == file_verdicts
    summary = json.loads(out.text()[-1])
    assert summary["kind"] == "summary" and summary["late"] == 0 and not summary["interrupted"]
    last_time = max(t for _, t in published)
    for written, line in out.lines:
        document = json.loads(line)
        if document["kind"] != "interval" or document["end"] + DELAY >= last_time:
            continue  # judged when the inputs end: the watermark never passes its end
        passed = min(at for at, t in published if t - DELAY > document["end"])
        assert written - passed < 1.0, document["interval"]


def time_of(line: str) -> float:
    """A published line's time point in seconds."""
    if line.startswith("{"):
        return json.loads(line)["timestamp"] // 1000
    return int(line.rsplit(" ", 1)[1])
