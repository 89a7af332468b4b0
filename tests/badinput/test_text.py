"""Text that is not what it seems (issue 28): a ``\\uD800`` escape, a timestamp ``.5``, and a
stream that is not a file (a pipe, a device).

A lone surrogate escape was read, and writing the answer then crashed (no output can encode
half of a UTF-16 pair); ``.5`` was read as the end-of-triple dot and the time point 5, while
``1.5`` was refused. Each is refused where it is read, with file, line and column.
"""

from __future__ import annotations

import os

import pytest

from tests.badinput.clirun import ROOT, assert_refused, lars, lars_within

EX = "http://ex.org/"
QUERY = f"SELECT ?y WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n"
STATIC_QUERY = f"SELECT ?y ?z WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} ?x <{EX}q> ?z }}\n"
LINE = f'<{EX}a> <{EX}p> "x" <{EX}s> 1\n'
SURROGATE = "a \\u escape names a lone surrogate (half of a UTF-16 pair), not a character"
RUN = ["run", "{dir}/q.rq", "--stream", "{dir}/s.nt"]


@pytest.mark.parametrize("files, argv, expected", [
    pytest.param({"s.nt": f'<{EX}a> <{EX}p> "x\\uD800y" <{EX}s> 1\n'}, RUN, f"s.nt:1:37: error: {SURROGATE}",
                 id="stream-literal-uD800"),
    pytest.param({"s.nt": f'<{EX}a> <{EX}p> "x\\uDFFF" <{EX}s> 1\n'}, RUN, "s.nt:1:37:", id="stream-literal-uDFFF"),
    pytest.param({"s.nt": f'<{EX}a> <{EX}p> "x\\U0000D800" <{EX}s> 1\n'}, RUN, "s.nt:1:37:",
                 id="stream-literal-U0000D800"),
    pytest.param({"s.nt": f'<{EX}a\\uD800> <{EX}p> "x" <{EX}s> 1\n'}, RUN, f"s.nt:1:1: error: {SURROGATE}",
                 id="stream-iri-uD800"),
    pytest.param({"q.rq": QUERY.replace("?y }", '?y } BIND("a\\uD800" AS ?z)')},
                 RUN, f"q.rq:1:90: error: {SURROGATE}", id="query-literal-uD800"),
    pytest.param({"q.rq": STATIC_QUERY, "d.ttl": f'<{EX}a> <{EX}q> "x\\uD800" .\n'},
                 [*RUN, "--static", "{dir}/d.ttl"], f"d.ttl: error: {SURROGATE}", id="static-turtle-uD800"),
    pytest.param({"q.rq": STATIC_QUERY, "d.nt": f'<{EX}a> <{EX}q> "x\\uD800" .\n'},
                 [*RUN, "--static", "{dir}/d.nt"], f"d.nt: error: {SURROGATE}", id="static-ntriples-uD800"),
    pytest.param({"s.nt": LINE.replace(" 1\n", " .5\n")}, RUN,
                 "s.nt:1:59: error: expected a timestamp (an integer) but found '.5'", id="timestamp-dot-5"),
    pytest.param({"s.nt": LINE + LINE.replace(" 1\n", " .1\n")}, RUN,
                 "s.nt:2:59: error: expected a timestamp (an integer) but found '.1'", id="timestamp-dot-1"),
    pytest.param({"s.nt": LINE.replace(" 1\n", " 1.5\n")}, RUN,
                 "s.nt:1:59: error: expected a timestamp (an integer) but found '1.5'", id="timestamp-1.5"),
    pytest.param({"s.nt": LINE.replace(" 1\n", " 1.\n")}, RUN,
                 "s.nt:1:59: error: expected a timestamp (an integer) but found '1.'", id="timestamp-1-dot"),
])
def test_text_that_is_not_what_it_seems_is_refused_where_it_is_read(tmp_path, files, argv, expected):
    for name, text in {"q.rq": QUERY, "s.nt": LINE, **files}.items():
        (tmp_path / name).write_text(text)
    status, out, err = lars(*(a.replace("{dir}", str(tmp_path)) for a in argv))
    assert expected in assert_refused(status, err, tmp_path), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("line", [LINE.replace(" 1\n", " . 5\n"), LINE.replace(" 1\n", " .\t5\n")],
                         ids=["dot-space-5", "dot-tab-5"])
def test_the_end_of_triple_dot_before_a_timestamp_still_reads(tmp_path, line):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(line)
    status, out, err = lars("run", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", "--format", "csv")
    assert status == 0, err
    assert out.splitlines()[1:] == ['5,"""x"""']  # the literal at time point 5


STREAM_COMMANDS = {
    "run": ["run", "{dir}/q.rq"],
    "agree": ["agree", "{dir}/q.rq", "--period", "1s"],
    "check": ["check", "{dir}/q.rq", "--answers", str(ROOT / "examples" / "csrbench" / "engine-answers"
                                                    / "cqels-answer-1.json"), "--profile", "cqels"],
    "run-lars": ["run", "{dir}/p.lars"],
}


@pytest.mark.parametrize("command", STREAM_COMMANDS)
@pytest.mark.parametrize("kind, make", [
    pytest.param("a pipe", lambda folder: os.mkfifo(folder / "fifo") or folder / "fifo", id="fifo"),
    pytest.param("a character device", lambda folder: "/dev/zero", id="dev-zero"),
])
def test_a_stream_that_is_not_a_regular_file_is_refused_in_one_line(tmp_path, command, kind, make):
    """A pipe cannot be read twice, and streams are (the last time point first, to size the
    timeline): refused naming why, never "not seekable" (issue 28); a FIFO without a writer is
    refused before it is opened, which would wait for ever."""
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "p.lars").write_text("x :- [2] <> p.\n")
    stream = make(tmp_path)
    argv = [a.replace("{dir}", str(tmp_path)) for a in STREAM_COMMANDS[command]]
    status, _, err = lars_within(60, *argv, "--stream", stream)
    line = assert_refused(status, err, f"{stream}:")
    assert f"the stream must be a regular file, not {kind}: it is read more than once" in line
    assert "seekable" not in err
