"""The witnesses of a ``lars agree`` report are lines of a stream file (brief mend3, item 8: a
newcomer saw ``... 16.2 . at 5 on <s>``, Turtle's bare number and no stream line): fed back
with ``--stream`` they are read as they are, literals with their datatypes."""

from __future__ import annotations

import json
from pathlib import Path

from ingest.rdffiles import read_timestamped_ntriples
from tests.badinput.clirun import lars

ROOT = Path(__file__).resolve().parents[2]
Q1 = ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"
STREAM = ROOT / "examples" / "csrbench" / "stream"


def witnesses(document: dict) -> list[str]:
    """Every witness string of a ``lars agree --format json`` report."""
    found = []
    def walk(node):
        if isinstance(node, dict):
            found.extend(node.get("witnesses", []))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(document)
    return found


def test_the_witnesses_of_q1_read_back_as_a_stream(tmp_path):
    status, out, err = lars("agree", Q1, "--stream", STREAM, "--period", "10s", "--to", "30",
                            "--format", "json")
    assert status == 1, err  # the engines disagree on Q1 (docs/spark.md, the demo)
    lines = sorted({w for w in witnesses(json.loads(out)) if w.startswith("<")})  # stream triples
    assert lines, "the case needs witnesses"
    assert any('"^^<http://www.w3.org/2001/XMLSchema#double>' in line for line in lines), lines
    stream = tmp_path / "w.nt"
    stream.write_text("\n".join(sorted(lines, key=lambda line: int(line.rsplit(" ", 1)[1]))) + "\n")
    read = list(read_timestamped_ntriples(str(stream)))
    assert len(read) == len(lines)
    assert {f"{e.time}" for e in read} == {line.rsplit(" ", 1)[1] for line in lines}
