"""Head atoms with a long text are not remembered (solver/incremental/joins.py, :meth:`Head.atom`).

A value longer than :data:`solver.keys.LONG_KEY` (a GROUP_CONCAT over a window of literals)
is new at every time point; remembering the head atoms that hold it kept every time point's
copy in each head that copies it on (``benchmarks/bench_aggregates.py``'s GROUP_CONCAT: peak
450 MB, 267 MB without). Such heads are made afresh each time and equal the direct reading;
heads of short values are still remembered.
"""

from __future__ import annotations

from lars.atoms import Atom
from lars.parser import parse_program
from lars.streams import Timeline
from solver.incremental.joins import Head
from solver.keys import LONG_KEY, key_constant


def fresh(head: Head, instance: tuple) -> Atom:
    return Atom(head.predicate, tuple(key_constant(instance[i]) if i is not None else c
                                      for i, c in head.getters))


def test_a_head_holding_a_long_text_is_made_afresh_and_not_kept() -> None:
    head = Head(parse_program("h(X, Y) :- p(X, Y).").rules[0], ("X", "Y"), Timeline(0, 10))
    for t in range(5):
        long = '"' + str(t) * (LONG_KEY + 1)
        made = head.atom((long, 1))
        assert made == fresh(head, (long, 1))
    assert head.made == {}
    short = head.atom(('"' + "x" * (LONG_KEY - 1), 1))
    assert head.atom(('"' + "x" * (LONG_KEY - 1), 1)) is short and len(head.made) == 1


def test_a_long_text_outside_the_head_does_not_matter() -> None:
    """Only the head's own values count: a long value of another body variable is not in it."""
    head = Head(parse_program("h(X) :- p(X, Y).").rules[0], ("X", "Y"), Timeline(0, 10))
    made = head.atom((1, '"' + "y" * (LONG_KEY + 1)))
    assert head.atom((1, '"short')) is made
