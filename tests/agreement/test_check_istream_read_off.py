"""Istream and Dstream of aggregates read off the Rstream run (issue 29, item 1: CQELS's Q4).

``lars check`` reads an Istream or Dstream run under the CQELS translation off the Rstream run
that emits empty relations, each relation against the one before it
(:meth:`agreement.check.pipeline.RunCache._derived`), instead of solving the profile's program,
which recomputes the previous relation with a second copy of the query at every time point.
Aggregates included; before the first evaluation the previous relation is empty, in both.
Each run read off is compared with the program's run, computed directly, on generated streams
(the differential below) and on the first evaluation of an empty group read as one row.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st
from rdflib import Literal as RdfLiteral, URIRef

from agreement.check.pipeline import RunCache, check_timeline
from ingest.eager import static_graphs
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from tests.agreement.test_check_derived import derived_and_direct, direct
from translate.api import parse_query
from translate.profiles import profile

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


def test_the_first_istream_report_holds_the_empty_groups_row():
    """COUNT of the readings above 1 under Istream, empty group read as a row (``row``):
    readings 0 at 1 and 5 at 2, window [RANGE 4s SLIDE 4s], t0 = 0. Before the first
    evaluation (at 1, where the count is 0) there is no previous relation, so the first
    Istream relation is ``{0}`` (SPEC section 12; RSP4J's Istream returns its first relation
    whole); the program agrees (its previous relation waits for ``prev_report``; it once held
    the empty group's row there and dropped this report), and ``{1}`` follows at 2."""
    text = ("SELECT (COUNT(?v) AS ?n) WHERE { " + WINDOW % (4, 4) +
            " { ?s <http://ex.org/p> ?v } FILTER(?v > 1) }")
    cache = cache_for(text, triples([(1, "a", 0), (2, "a", 5)]))
    engine = replace(profile("cqels"), empty_group="row", empty="emit")
    read_off = tuple(next(cache(engine, [0])).reports)
    program = direct(cache, engine, 0)
    assert [(r.time, set(r.rows)) for r in program][:2] == [(1, {(RdfLiteral(0),)}),
                                                            (2, {(RdfLiteral(1),)})]
    assert read_off == program
    dstream = direct(cache, replace(engine, r2s="dstream"), 0)
    assert [(r.time, set(r.rows)) for r in dstream][:2] == [(1, set()), (2, {(RdfLiteral(0),)})]


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
