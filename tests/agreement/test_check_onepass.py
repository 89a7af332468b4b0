"""``lars check`` reads each expected run only as far as it must (issue 29, item 1): the
streaming search for the recording (:func:`agreement.check.judge._passes`) against a direct
reading of the oracle's ``contains`` (every start tried over the whole run), and how far the
solver steps."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from agreement.check.expected import ExpectedRun, LazyReports, Report
from agreement.check.judge import _passes, judge
from agreement.check.pipeline import RunCache, check_timeline
from agreement.recorded import RecordedRelation, RecordedStream
from ingest.eager import read_rdf_stream, static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from translate.api import parse_query
from translate.profiles import profile

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
CSPARQL = profile("csparql")


def contains(expected: list[frozenset], recorded: list[frozenset]) -> int | None:
    """The oracle's ``contains``, read directly: the first start from which every recorded
    relation equals the expected one."""
    for start in range(len(expected) - len(recorded) + 1):
        if all(expected[start + k] == rows for k, rows in enumerate(recorded)):
            return start
    return None


rows = st.frozensets(st.sampled_from([("a",), ("b",)]), max_size=2)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), rows), max_size=8),
       st.lists(rows, min_size=1, max_size=4), st.integers(0, 3), st.booleans())
def test_streaming_search_is_the_oracles_contains(gaps, recorded, slack, bounded):
    """Reports at increasing times (gaps of 1–3 ticks, so a bound with gap 1 holds), the
    timeline ending ``slack`` ticks after the last; with or without the bound, the same start."""
    times = [sum(gap for gap, _ in gaps[:i + 1]) for i in range(len(gaps))]
    reports = [Report(t, relation) for t, (_, relation) in zip(times, gaps)]
    end = (times[-1] if times else 0) + slack
    run = ExpectedRun(0, None, LazyReports(reports, end if bounded else None))
    found = _passes(run, [RecordedRelation(0, tuple(r)) for r in recorded], CSPARQL, "bindings", 1000)
    assert found == contains([r.rows for r in reports], recorded)


def test_a_run_is_read_only_until_the_recording_cannot_fit():
    """38 recorded relations cannot fit after time 5 of a timeline ending at 39 (at most 34
    reports more): one report is read, not 35."""
    run = ExpectedRun(0, None, LazyReports((Report(t, frozenset()) for t in range(5, 40)), 39))
    recorded = [RecordedRelation(0, (("x",),))] * 38
    assert _passes(run, recorded, CSPARQL, "bindings", 1000) is None
    assert run.reports.computed == 1


def test_a_passing_run_is_read_only_to_the_recordings_end():
    run = ExpectedRun(0, None, LazyReports((Report(t, frozenset({(t,)})) for t in range(40)), 39))
    recorded = [RecordedRelation(0, ((t,),)) for t in (3, 4, 5)]
    assert _passes(run, recorded, CSPARQL, "bindings", 1000) == 3
    assert run.reports.computed == 6


def test_csparql_q1_correct_without_computing_the_whole_run():
    """C-SPARQL's Q1 (CSRBench, examples/csrbench/engine-answers/csparql-answer-1.json) is
    correct at t0 = 0 from the relation at 10 s; its 4 relations end at 40 s, so the solver
    stops there, before the timeline's end at 53 s (the run's last report; the steps after it
    are not taken), and the verdict is the published one."""
    from agreement.recorded import read_relations
    query = parse_query((CSRBENCH / "queries" / "q1-csparql.rq").read_text())
    elements, _ = read_rdf_stream(CSRBENCH / "stream", ReadOptions(), ReadReport())
    cache = RunCache(query, elements, static_graphs([], query),
                     check_timeline(query, max(e.time for e in elements), None, None))
    recorded = read_relations(CSRBENCH / "engine-answers" / "csparql-answer-1.json")
    judgement = judge(query, CSPARQL, recorded, cache, elements, 1000, "csrbench", False, False)
    assert judgement.correct and judgement.t0 == 0
    run = cache._runs[CSPARQL, 0].reports
    assert [r.time for r in run._done] == [10, 20, 30, 40] and run._source is not None
    assert len(run) == 4 and run._source is None


def test_an_empty_recording_passes():
    judgement = judge(parse_query("SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 2s SLIDE 2s] "
                                  "{ ?s <http://ex.org/p> ?o } }"),
                      CSPARQL, RecordedStream(("s",), ()), lambda p, t0s: iter(
                          ExpectedRun(t0, None, LazyReports([])) for t0 in t0s), [], 1000)
    assert judgement.correct


def test_partial_start_up_read_off_the_full_run_equals_its_own_program():
    """CSRBench Q5 (C-SPARQL, [RANGE 5s STEP 1s]) and Q3 ([RANGE 4s STEP 4s]) over the stream's
    first 10 s: the run with partial start-up windows taken from the full run after ``t0 + L``
    (:meth:`RunCache._started_up`) is the partial profile's own run, for t0 = 0 and 2; Q5's
    reports relations before its first whole window closes."""
    from dataclasses import replace
    from agreement.check.expected import reports
    from translate.reports import compile_profile
    elements, _ = read_rdf_stream(CSRBENCH / "stream", ReadOptions(), ReadReport())
    elements = [e for e in elements if e.time <= 10]
    for number in (5, 3):
        query = parse_query((CSRBENCH / "queries" / f"q{number}-csparql.rq").read_text())
        cache = RunCache(query, elements, static_graphs([], query),
                         check_timeline(query, 10, None, None))
        partial = replace(CSPARQL, startup="partial")
        for t0 in (0, 2):
            derived = tuple(next(cache(partial, [t0])).reports)
            direct = reports(compile_profile(query, partial, t0, None, "brave", cache._reach),
                             cache._data_for(None))
            assert derived == direct
            if number == 5:
                assert any(r.time < t0 + 5 for r in direct)


def test_the_text_verdict_reads_the_run_only_to_the_recordings_start():
    """The CORRECT line names the first matched relation's time (``expected[start]``): read
    without computing the rest of the run."""
    from agreement.check.judge import Judgement
    from agreement.check.report import render_text
    run = LazyReports((Report(t, frozenset()) for t in range(10)), 9)
    judgement = Judgement(CSPARQL, "bindings", False, True, 0, 2, run, (), unit_ms=1000)
    assert "from its relation at 2" in render_text(judgement) and run.computed == 3
