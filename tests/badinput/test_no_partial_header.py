"""``lars run`` writes nothing on stdout before an error at its first answer: each format's
header (``# timeline``, the JSON document's opening, the CSV column names) is written once the
first answer is computed; a bad stream line at the second line left the header alone on stdout
above the error (newcomer), which a reader of the output took for a run without answers."""

from __future__ import annotations

import pytest

from tests.badinput.clirun import assert_refused, lars

QUERY = "SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?s ?p ?o } }\n"
TRIPLE = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> 1\n"


FORMATS = [("query", form) for form in ("table", "json", "csv", "intervals", "atoms", "sparql-json")] + [
    ("program", form) for form in ("table", "json", "intervals")]  # a program's answers are atoms


@pytest.mark.parametrize(("kind", "form"), [pytest.param(*c, id="-".join(c)) for c in FORMATS])
def test_an_error_at_the_first_answer_writes_nothing(tmp_path, kind, form):
    source, stream = (tmp_path / "q.rq", tmp_path / "s.nt") if kind == "query" else (
        tmp_path / "p.lars", tmp_path / "s.txt")
    source.write_text(QUERY if kind == "query" else "r :- [3] <> q.\n")
    stream.write_text((TRIPLE if kind == "query" else "1: q\n") + "bad line(\n")
    status, out, err = lars("run", source, "--stream", stream, "--format", form)
    assert_refused(status, err, f"{stream}:2")
    assert out == ""


@pytest.mark.parametrize("form", ["table", "intervals"])
def test_the_header_still_comes_first(tmp_path, form):
    """The header leads the output as before when the run succeeds."""
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY)
    stream.write_text(TRIPLE)
    status, out, err = lars("run", query, "--stream", stream, "--format", form)
    assert status == 0, err
    assert out.startswith("# timeline [0,1] (unit 1s), evaluated [0,1]; program stratified\n"), out
    assert "<http://ex.org/a>" in out
