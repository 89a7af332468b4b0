"""lars/deep.py: deep recursions run on the large-stack thread; results, errors and the limit."""

from __future__ import annotations

import sys

import pytest

from lars.deep import RECURSION_LIMIT, call_deep, deep
from lars.errors import LimitError, ParseError


def depth(n: int) -> int:
    return 0 if n == 0 else 1 + depth(n - 1)


def test_a_recursion_too_deep_for_the_default_limit_runs():
    assert call_deep(depth, 50_000) == 50_000
    assert sys.getrecursionlimit() < RECURSION_LIMIT  # restored afterwards


def test_an_endless_recursion_is_a_limit_error():
    with pytest.raises(LimitError, match="nested too deeply"):
        call_deep(depth, -1)


def test_errors_and_nested_calls_pass_through():
    @deep
    def fails():
        raise ParseError("bad")

    with pytest.raises(ParseError, match="bad"):
        fails()
    assert call_deep(call_deep, depth, 3) == 3
