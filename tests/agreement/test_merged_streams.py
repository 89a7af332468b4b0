"""Condition (ii) on the stream names only the streams C-SPARQL reads (newcomer7, session 13).

C-SPARQL merges the windows of the streams its query registers (``FROM STREAM``) into its
default graph; a triple on a stream it registers no window on never gets there. A newcomer's
CQELS and C-SPARQL queries both read ``s1``; the file also held ``s2`` triples matching their
pattern, and ``lars agree`` said "C-SPARQL merges all streams into the default graph and sees
them there" — false, and it cited a triple far outside the pull's window.
"""

from __future__ import annotations

from tests.badinput.clirun import lars

CQELS = """PREFIX : <http://ex.org/>
SELECT ?s ?o WHERE { STREAM <http://ex.org/s1> [RANGE 3s] { ?s :p ?o } }
"""
CSPARQL = """REGISTER QUERY qc AS
PREFIX : <http://ex.org/>
SELECT ?s ?o
FROM STREAM <http://ex.org/s1> [RANGE 3s STEP 1s]
{also}WHERE {{ ?s :p ?o }}
"""
STREAM = "".join(f"<http://ex.org/{s}> <http://ex.org/{p}> <http://ex.org/{o}> <http://ex.org/{g}> {t}\n"
                 for s, p, o, g, t in [("a", "p", "b", "s1", 1), ("x", "p", "y", "s2", 1),
                                       ("d", "p", "e", "s1", 6), ("z", "p", "z2", "s2", 7)])


def agree(tmp_path, also: str) -> str:
    (tmp_path / "cq.rq").write_text(CQELS)
    (tmp_path / "cs.rq").write_text(CSPARQL.format(also=also))
    (tmp_path / "s.nt").write_text(STREAM)
    status, out, err = lars("agree", tmp_path / "cq.rq", "--csparql", tmp_path / "cs.rq",
                            "--stream", tmp_path / "s.nt", "--period", "5s")
    assert status == 1, err
    return out


def test_a_stream_csparql_does_not_read_is_not_merged(tmp_path):
    assert "stream-merged" not in agree(tmp_path, "")


def test_a_stream_csparql_reads_is_merged(tmp_path):
    out = agree(tmp_path, "FROM STREAM <http://ex.org/s2> [RANGE 3s STEP 1s]\n")
    assert "stream-merged" in out and "<http://ex.org/z> <http://ex.org/p> <http://ex.org/z2>" in out
