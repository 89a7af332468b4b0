"""Constants: which texts may be IRIs (the fast test must be the definition's exact set)."""

import sys

import pytest

from lars.terms import Iri, is_iri_text


def test_iri_text_refuses_exactly_white_space_and_angle_brackets():
    refused = [c for c in map(chr, range(sys.maxunicode + 1)) if not is_iri_text(f"a{c}b")]
    assert refused == [c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace() or c in "<>"]


def test_empty_text_is_no_iri():
    assert not is_iri_text("")
    with pytest.raises(ValueError, match="not an IRI"):
        Iri("")


def test_external_values_are_remembered_per_function_and_forgotten_on_registration() -> None:
    """:func:`lars.externals.call` remembers values by function and arguments; registering a
    function again under a name must not give the old function's remembered values."""
    from lars.externals import external
    from lars.terms import Function, Number, evaluate
    calls = []

    @external("memo_demo_double")
    def double(x):
        calls.append(x)
        return Number(2 * x.value)

    @external("memo_demo_triple")
    def triple(x):
        return Number(3 * x.value)
    call = lambda name: evaluate(Function(name, (Number(4),)), {})  # noqa: E731
    assert [call("memo_demo_double"), call("memo_demo_double"), call("memo_demo_triple")] \
        == [Number(8), Number(8), Number(12)]
    assert calls == [Number(4)]

    @external("memo_demo_double")
    def redefined(x):
        return Number(-x.value)
    assert call("memo_demo_double") == Number(-4)
