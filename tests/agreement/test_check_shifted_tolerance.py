"""A recording with a relation missing is not CORRECT by reading it one slide off.

Under a boundary-tolerant profile (``csparql``, ``sparqlstream``) a relation may take the items
stamped at its window's boundaries in or leave them out. Each relation did so on its own, and
time labels were not compared, so on a stream whose items all lie on multiples of the slide
the relations after a removed one passed against the windows one slide earlier: the window
[25, 35) read as [20, 30) with the item at 20 out and the one at 30 in (found by a newcomer,
with a bike-dock stream). No single stamping of the items gives that recording. A relation that
passes only by the tolerance must now be at its own time, within the profile's jitter.
"""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

QUERY = """PREFIX : <http://ex.org/>
SELECT ?s
FROM STREAM <http://ex.org/s> [RANGE 10s STEP 5s]
WHERE { ?s :p ?o }
"""
STREAM = "".join(f"<http://ex.org/e{time}> <http://ex.org/p> <http://ex.org/o> <http://ex.org/s> {time}\n"
                 for time in range(0, 60, 5))


@pytest.mark.parametrize("profile", ["csparql", "sparqlstream"])
def test_a_middle_relation_removed_is_incorrect(tmp_path, profile):
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY)
    stream.write_text(STREAM)
    status, out, err = lars("run", query, "--stream", stream, "--profile", profile,
                            "--format", "sparql-json")
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) >= 6
    whole = tmp_path / "whole.jsonl"
    whole.write_text(out)
    assert lars("check", query, "--stream", stream, "--answers", whole, "--profile", profile,
                "--no-suggest")[0] == 0
    for removed in (2, len(lines) // 2):
        assert json.loads(lines[removed])["results"]["results"]["bindings"]
        recording = tmp_path / f"without-{removed}.jsonl"
        recording.write_text("".join(line + "\n" for index, line in enumerate(lines)
                                     if index != removed))
        status, out, err = lars("check", query, "--stream", stream, "--answers", recording,
                                "--profile", profile, "--no-suggest")
        assert status == 1, (removed, out, err)
