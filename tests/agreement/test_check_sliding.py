"""``lars check`` reads the runs of a window-close profile off one run of the query's window
sliding by one tick (:mod:`agreement.check.sliding`; issue 29, item 1): each run read so against
the run of the profile's own LARS program (:func:`translate.reports.compile_profile`) computed
directly, on generated streams, for every t0 and window bounds.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import example, given, settings, strategies as st
from rdflib import URIRef

from agreement.check.expected import Report, reports
from agreement.check.pipeline import RunCache, check_timeline
from agreement.check.sliding import window_reading
from ingest.eager import static_graphs
from ingest.rdffiles import StreamTriple
from lars.atoms import Atom, Comparison
from lars.formulas import DIAMOND, At, WindowAtom
from lars.errors import Position
from lars.rules import Literal, Rule
from lars.terms import Variable
from lars.windows import TimeWindow
from translate.api import parse_query
from translate.profiles import profile
from translate.reports import _timeless, compile_profile, compile_sliding

STREAM = URIRef("http://ex.org/s")
OTHER = URIRef("http://ex.org/other")
P = URIRef("http://ex.org/p")
WINDOW = "STREAM <http://ex.org/s> [RANGE %ds SLIDE %ds]"
QUERIES = {
    "bgp": "SELECT ?s ?o WHERE { %s { ?s <http://ex.org/p> ?o } }",
    "join": "SELECT ?s ?z WHERE { %s { ?s <http://ex.org/p> ?o . ?o <http://ex.org/p> ?z } }",
    "count": "SELECT (COUNT(?o) AS ?n) WHERE { %s { ?s <http://ex.org/p> ?o } }",
    "not-exists": "SELECT ?s WHERE { %s { ?s <http://ex.org/p> ?o "
                  "FILTER NOT EXISTS { ?o <http://ex.org/p> ?s } } }",
    "filter": "SELECT ?s WHERE { %s { ?s <http://ex.org/p> ?o FILTER(?o != <http://ex.org/a>) } }",
}
BASES = ("csparql", "sparqlstream", "yasper")  # τ1 (two empty-group readings) and τ2


def elements_of(items, start=None) -> list[StreamTriple]:
    """``(time, subject, object, other stream?)`` items as stream triples in time order."""
    return sorted((StreamTriple(t, OTHER if other else STREAM,
                                (URIRef(f"http://ex.org/{s}"), P, URIRef(f"http://ex.org/{o}")),
                                Position("s.nt"))
                   for t, s, o, other in items if start is None or t >= start),
                  key=lambda e: e.time)


def direct(cache: RunCache, engine, t0: int) -> tuple[Report, ...]:
    """The run of ``engine``'s own program at ``t0``."""
    translation = compile_profile(cache.query, engine, t0, cache.period, cache.variant,
                                  cache._reach)
    return reports(translation, cache._data_for(translation))


items = st.lists(st.tuples(st.integers(0, 9), st.sampled_from("ab"), st.sampled_from("ab"),
                           st.booleans()), max_size=10)


@settings(max_examples=80, derandomize=True, deadline=None)
@given(items, st.sampled_from(sorted(QUERIES)), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(BASES), st.sampled_from(("closed", "left-open", "right-open", "open")),
       st.booleans(), st.sampled_from((None, 2)))
@example([(0, "a", "b", False), (4, "b", "a", False)], "bgp", 4, 4, "csparql", "open", False,
         None)  # an item at each end of the window [0, 4]: the four bounds read four scopes
@example([(3, "a", "b", True), (5, "a", "a", False)], "count", 2, 2, "csparql", "right-open",
         False, None)  # the window closing at 4 holds only another stream's item: not reported
def test_a_run_read_off_the_sliding_window_is_the_profiles_own_run(stream, name, length, step,
                                                                   base, bounds, to_end, start):
    """Small streams of ``<s> <p> <o>`` items (times 0–9, some on another stream, which the
    non-empty policy does not count) under window-close profiles with every bounds: for every
    t0 in [0, 4], the run ``lars check`` reads off the sliding window is the profile's own,
    also with a timeline ending at the last item (``to_end``) or starting at 2 (``--from 2``)."""
    elements = elements_of(stream, start)
    query = parse_query(QUERIES[name] % (WINDOW % (length, step)), "q.rq", "cqels", "1s")
    last = max((e.time for e in elements), default=0)
    timeline = check_timeline(query, last, start, max(last, start or 0) if to_end else None)
    cache = RunCache(query, elements, static_graphs([], query), timeline)
    engine = replace(profile(base), bounds=bounds, empty="emit")
    assert window_reading(query, engine) is not None
    for t0 in range(5):
        assert tuple(next(cache(engine, [t0])).reports) == direct(cache, engine, t0), t0
    assert cache._sliding, "the runs were not read off the sliding window"
    assert all(relations is not None for relations in cache._sliding.values())


