"""The first mismatch of an INCORRECT verdict is read off the run closest to the recording.

Under a boundary-tolerant profile (``csparql``, ``sparqlstream``: window close with jitter), a
run that does not hold the recording exactly is widened (the items at the window boundaries
taken out and in) and tried again. The explanation then read only the widened run. For a query
that is not monotone in its window (AVG with HAVING) the widened relations are not bounds of
the exact ones, so a recording that differs from ``lars run``'s own output in one binding was
explained at another t0 and an earlier relation that it matches exactly (found by a newcomer:
``t0 = 4 … recorded relation 3`` for a binding removed from relation 5 of a run at t0 = 0).

Here ``lars run --profile P --format sparql-json`` writes the recording, one binding of one
relation is removed, and ``lars check`` must name that relation, at the t0 it was written with.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.badinput.clirun import lars

QUERY = """PREFIX v: <http://ex.org/v#>
SELECT ?room (AVG(?c) AS ?avg) (COUNT(?o) AS ?n)
FROM STREAM <http://ex.org/temp> [RANGE 12s STEP 6s]
WHERE { ?o v:room ?room ; v:temp ?c . }
GROUP BY ?room
HAVING (AVG(?c) > 20)
"""


def stream_lines() -> list[str]:
    """Two rooms read every 3 s, their temperatures rising and falling so that each room's
    average passes the HAVING in some windows and not in others."""
    lines = []
    for time in range(0, 60, 3):
        for room, offset in (("lab", 0), ("office", 7)):
            observation = f"<http://ex.org/o/{room}{time}>"
            celsius = 14 + (time + offset) % 17
            lines.append(f'{observation} <http://ex.org/v#room> "{room}" <http://ex.org/temp> {time}')
            lines.append(f'{observation} <http://ex.org/v#temp> "{celsius}"^^'
                         f'<http://www.w3.org/2001/XMLSchema#integer> <http://ex.org/temp> {time}')
    return lines


@pytest.mark.parametrize("profile", ["csparql", "sparqlstream"])
def test_a_removed_binding_is_named_where_it_was_removed(tmp_path, profile):
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY)
    stream.write_text("\n".join(stream_lines()) + "\n")
    status, out, err = lars("run", query, "--stream", stream, "--profile", profile,
                            "--format", "sparql-json")
    assert status == 0, err
    relations = [json.loads(line) for line in out.splitlines()]
    tampered = [index for index, relation in enumerate(relations)
                if len(relation["results"]["results"]["bindings"]) >= 2]
    assert len(tampered) >= 2, "the stream must give relations with two groups"
    for index in (tampered[0], tampered[-1]):
        changed = json.loads(json.dumps(relations))
        del changed[index]["results"]["results"]["bindings"][-1]
        recording = tmp_path / f"recording-{index}.jsonl"
        recording.write_text("".join(json.dumps(r) + "\n" for r in changed))
        status, out, err = lars("check", query, "--stream", stream, "--answers", recording,
                                "--profile", profile, "--no-suggest")
        assert status == 1, (out, err)
        first = re.search(r"first mismatch \(t0 = (\d+).*\n\s+recorded relation (\d+) at", out)
        assert first, out
        assert (int(first[1]), int(first[2])) == (0, index + 1), out
