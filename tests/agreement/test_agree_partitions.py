"""``lars agree --partitions N`` (issue 30, item 3): each side solved range by range, as
``lars run --partitions N`` solves (:func:`agreement.runplan.solve`), gives the report of the
check solved in one process, verdicts, intervals and explanations alike, and notes how it split.

Inputs: CSRBench's queries and stream (Dell'Aglio et al., "On correctness in RDF stream
processor benchmarking", ISWC 2013; bundled in ``examples/csrbench``) as its Turtle folder (the
driver reads it and ships each range its slices) and as one timestamped N-Triples file (the
workers read their byte ranges themselves), and small generated streams."""

from __future__ import annotations

import os
import tempfile
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
QUERIES = sorted((CSRBENCH / "queries").glob("q*-cqels.rq"))
FAST = {"q1-cqels.rq"}
"""The queries checked without ``-m slow`` (each run of the others takes longer)."""


def lars(capsys, *argv: str | os.PathLike) -> tuple[int, str, list[str]]:
    """Exit status, stdout and stderr's lines of one in-process command."""
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err.splitlines()


EXPLAINED = "each reading its part of the file and explaining its disagreements"
"""How the note says the workers of a check over a stream file read and explain their ranges
(:mod:`agreement.agree.rangecheck`; time windows and the paper's pair)."""


def split_note(parts: int, where: str, reading: str) -> str:
    return f"note: --partitions {parts}: {parts} range(s) solved {where}, {reading}"


def same_when_cut(capsys, base: list, cut: list,
                  while_cut: AbstractContextManager = nullcontext()) -> tuple[int, list[str], list[str]]:
    """``lars BASE`` in one process, then ``lars BASE CUT`` (run inside ``while_cut``): the same
    stdout and exit status. Returns the exit status and each run's stderr lines, for the caller
    to compare but the notes on how the cut run split."""
    status, out, err = lars(capsys, *base)
    with while_cut:
        cut_status, cut_out, cut_err = lars(capsys, *base, *cut)
    assert (cut_status, cut_out) == (status, out)
    return status, err, cut_err


def same_with_partitions(capsys, query, stream, parts, note, *extra) -> None:
    """``lars agree`` with and without ``--partitions`` prints the same report and warnings,
    exits the same, and the cut run notes how it split (once)."""
    _, err, cut_err = same_when_cut(capsys, ["agree", query, "--stream", stream, *extra],
                                    ["--partitions", str(parts)])
    assert cut_err.count(note) == 1
    uncut = [line for line in err if not line.startswith("note: the stream is read by Spark")]
    assert [line for line in cut_err if line != note] == uncut  # (the uncut run says Spark only read)


@pytest.mark.parametrize("query", [pytest.param(q, id=q.stem, marks=() if q.name in FAST
                                                else pytest.mark.slow) for q in QUERIES])
def test_csrbench_folder_shipped(capsys, query):
    same_with_partitions(capsys, query, CSRBENCH / "stream", 3,
                         split_note(3, "in worker processes on this machine", "each shipped its slices"),
                         "--period", "10s")


@pytest.mark.parametrize("query", [pytest.param(q, id=q.stem, marks=() if q.name in FAST
                                                else pytest.mark.slow) for q in QUERIES])
def test_csrbench_file_read_by_the_workers(capsys, query, csrbench_file):
    same_with_partitions(capsys, query, csrbench_file, 3,
                         split_note(3, "in worker processes on this machine", EXPLAINED),
                         "--period", "10s")


@pytest.mark.slow
def test_csrbench_folder_as_json(capsys):
    """The bundled CSRBench folder (a copy of the shared data), the report as JSON."""
    same_with_partitions(capsys, CSRBENCH / "queries" / "q1-cqels.rq", CSRBENCH / "stream", 2,
                         split_note(2, "in worker processes on this machine", "each shipped its slices"),
                         "--period", "10s", "--format", "json")


@pytest.mark.spark
def test_csrbench_file_as_spark_tasks(capsys, csrbench_file, spark_master):
    same_with_partitions(capsys, CSRBENCH / "queries" / "q1-cqels.rq", csrbench_file, 2,
                         split_note(2, f"as Spark tasks on {spark_master}", EXPLAINED),
                         "--period", "10s", "--spark", "always", "--master", spark_master)


WINDOWS = ["[RANGE 4s SLIDE 2s]", "[RANGE 3s]", "[NOW]", "[TRIPLES 3]"]
"""Windows of the generated queries: time windows (a bounded history per range) and a tuple
window (every range reads from the stream's start)."""


def query_text(window: str) -> str:
    return ("PREFIX ex: <http://ex.org/>\n"
            f"SELECT ?s ?v WHERE {{ STREAM <http://ex.org/s> {window} {{ ?s ex:p ?v }} }}\n")


streams = st.dictionaries(st.integers(0, 24), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)),
                                                       min_size=1, max_size=3), min_size=4)
"""Streams of a few time points in ``[0, 24]``, one to three triples at each."""


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys: read after each run
@given(streams, st.sampled_from(WINDOWS), st.integers(2, 4), st.integers(2, 5),
       st.sampled_from([(), ("--profiles", "csparql,cqels"), ("--variant", "cautious")]))
def test_generated_streams(capsys, contents, window, parts, period, options):
    """On a generated stream file, cut into 2–4 ranges that the workers read, the report is the
    one computed in one process (a differential test of the two ways of solving the sides),
    for the paper's pair (brave or cautious CQELS) and under engine profiles (SPEC 12)."""
    with tempfile.TemporaryDirectory() as folder:
        stream, query = Path(folder) / "s.nt", Path(folder) / "q.rq"
        stream.write_text("".join(f"<http://ex.org/a{a}> <http://ex.org/p> <http://ex.org/v{v}> "
                                  f"<http://ex.org/s> {t}\n"
                                  for t in sorted(contents) for a, v in contents[t]))
        query.write_text(query_text(window))
        base = ["agree", query, "--stream", stream, "--period", f"{period}s", *options]
        status, out, err = lars(capsys, *base)
        cut_status, cut_out, cut_err = lars(capsys, *base, "--partitions", str(parts))
        assert (cut_status, cut_out) == (status, out)
        if status == 2:  # refused before solving (a timeline holding no pulling interval)
            assert cut_err == err
            return
        notes = [line for line in cut_err if line.startswith(f"note: --partitions {parts}: ")]
        explained = "--profiles" not in options and "TRIPLES" not in window  # else the driver explains
        assert len(notes) == 1 and notes[0].endswith(
            "solved in worker processes on this machine, "
            + (EXPLAINED if explained else "each reading its part of the file"))
        assert [line for line in cut_err if line not in notes] == err


def test_a_bad_line_read_by_a_worker_is_the_same_one_line_error(capsys, tmp_path):
    """A bad line in the middle range: the worker reading it and the driver reading in step
    report it as the run in one process does, with its line and column, exit 2."""
    lines = [f"<http://ex.org/a> <http://ex.org/p> <http://ex.org/v{t}> <http://ex.org/s> {t}\n"
             for t in range(30)]
    lines[15] = '<http://ex.org/a> <http://ex.org/p> "open <http://ex.org/s> 15\n'
    stream, query = tmp_path / "s.nt", tmp_path / "q.rq"
    stream.write_text("".join(lines))
    query.write_text(query_text("[RANGE 3s]"))
    base = ["agree", query, "--stream", stream, "--period", "5s"]
    status, out, err = lars(capsys, *base)
    assert status == 2 and out == "" and len(err) == 1 and err[0].startswith(f"{stream}:16:")
    assert lars(capsys, *base, "--partitions", "3") == (status, out, err)
