"""Content-change runs read off sliding runs (issue 29, item 1: CQELS's Q4).

Under content change (the CQELS profile) a report at an arrival ``R`` is the query over the
scope ``[s, R]``, so ``lars check`` reads it off the run of the query's window of length
``R - s`` sliding by one tick (:func:`agreement.check.sliding.change_reading`): ``L + 1`` such
runs serve every t0, bounds and start-up. Each run read off is compared with the profile's own
program, computed directly, on generated streams, and the scope's first tick with a direct
reading of the scope's definition (SPEC section 12: the earliest window instance
``[t0 + kβ, t0 + kβ + L)`` still open at ``R``, cut at ``R``; the CSRBench oracle's
``[max(t0, t0+aβ), τ]``).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st
from rdflib import Literal as RdfLiteral, URIRef

from agreement.check.pipeline import RunCache, check_timeline, read_encoded
from agreement.check.sliding import change_scope_start
from ingest.eager import static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from tests.agreement.test_check_derived import derived_and_direct, direct
from tests.agreement.test_check_encoded import stream_file, whole
from translate.api import parse_query
from translate.profiles import profile
from translate.rsp import RangeWindow

STREAM = URIRef("http://ex.org/s")
OTHER = URIRef("http://ex.org/other")
P = URIRef("http://ex.org/p")
WINDOW = "STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds]"
QUERIES = {
    "bgp": "SELECT ?s ?v WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } }",
    "avg-filter": "SELECT (AVG(?v) AS ?a) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } "
                  "FILTER(?v > 1) }",
    "count": "SELECT (COUNT(?v) AS ?n) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } }",
    "sum-by": "SELECT ?s (SUM(?v) AS ?t) WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v } } "
              "GROUP BY ?s",
    "join": "SELECT ?s ?o WHERE { " + WINDOW + " { ?s <http://ex.org/p> ?v . "
            "?o <http://ex.org/p> ?v FILTER(?s != ?o) } }",
}


def triples(items) -> list[StreamTriple]:
    """``<s_t> <p> v`` items (``v`` an integer literal, the subject named by its time too, so
    that a scope one tick too wide or narrow shows in the rows) on ``<s>``, or on another
    stream."""
    return sorted((StreamTriple(t, OTHER if other else STREAM,
                                (URIRef(f"http://ex.org/{s}{t}"), P, RdfLiteral(v)),
                                Position("s.nt"))
                   for t, s, v, other in items), key=lambda e: e.time)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.sampled_from("ab"), st.integers(0, 3),
                          st.sampled_from((False, False, False, True))),
                max_size=9),
       st.sampled_from(sorted(QUERIES)), st.integers(1, 5), st.integers(1, 5),
       st.sampled_from(("none", "row", "null")), st.sampled_from(("rstream", "istream", "dstream")),
       st.sampled_from(("closed", "left-open", "right-open")), st.sampled_from(("emit", "drop")),
       st.sampled_from(("full", "partial")), st.integers(0, 5), st.sampled_from((None, 2)))
def test_a_content_change_run_read_off_is_the_profiles_own_run(items, name, length, step, group,
                                                               r2s, bounds, empty, startup, t0,
                                                               start):
    """Differential: the CQELS profile with every bounds, start-up, empty-group reading, R2S and
    empty-relation reading, t0 in [0, 5], windows with slides shorter and longer than the
    window (the latter keep the program), items also on a stream the query does not read, and
    a timeline from 0 or 2: the run ``lars check`` reads is the program's."""
    elements = [e for e in triples(items) if start is None or e.time >= start]
    query = parse_query(QUERIES[name] % (length, step), "q.rq", "cqels", "1s")
    last = max((e.time for e in elements), default=0)
    cache = RunCache(query, elements, static_graphs([], query),
                     check_timeline(query, last, start, None))
    cache.change_program_runs = 0  # read off from the first run
    engine = replace(profile("cqels"), empty_group=group, r2s=r2s, bounds=bounds, empty=empty,
                     startup=startup)
    first, second = derived_and_direct(cache, engine, t0)
    assert first == second


def scope(time: int, t0: int, length: int, step: int, bounds: str, full: bool) -> set[int]:
    """The scope at ``time`` read from the definition: the instances ``[o, o + L)`` (closed
    ``[o, o + L]``, left-open ``(o, o + L]``), ``o = t0 + kβ`` (any integer ``k``; ``k ≥ 0``
    with full start-up, when no tick before ``t0`` is in scope either), the earliest one still
    open at ``time`` (holding a tick ``≥ time``), cut at ``time``."""
    def holds(o: int, tick: int) -> bool:
        return {"right-open": o <= tick < o + length, "closed": o <= tick <= o + length,
                "left-open": o < tick <= o + length}[bounds]
    starts = [t0 + k * step for k in range(-time - length - 2, time + 2) if not full or k >= 0]
    open_at = [o for o in starts if any(holds(o, tick) for tick in range(time, time + length + 2))]
    earliest = min(open_at)
    return {tick for tick in range(time - length - 2, time + 1) if holds(earliest, tick)
            and (not full or tick >= t0)}


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 6), st.integers(1, 30),
       st.sampled_from(("closed", "left-open", "right-open")), st.booleans())
