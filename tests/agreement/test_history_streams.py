"""The triples of one stream in a :class:`StreamHistory` (issue 29: slices split by stream with a
dict, not filtered with rdflib's ``==``), against a direct reading of what ``on`` and ``last``
promise: the elements whose stream equals the one asked, in time and arrival order; ``last``'s
latest ``count`` distinct triples (SPEC section 2: a repeated triple counts once)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from rdflib import Literal, URIRef

from agreement.agree.history import StreamHistory
from ingest.rdffiles import StreamTriple
from lars.errors import Position

STREAMS = (URIRef("http://ex.org/s"), URIRef("http://ex.org/r"), Literal("http://ex.org/s"), None)
"""Streams an element may name: two IRIs, a literal spelt as the first (equal text, another
term: not the same stream) and none."""


def fresh(stream):
    """An object equal to ``stream`` and not it (a reader's own object, the query's another)."""
    return None if stream is None else type(stream)(str(stream))


slices = st.lists(st.tuples(st.integers(0, 3), st.lists(
    st.tuples(st.sampled_from(STREAMS), st.booleans(), st.integers(0, 2)), max_size=6)), max_size=6)


def history_of(drawn) -> tuple[StreamHistory, list[StreamTriple]]:
    """The history of the drawn slices (time points made ascending), and its elements."""
    history, everything, line = StreamHistory(), [], 0
    for t, (step, items) in enumerate(drawn):
        time = t * 2 + step % 2
        elements = []
        for stream, own_object, obj in items:
            line += 1
            elements.append(StreamTriple(time, fresh(stream) if own_object else stream,
                                         ("s", "p", obj), Position("x.nt", line)))
        history.add(time, elements)
        everything += elements
    return history, everything


@settings(max_examples=60, deadline=None, derandomize=True)
@given(slices, st.sampled_from(STREAMS), st.integers(0, 12), st.integers(0, 12))
def test_on_is_the_stream_filter(drawn, stream, lo, hi):
    history, everything = history_of(drawn)
    asked = fresh(stream)
    expected = [e for e in everything if lo <= e.time <= hi and e.stream == asked
                and type(e.stream) is type(asked)]
    assert history.on(asked, lo, hi) == expected
    assert history.on(asked, lo, hi) == expected  # the split, made once, read again


@settings(max_examples=60, deadline=None, derandomize=True)
@given(slices, st.sampled_from(STREAMS), st.integers(1, 5), st.integers(0, 12))
def test_last_is_the_latest_distinct_triples(drawn, stream, count, upto):
    history, everything = history_of(drawn)
    asked = fresh(stream)
    firsts = {}
    for e in everything:
        if e.time <= upto and e.stream == asked and type(e.stream) is type(asked):
            firsts.setdefault((e.time, e.triple), e)
    assert history.last(asked, count, upto) == list(firsts.values())[-count:]
