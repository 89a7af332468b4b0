"""A line going back in time is refused at the column of its timestamp (newcomer finding D6:
``s.nt:12: error: timestamp 5 goes back in time`` named no column, where every other error
about a stream line points at the spot).

The column is found by asking the line parser (ingest/timeorder.py ``timestamp_column``); the
tests build lines from pieces, so the column the timestamp was written at is known, and put the
same number elsewhere in the line (an IRI, a literal, an atom's argument, a comment) where a
search for the number alone would stop first.
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ingest.jsonldstream import stream_line
from ingest.rdffiles import parse_ntriples_line
from ingest.timeorder import timestamp_column
from lars.parser import parse_stream_line
from tests.badinput.clirun import assert_refused, lars

JSONLD = functools.partial(stream_line, unit_ms=1000, stream=None)


def ntriples(time: int, number: int, space: str, dot: str, comment: str) -> tuple[str, int]:
    """A timestamped N-Triples line whose subject, literal and comment hold ``number``; the
    column its time is written at."""
    head = (f'{space}<http://ex.org/car{number}> <http://ex.org/speed> "{number}" '
            f"<http://ex.org/s{number}>{space}{dot}")
    return f"{head}{time}{comment.format(number)}", len(head) + 1


def lars_line(time: int, number: int, space: str, comment: str) -> tuple[str, int]:
    """A LARS atom-stream line whose atoms hold ``number``; the column its time is written at."""
    return f'{space}{time}: p({number}), q("{number}", c{abs(number)}){comment.format(number)}', len(space) + 1


@settings(max_examples=60, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(-50, 10**6), st.integers(-3, 10**6), st.sampled_from(["", " ", "\t"]),
       st.sampled_from(["", ". "]), st.sampled_from(["", " # {}", "  # at {} s"]))
@example(time=5, number=5, space="", dot="", comment=" # {}")
@example(time=0, number=0, space=" ", dot=". ", comment="")
def test_the_column_of_an_ntriples_timestamp(time, number, space, dot, comment):
    line, column = ntriples(time, number, space, dot, comment)
    assert parse_ntriples_line(line, "s.nt", 1)[0] == time  # the line is what the test means
    assert timestamp_column(line, time, parse_ntriples_line) == column


@settings(max_examples=60, derandomize=True)
@given(st.integers(-50, 10**6), st.integers(-3, 10**6), st.sampled_from(["", "  "]),
       st.sampled_from(["", " # {}", "  # at {}"]))
@example(time=3, number=3, space="", comment=" # {}")
@example(time=-1, number=-1, space="  ", comment="")
def test_the_column_of_a_lars_timestamp(time, number, space, comment):
    line, column = lars_line(time, number, space, comment)
    assert parse_stream_line(line, "s.txt", 1)[0] == time
    assert timestamp_column(line, time, parse_stream_line) == column


def test_a_jsonld_element_with_a_whole_number_time_points_at_it():
    text = json.dumps({"@id": "http://e/g", "http://e/n": 7,
                       "http://www.w3.org/ns/prov#generatedAtTime": 7,
                       "@graph": [{"@id": "http://e/a", "http://e/p": 7}]})
    assert JSONLD(text, "ws", 1)[0] == 7
    assert timestamp_column(text, 7, JSONLD) == text.index(": 7,", text.index("generatedAtTime")) + 3


def test_a_jsonld_element_whose_date_time_does_not_write_the_time_has_no_column():
    # 00:01:05 is time point 65 (unit 1s): no integer written in the line is the time (65 in
    # the graph is a value), so the error keeps file and line only
    text = json.dumps({"@id": "http://e/g", "http://www.w3.org/ns/prov#generatedAtTime":
                       "1970-01-01T00:01:05Z", "@graph": [{"@id": "http://e/a", "http://e/p": 65}]})
    assert JSONLD(text, "ws", 1)[0] == 65
    assert timestamp_column(text, 65, JSONLD) is None


TRIPLE = '<http://ex.org/car1> <http://ex.org/speed> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <http://ex.org/traffic>'
QUERY = """REGISTER QUERY q AS
PREFIX : <http://ex.org/>
SELECT ?car ?speed
FROM STREAM <http://ex.org/traffic> [RANGE 6s STEP 3s]
WHERE { ?car :speed ?speed }
"""


@pytest.mark.parametrize("extra", [pytest.param([], id="local"),
                                   pytest.param(["--partitions", "2"], id="partitions")])
def test_lars_run_points_at_the_timestamp_that_goes_back(tmp_path, extra):
    stream = tmp_path / "s.nt"
    stream.write_text(f"{TRIPLE} 1\n{TRIPLE} 95\n{TRIPLE}  3 # 95 was a typo\n{TRIPLE} 96\n")
    query = tmp_path / "q.rq"
    query.write_text(QUERY)
    status, _, err = lars("run", query, "--stream", stream, *extra)
    line = assert_refused(status, err, stream)
    column = len(TRIPLE) + 3
    assert line.startswith(f"{stream}:3:{column}: error: timestamp 3 goes back in time (line 2 had 95)"), err
    assert stream.read_text().splitlines()[2][column - 1:].startswith("3 ")


def test_lars_run_of_a_lars_stream_points_at_the_timestamp(tmp_path):
    stream = tmp_path / "s.txt"
    stream.write_text("1: p(1)\n5: p(5)\n   4: p(5)\n")
    program = tmp_path / "p.lars"
    program.write_text("q(X) :- p(X).\n")
    status, _, err = lars("run", program, "--stream", stream)
    assert assert_refused(status, err, stream).startswith(
        f"{stream}:3:4: error: timestamp 4 goes back in time (line 2 had 5)"), err
