"""``lars agree QUERY --stream SOURCE --follow`` (issue 31): both sides computed by our
translations over a stream read as it arrives. CSRBench query 1 over the CSRBench stream:
the stream shuffled within ``D`` gives, with ``--max-delay D``, the intervals ``lars agree``
gives on the file in order; a line held back past the watermark is reported as late in the
pulling interval it belongs to and counted, never dropped silently."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from agreement.cli.app import main
from tests.live.conftest import CSRBENCH, verdicts

QUERY = str(CSRBENCH / "queries" / "q1-cqels.rq")


def agree(argv: list[str]) -> tuple[int, list[str]]:
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        status = main(["agree", QUERY, "--period", "10s", "--format", "jsonl", *argv])
        return status, sys.stdout.getvalue().splitlines()
    finally:
        sys.stdout = saved


@pytest.fixture(scope="module")
def batch(stream_file) -> list[dict]:
    status, lines = agree(["--stream", str(stream_file)])
    assert status == 1
    return verdicts(lines)


def test_the_stream_shuffled_within_d_gives_the_file_verdicts(tmp_path, stream_file, batch):
    delay = 3
    lines = stream_file.read_text(encoding="utf-8").splitlines()
    draw = random.Random(31)
    jitter = [draw.randint(0, delay) for _ in lines]
    shuffled = [line for _, line in sorted(
        enumerate(lines), key=lambda item: (int(item[1].rsplit(" ", 1)[1]) + jitter[item[0]], item[0]))]
    assert shuffled != lines
    path = tmp_path / "shuffled.nt"
    path.write_text("\n".join(shuffled) + "\n", encoding="utf-8")
    status, out = agree(["--follow", "--idle", "0.3", "--max-delay", str(delay), "--stream", str(path)])
    assert status == 1
    assert verdicts(out) == batch
    assert json.loads(out[-1])["late"] == 0


def test_a_line_later_than_d_is_reported_late_in_its_interval(tmp_path, stream_file):
    lines = stream_file.read_text(encoding="utf-8").splitlines()
    held = next(i for i, line in enumerate(lines) if line.endswith(" 12"))
    moved = lines[:held] + lines[held + 1:] + [lines[held]]  # after time 33: 21 past its time
    path = tmp_path / "late.nt"
    path.write_text("\n".join(moved) + "\n", encoding="utf-8")
    status, out = agree(["--follow", "--idle", "0.3", "--max-delay", "2", "--stream", str(path)])
    events = [json.loads(line) for line in out]
    late = [item for item in events if item["kind"] == "late"]
    # q1's [RANGE 10s] carries the triple at 12 into the windows up to 22: (20,30] leaves it out too
    assert [(item["interval"], item["side"], item["times"]) for item in late] == [
        ("(10,20]", "stream", [12]), ("(20,30]", "stream", [12])]
    for item in late:  # each note comes after the verdict line it qualifies
        [verdict] = [i for i, e in enumerate(events)
                     if e["kind"] == "interval" and e["end"] == item["end"]]
        assert verdict < events.index(item)
    summary = json.loads(out[-1])
    assert summary["late"] == 1 and summary["late_changing"] == 1
