"""The head atoms of the incremental engine, made once while recent (solver/incremental/joins.py).

:meth:`Head.atom` remembers the atom it made for the values of the head's variables. The
judge is a direct reading: the head with each variable replaced by the constant of its value
(:func:`solver.keys.key_constant`), made afresh. Values are drawn so that keys of different
kinds look alike (the number ``1``, the name ``a1``, the string ``"1"``), heads mix variables,
repeated variables and constants, and the same instance is asked for again, also after the
memo was emptied.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.parser import parse_program
from lars.streams import Timeline
from solver.incremental.joins import Head
from solver.keys import key_constant

KEYS = st.sampled_from([0, 1, -1, 7, "a1", "b", '"1', '"a1', "<http://x/1"])
HEADS = ["h(X)", "h(X,Y)", "h(Y,X)", "h(X,X)", "h(X,1,Y)", "h(c)", "h"]


def fresh(head: Head, instance: tuple) -> Atom:
    """The head atom made without any memo."""
    return Atom(head.predicate, tuple(key_constant(instance[i]) if i is not None else c
                                      for i, c in head.getters))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.sampled_from(HEADS), st.lists(st.tuples(KEYS, KEYS), min_size=1, max_size=12))
def test_the_remembered_atom_is_the_one_made_afresh(text: str, instances: list) -> None:
    rule = parse_program(f"{text} :- p(X,Y).").rules[0]
    head = Head(rule, ("X", "Y"), Timeline(0, 10))
    for instance in instances + instances[::-1]:
        made = head.atom(instance)
        assert made == fresh(head, instance)
        assert head.atom(instance) is made
    head.made.clear()
    assert [head.atom(i) for i in instances] == [fresh(head, i) for i in instances]


def test_a_number_and_a_string_of_the_same_digits_stay_apart() -> None:
    head = Head(parse_program("h(X) :- p(X,Y).").rules[0], ("X", "Y"), Timeline(0, 10))
    assert str(head.atom((1, 0)).args[0]) != str(head.atom(('"1', 0)).args[0])
