"""A hostile newcomer's findings (issue 28): an integer literal longer than Python converts
(4300 digits) is refused in one line with its
place, in a query, a stream and static data; it was an internal error (newcomer, issue 28)."""

from __future__ import annotations

from tests.badinput.clirun import assert_refused, lars

XSD_INTEGER = "<http://www.w3.org/2001/XMLSchema#integer>"
QUERY = ("PREFIX : <http://ex.org/>\nSELECT ?s WHERE { STREAM :s [RANGE 3s] { ?s :v ?v } "
         "FILTER(?v > %s) }\n")


def files(tmp_path, digits_in_query: int, digits_in_stream: int):
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY % ("7" * digits_in_query))
    stream.write_text(f'<http://ex.org/a> <http://ex.org/v> "{"9" * digits_in_stream}"^^{XSD_INTEGER} '
                      "<http://ex.org/s> 1\n")
    return query, stream


def test_in_the_query(tmp_path):
    query, stream = files(tmp_path, 5000, 3)
    message = assert_refused(*lars("run", query, "--stream", stream)[::2], query)
    assert "integer of 5000 characters" in message


def test_in_the_stream_with_its_line(tmp_path):
    query, stream = files(tmp_path, 3, 5000)
    message = assert_refused(*lars("run", query, "--stream", stream)[::2], f"{stream}:1")
    assert "integer of 5000 characters" in message


def test_at_the_limit_it_is_read_and_compared_by_value(tmp_path):
    query, stream = files(tmp_path, 4299, 4300)
    status, out, err = lars("run", query, "--stream", stream)
    assert status == 0 and "<http://ex.org/a>" in out, err


def test_output_in_a_missing_folder_is_refused_before_any_work(tmp_path):
    """(newcomer, issue 28) ``lars witness --output`` into a folder that does not exist ran the
    whole search, then lost the witness; every command now refuses it first."""
    query, stream = files(tmp_path, 3, 3)
    target = tmp_path / "missing" / "w.nt"
    for argv in (["run", query, "--stream", stream], ["witness", query, "--period", "2s"]):
        message = assert_refused(*lars(*argv, "--output", target)[::2], target)
        assert "does not exist" in message
