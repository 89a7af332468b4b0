"""The first evaluation of Istream and Dstream over an aggregate without GROUP BY (SPEC section
12: the previous relation of no evaluation is empty).

RSP4J's ``Istream.eval`` returns its first relation whole (yasper, ``querying/operators/Istream.java``:
``if (last_response == null) return new_response``), and ``Dstream`` reports what the previous
relation held and the current one does not. Over a window with no solution, ``COUNT`` without
GROUP BY is one row, 0 (empty group ``row``, the ``rsp4j`` profile). ``lars run`` once held
that row in the previous relation before the first evaluation, so Istream dropped the first
``COUNT`` of 0 and Dstream would report it deleted there (a newcomer's query, issue 29's
q4check notes). Here each report is worked out by hand from the profile's windows
``[o, o+2)``, ``o = 2k``, reported at every close.
"""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

QUERY = """PREFIX : <http://e/>
REGISTER {r2s} <http://e/out> AS
SELECT (COUNT(?s) AS ?n)
FROM NAMED WINDOW <http://e/w> ON <http://e/s> [RANGE PT2S STEP PT2S]
WHERE {{ WINDOW <http://e/w> {{ ?s :p ?o }} }}
"""
LINE = "<http://e/{s}> <http://e/p> <http://e/b> <http://e/s> {t}\n"
LATE = LINE.format(s="a", t=5) + LINE.format(s="c", t=9)  # nothing in the first windows
EARLY = LINE.format(s="d", t=1) + LATE  # one reading in the first window too


@pytest.mark.parametrize("stream, r2s, expected", [
    # LATE: counts at the closes 2, 4, 6, 8: 0, 0, 1 (the reading at 5), 0
    (LATE, "RSTREAM", [(2, "0"), (4, "0"), (6, "1"), (8, "0")]),
    (LATE, "ISTREAM", [(2, "0"), (6, "1"), (8, "0")]),  # the first relation whole, then what is new
    (LATE, "DSTREAM", [(6, "0"), (8, "1")]),
    # EARLY: counts at 2, 4, 6, 8: 1 (the reading at 1), 0, 1, 0
    (EARLY, "RSTREAM", [(2, "1"), (4, "0"), (6, "1"), (8, "0")]),
    (EARLY, "DSTREAM", [(4, "1"), (6, "0"), (8, "1")]),  # at 2 nothing was there to be deleted
])
def test_the_first_evaluation_reads_an_empty_previous_relation(tmp_path, stream, r2s, expected):
    query, path, out = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "out.jsonl"
    query.write_text(QUERY.format(r2s=r2s))
    path.write_text(stream)
    status, _, err = lars("run", query, "--stream", path, "--profile", "rsp4j", "--quiet",
                          "--output", out, "--output-format", "jsonl")
    assert status == 0, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(row["time"], row["binding"]["n"]) for row in rows] == expected
