"""The deepening witness search (issue 29, item 3) against brute force on small generated cases.

For a random query, window and period, the search's verdict — no witness, or a witness of
``k`` triples whose last timestamp is ``L`` — must be the minimum of ``(triples, last)`` over
every stream of at most ``K`` triples built from the search's own candidates and time points,
each judged by ``lars agree``'s check (:func:`agreement.agree.modes.check_query`, the
per-time-point solver, not the time-indexed program the search solves). The enumeration walks
the streams in that order and stops at the first disagreement, so it is the old exhaustive
search's objective read directly.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agreement.witness.find import find_witness
from agreement.witness.search import Bounds
from ingest.eager import static_graphs
from lars.errors import LarsError
from tests.agreement.witness_oracle import count_smaller, disagrees
from tests.translate.sparql_gen import queries
from translate.api import parse_query

WINDOWS = ["[RANGE 3s]", "[RANGE 2s SLIDE 2s]", "[TRIPLES 2]", "[NOW]", "[ALL]"]
MAX_STREAMS = 400


def brute_minimum(query, graphs, period: int, bounds: Bounds, candidates) -> tuple[int, int] | None:
    """The least ``(triples, last timestamp)`` of a stream on which the engines disagree, by
    enumeration in that order; ``None`` when no stream of at most ``K`` triples does."""
    points = [(c, t) for c in candidates for t in range(bounds.earliest, bounds.horizon + 1)]
    for size in range(bounds.max_triples + 1):
        streams = sorted(combinations(points, size), key=lambda s: max((t for _, t in s), default=0))
        for stream in streams:
            if disagrees(query, graphs, period, bounds.horizon, list(stream)):
                return size, max((t for _, t in stream), default=0)
    return None


def search(text: str, period: int, bounds: Bounds):
    query = parse_query(text, "<q>", "cqels")
    graphs = static_graphs([], query)
    return query, graphs, *find_witness(query, graphs, period, bounds)


@settings(deadline=None, max_examples=8, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(generated=queries().filter(lambda case: case.cqels is not None), period=st.sampled_from([2, 3]),
       window=st.sampled_from(WINDOWS), earliest=st.sampled_from([0, 1]))
def test_deepening_finds_the_brute_force_minimum(generated, period, window, earliest):
    bounds = Bounds(2, period, 1, earliest=earliest)
    try:
        query, graphs, result, witness = search(generated.cqels.replace("[RANGE 3s]", window),
                                                period, bounds)
    except LarsError:  # outside the fragment: not this test's concern
        assume(False)
    candidates = result.vocabulary.candidates
    times = bounds.horizon + 1 - bounds.earliest
    assume(count_smaller(len(candidates), times, bounds.max_triples) <= MAX_STREAMS)
    found = None if witness is None else (len(witness.elements), witness.last)
    assert found == brute_minimum(query, graphs, period, bounds, candidates), generated.cqels
    assert witness is None or witness.found.optimal


PREFIX = "PREFIX ex: <http://ex.org/>\n"


def test_a_cap_below_the_fewest_triples_is_none_and_quick():
    """The doc's example shape: a join of two stream patterns needs two triples, so with
    ``--max-triples 1`` there is none; the cap once made clingo search like a pigeonhole."""
    text = PREFIX + "SELECT ?x WHERE { STREAM <http://ex.org/s1> [RANGE 2s] { ?x ex:p ?y . ?y ex:q ex:a } }"
    query, graphs, result, witness = search(text, 2, Bounds(1, 2, 1))
    assert witness is None
    assert brute_minimum(query, graphs, 2, Bounds(1, 2, 1), result.vocabulary.candidates) is None
