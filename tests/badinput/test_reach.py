"""Input that reaches nothing (issue 28): every triple on a stream the query does not read.

``<…/S>`` for ``<…/s>`` gave ``lars run`` no answers, ``lars agree`` AGREE and ``lars check``
CORRECT for an empty recording, exit 0, with nothing said. The verdicts stand (both sides, and
the recording, have no answer: that is what the engines would give), but each command now says
in a warning on stderr that no input reached the query, naming the streams on both sides.
"""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

EX = "http://ex.org/"
QUERY = f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n"
WARNING = (f"warning: none of the 3 triples read reaches the query: every one is on a stream it does not "
           f"read (<{EX}S>); it reads <{EX}s>")


def stream(iri: str) -> str:
    return "".join(f"<{EX}a> <{EX}p> <{EX}b> <{iri}> {t}\n" for t in (1, 2, 3))


@pytest.mark.parametrize("argv, status", [
    pytest.param(["run", "{dir}/q.rq", "--stream", "{dir}/s.nt"], 0, id="run"),
    pytest.param(["agree", "{dir}/q.rq", "--stream", "{dir}/s.nt", "--period", "1s"], 0, id="agree"),
    pytest.param(["check", "{dir}/q.rq", "--stream", "{dir}/s.nt", "--answers", "{dir}/a.json", "--profile",
                  "cqels"], 0, id="check-empty-recording"),
])
def test_input_that_reaches_nothing_is_said(tmp_path, argv, status):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "a.json").write_text(json.dumps({"relations": []}))
    (tmp_path / "s.nt").write_text(stream(f"{EX}S"))
    found, _, err = lars(*(a.replace("{dir}", str(tmp_path)) for a in argv))
    assert found == status, err
    assert WARNING in err.splitlines(), err
    (tmp_path / "s.nt").write_text(stream(f"{EX}s"))  # the same on the stream it reads: no warning
    assert "reaches the query" not in lars(*(a.replace("{dir}", str(tmp_path)) for a in argv))[2]