def test_the_scope_start_is_the_definitions(length, step, t0, after, bounds, full):
    """:func:`change_scope_start` against the scope read from the instances themselves, for
    slides no longer than the window: the scope is ``[s, R]``."""
    if step > length:
        step = length
    time = t0 + after
    engine = replace(profile("cqels"), bounds=bounds, startup="full" if full else "partial")
    expected = scope(time, t0, length, step, bounds, full)
    first = change_scope_start(time, t0, RangeWindow(length, step), engine)
    assert expected == set(range(first, time + 1))


def test_q4_in_small_solves_one_profile_program(monkeypatch):
    """CSRBench's CQELS Q4 in small, every admissible t0 and the bounds and start-up changes
    ``lars check`` tries: the first run is the Rstream program's (a recording passing there
    costs what it did), the 7 others are read off the sliding runs, one per window length (0
    to L), also those of the first run's profile."""
    elements = triples([(1, "a", 0, False), (2, "a", 5, False), (5, "b", 3, False),
                        (6, "a", 4, False), (9, "b", 2, False)])
    query = parse_query(QUERIES["avg-filter"] % (4, 4), "q.rq", "cqels", "1s")
    cache = RunCache(query, elements, static_graphs([], query), check_timeline(query, 9, None, None))
    solved = []
    reports = RunCache._reports
    monkeypatch.setattr(RunCache, "_reports", lambda self, translation: solved.append(
        translation) or reports(self, translation))
    engine = profile("cqels")
    for changed in (engine, replace(engine, bounds="closed"), replace(engine, bounds="left-open"),
                    replace(engine, startup="partial")):
        for run in cache(changed, range(5)):
            list(run.reports)
    assert [(t.t0, t.window_bounds) for t in solved] == [(0, "right-open")]
    assert sorted(key[2] for key in cache._sliding) == [0, 1, 2, 3, 4]


def test_dense_streams_read_off_every_scope_as_the_program():
    """Exhaustive on a small grid: an item at every tick from 1 to 12 (each its own subject, so
    every tick of a scope shows in the rows), windows of 2 to 4 ticks sliding by 1, 2 or L, every
    bounds and start-up, t0 in {0, 1, 3}: the Rstream run read off the sliding runs is the
    program's (a scope one tick off at any arrival fails here)."""
    elements = triples([(t, "a", t % 4, False) for t in range(1, 13)])
    for length in (2, 3, 4):
        for step in sorted({1, 2, length}):
            query = parse_query(QUERIES["bgp"] % (length, step), "q.rq", "cqels", "1s")
            cache = RunCache(query, elements, static_graphs([], query),
                             check_timeline(query, 12, None, None))
            cache.change_program_runs = 0
            for bounds in ("closed", "left-open", "right-open"):
                for startup in ("full", "partial"):
                    engine = replace(profile("cqels"), r2s="rstream", empty="emit",
                                     bounds=bounds, startup=startup)
                    for t0 in (0, 1, 3):
                        first, second = derived_and_direct(cache, engine, t0)
                        assert first == second, (length, step, bounds, startup, t0)
    assert cache._sliding  # the runs were read off


@settings(max_examples=20, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.sampled_from(["a", "b", "c"]),
                          st.sampled_from(["<http://ex.org/p>", "<http://ex.org/q>"]),
                          st.sampled_from(["", " <http://ex.org/s>", " <http://ex.org/other>"])),
                min_size=1, max_size=12),
       st.sampled_from([100, 3]), st.sampled_from([0, 1, 2]), st.sampled_from(["emit", "drop"]))
def test_read_off_from_the_encoded_stream_held_or_read_again(tmp_path_factory, lines, held, t0,
                                                             empty):
    """The arrivals and sliding runs read from the encoded stream (``lars check``'s one
    reading, :func:`agreement.check.pipeline.read_encoded`), its atoms held or, past ``held``
    triples, the file read again by each run: the profile's own program's run over the triples,
    lines on another stream and naming none included."""
    path = stream_file(tmp_path_factory.mktemp("s"), lines)
    query = parse_query("SELECT ?s ?o WHERE { STREAM <http://ex.org/s> [RANGE 3s SLIDE 2s] "
                        "{ ?s <http://ex.org/p> ?o } }", "q.rq", "cqels", "1s")
    inside, timeline, _ = whole(query, path, (None, None))
    encoded, line = read_encoded(query, path, {s.stream for s in query.streams}, ReadOptions(),
                                 ReadReport(), (None, None), None, held)
    read_once = RunCache(query, encoded.again, static_graphs([], query), line, encoded=encoded)
    read_once.change_program_runs = 0
    reference = RunCache(query, inside, static_graphs([], query), timeline)
    engine = replace(profile("cqels"), r2s="rstream", empty=empty)
    found = tuple(next(read_once(engine, [t0])).reports)
    assert read_once._sliding or not found
    next(reference(engine, [t0]))
    assert found == direct(reference, engine, t0)
