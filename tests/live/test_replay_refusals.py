"""``lars replay --to`` an address it cannot reach (issue 31, a newcomer's report): one error
line and exit 2 within seconds, never a hang under librdkafka's log, never a traceback."""

from __future__ import annotations

import time

import pytest

from agreement.cli.app import main
from tests.live.conftest import free_port


@pytest.fixture
def stream(tmp_path):
    path = tmp_path / "full.nt"
    path.write_text("".join(f"<http://e/s> <http://e/p> <http://e/o{t}> {t}\n" for t in range(40)),
                    encoding="utf-8")
    return str(path)


def one_error_line(capfd) -> str:
    err = capfd.readouterr().err
    assert "Traceback" not in err and "%3|" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("topic", ["/temps", ""])
def test_replay_to_an_unreachable_kafka_broker_fails_in_one_line(monkeypatch, capfd, stream, topic):
    pytest.importorskip("confluent_kafka")
    monkeypatch.setattr("ingest.live.KAFKA_CONNECT_SECONDS", 1.0)
    address = f"kafka://127.0.0.1:{free_port()}{topic}"
    began = time.monotonic()
    assert main(["replay", stream, "--rate", "1000", "--to", address]) == 2
    assert time.monotonic() - began < 10
    assert "unreachable" in one_error_line(capfd)


@pytest.mark.parametrize("address", ["ws://127.0.0.1:99999", "ws://127.0.0.1:port",
                                     "kafka://127.0.0.1:70000/t"])
def test_replay_to_a_port_out_of_range_is_one_line(capfd, stream, address):
    assert main(["replay", stream, "--to", address]) == 2
    assert one_error_line(capfd).startswith(f"{address}: error: the port is not a number from 0 to 65535")


@pytest.mark.parametrize("address", ["ws://127.0.0.1:99999/a", "kafka://127.0.0.1:70000/t"])
def test_following_a_port_out_of_range_is_one_line(capfd, tmp_path, address):
    answers = tmp_path / "cqels.jsonl"
    answers.write_text('{"time": 3, "results": {"head": {"vars": ["x"]}, "results": '
                       '{"bindings": []}}}\n', encoding="utf-8")
    assert main(["agree", "--follow", "--period", "10s", "--idle", "0.2", "--recorded-csparql",
                 address, "--recorded-cqels", str(answers)]) == 2
    assert one_error_line(capfd).startswith(f"{address}: error: the port is not a number")
