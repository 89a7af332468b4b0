"""Explanations read the pull's windows from the C-SPARQL query, and a window's edge is a
reason only when it decides the answer (both found by a newcomer on their own sensor stream,
2026-11-27; the stream and queries are theirs, shortened).

* With a C-SPARQL query written apart (``--cqels`` for the other side), C-SPARQL's
  ``[RANGE 20s STEP 10s]`` was explained with CQELS's ``[RANGE 10s]`` window at the pull, so
  "the push at 40 and the pull at 40 read the same window content" was said of windows
  ``[30,40]`` and ``[20,40]``, which differ by a reading at 21.
* ``window-boundary`` was given for CQELS's average (s1, 27.0, 1) at 67 because a triple of its
  witness lies at 40, the lower edge of the pull's ``[40,70]``; but C-SPARQL gives
  (s1, 30.0, 2) with it and (s1, 33.0, 1) without it: the edge decides nothing about 27.0.
"""

from __future__ import annotations

import json

from agreement.cli.app import main

READINGS = [(3, 1, 20), (8, 2, 30), (14, 3, 26), (21, 1, 28), (29, 2, 22), (35, 3, 31), (40, 1, 27),
            (52, 2, 29), (60, 3, 24), (67, 1, 33), (78, 2, 19), (90, 3, 30)]
HOT_CSPARQL = """REGISTER QUERY hot AS
PREFIX : <http://ex.org/>
SELECT ?s ?v
FROM STREAM <http://ex.org/temps> [RANGE 20s STEP 10s]
WHERE { ?o :sensor ?s ; :value ?v . FILTER (?v > 25) }
"""
HOT_CQELS = """PREFIX : <http://ex.org/>
SELECT ?s ?v
WHERE { STREAM <http://ex.org/temps> [RANGE 10s] { ?o :sensor ?s . ?o :value ?v } FILTER (?v > 25) }
"""
AVG_CSPARQL = """REGISTER QUERY avgq AS
PREFIX : <http://ex.org/>
SELECT ?s (AVG(?v) AS ?avg) (COUNT(?o) AS ?n)
FROM STREAM <http://ex.org/temps> [RANGE 30s STEP 10s]
WHERE { ?o :sensor ?s ; :value ?v . }
GROUP BY ?s
"""
EX = "http://ex.org/"
INT = "http://www.w3.org/2001/XMLSchema#integer"


def stream_file(folder):
    path = folder / "stream.nt"
    path.write_text("".join(
        f"<{EX}o{n}> <{EX}sensor> <{EX}s{s}> <{EX}temps> {t}\n"
        f'<{EX}o{n}> <{EX}value> "{v}"^^<{INT}> <{EX}temps> {t}\n'
        for n, (t, s, v) in enumerate(READINGS, 1)))
    return path


def agree(capsys, *argv) -> dict:
    status = main(["agree", *map(str, argv), "--format", "json"])
    out, _ = capsys.readouterr()
    assert status == 1
    return json.loads(out)


def reasons(report: dict, end: int, side: str) -> list[dict]:
    [interval] = [i for i in report["intervals"] if i["end"] == end]
    return [why for answer in interval[side] for why in answer["explanations"]]


def test_the_pull_is_explained_with_the_csparql_querys_own_window(tmp_path, capsys):
    (tmp_path / "hot.rq").write_text(HOT_CSPARQL)
    (tmp_path / "hot-cqels.rq").write_text(HOT_CQELS)
    report = agree(capsys, tmp_path / "hot.rq", "--cqels", tmp_path / "hot-cqels.rq",
                   "--stream", stream_file(tmp_path))
    for interval in report["intervals"]:
        for side in ("only_csparql", "only_cqels"):
            for why in reasons(report, interval["end"], side):
                assert why["condition"] != "evaluation-differs", why
                assert "[RANGE 10s] of <http://ex.org/temps> at [20,40]" not in why["message"]
    whys = reasons(report, 40, "only_csparql")
    assert any("pull at 40 ([RANGE 20s STEP 10s] of <http://ex.org/temps> at [20,40])" in why["message"]
               for why in whys)
    held = [w for why in whys if why["condition"] == "snapshot-differs" for w in why["witnesses"]]
    assert f'<{EX}o4> <{EX}value> "28"^^<{INT}> <{EX}temps> 21' in held


def test_a_window_edge_that_decides_nothing_is_no_reason(tmp_path, capsys):
    (tmp_path / "avg.rq").write_text(AVG_CSPARQL)
    report = agree(capsys, tmp_path / "avg.rq", "--stream", stream_file(tmp_path))
    [interval] = [i for i in report["intervals"] if i["end"] == 70]
    [cqels_only] = [a for a in interval["only_cqels"]
                    if a["binding"]["s"] == f"<{EX}s1>" and a["binding"]["avg"] == "27.0"]
    assert "window-boundary" not in [why["condition"] for why in cqels_only["explanations"]]
    [csparql_only] = [a for a in interval["only_csparql"]
                      if a["binding"]["s"] == f"<{EX}s1>" and a["binding"]["avg"] == "30.0"]
    assert "window-boundary" in [why["condition"] for why in csparql_only["explanations"]]
