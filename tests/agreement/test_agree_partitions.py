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
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement.agree.plan import CheckPlan
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


Run = tuple[int, str, list[str]]
"""Exit status, stdout and stderr's lines of one command."""


def same_when_cut(capsys, base: list, cut: list, while_cut: AbstractContextManager = nullcontext(),
                  reference: Run | None = None) -> tuple[int, list[str], list[str]]:
    """``lars BASE`` in one process (or its ``reference`` run), then ``lars BASE CUT`` (run inside
    ``while_cut``): the same stdout and exit status. Returns the exit status and each run's
    stderr lines, for the caller to compare but the notes on how the cut run split."""
    status, out, err = reference or lars(capsys, *base)
    with while_cut:
        cut_status, cut_out, cut_err = lars(capsys, *base, *cut)
    assert (cut_status, cut_out) == (status, out)
    return status, err, cut_err


def same_with_partitions(capsys, base: list, cut: list, note: str,
                         while_cut: AbstractContextManager = nullcontext(),
                         reference: Run | None = None) -> None:
    """``lars BASE`` with and without ``CUT`` (``--partitions`` and the rest) prints the same
    report and warnings, exits the same, and the cut run notes how it split (once)."""
    _, err, cut_err = same_when_cut(capsys, base, cut, while_cut, reference)
    assert cut_err.count(note) == 1
    uncut = [line for line in err if not line.startswith("note: the stream is read by Spark")]
    assert [line for line in cut_err if line != note] == uncut  # (the uncut run says Spark only read)


@contextmanager
def driver_reads_nothing(monkeypatch) -> Iterator[None]:
    """Inside: the driver of ``lars agree --partitions`` fails the test if it reads the stream."""
    with monkeypatch.context() as patch:
        patch.setattr(CheckPlan, "slices", lambda self: pytest.fail("the driver read the stream"))
        yield


CSRBENCH_REPORTS: dict[tuple[str, str], Run] = {}
"""The in-process runs of :func:`csrbench_check`, by query and stream."""


def csrbench_check(capsys, query: Path, stream: Path) -> tuple[list, Run]:
    """``agree QUERY --stream STREAM --period 10s`` and its run in one process, made once per
    query and stream in this module: the reference of each cut run of it here (in worker
    processes and as Spark tasks). Each takes seconds, Q7's about 15 s of CPU; the inputs are
    the bundled files and the session's stream file, which no test changes."""
    base = ["agree", query, "--stream", stream, "--period", "10s"]
    key = (str(query), str(stream))
    if key not in CSRBENCH_REPORTS:
        CSRBENCH_REPORTS[key] = lars(capsys, *base)
    return base, CSRBENCH_REPORTS[key]


def csrbench_cut(capsys, query: Path, stream: Path, cut: list, note: str,
                 while_cut: AbstractContextManager = nullcontext()) -> None:
    """:func:`same_with_partitions` for a CSRBench query over ``stream``, period 10 s."""
    base, reference = csrbench_check(capsys, query, stream)
    same_with_partitions(capsys, base, cut, note, while_cut, reference)


CSRBENCH_QUERIES = [pytest.param(q, id=q.stem, marks=() if q.name in FAST else pytest.mark.slow)
                    for q in QUERIES]


@pytest.mark.parametrize("query", CSRBENCH_QUERIES)
def test_csrbench_folder_shipped(capsys, query):
    csrbench_cut(capsys, query, CSRBENCH / "stream", ["--partitions", "3"],
                 split_note(3, "in worker processes on this machine", "each shipped its slices"))


@pytest.mark.parametrize("query", CSRBENCH_QUERIES)
def test_csrbench_file_read_by_the_workers(capsys, query, csrbench_file):
    csrbench_cut(capsys, query, csrbench_file, ["--partitions", "3"],
                 split_note(3, "in worker processes on this machine", EXPLAINED))


@pytest.mark.spark
@pytest.mark.parametrize("query", CSRBENCH_QUERIES)
def test_csrbench_file_as_spark_tasks(capsys, monkeypatch, csrbench_file, spark_master, query):
    """CSRBench Q1–Q7 as Spark tasks in local mode, the driver reading no triple: the report
    in one process, byte for byte (Q2–Q7 only with ``-m slow``: 30–70 s each on a shared 2-core
    machine); its in-process run is the one the test above compares with."""
    csrbench_cut(capsys, query, csrbench_file,
                 ["--partitions", "2", "--spark", "always", "--master", spark_master],
                 split_note(2, f"as Spark tasks on {spark_master}", EXPLAINED),
                 driver_reads_nothing(monkeypatch))


@pytest.mark.slow
def test_csrbench_folder_as_json(capsys):
    """The bundled CSRBench folder (a copy of the shared data), the report as JSON."""
    same_with_partitions(capsys, ["agree", CSRBENCH / "queries" / "q1-cqels.rq", "--stream",
                                  CSRBENCH / "stream", "--period", "10s", "--format", "json"],
                         ["--partitions", "2"],
                         split_note(2, "in worker processes on this machine", "each shipped its slices"))


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
