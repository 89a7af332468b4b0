"""Errors that happen on a Spark executor reach the user as one line (issue 30).

No Spark session is started here: the conversion of what pyspark hands back is tested on the
texts it carries (a Python worker's traceback inside a Java stack trace), and a worker's input
is read from a folder other than the driver's, as an executor reads it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ingest.ranges import file_ranges
from lars.errors import InputError
from lars.streams import Timeline
from solver.spark import remote_error
from translate.rdf import RdfTermEncoder

WORKER_TRACE = """An error occurred while calling o52.collectToPython.
: org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 1.0 failed 4 times
org.apache.spark.api.python.PythonException: Traceback (most recent call last):
  File "/opt/spark/python/pyspark/worker.py", line 1247, in main
    process()
  File "/work/ingest/ranges.py", line 150, in first_line_number
    with open(self.path, "rb") as file:
FileNotFoundError: [Errno 2] No such file or directory: 'stream.nt'

\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:572)
"""

OUR_TRACE = """org.apache.spark.api.python.PythonException: Traceback (most recent call last):
  File "/work/ingest/ranges.py", line 130, in __call__
lars.errors.ParseError: stream.nt:3:12: error: expected an IRI or a literal but found '@'
\tat org.apache.spark.api.python.BasePythonRunner
"""


def test_a_remote_failure_is_one_line_naming_the_job_and_the_cause():
    error = remote_error(RuntimeError(WORKER_TRACE), "solving the time ranges", "spark://h:7077")
    assert str(error) == ("error: solving the time ranges failed on Spark (spark://h:7077): "
                          "FileNotFoundError: [Errno 2] No such file or directory: 'stream.nt' "
                          "(run with --debug for the remote trace)")
    assert "\n" not in str(error)


def test_an_error_of_ours_raised_remotely_arrives_as_the_line_it_printed():
    error = remote_error(RuntimeError(OUR_TRACE), "slicing the stream", "spark://h:7077")
    assert str(error) == "stream.nt:3:12: error: expected an IRI or a literal but found '@'"


def test_an_unknown_failure_keeps_its_first_line():
    error = remote_error(RuntimeError("connection refused\nmore"), "slicing the stream", "local[2]")
    assert str(error).startswith("error: slicing the stream failed on Spark (local[2]): "
                                 "connection refused")


STREAM = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> {}\n"


def test_a_range_of_a_relative_path_is_read_from_another_working_folder(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "s.nt").write_text("".join(STREAM.format(t) for t in range(6)), encoding="utf-8")
    monkeypatch.chdir(data)
    ranges = file_ranges("s.nt", 2, 1, timeline=Timeline(0, 5), encoder=RdfTermEncoder())
    elsewhere = tmp_path / "executor"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # an executor's own folder
    times = [time for _, source in ranges for time, _ in source([])]
    assert sorted(set(times)) == list(range(6))
    assert all(source.name == "s.nt" and os.path.isabs(source.path) for _, source in ranges)


def test_a_range_whose_file_is_gone_is_an_input_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("s.nt").write_text("".join(STREAM.format(t) for t in range(6)), encoding="utf-8")
    (_, first), (_, second) = file_ranges("s.nt", 2, 1, timeline=Timeline(0, 5),
                                          encoder=RdfTermEncoder())
    Path("s.nt").unlink()
    with pytest.raises(InputError, match=r"^s\.nt: error: cannot read the file"):
        list(second([]))
    with pytest.raises(InputError, match="cannot read the file"):
        second.first_line_number()
