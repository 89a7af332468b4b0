"""``lars agree --partitions N`` over a stream file reads no triple on the driver (issue 30, item
3): the workers send back the time points with input, condition (ii)'s merged triples and the
streams met (:mod:`agreement.agree.arrivals`), the driver re-reads only the windows of the
intervals it explains, and the report is byte for byte the one of the check in one process.

Inputs: generated streams on two streams (triples of the stream the query does not read never
reach C-SPARQL's default graph: the paper's τ1 imports the streams it registers).  Condition (ii)
on the stream is checked with a C-SPARQL query that registers both streams.
CSRBench's seven queries over its stream as one N-Triples file, as Spark tasks with the driver
reading nothing, are checked in ``test_agree_partitions.py``, beside the worker processes' run
of them, with which they share each query's run in one process.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement.agree.arrivals import WindowReader
from agreement.agree.plan import CheckPlan
from agreement.facade import check_agreement
from tests.agreement.test_agree_partitions import driver_reads_nothing, lars, same_when_cut


def same_report(capsys, monkeypatch, base: list, *cut: str) -> None:
    """``lars agree`` in one process, then cut with the driver forbidden to read the stream:
    the same stdout, exit status and warnings (but the one note on how it split)."""
    status, err, cut_err = same_when_cut(capsys, base, list(cut), driver_reads_nothing(monkeypatch))
    if status != 2:
        assert [line for line in cut_err if not line.startswith("note: --partitions")] == err


WINDOWS = ["[RANGE 4s SLIDE 2s]", "[RANGE 3s]", "[NOW]", "[RANGE 5s SLIDE 5s]"]


def query_text(window: str) -> str:
    return ("PREFIX ex: <http://ex.org/>\n"
            f"SELECT ?s ?v WHERE {{ STREAM <http://ex.org/s> {window} {{ ?s ex:p ?v }} }}\n")


triples = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from(["s", "s", "r"])),
                   min_size=1, max_size=3)
streams = st.dictionaries(st.integers(0, 24), triples, min_size=4)
"""A few time points in ``[0, 24]``, one to three triples at each, some on the stream ``r``
that the query does not read (C-SPARQL merges them into its default graph)."""


def write_stream(folder: Path, contents: dict, window: str) -> tuple[Path, Path]:
    stream, query = folder / "s.nt", folder / "q.rq"
    stream.write_text("".join(f"<http://ex.org/a{a}> <http://ex.org/p> <http://ex.org/v{v}> "
                              f"<http://ex.org/{name}> {t}\n"
                              for t in sorted(contents) for a, v, name in contents[t]))
    query.write_text(query_text(window))
    return stream, query


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(streams, st.sampled_from(WINDOWS), st.integers(2, 4), st.integers(2, 5),
       st.sampled_from([(), ("--variant", "cautious"), ("--max-explanations", "1")]))
def test_generated_streams_in_workers(capsys, monkeypatch, contents, window, parts, period, options):
    """Worker processes: the report of the check in one process (a differential test)."""
    with tempfile.TemporaryDirectory() as folder:
        stream, query = write_stream(Path(folder), contents, window)
        same_report(capsys, monkeypatch, ["agree", query, "--stream", stream, "--period", f"{period}s",
                                          *options], "--partitions", str(parts))


@pytest.mark.spark
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(streams, st.sampled_from(WINDOWS), st.integers(2, 3), st.integers(2, 5))
def test_generated_streams_as_spark_tasks(capsys, monkeypatch, spark_master, contents, window,
                                          parts, period):
    """Spark tasks in local mode (``--spark always``): the same report."""
    with tempfile.TemporaryDirectory() as folder:
        stream, query = write_stream(Path(folder), contents, window)
        same_report(capsys, monkeypatch, ["agree", query, "--stream", stream, "--period", f"{period}s"],
                    "--partitions", str(parts), "--spark", "always", "--master", spark_master)


def test_merged_triples_counted_by_the_workers(capsys, monkeypatch, tmp_path):
    """A triple at each of 0..11 on the stream ``r``, which only the C-SPARQL query reads (it
    merges ``r`` into its default graph; CQELS reads ``s`` alone), cut into three ranges: the
    interval (6,8] is explained once the answers at 10 are compared, and condition (ii) counts
    the 11 triples up to 10 and shows the first ten, as the driver reading them all does."""
    contents = {t: [(t % 3, t % 2, "r")] + [(0, 0, "s")] * (t < 3) for t in range(12)}
    stream, query = write_stream(tmp_path, contents, "[RANGE 4s SLIDE 2s]")
    csparql = tmp_path / "cs.rq"
    csparql.write_text("REGISTER QUERY q AS\nPREFIX ex: <http://ex.org/>\nSELECT ?s ?v\n"
                       "FROM STREAM <http://ex.org/s> [RANGE 4s STEP 2s]\n"
                       "FROM STREAM <http://ex.org/r> [RANGE 4s STEP 2s]\nWHERE { ?s ex:p ?v }\n")
    base = ["agree", query, "--csparql", csparql, "--stream", stream, "--period", "2s"]
    status, out, _ = lars(capsys, *base)
    assert "11 triples on <http://ex.org/r>" in out and "(the first 10 shown)" in out
    same_report(capsys, monkeypatch, base, "--partitions", "3")


def test_the_view_counts_triples_as_read(monkeypatch, tmp_path):
    """The notebook's view of a partitioned check: the triples at each time point with input,
    as counted by the workers, and the verdicts of the view in one process."""
    contents = {t: [(0, t % 3, "s")] * (1 + t % 3) for t in range(0, 20, 2)}
    stream, query = write_stream(tmp_path, contents, "[RANGE 3s]")
    whole = check_agreement(str(query), stream=str(stream), period="4s")
    monkeypatch.setattr(CheckPlan, "slices", lambda self: pytest.fail("the driver read the stream"))
    cut = check_agreement(str(query), stream=str(stream), period="4s", partitions=2)
    assert cut.input_counts == whole.input_counts == {t: 1 + t % 3 for t in range(0, 20, 2)}
    assert cut.report.verdicts == whole.report.verdicts


def test_window_reader_seeks_to_the_interval(tmp_path):
    """The file re-read for an explanation: the slices at ``[lo, hi]`` only, lines that name no
    stream given the query's one."""
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'<http://ex.org/a> <http://ex.org/p> "{t}" {t // 2}\n' for t in range(20)))
    reader = WindowReader(str(stream), sole=__import__("rdflib").URIRef("http://ex.org/s"))
    got = list(reader.slices(3, 5))
    assert [t for t, _ in got] == [3, 4, 5]
    assert [str(e.triple[2]) for _, elements in got for e in elements] == [str(i) for i in range(6, 12)]
    assert {str(e.stream) for _, elements in got for e in elements} == {"http://ex.org/s"}
    assert [t for t, _ in reader.slices(8, None)] == [8, 9]


