"""Boundary tolerance for a query whose answers do not grow with its windows (AVG here).

Under a window-close profile with jitter (``csparql``) an item stamped exactly at a window's
close may fall in that window (C-SPARQL's recorded Q3 shows it). For a monotone query
``lars check`` accepts anything between the relations with the boundary items out and in; for
AVG those relations bound nothing: with 10 at 1 s and 20 at 4 s, the window closing at 4 s
averages 10 (exact, ``[0, 4)``) or 15 (the 4 s item in). The interval reading rejected 15, which
C-SPARQL can report, and so judged a possible recording INCORRECT. A relation passes now when
it is one of those relations, and only then (12.5 is neither); and the item at 4 s falls on
one side of 4 s for both windows (15 at 4 s, then 25 at 8 s, counts it twice).
"""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

QUERY = """PREFIX : <http://ex.org/>
SELECT ?s (AVG(?v) AS ?avg)
FROM STREAM <http://ex.org/s> [RANGE 4s STEP 4s]
WHERE { ?s :v ?v . }
GROUP BY ?s
"""
XSD = "http://www.w3.org/2001/XMLSchema#"
STREAM = "".join(f'<http://ex.org/a> <http://ex.org/v> "{value}"^^<{XSD}integer> <http://ex.org/s> {time}\n'
                 for time, value in ((1, 10), (4, 20), (5, 30)))


def relation(time: int, average: str) -> str:
    binding = {"s": {"type": "uri", "value": "http://ex.org/a"},
               "avg": {"type": "literal", "value": average, "datatype": XSD + "decimal"}}
    return json.dumps({"time": time, "results": {"head": {"vars": ["s", "avg"]},
                                                  "results": {"bindings": [binding]}}}) + "\n"


@pytest.mark.parametrize("at_four, at_eight, verdict", [
    ("10", "25", 0),    # the exact windows [0, 4) and [4, 8)
    ("15", "30", 0),    # the item at 4 s early: in [0, 4], so not in (4, 8)
    ("12.5", "25", 1),  # no window's average
    ("15", "25", 1),    # the item at 4 s in both windows: it falls on one side of 4 s
])
def test_a_relation_passes_only_as_one_of_the_boundary_readings(tmp_path, at_four, at_eight, verdict):
    query, stream, answers = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "r.jsonl"
    query.write_text(QUERY)
    stream.write_text(STREAM)
    answers.write_text(relation(4, at_four) + relation(8, at_eight))
    status, out, err = lars("check", query, "--stream", stream, "--answers", answers,
                            "--profile", "csparql", "--no-suggest")
    assert status == verdict, (out, err)
