"""``lars agree --profiles`` interval by interval (:mod:`agreement.agree.profiles`): the verdicts,
answers and explanations are those of :func:`agreement.agree.modes.check_profiles`, which computes
each side over the whole stream held in memory and compares afterwards."""

from pathlib import Path

import pytest

from agreement.agree.modes import check_profiles
from agreement.defaults import name_streams, pulling_timeline, stream_options
from agreement.facade import check_agreement, profile_pair
from agreement.agree.report import to_json
from ingest.eager import read_rdf_stream, static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from translate.api import parse_query

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
CSRBENCH = ROOT / "examples" / "csrbench"
RUNNING = {"query": COUPONS / "cqels.rq", "stream": COUPONS / "stream.nt",
           "static": [str(COUPONS / "static.ttl")], "unit": "1m"}
Q1 = {"query": CSRBENCH / "queries" / "q1-cqels.rq", "stream": CSRBENCH / "stream",
      "static": [], "unit": "1s"}


def collected(case: dict, period: int, profiles: str, variant: str = "brave"):
    """The report of :func:`check_profiles` over the stream read whole."""
    query = parse_query(case["query"].read_text(), str(case["query"]), "cqels", case["unit"])
    options, sole = stream_options(query, case["stream"], ReadOptions(), [])
    elements, line = read_rdf_stream(case["stream"], options, ReadReport())
    elements = name_streams(elements, sole, [])
    line, _ = pulling_timeline(line, period, end_given=False,
                               last_input=max((e.time for e in elements), default=None))
    return check_profiles(query, elements, static_graphs(case["static"], query), period,
                          profile_pair(profiles), line, variant)


def streamed(case: dict, period: int, profiles: str, variant: str = "brave"):
    return check_agreement(case["query"], stream=case["stream"], static=case["static"], unit=case["unit"],
                 period=period, profiles=profiles, variant=variant, max_explanations=None)


def same_document(found, expected) -> None:
    """The same JSON document but for the note on the timeline's end, which the façade adds."""
    document = to_json(found.report)
    document["notes"] = [n for n in document["notes"] if not n.startswith("the input ends")]
    assert document == to_json(expected)


@pytest.mark.parametrize("period, profiles, variant", [
    (30, "csparql,cqels", "brave"), (10, "csparql,cqels", "cautious"), (30, "rsp4j,cqels", "brave"),
    (30, "csparql,rsp4j", "brave"), (20, "paper-pull,cqels", "brave")])
def test_running_example_under_profiles_as_collected(period, profiles, variant):
    same_document(streamed(RUNNING, period, profiles, variant), collected(RUNNING, period, profiles, variant))


@pytest.mark.slow
@pytest.mark.parametrize("period, profiles", [(5, "csparql,cqels"), (10, "rsp4j,cqels")])
def test_csrbench_q1_under_profiles_as_collected(period, profiles):
    same_document(streamed(Q1, period, profiles), collected(Q1, period, profiles))