def test_the_workers_explain_and_the_driver_merges(capsys, monkeypatch, tmp_path):
    """Over a stream file cut into three ranges, the disagreeing intervals of the first two
    (four, some ending next to a range's edge, explained with the next range's answers) were
    explained by their workers (condition (iii) and shifted answers come back with the answers;
    the driver adds condition (ii) before them); under the cap (20 by default) the third range
    explains none, and the driver explains its two itself (``EXPLAINING``); the report is the
    one of the check in one process."""
    from agreement.agree.rangecheck import EXPLAINING
    from agreement.agree.streaming import ComputedCheck
    contents = {t: [(t % 3, t % 2, "s"), (0, t % 3, "r")] for t in range(24) if t % 5 != 4}
    stream, query = write_stream(tmp_path, contents, "[RANGE 4s SLIDE 2s]")
    base = ["agree", query, "--stream", stream, "--period", "3s"]
    status, out, _ = lars(capsys, *base)
    assert status == 1 and "snapshot-differs" in out
    explain, given = ComputedCheck.explain, []

    def merged(self, verdict, history, pulled, pushed, found=None):
        given.append(found)
        return explain(self, verdict, history, pulled, pushed, found)

    monkeypatch.setattr(ComputedCheck, "explain", merged)
    assert lars(capsys, *base, "--partitions", "3")[:2] == (status, out)
    assert EXPLAINING == 2
    assert [found is not None for found in given] == [True] * 4 + [False] * 2  # (3,6] to (21,24]
