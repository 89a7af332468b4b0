"""The witness search grows its vocabulary (issue 29, item 3): the query's and the static data's
constants first, then the fresh IRIs. Nothing the first step says is taken for the whole space:
"none" there is not "none", and its witness is minimal only where no vocabulary can do better."""

from __future__ import annotations

import pytest

from agreement.witness.find import find_witness, minimal_without_growth, vocabulary_steps
from agreement.witness.search import Bounds, Found
from agreement.witness.vocabulary import FRESH_PREFIX
from ingest.eager import static_graphs
from lars.atoms import Atom
from lars.terms import Name
from translate.api import parse_query

PREFIX = "PREFIX ex: <http://ex.org/>\n"
NEEDS_FRESH = PREFIX + "SELECT ?x WHERE { STREAM <http://ex.org/s1> [RANGE 1s] { ?x ex:p ex:a } }"
"""No constant stands where ``?x`` does (a subject), so the first step has no candidate at all:
the one-triple witness (``c ex:p ex:a`` at 1, expiring before the pull at 3) needs a fresh IRI."""


def search(text: str, period: int, bounds: Bounds):
    query = parse_query(text, "<q>", "cqels")
    return find_witness(query, static_graphs([], query), period, bounds)


def test_none_in_the_first_step_is_not_none():
    result, witness = search(NEEDS_FRESH, 3, Bounds(2, 3, 0))
    assert witness is None and result.candidates == 0  # what the first step alone would say
    result, witness = search(NEEDS_FRESH, 3, Bounds(2, 3, 1))
    assert witness is not None and witness.found.optimal
    assert (len(witness.elements), witness.last) == (1, 1)
    assert str(witness.elements[0].triple[0]).startswith(FRESH_PREFIX)


def test_the_first_step_has_no_fresh_iri_and_the_last_is_the_whole_space():
    assert vocabulary_steps(2) == [0, 2] and vocabulary_steps(0) == [0]


def found(times: list[int], optimal: bool = True) -> Found:
    return Found([(Atom("a", (Name(f"x{k}"),)), t) for k, t in enumerate(times)], [3], optimal, 1, 0.0)


@pytest.mark.parametrize("times, earliest, expected", [
    pytest.param([], 0, True, id="empty-stream"),
    pytest.param([0], 0, True, id="one-triple-at-the-start"),
    pytest.param([1], 1, True, id="one-triple-at-earliest"),
    pytest.param([2], 1, False, id="one-triple-later: an earlier one may need a fresh IRI"),
    pytest.param([1, 1], 1, False, id="two-triples: one may do with a fresh IRI"),
])
def test_a_first_step_witness_is_minimal_everywhere_only_when_nothing_can_be_smaller(times, earliest, expected):
    assert minimal_without_growth(found(times), Bounds(2, 3, 1, earliest=earliest)) is expected


def test_a_witness_not_proven_minimal_in_its_step_is_never_minimal_everywhere():
    assert not minimal_without_growth(found([0], optimal=False), Bounds(2, 3, 1))
