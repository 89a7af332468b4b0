"""JSON-LD stream elements as TripleWave publishes them (issue 31; :mod:`ingest.jsonldstream`):
the CSRBench stream sent as one named graph per time point with its ``prov:generatedAtTime``
over a loopback WebSocket gives, to ``lars agree QUERY --follow``, the intervals ``lars agree``
gives on the N-Triples file; a remote context and a time without a zone are refused."""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest
from rdflib import Literal

from agreement.cli.app import main
from ingest.jsonldstream import jsonld_element
from ingest.policy import ReadPolicy, ReadReport
from ingest.rdffiles import read_turtle_folder
from ingest.replay import paced, publish, timed_lines
from lars.errors import InputError
from tests.live.conftest import CSRBENCH, TimedOut, free_port, verdicts

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
GENERATED = "http://www.w3.org/ns/prov#generatedAtTime"


def node(term) -> dict:
    if isinstance(term, Literal):
        return {"@value": str(term), **({"@type": str(term.datatype)} if term.datatype else {}),
                **({"@language": term.language} if term.language else {})}
    return {"@id": str(term)}


def elements() -> list[str]:
    """The CSRBench stream as TripleWave elements, one per time point."""
    triples = read_turtle_folder(str(CSRBENCH / "stream"), policy=ReadPolicy(), report=ReadReport())
    by_time: dict[int, list] = {}
    for element in triples:
        by_time.setdefault(element.time, []).append(element.triple)
    return [json.dumps({"@id": f"http://e/element/{t}",
                        GENERATED: (EPOCH + timedelta(seconds=t)).isoformat(),
                        "@graph": [{"@id": str(s), str(p): node(o)} for s, p, o in group]})
            for t, group in sorted(by_time.items())]


def test_triplewave_elements_over_a_websocket_give_the_file_verdicts(monkeypatch, tmp_path,
                                                                    stream_file):
    pytest.importorskip("websockets")
    path = tmp_path / "stream.jsonld"
    path.write_text("\n".join(elements()) + "\n", encoding="utf-8")
    query = str(CSRBENCH / "queries" / "q1-cqels.rq")
    out = TimedOut()
    monkeypatch.setattr("sys.stdout", out)
    assert main(["agree", query, "--period", "10s", "--format", "jsonl", "--stream", str(stream_file)]) == 1
    expected, out.lines = verdicts(out.text()), []
    port = free_port()
    server = threading.Thread(target=publish, daemon=True, args=(
        paced({path.name: timed_lines(str(path), 1000)}, 50), [path.name], f"ws://127.0.0.1:{port}"))
    server.start()
    time.sleep(0.3)
    status = main(["agree", query, "--period", "10s", "--format", "jsonl", "--follow",
                   "--max-delay", "3", "--stream", f"ws://127.0.0.1:{port}/{path.name}"])
    server.join(5)
    assert status == 1
    assert verdicts(out.text()) == expected
    assert json.loads(out.text()[-1])["late"] == 0


@pytest.mark.parametrize(("element", "message"), [
    ({"@context": "http://schema.org/", "@graph": []}, "@context given by address is not fetched"),
    ({"@id": "http://e/g", GENERATED: "2015-01-01T00:00:00", "@graph": []}, "with a time zone"),
    ({"@id": "http://e/g", "@graph": []}, "one prov:generatedAtTime, not 0"),
])
def test_bad_elements_are_refused_with_their_line(element, message):
    with pytest.raises(InputError, match=message) as refused:
        jsonld_element(json.dumps(element), "ws://h/s", 7, 1000, None)
    assert str(refused.value).startswith("ws://h/s:7: error:")
