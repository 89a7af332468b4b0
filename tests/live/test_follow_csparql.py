"""``lars agree QUERY --follow`` with a C-SPARQL query (newcomer finding D8: it was refused, "a
C-SPARQL query's CQELS side is derived from the whole stream"). The CQELS side is derived from
the stream's triples only where they can change it: which of several streams a triple pattern
reads, or whether a pattern that matches static triples reads the stream too. A query reading
one stream whose patterns match no static triple gets, before any triple arrives, the side
``lars agree`` derives from any stream (agreement/defaults.py ``derive_cqels_live``): the live
verdicts are the file's. The other queries are refused saying why and what to give instead."""

from __future__ import annotations

import io
import sys

import pytest

from agreement.cli.app import main
from tests.badinput.clirun import assert_refused, lars
from tests.live.conftest import CSRBENCH, verdicts

CSPARQL = str(CSRBENCH / "queries" / "q1-csparql.rq")


def agree(argv: list) -> tuple[int, list[str], str]:
    saved, sys.stdout, sys.stderr = (sys.stdout, sys.stderr), io.StringIO(), io.StringIO()
    try:
        status = main(["agree", CSPARQL, "--period", "10s", "--format", "jsonl", *map(str, argv)])
        return status, sys.stdout.getvalue().splitlines(), sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = saved


def test_a_csparql_query_followed_gives_the_file_verdicts(stream_file):
    status, batch, batch_err = agree(["--stream", stream_file])
    assert status == 1
    status, live, err = agree(["--follow", "--idle", "0.3", "--stream", stream_file])
    assert status == 1
    assert verdicts(live) == verdicts(batch)
    derived = next(line for line in batch_err.splitlines() if "CQELS side derived" in line)
    assert derived in err.splitlines()  # the same side, shown the same way


TWO_STREAMS = """REGISTER QUERY q AS
PREFIX : <http://ex.org/>
SELECT ?x FROM STREAM <http://ex.org/s1> [RANGE 3s STEP 1s] FROM STREAM <http://ex.org/s2> [RANGE 3s STEP 1s]
WHERE { ?x :p ?y . ?y :q ?z }
"""
STATIC_PATTERN = """REGISTER QUERY q AS
PREFIX : <http://ex.org/>
SELECT ?x FROM STREAM <http://ex.org/s1> [RANGE 3s STEP 1s]
WHERE { ?x :p ?y . ?y :label ?z }
"""


@pytest.mark.parametrize(("query", "why"), [
    pytest.param(TWO_STREAMS, "(which of its streams each triple pattern reads)", id="two-streams"),
    pytest.param(STATIC_PATTERN, "(whether the triple pattern {?y :label ?z}, which matches static triples, "
                                 "reads the stream too)", id="pattern-matching-static-data"),
])
def test_a_side_the_stream_decides_is_refused_saying_why_and_what_to_give(tmp_path, query, why):
    (tmp_path / "q.rq").write_text(query)
    (tmp_path / "static.ttl").write_text("<http://ex.org/b> <http://ex.org/label> \"b\" .\n")
    (tmp_path / "s.nt").write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s1> 1\n")
    status, out, err = lars("agree", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", "--static",
                            tmp_path / "static.ttl", "--follow", "--idle", "0.2")
    line = assert_refused(status, err)
    assert out == "" and why in line, line
    assert line.endswith("which a live stream does not have yet (run lars agree without --follow on a "
                         "recorded part of the stream, save the CQELS side its note shows, and give it "
                         "with --cqels FILE)"), line
