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
