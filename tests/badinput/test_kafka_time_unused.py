"""``--kafka-time`` says where a ``kafka://`` source's lines take their time; given with
``--follow`` over no Kafka source it was silently ignored (newcomer): it is refused in one line,
exit 2, naming the sources, for every command that follows inputs."""

from __future__ import annotations

import pytest

from tests.badinput.clirun import ROOT, assert_refused, lars

COUPONS = ROOT / "examples" / "coupons" / "rdf"
RELATION = '{"head": {"vars": ["x"]}, "timestamp": 10000, "results": {"bindings": []}}\n'
STREAM = COUPONS / "stream.nt"
QUERY_DATA = [COUPONS / "cqels.rq", "--stream", STREAM, "--static",
              COUPONS / "static.ttl", "--unit", "1m"]


@pytest.fixture
def answers(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(RELATION, encoding="utf-8")
    return path


@pytest.mark.parametrize(("command", "sources"), [
    pytest.param(lambda a: ["agree", "--recorded-csparql", a, "--recorded-cqels", a, "--period", "10s"],
                 lambda a: [a], id="agree-recorded"),
    pytest.param(lambda a: ["agree", *QUERY_DATA, "--period", "10m"], lambda a: [STREAM],
                 id="agree-query"),
    pytest.param(lambda a: ["check", *QUERY_DATA, "--answers", a, "--profile", "cqels"],
                 lambda a: [STREAM, a], id="check"),
])
def test_kafka_time_without_a_kafka_source_is_refused(answers, command, sources):
    status, _, err = lars(*command(answers), "--follow", "--idle", "0.1", "--kafka-time", "timestamp")
    line = assert_refused(status, err)
    assert "--kafka-time applies to kafka:// sources only" in line, err
    assert all(str(source) in line for source in sources(answers)), err
    assert len(err.strip().splitlines()) == 1, err
