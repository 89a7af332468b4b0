"""Under an engine profile, the rows of a query come from every argument of its answer atom.

``compile_profile`` named the answer atom's arguments by the SELECT variables alone, so for a
query with ORDER BY on a variable it does not select (the atom keeps that variable) no atom
matched: ``lars run --profile csparql`` printed a header and no row, and ``lars check`` judged
recordings against empty relations. Likewise the multiset witnesses a bag profile needs
(``csparql`` answers bags: a row repeats as often as SPARQL has it) were dropped, so ``lars
run --profile csparql`` wrote each row once and ``lars check --strict`` rejected that very
recording (both found by newcomers).
"""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest

from tests.badinput.clirun import lars

STREAM = "".join(
    f"<http://ex.org/{name}{time}> <http://ex.org/p> <http://ex.org/{value}> <http://ex.org/s> {time}\n"
    for time in (1, 3, 4, 5, 7, 8) for name, value in (("a", "z"), ("b", "y"), ("c", "y")))
CSPARQL = ("PREFIX : <http://ex.org/>\nSELECT {select} FROM STREAM <http://ex.org/s> "
           "[RANGE 4s STEP 2s] WHERE {{ ?s :p ?o }} {order}\n")
CQELS = ("PREFIX : <http://ex.org/>\nSELECT {select} WHERE {{ STREAM :s [RANGE 4s SLIDE 2s] "
         "{{ ?s :p ?o }} }} {order}\n")


def rows(tmp_path, text: str, *options: str) -> Counter:
    query = tmp_path / "q.rq"
    query.write_text(text)
    (tmp_path / "s.nt").write_text(STREAM)
    status, out, err = lars("run", query, "--stream", tmp_path / "s.nt", "--format", "sparql-csv",
                            *options)
    assert status == 0, err
    return Counter(tuple(row) for row in list(csv.reader(io.StringIO(out)))[1:])


@pytest.mark.parametrize("form, profile", [(CSPARQL, "csparql"), (CSPARQL, "sparqlstream"),
                                           (CSPARQL, "paper-pull"), (CQELS, "cqels"),
                                           (CQELS, "rsp4j"), (CQELS, "yasper")])
def test_order_by_an_unselected_variable_keeps_the_rows(tmp_path, form, profile):
    plain = rows(tmp_path, form.format(select="?s", order=""), "--profile", profile)
    ordered = rows(tmp_path, form.format(select="?s", order="ORDER BY ?o"), "--profile", profile)
    assert plain and ordered == plain


def test_a_bag_profile_repeats_rows_and_check_strict_accepts_them(tmp_path):
    text = CSPARQL.format(select="?o", order="")
    found = rows(tmp_path, text, "--profile", "csparql")
    assert found[("4", "http://ex.org/y")] == 4  # b1, c1, b3, c3 in [0, 4)
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    status, out, err = lars("run", query, "--stream", stream, "--profile", "csparql",
                            "--format", "sparql-json")
    recording = tmp_path / "r.jsonl"
    recording.write_text(out)
    status, out, err = lars("check", query, "--stream", stream, "--answers", recording,
                            "--profile", "csparql", "--strict")
    assert status == 0, (out, err)
