"""The readers' memories by text keep two generations (ingest/rdfterms.py ``remembered``): the
IRI terms of the N-Triples fast path (ingest/rdffiles.py ``_IRIS``) and the constants of
``EncodedLines`` (ingest/encoded.py). Issue 29: emptied whole, they made the predicates anew
after each clear, and every later dictionary look-up of them (the translation's encoder, by
term) compared by rdflib's ``__eq__`` instead of by identity.

The replay tests read at the real sizes: a memo is full after 65,536 new entries, more than
:func:`ingest.rdfterms.iri_term`'s LRU cache and the encoder keep, so a term made anew after a
clear is a new object (with one generation these tests fail).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from ingest import encoded, rdffiles
from ingest.encoded import EncodedLines
from ingest.rdffiles import NTriplesLines
from translate.rdf import remembered
from translate.rdf import RdfTermEncoder

EX = "http://ex.org/"


def replay(lines: int) -> str:
    """``lines`` lines of one predicate and class, each with a fresh subject and object (two
    new IRIs a line), as a block of text."""
    return "\n".join(f"<{EX}s{n}> <{EX}p> <{EX}o{n}> <{EX}g> {n}" for n in range(lines))


LINES = rdffiles.IRIS_KEPT * 3 // 4  # over a generation and a half of new IRIs


def test_a_frequent_iri_keeps_its_term_across_generations():
    runs = NTriplesLines().block(replay(LINES), "s.nt", 1).runs
    first, last = runs[0][2][0], runs[-1][2][-1]
    assert last.triple[1] is first.triple[1] == URIRef(EX + "p")
    assert last.stream is first.stream
    assert len(rdffiles._IRIS) <= rdffiles.IRIS_KEPT and len(rdffiles._OLD_IRIS) <= rdffiles.IRIS_KEPT


def test_encoded_lines_keep_a_frequent_constant_across_generations():
    reader = EncodedLines(RdfTermEncoder())
    runs = reader.block(replay(encoded.MEMO_SIZE * 3 // 4), "s.nt", 1).runs
    first, last = runs[0][2][0], runs[-1][2][-1]
    assert last.args[1] is first.args[1] and last.args[3] is first.args[3]
    assert last.args[0] != first.args[0]
    for memo, old in ((reader.iris, reader.old_iris), (reader.blanks, reader.old_blanks),
                      (reader.literals, reader.old_literals)):
        assert len(memo) <= encoded.MEMO_SIZE and len(old) <= encoded.MEMO_SIZE


@settings(max_examples=300, derandomize=True)
@given(st.lists(st.integers(0, 12), max_size=80), st.integers(1, 5))
def test_remembered_against_a_direct_reading(keys, kept):
    """Against a model: each key's value is made once per stretch of time it stays in either
    generation; a key met in every generation keeps its value object; the generations hold at
    most ``kept`` entries each."""
    memo, old, made = {}, {}, []

    def make(key):
        made.append(key)
        return [key]  # a fresh object, told apart by identity

    model_memo, model_old, values = {}, {}, {}
    for key in keys:
        before = len(made)
        value = memo.get(key) or remembered(memo, old, key, make, kept)
        expected_made = key not in model_memo and key not in model_old
        if key not in model_memo:
            if len(model_memo) >= kept:
                model_old, model_memo = model_memo, {}
            model_memo[key] = True
        assert made[before:] == ([key] if expected_made else [])
        if expected_made:
            values[key] = value
        else:
            assert value is values[key]
        assert value == [key]
        assert set(memo) == set(model_memo) and set(old) == set(model_old)
        assert len(memo) <= kept and len(old) <= kept
