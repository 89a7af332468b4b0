"""``--kafka-time``: a Kafka message's time in place of the time written in its line (issue 31),
against mockafka-py's in-memory fake of confluent-kafka.

The messages are put in the fake topics up front, each with the time it should be read at, while
the lines themselves carry a wrong time (or none): the live check gives the verdicts of
``lars agree`` on the files only if it takes the time from the message."""

from __future__ import annotations

import json

import pytest

from agreement.cli.app import main
from ingest.replay import timed_lines
from tests.live.conftest import ANSWERS, ROOT, verdicts

mockafka = pytest.importorskip("mockafka")
admin = pytest.importorskip("confluent_kafka.admin")
confluent = pytest.importorskip("confluent_kafka")

BASE = "kafka://127.0.0.1:9092/"


@pytest.fixture
def fake_kafka(monkeypatch):
    monkeypatch.setattr("ingest.live.kafka_consumer", mockafka.FakeConsumer)
    return mockafka.FakeAdminClientImpl(clean=True)


def publish(fake_kafka, topic: str, messages: list[tuple[str, dict]]) -> None:
    """``(value, produce keywords)`` to ``topic`` (one partition), in order."""
    fake_kafka.create_topics([admin.NewTopic(topic, num_partitions=1)])
    producer = mockafka.FakeProducer()
    for value, extra in messages:
        producer.produce(topic, value=value, partition=0, **extra)


def wrong_time(line: str) -> str:
    """A CSRBench relation line with a timestamp far from its own."""
    document = json.loads(line)
    document["timestamp"] = 500_000
    return json.dumps(document)


def follow(capsys, *extra: str) -> tuple[int, list[str], str]:
    status = main(["agree", "--follow", "--format", "jsonl", "--period", "10s", "--idle", "1",
                   "--recorded-csparql", BASE + "csparql", "--recorded-cqels", BASE + "cqels",
                   *extra])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_the_message_timestamp_is_the_time(fake_kafka, capsys, stream_file, file_verdicts):
    for side, path in ANSWERS.items():
        publish(fake_kafka, side, [(wrong_time(line), {"timestamp": ms})
                                   for ms, line in timed_lines(str(path), 1000)])
    # the stream as plain N-Triples (no time in the line); the fake reads a timestamp of 0 as
    # "now", so the lines of time point 0 are sent at 1 ms (still time point 0)
    publish(fake_kafka, "stream", [(line.rsplit(" ", 1)[0] + " .", {"timestamp": max(ms, 1)})
                                   for ms, line in timed_lines(str(stream_file), 1000)])
    status, out, err = follow(capsys, "--stream", BASE + "stream", "--kafka-time", "timestamp")
    assert status == 1, err
    assert verdicts(out) == file_verdicts


def test_a_field_of_the_message_is_the_time(fake_kafka, capsys, file_verdicts):
    for side, path in ANSWERS.items():
        publish(fake_kafka, side, [(json.dumps(json.loads(wrong_time(line)) | {"at": ms}), {})
                                   for ms, line in timed_lines(str(path), 1000)])
    status, out, err = follow(capsys, "--kafka-time", "field:at")
    assert status == 1, err
    assert verdicts(out) == file_verdicts


def test_without_the_option_the_line_s_own_time_counts(fake_kafka, capsys):
    for side, path in ANSWERS.items():
        publish(fake_kafka, side, [(wrong_time(line), {"timestamp": ms})
                                   for ms, line in timed_lines(str(path), 1000)])
    status, out, _ = follow(capsys)
    assert [json.loads(line)["end"] for line in out if '"interval"' in line][-1] == 500


RELATION = json.dumps({"head": {"vars": ["x"]}, "timestamp": 1000, "results": {"bindings": []}})


@pytest.mark.parametrize(("value", "extra", "option", "message"), [
    pytest.param(RELATION, {"timestamp_type": confluent.TIMESTAMP_NOT_AVAILABLE}, "timestamp",
                 "the message has no Kafka timestamp", id="no-timestamp"),
    pytest.param(RELATION, {}, "field:at", "is not a JSON object with the field 'at'",
                 id="no-field"),
    pytest.param(json.dumps({"at": 12.5}), {}, "field:at",
                 "the field 'at' of the message is 12.5, not an integer number of milliseconds",
                 id="not-an-integer"),
    pytest.param(json.dumps({"at": "12"}), {}, "field:at",
                 "the field 'at' of the message is '12', not an integer", id="a-string"),
    pytest.param("<http://e/a> <http://e/p> <http://e/b> .", {}, "field:at",
                 "is not a JSON object with the field 'at'", id="not-json"),
])
def test_a_message_without_its_time_is_refused_in_one_line(fake_kafka, capsys, value, extra,
                                                           option, message):
    publish(fake_kafka, "csparql", [(json.dumps(json.loads(RELATION) | {"at": 1000}),
                                     {"timestamp": 1000})])
    publish(fake_kafka, "cqels", [(value, extra)])
    status, out, err = follow(capsys, "--kafka-time", option)
    assert status == 2 and out == []
    assert err.strip().splitlines() == [err.strip()] and "Traceback" not in err
    assert f"{BASE}cqels partition 0 offset " in err and message in err


def test_a_bad_kafka_time_option_is_refused(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["agree", "--follow", "--kafka-time", "offset"])
    assert ended.value.code == 2
    assert "--kafka-time is 'timestamp' or 'field:NAME', not 'offset'" in capsys.readouterr().err


def test_lars_check_follow_takes_the_message_time_too(fake_kafka, capsys, stream_file):
    """YASPER's answers to the 2023 study's Q3 (correct at t0 = 2, as batch ``lars check``
    says), their lines stamped wrong, the stream as plain N-Triples: right only if each line
    is at its message's time."""
    answers = ROOT / "examples" / "csrbench-2023" / "answers" / "yasper-answer-3.json"
    publish(fake_kafka, "answers", [(wrong_time(line), {"timestamp": ms})
                                    for ms, line in timed_lines(str(answers), 1000)])
    publish(fake_kafka, "stream", [(line.rsplit(" ", 1)[0] + " .", {"timestamp": max(ms, 1)})
                                   for ms, line in timed_lines(str(stream_file), 1000)])
    status = main(["check", str(ROOT / "examples" / "csrbench-2023" / "queries" / "q3.rspql"),
                   "--profile", "yasper", "--select", "sensor,obs,value", "--csrbench", "--follow",
                   "--idle", "1", "--format", "jsonl", "--kafka-time", "timestamp",
                   "--stream", BASE + "stream", "--answers", BASE + "answers"])
    captured = capsys.readouterr()
    summary = json.loads(captured.out.splitlines()[-1])
    assert (status, summary["t0"], summary["relations"]) == (0, 2, 4), captured.err
