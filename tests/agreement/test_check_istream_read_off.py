"""Istream and Dstream of aggregates read off the Rstream run (issue 29, item 1: CQELS's Q4).

``lars check`` reads an Istream or Dstream run under the CQELS translation off the Rstream run
that emits empty relations, each relation against the one before it
(:meth:`agreement.check.pipeline.RunCache._derived`), instead of solving the profile's program,
which recomputes the previous relation with a second copy of the query at every time point.
Aggregates included; where the program's previous relation is not empty before the first
evaluation (:func:`translate.reports.previous_waits`: an empty group read as one row), the first
report is the program's own. Each run read off is compared with the program's run, computed
directly, on generated streams (the differential below) and on the cases that tell the two
first reports apart.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st
from rdflib import Literal as RdfLiteral, URIRef

from agreement.check.pipeline import RunCache, _against_previous, check_timeline
from ingest.eager import static_graphs
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from lars.parser import parse_program
from tests.agreement.test_check_derived import derived_and_direct, direct
from translate.api import parse_query
from translate.profiles import profile
from translate.reports import compile_profile, previous_waits

STREAM = URIRef("http://ex.org/s")
P = URIRef("http://ex.org/p")
WINDOW = "STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds]"
QUERIES = {  # CSRBench's Q4 in small: AVG of the values above a bound, one group
    "avg-filter": "SELECT (AVG(?v) AS ?a) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } "
                  "FILTER(?v > 1) }",
    "count": "SELECT (COUNT(?v) AS ?n) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } }",
    "sum-by": "SELECT ?s (SUM(?v) AS ?t) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } } "
              "GROUP BY ?s",
}


def triples(items) -> list[StreamTriple]:
    """``<s> <p> v`` items, ``v`` an integer literal, in time order."""
    return sorted((StreamTriple(t, STREAM, (URIRef(f"http://ex.org/{s}"), P, RdfLiteral(v)),
                                Position("s.nt")) for t, s, v in items), key=lambda e: e.time)


def cache_for(text: str, elements: list[StreamTriple], end: int | None = None) -> RunCache:
    query = parse_query(text, "q.rq", "cqels", "1s")
    last = max((e.time for e in elements), default=0)
    return RunCache(query, elements, static_graphs([], query), check_timeline(query, last, None, end))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.sampled_from("ab"), st.integers(0, 3)),
                max_size=8),
       st.sampled_from(sorted(QUERIES)), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(("none", "row", "null")), st.sampled_from(("istream", "dstream")),
       st.sampled_from(("closed", "left-open", "right-open")), st.sampled_from(("emit", "drop")),
       st.sampled_from(("full", "partial")), st.integers(0, 4))
def test_an_aggregates_istream_read_off_is_its_program(items, name, length, step, group, r2s,
                                                      bounds, empty, startup, t0):
    """Differential: every empty-group reading, R2S over the previous relation, bounds, empty
    relations and start-up of the CQELS profile (content change), t0 in [0, 4], on small
    streams of numeric readings: the run ``lars check`` reads is the program's."""
    cache = cache_for(QUERIES[name] % (length, step), triples(items))
    engine = replace(profile("cqels"), empty_group=group, r2s=r2s, bounds=bounds, empty=empty,
                     startup=startup)
    first, second = derived_and_direct(cache, engine, t0)
    assert first == second


def test_the_first_report_is_the_programs_own_where_an_empty_group_is_a_row():
    """COUNT of the readings above 1 under Istream, empty group read as a row (``row``):
    readings 0 at 1 and 5 at 2, window [RANGE 4s SLIDE 4s], t0 = 0. The program's previous
    relation holds ``COUNT = 0`` before the first evaluation (at 1, where the count is 0), so its
    first Istream relation is empty, where the Rstream run read against no previous relation
    gives ``{0}``; the run read off takes the program's first report, and agrees with it at
    every later evaluation (``{1}`` at 2)."""
    text = ("SELECT (COUNT(?v) AS ?n) WHERE { " + WINDOW % (4, 4) +
            " { ?s <http://ex.org/p> ?v } FILTER(?v > 1) }")
    cache = cache_for(text, triples([(1, "a", 0), (2, "a", 5)]))
    engine = replace(profile("cqels"), empty_group="row", empty="emit")
    read_off = tuple(next(cache(engine, [0])).reports)
    program = direct(cache, engine, 0)
    assert [(r.time, set(r.rows)) for r in program][:2] == [(1, set()), (2, {(RdfLiteral(1),)})]
    assert read_off == program
    rstream = next(cache(replace(engine, r2s="rstream"), [0])).reports
    assert [set(r.rows) for r in _against_previous("istream", rstream)][0] == {(RdfLiteral(0),)}


def test_the_cqels_profile_reads_q4_off_the_rstream_run(monkeypatch):
    """CQELS's own reading (empty group: no row) is read off without stepping its program:
    the cache solves no Istream program for CSRBench's Q4 in small (its Rstream run is read
    off the sliding runs, tests/agreement/test_check_change_sliding.py)."""
    cache = cache_for(QUERIES["avg-filter"] % (4, 4), triples([(1, "a", 0), (2, "a", 5),
                                                               (6, "b", 3)]))
    solved = []
    reports = RunCache._reports
    monkeypatch.setattr(RunCache, "_reports", lambda self, translation: solved.append(
        translation.answer.predicate) or reports(self, translation))
    engine = profile("cqels")
    read_off = tuple(next(cache(engine, [0])).reports)
    assert "istream_1" not in solved and cache._runs
    assert read_off == direct(cache, engine, 0) and read_off


def test_previous_waits_reads_the_gate_of_the_previous_relation():
    """The previous relation waits for ``prev_report`` only when every derivation of it needs
    it: through another predicate, and through recursion; not when one rule does without it
    (a fact), nor through a negated atom or a fold."""
    rule = "istream_1(X) :- ans_1(X), not ans_1_prev(X). ans_1(X) :- b(X). "
    waits = {
        "ans_1_prev(X) :- prev_report(P), b(X).": True,
        "ans_1_prev(X) :- c_prev(X). c_prev(X) :- prev_report(P), b(X).": True,
        "ans_1_prev(X) :- c_prev(X). c_prev(X) :- c_prev(X), b(X). "
        "c_prev(X) :- prev_report(X).": True,
        "ans_1_prev(X) :- prev_report(P), b(X). ans_1_prev(0).": False,
        "ans_1_prev(X) :- b(X), not prev_report(X).": False,
        "ans_1_prev(X) :- c_prev(X). c_prev(X) :- b(X). c_prev(X) :- prev_report(X).": False,
    }
    for previous, expected in waits.items():
        assert previous_waits(parse_program(rule + previous), "istream") is expected, previous
    query = parse_query(QUERIES["count"] % (4, 2), "q.rq", "cqels", "1s")
    assert [previous_waits(compile_profile(query, replace(profile("cqels"), empty_group=g,
                                                          r2s=r2s)).program, r2s)
            for g in ("none", "row") for r2s in ("istream", "dstream")] == [True, True,
                                                                           False, False]
