"""Keys, patterns and counted relations of the incremental engine (solver/incremental/relations.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.parser import parse_atom
from lars.terms import Iri, Name, Number, String
from solver.incremental.relations import NO_CHANGE, Computed, Counted, Pattern
from solver.keys import key_constant, key_of

constants = st.one_of(
    st.integers(-2**31, 2**31 - 1).map(Number),
    st.from_regex(r"[a-z][A-Za-z0-9_]{0,5}", fullmatch=True).map(Name),
    st.text(max_size=6).map(String),
    st.from_regex(r"http://ex\.org/[a-z]{0,4}", fullmatch=True).map(Iri),
)


@given(constants)
def test_key_constant_inverts_key_of(constant) -> None:
    assert key_constant(key_of(constant)) == constant


@given(constants, constants)
def test_distinct_constants_get_distinct_keys(a, b) -> None:
    assert (key_of(a) == key_of(b)) == (a == b)


def test_a_string_and_a_name_and_an_iri_of_the_same_text_differ() -> None:
    keys = {key_of(String("a")), key_of(Name("a")), key_of(Iri("a"))}
    assert len(keys) == 3


def test_pattern_with_constants_and_a_repeated_variable() -> None:
    pattern = Pattern(parse_atom("p(X,a,X,Y)"), ("X", "Y"))
    assert pattern.match(parse_atom("p(1,a,1,2)")) == (1, 2)
    assert pattern.match(parse_atom("p(1,a,2,2)")) is None  # X bound twice, differently
    assert pattern.match(parse_atom("p(1,b,1,2)")) is None  # constant differs
    assert pattern.match(parse_atom('p("s",a,"s",<i>)')) == ('"s', "<i")


def test_pattern_with_a_time_column() -> None:
    pattern = Pattern(parse_atom("p(X)"), ("T", "X"), time_variable="T")
    assert pattern.matches([parse_atom("p(1)"), parse_atom("p(2)")], 7) == [(7, 1), (7, 2)]


def test_identity_pattern_keeps_argument_order() -> None:
    pattern = Pattern(parse_atom("p(A,B)"), ("A", "B"))
    assert pattern.identity
    assert pattern.matches([Atom("p", (Number(2), Name("b")))]) == [(2, "b")]


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=30))
def test_counted_support_and_delta_follow_a_multiset(operations) -> None:
    """After any sequence of adds and (legal) removes, the support is the multiset's support
    and the delta is the difference of supports since the last call."""
    relation, model = Counted(), Counter()
    before = set()
    for adding, value in operations:
        values = (value,)
        if adding:
            relation.add(values)
            model[values] += 1
        elif model[values]:
            relation.remove(values)
            model[values] -= 1
        else:
            continue
        support = {v for v, n in model.items() if n}
        assert set(relation.tuples) == support
        if value % 2:  # ask for the delta now and then: it covers every change since last asked
            added, removed = relation.delta()
            assert (set(added), set(removed)) == (support - before, before - support)
            before = support


def test_counted_reports_no_change_when_a_tuple_leaves_and_returns() -> None:
    relation = Counted()
    relation.add((1,))
    assert relation.delta() == ([(1,)], [])
    relation.remove((1,))
    relation.add((1,))
    assert relation.delta() == ([], [])


def test_computed_delta_is_a_set_difference() -> None:
    relation = Computed()
    added, removed = relation.replace({(1,), (2,)})
    assert (sorted(added), removed) == ([(1,), (2,)], [])
    assert relation.replace({(1,), (2,)}) is NO_CHANGE
    added, removed = relation.replace({(2,), (3,)})
    assert (added, removed) == ([(3,)], [(1,)])
