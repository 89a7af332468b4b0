"""A stream file cut into ranges that workers read themselves (ingest/ranges.py).

The driver finds the boundaries by seeking; each range must read exactly the lines of its own
time points plus the history its windows need, and the ranges solved apart must answer what the
uncut run answers: on random streams with random cut points and windows, and through ``lars
run --partitions`` on CSRBench Q1 (both forms), including its errors.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.cli.app import main
from ingest.encoded import EncodedLines
from ingest.lazy import rdf_slices
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from ingest.ranges import FileRange, cuttable, file_ranges, plan_ranges
from ingest.rdffiles import read_turtle_folder
from lars.parser import parse_program
from lars.streams import Timeline
from solver.partition import evaluate_ranges, history_needed
from solver.strategies import evaluate
from translate.rdf import RdfTermEncoder

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
STREAM = URIRef("http://ex.org/streams/test")


def line(index: int, t: int, named: bool = True) -> str:
    stream = f" <{STREAM}>" if named else ""
    return f'<http://ex.org/s{index % 3}> <http://ex.org/p> "{index}"{stream} {t}\n'


@st.composite
def stream_files(draw) -> list[str]:
    """The lines of a stream file: ascending time points with gaps, 1-4 triples each, now and
    then a blank or comment line, and triples that name no stream."""
    lines, t = [], draw(st.integers(-3, 2))
    for _ in range(draw(st.integers(1, 25))):
        t += draw(st.integers(0, 4))
        for _ in range(draw(st.integers(1, 4))):
            lines.append(line(len(lines), t, draw(st.booleans())))
        lines.extend(draw(st.sampled_from([[], [], ["\n"], ["# note\n"]])))
    return lines


def write(tmp_path_factory, lines: list[str]) -> str:
    path = tmp_path_factory.mktemp("ranges") / "s.nt"
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


def whole_slices(path: str) -> dict[int, tuple]:
    """The file's slices of ``striple`` atoms, read whole as ``lars run`` reads it uncut."""
    encoded = EncodedLines(RdfTermEncoder(), STREAM)
    return dict(rdf_slices(path, ReadOptions(), ReadReport(), encoded))


def timeline_of(slices: dict[int, tuple]) -> Timeline:
    return Timeline(min(0, min(slices)), max(slices))


@settings(max_examples=150, deadline=None)
@given(stream_files(), st.integers(1, 6), st.one_of(st.none(), st.integers(0, 6)))
@example([line(0, 0), line(1, 5)], 2, 0)
def test_each_range_reads_its_time_points_and_the_history_before_them(
        tmp_path_factory, lines, parts, history):
    path = write(tmp_path_factory, lines)
    whole = whole_slices(path)
    timeline = timeline_of(whole)
    planned = plan_ranges(path, parts, timeline, history, STREAM)
    spans = [span for span, _ in planned]
    assert spans[0].start == timeline.start and spans[-1].end == timeline.end
    assert all(a.end + 1 == b.start for a, b in itertools.pairwise(spans))
    assert 1 <= len(planned) <= parts
    for span, (start, end) in planned:
        source = FileRange(path, start, end, RdfTermEncoder(), stream_iri=STREAM)
        read = dict(source([]))
        reach = timeline.start if history is None else span.start - history
        needed = {t: triples for t, triples in whole.items() if reach <= t <= span.end}
        assert {t: triples for t, triples in read.items() if t >= reach} == needed
        assert all(t <= span.end for t in read)


PROGRAMS = [
    "q(O) :- [{l},0,{d}] <> striple(S,P,O,G).",
    "q(S) :- [{l}] [] striple(S,P,O,G).",
    "q(O) :- [{l},0,{d}] <> striple(S,P,O,G), not [{d}] <> striple(O,P,S,G).",
    "@T q(O) :- [{l}] @T striple(S,P,O,G).",
]


@settings(max_examples=100, deadline=None)
@given(stream_files(), st.integers(2, 6), st.sampled_from(PROGRAMS), st.integers(0, 5),
       st.integers(1, 4))
def test_ranges_read_by_workers_answer_as_the_uncut_run(tmp_path_factory, lines, parts, text,
                                                       length, step):
    path = write(tmp_path_factory, lines)
    program = parse_program(text.format(l=length, d=step))
    encoder = RdfTermEncoder()
    slices = list(whole_slices(path).items())
    timeline = Timeline(min(0, slices[0][0]), slices[-1][0])
    expected = list(evaluate(program, slices, timeline))
    ranges = file_ranges(path, parts, history_needed(program).ticks, timeline=timeline,
                         encoder=encoder, sole=STREAM, sole_note="note")
    assert list(evaluate_ranges(program, ranges, timeline, strategy="auto")) == expected


