"""Solving translated programs in tests, in one place.

Everything goes through :func:`solve`, which calls the project's solver
(``solver.reference.answer_streams_at``); swapping the solver means changing the one import below.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lars.atoms import Atom
from lars.rules import Program
from lars.streams import Stream, Timeline
from solver.reference import answer_streams_at
from translate import Translation, chop
from translate.rdf import RdfTermEncoder


def solve(program: Program, background: Iterable[Atom] = (),
          contents: Mapping[int, Iterable[Atom]] | None = None, t: int = 0,
          timeline: Timeline | None = None) -> list[frozenset[Atom]]:
    """The answer streams at ``t``, each as the set of atoms the rules add at ``t``."""
    contents = dict(contents or {})
    timeline = timeline or Timeline(min([0, *contents]), max([t, *contents]))
    stream = Stream.from_mapping(timeline, contents)
    streams = answer_streams_at(program, stream, t, frozenset(background))
    return [frozenset(atom for atom, time in s if time == t) for s in streams]


def answer_rows(translation: Translation, encoder: RdfTermEncoder, background: Iterable[Atom],
                contents: Mapping[int, Iterable[Atom]] | None = None, t: int = 0) -> list[dict]:
    """The rows of the single answer stream at ``t`` (chopped ``ans_1`` atoms)."""
    streams = solve(translation.program, background, contents, t)
    assert len(streams) == 1, f"expected one answer stream, got {len(streams)}"
    return translation.rows(chop(streams[0]), encoder, chopped=True)


def row_set(rows: Iterable[Mapping]) -> frozenset:
    """Rows as a set of frozensets of ``(variable, term)`` for the bound variables."""
    return frozenset(frozenset((str(k), v) for k, v in row.items() if v is not None) for row in rows)
