"""``lars agree --follow`` over Kafka (issue 31), with mockafka-py's in-memory fake of
confluent-kafka in place of a broker: ``lars replay`` publishes the CSRBench stream and both
engines' answers of query 1 at 50× real time, each file to the topic of its name, while the live
check reads the three topics; it prints the intervals ``lars agree`` prints on the files. (At 50×
a second of stream time is 20 ms: ``--max-delay 5s`` absorbs the consumers' polling and a busy
machine.)"""

from __future__ import annotations

import json
import threading

import pytest

from agreement.cli.app import main
from tests.live.conftest import ANSWERS, TimedOut, verdicts

mockafka = pytest.importorskip("mockafka")
admin = pytest.importorskip("confluent_kafka.admin")


class Producer(mockafka.FakeProducer):
    """The fake producer, given the partition the fake needs (a broker picks one itself)."""

    def produce(self, topic, value=None, **kwargs):
        super().produce(topic, value=value, partition=0, **kwargs)


@pytest.fixture
def fake_kafka(monkeypatch):
    monkeypatch.setattr("ingest.live.kafka_consumer", mockafka.FakeConsumer)
    monkeypatch.setattr("ingest.live.kafka_producer", Producer)
    return mockafka.FakeAdminClientImpl(clean=True)


def test_the_live_check_over_kafka_gives_the_file_verdicts(monkeypatch, fake_kafka, stream_file,
                                                            file_verdicts):
    topics = [stream_file.name, *(path.name for path in ANSWERS.values())]
    fake_kafka.create_topics([admin.NewTopic(topic, num_partitions=1) for topic in topics])
    replay = threading.Thread(target=main, daemon=True, args=([
        "replay", str(stream_file), *map(str, ANSWERS.values()), "--rate", "50",
        "--to", "kafka://127.0.0.1:9092"],))
    out = TimedOut()
    monkeypatch.setattr("sys.stdout", out)
    replay.start()
    base = "kafka://127.0.0.1:9092/"
    status = main(["agree", "--follow", "--format", "jsonl", "--period", "10s", "--idle", "2",
                   "--max-delay", "5s", "--stream", base + stream_file.name,
                   "--recorded-csparql", base + ANSWERS["csparql"].name,
                   "--recorded-cqels", base + ANSWERS["cqels"].name])
    replay.join(5)
    assert status == 1, out.text()
    assert verdicts(out.text()) == file_verdicts
    summary = json.loads(out.text()[-1])
    assert summary["late"] == 0 and summary["intervals"] == len(file_verdicts)


def test_a_kafka_address_needs_a_topic(fake_kafka, capsys):
    assert main(["agree", "--follow", "--period", "10s", "--recorded-csparql", "kafka://h:1",
                 "--recorded-cqels", "kafka://h:1/t"]) == 2
    assert "kafka://h:1: error: a Kafka address is kafka://host:port/topic" in capsys.readouterr().err


def test_without_confluent_kafka_the_address_is_refused_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "confluent_kafka", None)
    assert main(["agree", "--follow", "--period", "10s", "--recorded-csparql", "kafka://h:1/a",
                 "--recorded-cqels", "kafka://h:1/b"]) == 2
    err = capsys.readouterr().err
    assert "kafka:// addresses need confluent-kafka" in err and "Traceback" not in err
