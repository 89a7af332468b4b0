"""rdflib's ``UserWarning: Serializing weird numerical ...`` for a stream literal such as
``"abc"^^xsd:decimal`` appeared raw on stderr with its source line, twice with
``--partitions 2`` (brief mend3, item 4). The literal is read by its N-Triples form and an
expression over its value is an error, as SPARQL says; nothing is left to tell the user.
Run as child processes: a warning shown once per process would hide in a shared one."""

from __future__ import annotations

import pytest

from tests.badinput.clirun import child

QUERY = """PREFIX v: <http://sensors.example/v#>
SELECT ?o (SUM(?c) AS ?s)
FROM STREAM <http://sensors.example/stream/temp> [RANGE 4s STEP 2s]
WHERE { ?o v:temp ?c } GROUP BY ?o
"""
DECIMAL = "<http://www.w3.org/2001/XMLSchema#decimal>"
STREAM = (f'<http://e/a> <http://sensors.example/v#temp> "abc"^^{DECIMAL} <http://sensors.example/stream/temp> 1\n'
          f'<http://e/b> <http://sensors.example/v#temp> "2"^^{DECIMAL} <http://sensors.example/stream/temp> 2\n')


@pytest.mark.parametrize("cut", [[], ["--partitions", "2"]], ids=["whole", "two-partitions"])
def test_an_ill_typed_decimal_prints_no_library_warning(tmp_path, cut):
    (tmp_path / "q.rq").write_text(QUERY, encoding="utf-8")
    (tmp_path / "s.nt").write_text(STREAM, encoding="utf-8")
    process = child("run", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", "--format", "csv", *cut)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Warning" not in err and "warnings.warn" not in err, err
    rows = out.splitlines()[1:]
    assert rows == ['2,<http://e/a>,', '2,<http://e/b>,2.0'], out  # SUM over "abc": an error, unbound
