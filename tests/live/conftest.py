"""Shared pieces of the live tests (issue 31): the CSRBench stream as timestamped N-Triples,
the engines' recorded answers of query 1, the verdicts ``lars agree`` gives on the files, and a
standard output that notes when each line was written."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from agreement.cli.app import main
from ingest.policy import ReadPolicy, ReadReport
from ingest.rdffiles import read_turtle_folder

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
ANSWERS = {"csparql": CSRBENCH / "engine-answers" / "csparql-answer-1.json",
           "cqels": CSRBENCH / "engine-answers" / "cqels-answer-1.json"}
COMPARED = ("start", "end", "agree", "common", "only_csparql")


@pytest.fixture(scope="session")
def stream_file(tmp_path_factory) -> Path:
    """The CSRBench stream (a folder of Turtle files, one per second) as timestamped N-Triples."""
    path = tmp_path_factory.mktemp("csrbench") / "stream.nt"
    elements = read_turtle_folder(str(CSRBENCH / "stream"), policy=ReadPolicy(), report=ReadReport())
    path.write_text("".join(" ".join(term.n3() for term in e.triple) + f" {e.time}\n"
                            for e in elements), encoding="utf-8")
    return path


def verdicts(lines: list[str]) -> list[dict]:
    """What two runs must agree on: each interval's bounds, verdict and answers (the
    explanations are the batch check's alone)."""
    found = []
    for line in lines:
        document = json.loads(line)
        if document["kind"] == "interval":
            found.append({key: document[key] for key in COMPARED}
                         | {"only_cqels": [(item["binding"], item["times"])
                                           for item in document["only_cqels"]],
                            "only_csparql": [item["binding"] for item in document["only_csparql"]]})
    return found


@pytest.fixture(scope="session")
def file_verdicts() -> list[dict]:
    """The intervals of ``lars agree`` on the recorded files of CSRBench query 1."""
    import io
    import sys
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        status = main(["agree", "--recorded-csparql", str(ANSWERS["csparql"]), "--recorded-cqels",
                       str(ANSWERS["cqels"]), "--period", "10s", "--format", "jsonl"])
        text = sys.stdout.getvalue()
    finally:
        sys.stdout = saved
    assert status == 1
    return verdicts(text.splitlines())


class TimedOut:
    """A standard output that keeps each line with the time it was written at."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []
        self.partial = ""

    def write(self, text: str) -> int:
        self.partial += text
        *complete, self.partial = self.partial.split("\n")
        self.lines += [(time.monotonic(), line) for line in complete]
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> list[str]:
        return [line for _, line in self.lines]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
