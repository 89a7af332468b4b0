"""FILTER comparisons at their boundaries, plain and negated (Lloyd–Topor pushes ``!`` inward:
``!(a < b)`` must become ``a >= b``, not ``a > b``; issue 18 found that slip surviving every
test, because the random Prop 2 queries never drew a value equal to the bound)."""

from __future__ import annotations

import operator

import pytest

from agreement.facade import run

OPERATORS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
             "=": operator.eq, "!=": operator.ne}
VALUES = (4, 5, 6)


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    path = tmp_path_factory.mktemp("filters") / "s.nt"
    path.write_text("".join(f'<http://ex.org/o{v}> <http://ex.org/v> "{v}"^^<http://www.w3.org/2001/'
                            f'XMLSchema#integer> <http://ex.org/s> 0\n' for v in VALUES))
    return path


@pytest.mark.parametrize("negated", [False, True], ids=["plain", "negated"])
@pytest.mark.parametrize("op", OPERATORS)
def test_filter_keeps_exactly_the_values_that_pass(stream, op, negated):
    condition = f"!(?v {op} 5)" if negated else f"?v {op} 5"
    query = ("SELECT ?v WHERE { STREAM <http://ex.org/s> [RANGE 1s] { ?o <http://ex.org/v> ?v } "
             f"FILTER ({condition}) }}")
    view = run(query, stream=stream, end=0)
    found = sorted(int(value) for value in view.to_pandas()["v"])
    assert found == [v for v in VALUES if OPERATORS[op](v, 5) != negated]


@pytest.mark.parametrize("condition, expected", [
    pytest.param("-?v <= -5", [5, 6], id="negation"),
    pytest.param("(?v + 1) / 2 >= 3", [5, 6], id="division-exact"),
    pytest.param("?v * 2 = 10", [5], id="product"),
    pytest.param("?v / 0 > 1", [], id="division-by-zero-is-an-error"),
    pytest.param("?v > 1 / 0", [], id="constant-division-by-zero-is-an-error"),
    pytest.param("?v >= 10 / 2", [5, 6], id="constant-division"),
    pytest.param("?v >= 2 + 3", [5, 6], id="constant-sum"),
    pytest.param("1 / (?v - 5) < 0", [4], id="variable-denominator-negative-or-zero"),
    pytest.param("1 / (?v - 5) > 0", [6], id="variable-denominator-positive-or-zero"),
    pytest.param("?v = 2 * 3 - 1", [5], id="constant-product-and-difference"),
    pytest.param("!(?v / 0 > 1)", [], id="negated-error-is-still-an-error"),
    pytest.param("?v - 5 != 0", [4, 6], id="difference"),
])
def test_filter_arithmetic(stream, condition, expected):
    query = ("SELECT ?v WHERE { STREAM <http://ex.org/s> [RANGE 1s] { ?o <http://ex.org/v> ?v } "
             f"FILTER ({condition}) }}")
    view = run(query, stream=stream, end=0)
    assert sorted(int(value) for value in view.to_pandas().get("v", [])) == expected
