"""The atoms at a time point are a set (SPEC section 2): a repeated atom is no new tuple.

A tuple window ``⊞^{#n}`` counts the latest ``n`` atoms in arrival order; an atom that arrives
again at the same time point keeps the place of its first arrival. Ticker's test "tuple diamond"
(hbeck/ticker, src/test/scala/reasoner/incremental/builtreasoner/IncrementalLowLevelTests.scala)
appends ``b, c, d, e`` at 12 for ``h ← ⊞^{#2} ◇ b``, expects no ``h``, and notes that a second
``b`` at 12 must be rejected under set semantics (``hasN(12,h)``): issue 27's case.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.parser import parse_program
from lars.streams import Stream, Timeline
from solver.reference import Problem
from solver.strategies import STRATEGIES, evaluate, slices_of
from tests.badinput.clirun import lars
from tests.helpers import atom
from tests.strategies import scenario, window_scenario

PROGRAM = parse_program("h ← ⊞^{#2} ◇ b.")
TIMELINE = Timeline(0, 12)


def holds_h(slices, strategy: str) -> list[int]:
    """The time points where ``h`` holds under ``strategy``, given raw slices."""
    answers = evaluate(PROGRAM, iter(slices), TIMELINE, strategy=strategy)
    return [a.time for a in answers if any(pair[0] == atom("h") for s in a.streams for pair in s)]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("line", "expected"), [
    pytest.param("b, c, d, e, b", [], id="repeated-b-keeps-first-place"),
    pytest.param("b, c, d, e", [], id="ticker-without-repeat"),
    pytest.param("c, d, e, b", [12], id="b-latest"),
    pytest.param("c, d, b, e, b", [12], id="repeat-of-second-latest"),
])
def test_repeated_atom_is_not_a_new_tuple(strategy, line, expected):
    slices = [(12, [atom(a.strip()) for a in line.split(",")])]
    assert holds_h(slices, strategy) == expected


def test_stream_value_is_a_set_in_first_arrival_order():
    b, c = atom("b"), atom("c")
    stream = Stream.from_mapping(TIMELINE, {12: [b, c, b]})
    assert stream.at(12) == (b, c)
    assert stream == Stream.from_mapping(TIMELINE, {12: [b, c]})


def test_command_line(tmp_path):
    """``lars run`` over the LARS atom stream of the issue: no ``h``, with every strategy."""
    (tmp_path / "p.lars").write_text("h :- [#2] <> b.\n")
    (tmp_path / "s.stream").write_text("12: b, c, d, e, b\n")
    for strategy in ("reference", "stratified", "incremental"):
        status, out, err = lars("run", tmp_path / "p.lars", "--stream", tmp_path / "s.stream",
                                "--strategy", strategy, "--format", "atoms")
        assert status == 0, err
        assert " h" not in out and "\th" not in out and not any(
            line.split()[-1:] == ["h"] for line in out.splitlines()), out


@st.composite
def repeated(draw):
    """A scenario and the same stream's slices with some atoms repeated later in their time point."""
    program, stream, background, _ = draw(st.one_of(scenario(), window_scenario()))
    slices = []
    for t, atoms in stream.items:
        atoms = list(atoms)
        for _ in range(draw(st.integers(0, 2)) if atoms else 0):
            again = draw(st.sampled_from(atoms))
            position = draw(st.integers(atoms.index(again) + 1, len(atoms)))
            atoms.insert(position, again)
        slices.append((t, atoms))
    return program, stream, background, slices


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(repeated())
def test_repeats_change_no_answer(case):
    """Differential: with repeats, every strategy answers as the reference on the stream without."""
    program, stream, background, slices = case
    expected = list(Problem(program, stream, frozenset(background)).run())
    for strategy in ("reference", "incremental"):
        got = list(evaluate(program, iter(slices), stream.timeline, background, strategy))
        assert got == expected, strategy
    assert list(evaluate(program, slices_of(stream), stream.timeline, background, "incremental")) == expected