def test_only_local_files_read_under_the_default_policy_are_cut(tmp_path):
    path = tmp_path / "s.nt"
    path.write_text(line(0, 0))
    assert cuttable(str(path), ReadOptions())
    assert not cuttable(str(path), ReadOptions(on_error="skip"))
    assert not cuttable(str(path), ReadOptions(order="sort"))
    assert not cuttable(str(tmp_path), ReadOptions())
    assert not cuttable("hdfs://host/s.nt", ReadOptions())


# --- lars run --partitions on a stream file ----------------------------------------------------

@pytest.fixture(scope="module")
def csrbench_nt(tmp_path_factory) -> Path:
    """The bundled CSRBench stream as one timestamped N-Triples file."""
    path = tmp_path_factory.mktemp("csrbench") / "stream.nt"
    with path.open("w", encoding="utf-8") as out:
        for element in read_turtle_folder(CSRBENCH / "stream"):
            out.write(" ".join(term.n3() for term in element.triple) + f" <{STREAM}> {element.time}\n")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["run", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("form, mode", [
    pytest.param("q1-cqels", [], id="cqels"),
    pytest.param("q1-csparql", [], id="csparql"),
    pytest.param("q1-cqels", ["--mode", "push"], id="cqels-push"),
    pytest.param("q1-csparql", ["--mode", "pull", "--period", "7s"], id="csparql-pull-7s"),
])
@pytest.mark.parametrize("parts", ["2", "7"])
def test_lars_run_partitions_read_by_workers_equal_the_uncut_run(csrbench_nt, capsys, form, mode,
                                                                  parts):
    query = str(CSRBENCH / "queries" / f"{form}.rq")
    argv = [query, "--stream", str(csrbench_nt), "--format", "json", "--spark", "never", *mode]
    status, whole, _ = run(capsys, *argv)
    assert status == 0 and whole.count('"time"') > 10
    status, cut, err = run(capsys, *argv, "--partitions", parts)
    assert (status, cut) == (0, whole)
    assert err.splitlines() == [f"note: --partitions {parts}: {parts} range(s) solved in worker "
                                "processes on this machine, each reading its part of the file"]


def test_the_default_spark_choice_solves_ranges_in_worker_processes(csrbench_nt, capsys, monkeypatch):
    """``--spark auto`` with a ``local[...]`` master starts no Spark session for the ranges."""
    import solver.spark

    monkeypatch.setattr(solver.spark, "_start", lambda *args: pytest.fail("Spark started"))
    query = str(CSRBENCH / "queries" / "q1-cqels.rq")
    assert run(capsys, query, "--stream", str(csrbench_nt), "--partitions", "2")[0] == 0


@pytest.mark.parametrize("bad, at", [
    pytest.param('<http://ex.org/a> <http://ex.org/p> "x <http://ex.org/s> {t}\n', 700, id="bad-line"),
    pytest.param(line(0, 3), 650, id="back-in-time"),
    pytest.param(line(0, 3), 1, id="back-in-time-early"),
])
def test_a_bad_line_in_any_range_is_the_uncut_runs_error(tmp_path, capsys, bad, at):
    lines = [line(i, 5 + i // 10) for i in range(1000)]
    lines.insert(at, bad.format(t=5 + at // 10))
    path = tmp_path / "s.nt"
    path.write_text("".join(lines), encoding="utf-8")
    argv = [str(CSRBENCH / "queries" / "q1-cqels.rq"), "--stream", str(path), "--spark", "never"]
    status, _, error = run(capsys, *argv)
    assert status == 2 and f"s.nt:{at + 1}" in error
    for parts in ("2", "3"):
        assert run(capsys, *argv, "--partitions", parts)[::2] == (status, error)


def test_triples_naming_no_stream_are_noted_once(tmp_path, capsys):
    path = tmp_path / "s.nt"
    path.write_text("".join(line(i, i // 4, named=False) for i in range(200)), encoding="utf-8")
    argv = [str(CSRBENCH / "queries" / "q1-cqels.rq"), "--stream", str(path), "--spark", "never"]
    whole = run(capsys, *argv)
    assert whole[0] == 0 and whole[2].count("names no stream") == 1
    status, out, err = run(capsys, *argv, "--partitions", "3")
    assert (status, out) == whole[:2]
    assert [line for line in err.splitlines() if not line.startswith("note: --partitions")] \
        == whole[2].splitlines()


def test_a_missing_file_is_refused_by_the_planner(tmp_path):
    with pytest.raises(Exception, match="cannot read the file"):
        plan_ranges(os.fspath(tmp_path / "none.nt"), 2, Timeline(0, 3), 0)
