"""A pulling period so long that the timeline runs past ``--max-time-points`` (``lars agree
--period 99999999999d``): the refusal names the period as the cause and ``--period`` as the
fix, besides raising the bound; it named ``--max-time-points`` alone, an option the user never
gave (newcomer)."""

from __future__ import annotations

import pytest

from tests.badinput.clirun import ROOT, assert_refused, lars

COUPONS = ROOT / "examples" / "coupons" / "rdf"
RECORDED = ROOT / "examples" / "csrbench" / "engine-answers" / "cqels-answer-1.json"


@pytest.mark.parametrize(("argv", "cause"), [
    pytest.param([COUPONS / "cqels.rq", "--stream", COUPONS / "stream.nt", "--static",
                  COUPONS / "static.ttl", "--unit", "1m"],
                 "the input ends at 18, and the pulling period of 143999999998560 ticks puts the "
                 "end of its pulling interval at 143999999998560", id="query"),
    pytest.param(["--recorded-csparql", RECORDED, "--recorded-cqels", RECORDED],
                 "the recorded answers end at 33, and the pulling period of 8639999999913600 "
                 "ticks puts the end of its pulling interval at 8639999999913600", id="recorded"),
])
def test_the_period_is_named_as_the_cause(argv, cause):
    status, _, err = lars("agree", *argv, "--period", "99999999999d")
    message = assert_refused(status, err)
    assert f"error: {cause}: the timeline [0," in message, message
    assert "(give --period " in message and "(or shorter)" in message and "--max-time-points" in message, message


def test_a_long_timeline_of_the_input_keeps_its_hint(tmp_path):
    """A timeline long by its input alone is not blamed on the period."""
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text("SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?s ?p ?o } }\n")
    stream.write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> 50\n")
    message = assert_refused(*lars("agree", query, "--stream", stream, "--period", "1s",
                                   "--max-time-points", "20")[::2])
    assert "period" not in message and "raise it with --max-time-points" in message, message
