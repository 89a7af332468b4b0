"""Shared test helpers: one-line solver facts (telingo's style).

``solve_texts`` returns the answer streams at each time point as sorted strings, so a test is one
equality; ``assert_holds_exactly`` checks presence *and* absence of atoms at every time point.
"""

from __future__ import annotations

from lars.atoms import Atom
from lars.parser import parse_atom, parse_facts, parse_program
from lars.printer import print_atom
from lars.streams import Stream, Timeline
from solver.reference import Problem


def make_stream(timeline: tuple[int, int], contents: dict[int, str]) -> Stream:
    """A stream from ``{t: "a(1), b"}`` texts."""
    mapping = {t: [parse_atom(part.strip()) for part in text.split(";") if part.strip()]
               for t, text in contents.items()}
    return Stream.from_mapping(Timeline(*timeline), mapping)


def problem(program: str, timeline: tuple[int, int], contents: dict[int, str] | None = None,
            background: str = "") -> Problem:
    """A :class:`Problem` from texts: program, ``{t: "a; b(1)"}`` stream, background facts."""
    return Problem(parse_program(program), make_stream(timeline, contents or {}),
                   frozenset(parse_facts(background)))


def solve_texts(prob: Problem, t: int) -> list[list[str]]:
    """The answer streams at ``t`` as sorted lists of ``atom`` or ``atom@time`` strings."""
    return [sorted(print_atom(a) if time == t else f"{print_atom(a)}@{time}" for a, time in stream)
            for stream in prob.solve_at(t).streams]


def assert_holds_exactly(prob: Problem, expected: dict[str, set[int]]) -> None:
    """At every time point: one answer stream, holding exactly the expected atoms at ``t``."""
    timeline = prob.stream.timeline
    for t in timeline:
        streams = solve_texts(prob, t)
        want = sorted(atom for atom, points in expected.items() if t in points)
        assert streams == [want], f"at t={t}: expected {[want]}, got {streams}"


def atom(text: str) -> Atom:
    return parse_atom(text)


def assert_engine_as_reference(program, stream: Stream, background, strategy: str, shown, inputs) -> None:
    """``strategy``'s answers on ``shown`` (``incremental`` for a program that is not stratified),
    told the ``inputs`` signatures (so it unfolds and inlines what it may), are the reference's."""
    from lars.analysis import is_stratified
    from solver.strategies import evaluate, slices_of
    if not is_stratified(program):
        strategy = "incremental"
    expected = list(evaluate(program, slices_of(stream), stream.timeline, background, "reference",
                             shown=shown))
    found = list(evaluate(program, slices_of(stream), stream.timeline, background, strategy,
                          shown=shown, inputs=inputs))
    assert found == expected
