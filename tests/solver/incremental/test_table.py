"""``Table``'s indexes stay the tuples with each key through any adds and discards (a survivor
of the mutation run: discarding from an index bucket, small or large, was never tested)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.incremental.joins import Table

OPERATIONS = st.lists(st.tuples(st.booleans(), st.tuples(st.integers(0, 2), st.integers(0, 12))),
                      max_size=60)


@settings(max_examples=60, deadline=None)
@given(OPERATIONS, st.booleans())
def test_indexes_follow_adds_and_discards(operations, index_first):
    table, expected = Table(), set()
    if index_first:
        table.index((0,))
    for add, values in operations:  # callers add only new tuples and discard only present ones
        if add and values not in expected:
            table.add(values)
            expected.add(values)
        elif not add and values in expected:
            table.discard(values)
            expected.discard(values)
    assert table.tuples == expected
    for positions in ((0,), (1,), (0, 1)):
        index = table.index(positions)
        keys = {values[positions[0]] if len(positions) == 1 else values for values in expected}
        assert {key for key, bucket in index.items() if bucket} == keys
        for key in keys:
            assert set(index[key]) == {v for v in expected
                                       if (v[positions[0]] if len(positions) == 1 else v) == key}
