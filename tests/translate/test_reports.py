"""Engine profiles compiled into LARS (translate/reports.py, SPEC section 12).

The compiled programs are solved and their reports compared with an independent reading of the
CSRBench oracle and RSP4J (tests/oracles/windowing.py) on random event times, window widths,
slides and t0; the paper's profiles must give the paper's programs (so Proposition 1, tested in
test_prop1.py on ℘, keeps holding for them).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.check.expected import reports
from ingest.eager import query_data
from ingest.rdffiles import StreamTriple
from lars.errors import InputError, Position, UnsupportedError
from lars.streams import Timeline
from tests.oracles import windowing
from translate.api import parse_query, translate
from translate.profiles import profile
from translate.reports import compile_profile, report_reach

EX = "http://ex.org/"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def query(length: int, step: int):
    return parse_query(f"SELECT ?e WHERE {{ STREAM <{EX}s> [RANGE {length}s SLIDE {step}s] "
                       f"{{ ?e <{EX}p> <{EX}o> }} }}")


def events(times):
    return [StreamTriple(t, URIRef(EX + "s"), (URIRef(f"{EX}e{t}"), URIRef(EX + "p"),
                                                 URIRef(EX + "o")), Position()) for t in sorted(set(times))]


def relations(q, chosen, t0, times, end, reach=None):
    """The compiled program's reports as (time, event times)."""
    translation = compile_profile(q, chosen, t0, reach=reach)
    data = query_data([translation], events(times), {None: __import__("rdflib").Graph()},
                      Timeline(0, end))
    return [(r.time, frozenset(int(str(row[0])[len(EX) + 1:]) for row in r.rows))
            for r in reports(translation, data)]


times_st = st.lists(st.integers(0, 14), min_size=1, max_size=6, unique=True)
window_st = st.tuples(st.integers(1, 5), st.integers(1, 5)).filter(lambda w: w[1] <= w[0])


@SETTINGS
@given(times_st, window_st, st.integers(0, 5))
def test_window_close_matches_the_oracle(times, window, t0):
    length, step = window
    chosen = replace(profile("csparql"), empty="drop")
    found = relations(query(length, step), chosen, t0, times, 20)
    expected = [(c, rel) for c, rel in windowing.window_close(times, length, step, t0, 20) if rel]
    assert found == expected


@SETTINGS
@given(times_st, window_st, st.integers(0, 3))
def test_rsp4j_partial_windows_match_a_direct_reading(times, window, t0):
    length, step = window
    found = relations(query(length, step), profile("rsp4j"), t0, times, 20)
    expected = windowing.window_close(times, length, step, t0, 20, partial=True, non_empty=False)
    assert found == expected


@SETTINGS
@given(times_st, window_st, st.integers(0, 5))
def test_content_change_rstream_matches_the_oracle(times, window, t0):
    length, step = window
    chosen = replace(profile("cqels"), r2s="rstream")
    assert relations(query(length, step), chosen, t0, times, 20) == windowing.content_change(
        times, length, step, t0)


@SETTINGS
@given(times_st, window_st, st.integers(0, 5))
def test_istream_over_the_previous_relation_matches_the_oracle(times, window, t0):
    length, step = window
    expected = windowing.istream(windowing.content_change(times, length, step, t0))
    assert relations(query(length, step), profile("cqels"), t0, times, 20) == expected


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(times_st, window_st, st.integers(0, 3))
def test_bounded_reach_gives_the_answers_of_the_unbounded_history(times, window, t0):
    length, step = window
    q = query(length, step)
    reach = report_reach(q, times)
    assert relations(q, profile("cqels"), t0, times, 20, reach) == relations(
        q, profile("cqels"), t0, times, 20)


def test_dstream_reports_what_left_the_relation():
    chosen = replace(profile("cqels"), r2s="dstream")
    # [RANGE 2 SLIDE 2], t0 = 0: scopes at 1: {1}; at 2: {2}; at 3: {2, 3}
    assert relations(query(2, 2), chosen, 0, [1, 2, 3], 6) == [(2, frozenset({1}))]


@pytest.mark.parametrize("name, engine, mode", [
    pytest.param("paper-pull", "csparql", "pull", id="paper-pull"),
    pytest.param("paper-push", "cqels", "push", id="paper-push"),
])
def test_paper_profiles_are_the_papers_programs(name, engine, mode):
    q = query(10, 5)
    compiled = compile_profile(q, profile(name), period=5)
    assert compiled.program == translate(q, engine, mode=mode, period_ticks=5).program
    assert compiled.profile == name and compiled.report == "trigger"


def test_engine_profile_programs_are_verified_lars():
    program = compile_profile(query(4, 2), profile("cqels"), t0=1).program
    heads = {rule.head.predicate for rule in program}
    assert {"trigger", "report", "istream_1", "prev_report", "ans_1_prev"} <= heads


def test_istream_with_the_csparql_translation_is_refused():
    with pytest.raises(UnsupportedError, match="τ1"):
        compile_profile(query(4, 2), replace(profile("csparql"), r2s="istream"))


def test_tuple_windows_are_refused_under_engine_policies():
    q = parse_query(f"SELECT ?e WHERE {{ STREAM <{EX}s> [TRIPLES 3] {{ ?e <{EX}p> ?o }} }}")
    with pytest.raises(UnsupportedError, match="TRIPLES"):
        compile_profile(q, profile("cqels"))


def test_periodic_policies_need_a_period():
    with pytest.raises(InputError, match="period"):
        compile_profile(query(4, 2), replace(profile("csparql"), report=frozenset({"periodic"}),
                                             name="periodic-only", jitter_ms=0))


def test_tuple_ticks_do_not_compile():
    with pytest.raises(UnsupportedError, match="tuple-driven"):
        compile_profile(query(4, 2), replace(profile("csparql"), tick="tuple"))


def test_the_query_r2s_overrides_the_profile():
    q = replace(query(2, 2), r2s="istream")
    assert compile_profile(q, profile("rsp4j")).answer.predicate == "istream_1"


@pytest.mark.parametrize("name", ["csparql", "sparqlstream", "cqels", "rsp4j"])
@pytest.mark.parametrize("spelling", ["unicode", "ascii"])
def test_compiled_programs_print_and_parse_back(name, spelling):
    from lars.parser import parse_program
    from lars.printer import print_program
    program = compile_profile(query(4, 2), profile(name), t0=1, reach=7).program
    assert parse_program(print_program(program, spelling)) == program
