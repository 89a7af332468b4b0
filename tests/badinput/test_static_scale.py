"""A bad line deep in a large static N-Triples file (issue 29, item 5): one line at its line and
column, exit 2, without rdflib building a graph of the file (ingest/staticdata.py)."""

from __future__ import annotations

from tests.badinput.clirun import assert_refused, lars_within

EX = "http://ex.org/"
QUERY = (f"SELECT ?x ?r WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} "
         f"?x <{EX}in> ?r }}\n")


def test_bad_line_of_a_large_static_file(tmp_path):
    lines = [f"<{EX}t{i}> <{EX}label> \"thing {i}\"@en .\n" for i in range(100_000)]
    lines[87_654] = f"<{EX}t> <{EX}label> \"unterminated .\n"
    static, stream, query = tmp_path / "d.nt", tmp_path / "s.nt", tmp_path / "q.rq"
    static.write_text("".join(lines))
    stream.write_text(f"<{EX}a> <{EX}p> <{EX}b> <{EX}s> 1\n")
    query.write_text(QUERY)
    status, _, err = lars_within(60, "run", query, "--stream", stream, "--static", static)
    line = assert_refused(status, err, static)
    assert "d.nt:87655:" in line
    assert "error: syntax error: not a valid N-Triples line" in line


def test_a_large_static_file_is_joined(tmp_path):
    """The same file without the bad line answers, from its one matching triple."""
    lines = [f"<{EX}t{i}> <{EX}label> \"thing {i}\"@en .\n" for i in range(100_000)]
    lines[5] = f"<{EX}a> <{EX}in> <{EX}room> .\n"
    static, stream, query = tmp_path / "d.nt", tmp_path / "s.nt", tmp_path / "q.rq"
    static.write_text("".join(lines))
    stream.write_text(f"<{EX}a> <{EX}p> <{EX}b> <{EX}s> 1\n")
    query.write_text(QUERY)
    status, out, err = lars_within(60, "run", query, "--stream", stream, "--static", static)
    assert status == 0, err
    assert f"<{EX}room>" in out
