"""The lazy RDF stream input of ``lars run``: the ends of a stream without reading it through,
the timeline, and answers equal to evaluating the whole stream read at once."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agreement.facade import prepare_run
from ingest.options import ReadOptions
from ingest.eager import query_data, read_rdf_stream, static_graphs
from ingest import lazy as rdfinput
from ingest.lazy import (
    choose_timeline, edge_time_point, lines_from_end, stream_reader, uses_spark,
)
from lars.errors import InputError
from ingest.policy import ReadReport
from lars.streams import Timeline
from solver.strategies import evaluate, slices_of
from translate.api import parse_query, translate

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
Q1 = CSRBENCH / "queries" / "q1-cqels.rq"
LINE = "<http://ex.org/s{i}> <http://ex.org/p> \"{i}\" <http://ex.org/str> {t}\n"


@given(st.lists(st.text(alphabet="ab\r\n", max_size=12), max_size=8), st.integers(1, 5))
def test_lines_from_end_are_the_lines_reversed(tmp_path_factory, chunks, block):
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    data = "".join(chunks).encode()
    path.write_bytes(data)
    expected = [line.removesuffix(b"\r") for line in data.split(b"\n")]
    assert list(lines_from_end(str(path), block)) == expected[::-1]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.nt"
    path.write_text(text)
    return str(path)


def test_ends_skip_blank_comment_and_bad_lines(tmp_path):
    path = write(tmp_path, "# head\n\nnot a triple 3\n" + LINE.format(i=1, t=-4) + LINE.format(i=2, t=9)
                 + "<http://ex.org/a> <http://ex.org/p> broken 12\n# tail\n\n")
    assert edge_time_point(path, None, last=False) == -4
    assert edge_time_point(path, None, last=True) == 9


def test_ends_of_an_empty_stream_are_none(tmp_path):
    path = write(tmp_path, "# nothing\n")
    assert edge_time_point(path, None, last=False) is None
    assert edge_time_point(path, None, last=True) is None
    assert choose_timeline(None, None, None, None) == Timeline(0, 0)


def test_ends_of_a_turtle_folder_are_its_first_and_last_files_with_triples():
    assert edge_time_point(str(CSRBENCH / "stream"), None, last=False) == 0
    assert edge_time_point(str(CSRBENCH / "stream"), None, last=True) == 33


def test_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read the file"):
        edge_time_point(str(tmp_path / "missing.nt"), None, last=True)


@pytest.mark.parametrize("start, end", [(None, None), (3, None), (None, 20), (5, 12)])
def test_lazy_slices_are_the_stream_read_at_once_inside_the_timeline(tmp_path, start, end):
    rng = random.Random(start or 0)
    times = sorted(rng.randrange(0, 30) for _ in range(60))
    path = write(tmp_path, "".join(LINE.format(i=i, t=t) for i, t in enumerate(times)))
    options = ReadOptions(spark="never")
    read, first, last = stream_reader(path, options, ReadReport())
    line = choose_timeline(first, last, start, end)
    assert line == Timeline(0 if start is None else start, times[-1] if end is None else end)
    elements, whole = read_rdf_stream(path, options, ReadReport(), (start, end))
    assert whole == line
    lazy = [element for t, slice_ in read() if t in line for element in slice_]
    assert lazy == elements


def test_a_run_reads_the_stream_lazily_and_answers_as_the_whole_stream_does():
    """``lars run``'s lazy path equals evaluating the stream materialized (as ``lars agree`` reads it)."""
    plan = prepare_run(Q1, stream=CSRBENCH / "stream")
    translation = translate(parse_query(Q1.read_text(), str(Q1)), "cqels")
    elements, line = read_rdf_stream(str(CSRBENCH / "stream"), ReadOptions(), ReadReport())
    data = query_data([translation], elements, static_graphs([], translation.query), line)
    whole = list(evaluate(translation.program, slices_of(data.stream), line, data.background))
    lazy = list(plan.answers())
    assert plan.timeline == line == Timeline(0, 33)
    assert [a.time for a in lazy] == list(line)
    assert any(stream for a in lazy for stream in a.streams)
    assert [answer_atoms(a) for a in lazy] == [answer_atoms(a, translation.answer.predicate) for a in whole]


def answer_atoms(answer, predicate=None) -> list:
    """The (chopped) answer atoms at one time point, comparable across both paths."""
    return [sorted((repr((a.predicate, a.args[:2])) for a, _ in stream
                    if predicate is None or a.predicate == predicate)) for stream in answer.streams]


