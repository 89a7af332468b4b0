"""``lars agree --follow`` never says AGREE on nothing (issue 31, a newcomer's report): an
unreachable Kafka broker is one error line, not an agreeing empty interval under a screen of
librdkafka's log; inputs that end before any pulling interval was judged are refused as
``lars agree`` refuses a file without one; Ctrl-C before any verdict says nothing was judged."""

from __future__ import annotations

import json

import pytest

from agreement.cli.app import main
from tests.live.conftest import free_port

EXAMPLE = "examples/coupons/rdf/"


def one_error_line(capfd) -> str:
    err = capfd.readouterr().err
    assert "Traceback" not in err and "%3|" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_an_unreachable_kafka_broker_is_one_error_line(monkeypatch, capfd):
    pytest.importorskip("confluent_kafka")
    monkeypatch.setattr("ingest.live.KAFKA_CONNECT_SECONDS", 1.0)
    address = f"kafka://127.0.0.1:{free_port()}/temps"
    assert main(["agree", EXAMPLE + "cqels.rq", "--static", EXAMPLE + "static.ttl", "--stream",
                 address, "--period", "5s", "--follow", "--idle", "1"]) == 2
    err = one_error_line(capfd)
    assert err.startswith(f"{address}: error: the Kafka broker 127.0.0.1:") and "unreachable" in err


@pytest.mark.parametrize("form", ["text", "jsonl"])
def test_an_empty_followed_stream_is_nothing_to_check(tmp_path, capfd, form):
    empty = tmp_path / "empty.nt"
    empty.write_text("", encoding="utf-8")
    assert main(["agree", EXAMPLE + "cqels.rq", "--static", EXAMPLE + "static.ttl", "--stream",
                 str(empty), "--period", "5s", "--follow", "--idle", "0.2", "--format", form]) == 2
    assert "nothing to check" in one_error_line(capfd)
    assert capfd.readouterr().out == ""


def test_empty_recorded_answers_are_nothing_to_check(tmp_path, capfd):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main(["agree", "--follow", "--period", "10s", "--idle", "0.2", "--recorded-csparql",
                 str(empty), "--recorded-cqels", str(empty)]) == 2
    assert "nothing to check" in one_error_line(capfd)


def test_ctrl_c_before_any_verdict_says_nothing_was_judged(monkeypatch, tmp_path, capsys):
    def interrupted(sources, ends=False):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr("agreement.cli.live.interleave", interrupted)
    path = tmp_path / "a.jsonl"
    path.write_text("", encoding="utf-8")
    for form in ("text", "jsonl"):
        assert main(["agree", "--follow", "--period", "10s", "--recorded-csparql", str(path),
                     "--recorded-cqels", str(path), "--format", form]) == 130
        out = capsys.readouterr().out.strip()
        assert "AGREE" not in out.replace("NOTHING JUDGED", "") and "NOTHING JUDGED" in out, out
        if form == "jsonl":
            assert json.loads(out)["agree"] is None
