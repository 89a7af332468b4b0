"""``lars check`` reads a profile's run off another run where one holds it (issue 29, item 1):
each run read off (:meth:`agreement.check.pipeline.RunCache._derived`) against the run of the
profile's own LARS program (:func:`translate.reports.compile_profile`), computed directly.

Derived are: empty relations dropped (from the run that emits them), Istream and Dstream (from
the Rstream run, each relation against the previous evaluation's; aggregates too, in
tests/agreement/test_check_istream_read_off.py), the R2S a profile applies to the query (not
how it spells it), and window bounds ``(t-L, t]`` from ``[t-L, t)`` one tick later (:meth:`~agreement.check.pipeline.RunCache._shifts`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from rdflib import URIRef

from agreement.check.expected import reports
from agreement.check.pipeline import RunCache, check_timeline
from ingest.eager import read_rdf_stream, static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from ingest.rdffiles import StreamTriple
from lars.errors import LarsError, Position
from translate.api import parse_query
from translate.profiles import profile
from translate.reports import compile_profile

ROOT = Path(__file__).resolve().parents[2]
STREAM = URIRef("http://ex.org/s")
P = URIRef("http://ex.org/p")
QUERIES = {
    "bgp": "SELECT ?s ?o WHERE { STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds] "
           "{ ?s <http://ex.org/p> ?o } }",
    "count": "SELECT (COUNT(?o) AS ?n) WHERE { STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds] "
             "{ ?s <http://ex.org/p> ?o } }",
    "not-exists": "SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds] "
                  "{ ?s <http://ex.org/p> ?o FILTER NOT EXISTS { ?o <http://ex.org/p> ?s } } }",
}
BASES = ("yasper", "cqels", "csparql", "rsp4j")


def direct(cache: RunCache, engine, t0: int) -> tuple:
    """The run of ``engine``'s own program at ``t0``."""
    return reports(compile_profile(cache.query, engine, t0, cache.period, cache.variant,
                                   cache._reach), cache._data_for(None))


def derived_and_direct(cache: RunCache, engine, t0: int) -> tuple[tuple | None, tuple | None]:
    """Both runs, or ``None`` for one that raises (then both must)."""
    found = []
    for compute in (lambda: tuple(next(cache(engine, [t0])).reports),
                    lambda: direct(cache, engine, t0)):
        try:
            found.append(compute())
        except LarsError as error:
            found.append(type(error))
    return found[0], found[1]


items = st.lists(st.tuples(st.integers(0, 9), st.sampled_from("ab"), st.sampled_from("ab")),
                 max_size=10)


@settings(max_examples=80, derandomize=True, deadline=None)
@given(items, st.sampled_from(sorted(QUERIES)), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(BASES), st.sampled_from(("closed", "left-open", "right-open")),
       st.sampled_from(("emit", "drop")), st.sampled_from(("rstream", "istream", "dstream")),
       st.sampled_from(("full", "partial")), st.integers(0, 4), st.booleans(),
       st.sampled_from((None, 2)))
def test_a_derived_run_is_the_profiles_own_run(stream, name, length, step, base, bounds, empty,
                                               r2s, startup, t0, to_end, start):
    """Small streams of ``<s> <p> <o>`` items (times 0–9) under every R2S, empty reading,
    bounds and start-up of the built-in engine profiles: the run ``lars check`` reads is the
    program's, for t0 in [0, 4] (read off the run of ``t0 mod β`` or computed), also with a
    timeline ending at the last item (``to_end``, where ``(t-L, t]`` cannot be read off a run
    one tick later) or starting at 2 (``--from 2``)."""
    elements = sorted((StreamTriple(t, STREAM, (URIRef(f"http://ex.org/{s}"), P,
                                                URIRef(f"http://ex.org/{o}")), Position("s.nt"))
                       for t, s, o in stream if start is None or t >= start),
                      key=lambda e: e.time)
    query = parse_query(QUERIES[name] % (length, step), "q.rq", "cqels", "1s")
    last = max((e.time for e in elements), default=0)
    timeline = check_timeline(query, last, start, max(last, start or 0) if to_end else None)
    cache = RunCache(query, elements, static_graphs([], query), timeline)
    engine = replace(profile(base), bounds=bounds, empty=empty, r2s=r2s, startup=startup)
    first, second = derived_and_direct(cache, engine, t0)
    assert first == second


STUDY = ROOT / "examples" / "csrbench-2023"


@pytest.mark.parametrize("engine, number", [("csparql2", 1), ("yasper", 5), ("cqels", 4)])
def test_csrbench_variations_are_their_own_programs(engine, number):
    """CSRBench queries on the stream's first 9 s: the profile's variations that ``lars check``
    tries when a recording is incorrect (R2S, empty relations, bounds), each read off the
    profile's run, are the variations' own programs; C-SPARQL 2.0's Q1 is Istream by its
    settings, which the Rstream variation overrides."""
    from agreement.check.judge import variations
    if engine == "cqels":
        text = (ROOT / "examples" / "csrbench" / "queries" / f"q{number}-cqels.rq").read_text()
        query = parse_query(text)
    else:
        name = f"q{number}.rspql"
        query = parse_query((STUDY / "queries" / name).read_text(), name, None, "1s")
    elements, _ = read_rdf_stream(ROOT / "examples" / "csrbench" / "stream",
                                  ReadOptions("http://inputstream.org"), ReadReport())
    elements = [e for e in elements if e.time <= 8]
    cache = RunCache(query, elements, static_graphs([], query),
                     check_timeline(query, 8, None, None))
    chosen = profile(engine)
    for _, changed in [("", chosen)] + [v for v in variations(chosen, query)
                                        if "startup" not in v[0]]:
        for t0 in (0, 1):
            first, second = derived_and_direct(cache, changed, t0)
            assert first == second, (changed, t0)


def test_istream_of_an_aggregate_is_against_the_previous_relation():
    """COUNT under Istream (SPEC section 12: the relation minus the previous relation), windows
    ``[t-1, t]`` closing at every tick: one item at 0, two at 3. The Rstream relations are
    ``{1}`` at 1, ``{2}`` at 3 and 4; Istream gives ``{1}``, ``{2}``, ``{}``. The compiled
    program's previous relation read the current window (the atom inside a fold was not
    renamed), so its Istream was empty at every tick: a wrong answer of ``lars run --profile``
    found by this test, fixed in ``translate.reports._rename``."""
    from rdflib import Literal
    elements = [StreamTriple(t, STREAM, (URIRef(f"http://ex.org/{s}"), P, URIRef("http://ex.org/o")),
                             Position("s.nt")) for t, s in ((0, "a"), (3, "a"), (3, "b"))]
    query = parse_query(QUERIES["count"] % (1, 1), "q.rq", "cqels", "1s")
    cache = RunCache(query, elements, static_graphs([], query), check_timeline(query, 3, None, 5))
    engine = replace(profile("yasper"), bounds="closed", empty="emit", r2s="istream")
    next(cache(replace(engine, r2s="rstream"), [0]))
    found = [(r.time, set(r.rows)) for r in direct(cache, engine, 0)]
    assert found == [(1, {(Literal(1),)}), (3, {(Literal(2),)}), (4, set())]