def test_each_pass_reads_the_stream_again_and_counts_its_triples():
    plan = prepare_run(Q1, stream=CSRBENCH / "stream", end=12)
    first, second = plan.view(), plan.view()
    assert list(first) == list(second) and first.timeline == (0, 12)
    elements, _ = read_rdf_stream(str(CSRBENCH / "stream"), ReadOptions(), ReadReport(), (None, 12))
    counts: dict[int, int] = {}
    for element in elements:
        counts[element.time] = counts.get(element.time, 0) + 1
    assert first.input_counts == second.input_counts == counts and len(counts) == 13


def test_a_skipped_backwards_last_line_does_not_cut_the_timeline(tmp_path):
    """Issue 18: the timeline ends at the largest time point, not at the last line's."""
    path = write(tmp_path, LINE.format(i=1, t=1) + LINE.format(i=2, t=8) + LINE.format(i=3, t=4))
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?s WHERE { STREAM <http://ex.org/str> [RANGE 2s SLIDE 1s] { ?s ?p ?o } }")
    plan = prepare_run(query, stream=path, on_error="skip")
    assert plan.timeline == Timeline(0, 8)
    assert [a.time for a in plan.answers()] == list(range(9))
    assert plan.warnings == (
        "warning: skipped 1 bad record:",
        f"  {path}:3:62: error: timestamp 4 goes back in time (line 2 had 8)")


@pytest.mark.parametrize("times, line", [
    pytest.param((3, 15, 18, 12), 4, id="last-line-back"),
    pytest.param((3, 18, -5), 3, id="last-line-negative"),
    pytest.param((3, 15, 18, 19, 2, 19), 5, id="middle-line-back-last-line-largest"),
])
def test_a_backwards_line_is_refused_wherever_it_is(tmp_path, times, line):
    path = write(tmp_path, "".join(LINE.format(i=i, t=t) for i, t in enumerate(times)))
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?s WHERE { STREAM <http://ex.org/str> [RANGE 2s] { ?s ?p ?o } }")
    with pytest.raises(InputError, match=f"^{path}:{line}:62: error: timestamp .* goes back in time"):
        list(prepare_run(query, stream=path).answers())


@pytest.mark.parametrize("first, last, start, end, message", [
    (None, 5, 7, None, "--from 7 is after the last time point with input, 5"),
    (0, 5, None, -3, "--to -3 is before the first time point of the timeline, 0"),
    (0, 5, 4, 2, r"empty timeline \[4,2\]: --from is after --to"),
])
def test_an_empty_timeline_names_the_option_that_makes_it(first, last, start, end, message):
    with pytest.raises(InputError, match=message):
        choose_timeline(first, last, start, end)


@pytest.mark.parametrize("spark, master, path, size, expected", [
    ("always", "local[*]", "s.nt", 1, True),
    ("never", "spark://host:7077", "s.nt", 10**9, False),
    ("auto", "spark://host:7077", "s.nt", 10**9, True),   # big, on a cluster
    ("auto", "spark://host:7077", "s.nt", 1, False),      # small: Spark's start is not worth it
    ("auto", "local[*]", "s.nt", 10**9, False),           # one machine: in process is faster
    ("auto", "local[2]", "hdfs://nn/s.nt", 0, True),      # only Spark can open it
])
def test_auto_uses_spark_for_big_inputs_on_a_cluster_only(monkeypatch, spark, master, path, size,
                                                          expected):
    monkeypatch.setattr(rdfinput, "input_bytes", lambda _: size)
    assert uses_spark(path, spark, master) is expected


def test_an_unknown_spark_choice_is_refused():
    with pytest.raises(InputError, match="unknown --spark choice 'sometimes'"):
        uses_spark("s.nt", "sometimes", "local[*]")


@pytest.mark.parametrize("setting, size, expected", [("0", 1, True), ("2", 2 * 2**20, False),
                                                     ("2", 2 * 2**20 + 1, True)])
def test_the_threshold_can_be_set_in_mib(monkeypatch, setting, size, expected):
    monkeypatch.setenv("LARS_SPARK_THRESHOLD_MIB", setting)
    monkeypatch.setattr(rdfinput, "input_bytes", lambda _: size)
    assert uses_spark("s.nt", "auto", "spark://host:7077") is expected


def test_a_threshold_that_is_no_number_is_refused(monkeypatch):
    monkeypatch.setenv("LARS_SPARK_THRESHOLD_MIB", "1.5G")
    with pytest.raises(InputError, match="LARS_SPARK_THRESHOLD_MIB must be a whole number of MiB, "
                                         "not '1.5G'"):
        uses_spark("s.nt", "auto", "spark://host:7077")