def test_each_bounds_reads_its_own_windows():
    """Items at 0 and 4, ``[RANGE 4 STEP 4]``, t0 = 0: the window closing at 4 is ``[0,4)``,
    ``[0,4]``, ``(0,4]`` or ``(0,4)`` (SPEC section 12), holding the item at 0, both, the one
    at 4, or none (then nothing is reported: the non-empty policy); the one closing at 8 holds
    the item at 4 unless its lower bound is open. A sliding run of one length
    answering for another would give another relation here."""
    elements = elements_of([(0, "a", "x", False), (4, "b", "y", False)])
    query = parse_query(QUERIES["bgp"] % (WINDOW % (4, 4)), "q.rq", "cqels", "1s")
    cache = RunCache(query, elements, static_graphs([], query), check_timeline(query, 4, None, None))
    a, b = ((URIRef(f"http://ex.org/{s}"), URIRef(f"http://ex.org/{o}")) for s, o in ("ax", "by"))
    expected = {"right-open": {4: {a}, 8: {b}}, "closed": {4: {a, b}, 8: {b}},
                "left-open": {4: {b}}, "open": {}}
    for bounds, relations in expected.items():
        run = next(cache(replace(profile("csparql"), bounds=bounds), [0]))
        assert {r.time: set(r.rows) for r in run.reports} == relations, bounds


def test_other_profiles_keep_their_own_program():
    """Content change, partial start-up windows, dropped empty relations (read off the emitting
    run instead) and Istream are not read off the sliding window."""
    query = parse_query(QUERIES["bgp"] % (WINDOW % (4, 2)), "q.rq", "cqels", "1s")
    csparql = profile("csparql")
    for other in (profile("cqels"), replace(csparql, startup="partial"),
                  replace(csparql, empty="drop"), replace(profile("yasper"), r2s="istream"),
                  profile("paper-pull")):
        assert window_reading(query, other) is None, other.name


def test_a_rule_reading_time_otherwise_is_refused():
    """The sliding program must read time only through its one window over stream items: an
    ``@`` head, the current time (``⊞^0 @_N true``) or another window make the answers depend
    on more than the window content, and :func:`compile_sliding` refuses (``None``)."""
    window = TimeWindow(3)
    s, n = Variable("S"), Variable("N")
    item = Atom("striple", (s, s, s, s))
    assert _timeless(Rule(Atom("q", (s,)), (Literal(WindowAtom(window, DIAMOND, item)),)), window)
    for rule in (Rule(Atom("q", (s,)), (Literal(WindowAtom(TimeWindow(2), DIAMOND, item)),)),
                 Rule(Atom("q", (s,)), (Literal(WindowAtom(TimeWindow(0), At(n), Atom("true"))),
                                        Literal(Comparison("<", s, n)))),
                 Rule(Atom("q", (s,)), (Literal(WindowAtom(window, DIAMOND, Atom("q", (s,)))),))):
        assert not _timeless(rule, window)
    query = parse_query(QUERIES["join"] % (WINDOW % (4, 2)), "q.rq", "cqels", "1s")
    assert compile_sliding(query, profile("csparql"), 3) is not None


@pytest.mark.parametrize("name, number", [("sparqlstream", 7), ("csparql", 5)])
def test_csrbench_runs_read_off_the_sliding_window(name, number):
    """CSRBench queries over the stream's first 12 s, t0 0–2, bounds as the profile has them
    and open and closed (the runs a jittery profile widens with): each the profile's own."""
    from pathlib import Path
    from ingest.eager import read_rdf_stream
    from ingest.options import ReadOptions
    from ingest.policy import ReadReport
    root = Path(__file__).resolve().parents[2] / "examples" / "csrbench"
    query = parse_query((root / "queries" / f"q{number}-csparql.rq").read_text())
    elements, _ = read_rdf_stream(root / "stream", ReadOptions(None), ReadReport())
    elements = [e for e in elements if e.time <= 11]
    cache = RunCache(query, elements, static_graphs([], query),
                     check_timeline(query, 11, None, None))
    for bounds in ("right-open", "open", "closed"):
        engine = replace(profile(name), bounds=bounds, empty="emit")
        for t0 in range(3):
            assert tuple(next(cache(engine, [t0])).reports) == direct(cache, engine, t0)
    assert cache._sliding


@pytest.mark.parametrize("name, slides", [("csparql", False), ("yasper", True)])
def test_static_data(tmp_path, name, slides):
    """A query joining the window with static data: under τ1 the static triples are the
    background of ``triple``, which the sliding program's copy rule derives, so that rule would
    be evaluated anew at every tick and the profile's own program decides; under τ2 the window
    is read in the query's rules and the runs are read off the sliding window. Both the
    profile's own run."""
    data = tmp_path / "labels.nt"
    data.write_text('<http://ex.org/a> <http://ex.org/label> "A" .\n'
                    '<http://ex.org/b> <http://ex.org/label> "B" .\n')
    query = parse_query("SELECT ?s ?l WHERE { STREAM <http://ex.org/s> [RANGE 3s SLIDE 2s] "
                        "{ ?s <http://ex.org/p> ?o } ?o <http://ex.org/label> ?l }",
                        "q.rq", "cqels", "1s")
    elements = elements_of([(1, "x", "a", False), (2, "y", "b", False), (5, "x", "b", False)])
    cache = RunCache(query, elements, static_graphs([str(data)], query),
                     check_timeline(query, 5, None, None))
    engine = replace(profile(name), empty="emit")
    for t0 in range(4):
        run = tuple(next(cache(engine, [t0])).reports)
        assert run == direct(cache, engine, t0), t0
        assert any(r.rows for r in run)
    assert cache._sliding
    assert all((relations is not None) == slides for relations in cache._sliding.values())
