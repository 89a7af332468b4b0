"""A partitioned run of a file whose streams interleave (each in its own time order) is refused
with a reason and a way out, not as if a stream went back in time (found by a newcomer)."""

from __future__ import annotations

from tests.badinput.clirun import assert_refused, lars

LINES = [("a1", "sa", 3), ("b1", "sb", 1), ("a2", "sa", 4), ("b2", "sb", 2), ("a3", "sa", 6),
         ("b3", "sb", 5), ("a4", "sa", 8)]
QUERY = "PREFIX e: <http://e/>\nSELECT ?s WHERE { STREAM e:sa [RANGE 3s] { ?s e:p ?o } }\n"


def test_partitions_refuse_interleaved_streams_with_the_reason(tmp_path):
    stream, query = tmp_path / "two.nt", tmp_path / "q.rq"
    stream.write_text("".join(f'<http://e/{s}> <http://e/p> "x" <http://e/{on}> {t}\n'
                              for s, on, t in LINES))
    query.write_text(QUERY)
    status, out, err = lars("run", query, "--stream", stream)
    assert status == 0 and "<http://e/a4>" in out, err
    status, _, err = lars("run", query, "--stream", stream, "--partitions", "2")
    message = assert_refused(status, err, stream)
    assert "goes back in time" in message and "without --partitions" in message
