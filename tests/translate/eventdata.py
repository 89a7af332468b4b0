"""Shared data of the event tests: the stream of paper 001's Figure 1 and a runner that solves
an event translation with the project's solver.

Figure 1 was lost in the text extraction; its content follows from the examples: ``G1 = {a1 p
b1}`` at 2, ``G2 = {a2 p b2}`` at 4, ``G3 = {b1 q c1, b2 q c2}`` at 6 (Example 7), ``G4 = {b2 q
c2}`` at 8 (Example 7), ``G5 = {a3 p b3, b1 q c1}`` at 10 (Examples 5 and 11; that ``a3 p b3`` is
in ``G5`` rather than ``G4`` changes no answer, it matches no ``q`` triple). The events of the
figure's table, numbered so that every statement of the paper holds (§2, Examples 8–11):
``e1 = (a2 b2 c2, 4, 6)``, ``e2 = (a1 b1 c1, 2, 6)``, ``e3 = (a2 b2 c2, 4, 8)``,
``e4 = (a1 b1 c1, 2, 10)``.
"""

from __future__ import annotations

from rdflib import URIRef

from lars.streams import Timeline
from solver.strategies import evaluate
from translate.api import input_atoms
from translate.eventrules import EventTranslation

EX = "http://ex.org/"


def iri(name: str) -> URIRef:
    return URIRef(EX + name)


S = iri("S")
FIGURE_1 = [((iri(s), iri(p), iri(o)), t, S) for s, p, o, t in (
    ("a1", "p", "b1", 2), ("a2", "p", "b2", 4), ("b1", "q", "c1", 6), ("b2", "q", "c2", 6),
    ("b2", "q", "c2", 8), ("a3", "p", "b3", 10), ("b1", "q", "c1", 10))]

EVENTS = {"e1": (("a2", "b2", "c2"), 4, 6), "e2": (("a1", "b1", "c1"), 2, 6),
          "e3": (("a2", "b2", "c2"), 4, 8), "e4": (("a1", "b1", "c1"), 2, 10)}


def solve(translation: EventTranslation, elements, end: int,
          strategy: str = "auto") -> dict[int, set[tuple]]:
    """``{t: {(values, t1, t2)}}`` at every time point with answers; values are rdflib terms."""
    encoder = translation.encoder()
    contents = input_atoms(elements, encoder)
    slices = iter(sorted((t, atoms) for t, atoms in contents.items() if t <= end))
    found: dict[int, set[tuple]] = {}
    for answer in evaluate(translation.program, slices, Timeline(0, end), frozenset(), strategy,
                           shown=frozenset({translation.predicate})):
        assert len(answer.streams) == 1, f"{len(answer.streams)} answer streams at {answer.time}"
        rows = {(tuple(encoder.decode(a) for a in atom.args[:-2]), atom.args[-2].value,
                 atom.args[-1].value) for atom, _ in answer.streams[0]}
        if rows:
            found[answer.time] = rows
    return found


def short(rows: set[tuple]) -> set[tuple]:
    """Rows with IRIs shortened to their local names."""
    return {(tuple(str(v).removeprefix(EX) for v in values), t1, t2) for values, t1, t2 in rows}
