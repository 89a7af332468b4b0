"""``lars witness`` names the disagreeing pulling interval as ``lars agree`` does, ``(0,3]``:
CQELS's pushes after 0 up to C-SPARQL's pull at 3 (SPEC section 9); it wrote ``[0,3]``, which
reads as the push at 0 too (newcomer). Its search range, ``within [0, 3]``, is a closed range of
time points and keeps its brackets."""

from __future__ import annotations

from tests.badinput.clirun import lars


def test_the_witness_interval_is_written_as_agree_writes_it(tmp_path):
    query, static, stream = tmp_path / "q.rq", tmp_path / "static.nt", tmp_path / "w.nt"
    query.write_text("PREFIX : <http://ex.org/>\n"
                     "SELECT ?x WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?x :p ?y } }\n")
    static.write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n")
    status, out, err = lars("witness", query, "--period", "3s", "--static", static, "--output", stream)
    assert status == 1, err
    assert "\ndisagreement on (0,3] (1 of 1 intervals within the horizon disagree)\n" in out, out
    status, report, err = lars("agree", query, "--stream", stream, "--period", "3s", "--static",
                               static, "--to", "3")
    assert status == 1 and "\ninterval (0,3]: " in report, report + err
