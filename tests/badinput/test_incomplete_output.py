"""A run stopped by bad input after some answers were written says the output is incomplete
(newcomer finding D3: ``lars run --format sparql-json`` wrote complete JSON lines for the first
time points, then met a bad stream line and exited 2; a program reading stdout got an answer
stream that looked whole).

On stdout the error line ends with ``; output stopped at time T: incomplete``, ``T`` the last
time point written; the formats that write nothing before the end (table, intervals: their
columns are aligned over all answers) stay empty and say nothing more. With ``--output FILE``
nothing partial reaches FILE in any format: an existing FILE is left as it was.
"""

from __future__ import annotations

import json

import pytest

from agreement.cli.app import RUN_FORMATS
from agreement.cli.choices import RESULT_FORMATS, SINKS
from tests.badinput.clirun import assert_refused, lars

QUERY = "SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?s ?p ?o } }\n"
LINES = "".join(f"<http://ex.org/a{t}> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> {t}\n"
                for t in range(1, 5))
BAD = "bad line(\n"
STREAMING = ("json", "csv", "atoms", *RESULT_FORMATS)
"""The formats that write each time point's answers as it is computed."""


@pytest.fixture
def inputs(tmp_path):
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY)
    stream.write_text(LINES + BAD)
    return query, stream


def written_up_to(form: str, out: str) -> int:
    """The last time point in ``out``, as ``form`` writes it."""
    lines = [line for line in out.splitlines() if line.strip()]
    if form == "sparql-json":
        return json.loads(lines[-1])["time"]
    if form == "json":
        return json.loads(lines[-1].rstrip(","))["time"]
    if form == "atoms":
        return int(lines[-1].split()[0])
    return int(lines[-1].split(",")[0].split("\t")[0])


@pytest.mark.parametrize("form", STREAMING)
def test_an_error_after_answers_on_stdout_says_the_output_is_incomplete(inputs, form):
    query, stream = inputs
    status, out, err = lars("run", query, "--stream", stream, "--format", form)
    line = assert_refused(status, err, f"{stream}:5:1: error: ")
    assert out, "the case needs answers written before the bad line is read"
    assert line.endswith(f"; output stopped at time {written_up_to(form, out)}: incomplete"), line


@pytest.mark.parametrize("form", sorted(set(RUN_FORMATS) - set(STREAMING)))
def test_a_format_that_wrote_nothing_says_nothing_more(inputs, form):
    query, stream = inputs
    status, out, err = lars("run", query, "--stream", stream, "--format", form)
    line = assert_refused(status, err, stream)
    assert out == "" and "incomplete" not in line


def test_the_whole_output_of_a_good_stream_ends_with_no_such_line(inputs):
    query, stream = inputs
    stream.write_text(LINES)
    status, out, err = lars("run", query, "--stream", stream, "--format", "sparql-json")
    assert status == 0 and "incomplete" not in err and written_up_to("sparql-json", out) == 4


def test_an_error_at_the_first_answer_says_nothing_more(inputs):
    query, stream = inputs
    stream.write_text(BAD)
    status, out, err = lars("run", query, "--stream", stream, "--format", "sparql-json")
    assert out == "" and "incomplete" not in assert_refused(status, err, stream)


def test_output_to_stdout_by_dash_says_it_too(inputs):
    query, stream = inputs
    status, _, err = lars("run", query, "--stream", stream, "--output", "-", "--output-format", "jsonl")
    assert assert_refused(status, err, stream).endswith(": incomplete")


@pytest.mark.parametrize(("form", "sink"), [pytest.param(form, "jsonl", id=form) for form in RUN_FORMATS]
                         + [pytest.param(form, None, id=form) for form in RESULT_FORMATS]
                         + [pytest.param("table", sink, id=f"output-format-{sink}") for sink in SINKS])
def test_an_output_file_is_left_as_it_was(inputs, form, sink):
    query, stream = inputs
    target = stream.parent / "answers.out"
    target.write_bytes(b"previous answers\n")
    status, out, err = lars("run", query, "--stream", stream, "--format", form, "--output", target,
                            *(["--output-format", sink] if sink else []))  # results: FILE as it is
    line = assert_refused(status, err, stream)
    assert "incomplete" not in line and f"note: {target}: left as it was" in err, err
    assert target.read_bytes() == b"previous answers\n" and out == ""
    assert sorted(path.name for path in stream.parent.iterdir()) == ["answers.out", "q.rq", "s.nt"]
