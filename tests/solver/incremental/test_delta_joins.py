"""The delta joins of counted rules (solver/incremental/engine.py, joins.py) against joins
recomputed from scratch at every time point.

The oracle reads ``⊞^w ◇ a`` as SPEC section 3 defines it, directly: the atoms of the stream
at the time points ``[t - w, t]``, joined by trying every combination of them (no indexes, no
deltas). The engine maintains its join instances from what enters and leaves each window.
Random streams over a few values make atoms repeat within a time point and across time
points, so tuples enter and leave windows while other copies of them stay; the rules have
self-joins (one predicate on both sides, as the join benchmark), repeated variables,
constants, comparisons and an assignment, and windows of different lengths in one body.
"""

from __future__ import annotations

import itertools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.parser import parse_program
from lars.streams import Timeline
from lars.terms import Name, Number
from solver.keys import KeyedSlice, keys_of
from solver.strategies import evaluate

RULES = {
    "self-join": ("q(X,Z) :- [{w}] <> p(X,Y), [{w}] <> p(Y,Z).", "XZ", [("p", "XY", "w"), ("p", "YZ", "w")]),
    "repeated variable": ("q(X) :- [{w}] <> p(X,X).", "X", [("p", "XX", "w")]),
    "constant": ("q(X,Y) :- [{w}] <> p(X,a), [{v}] <> p(Y,X).", "XY", [("p", "Xa", "w"), ("p", "YX", "v")]),
    "three atoms": ("q(X,Z) :- [{w}] <> p(X,Y), [{v}] <> r(Y,Z), p(Z,X).", "XZ",
                    [("p", "XY", "w"), ("r", "YZ", "v"), ("p", "ZX", 0)]),
    "comparison": ("q(X,Y) :- [{w}] <> p(X,Y), [{w}] <> p(Y,X), X < Y.", "XY",
                   [("p", "XY", "w"), ("p", "YX", "w")]),
    "cartesian": ("q(X,Z) :- [{w}] <> r(X,X), [{v}] <> p(Z,a).", "XZ", [("r", "XX", "w"), ("p", "Za", "v")]),
}
"""Name → (rule, its head's arguments, its body as (predicate, arguments, window)): upper-case
letters are variables, lower-case ones the name constant; the window is ``w``, ``v`` or a number."""

VALUES = [Number(1), Number(2), Number(3), Name("a")]
ATOMS = st.builds(lambda p, x, y: Atom(p, (x, y)), st.sampled_from(["p", "r"]),
                  st.sampled_from(VALUES), st.sampled_from(VALUES))
STREAMS = st.lists(st.lists(ATOMS, max_size=5), min_size=1, max_size=9)


def recomputed(rule: str, stream: list[list[Atom]], w: int, v: int) -> list[set[Atom]]:
    """The heads at each time point, from the window contents joined by brute force."""
    _, arguments, body = RULES[rule]
    lengths = {"w": w, "v": v}
    answers = []
    for t in range(len(stream)):
        contents = []
        for predicate, letters, window in body:
            length = lengths.get(window, window)
            contents.append({a for s in range(max(0, t - length), t + 1) for a in stream[s]
                             if a.predicate == predicate})
        heads = set()
        for combination in itertools.product(*contents):
            binding = bind(body, combination)
            if binding is not None and accepted(rule, binding):
                heads.add(Atom("q", tuple(binding[letter] for letter in arguments)))
        answers.append(heads)
    return answers


def bind(body: list[tuple], atoms: tuple[Atom, ...]) -> dict[str, object] | None:
    """The variable values that make each body atom the given atom, if there are such."""
    binding: dict[str, object] = {}
    for (_, letters, _), atom in zip(body, atoms):
        for letter, value in zip(letters, atom.args):
            if letter.islower():
                if value != Name(letter):
                    return None
            elif binding.setdefault(letter, value) != value:
                return None
    return binding


def accepted(rule: str, binding: dict) -> bool:
    """The comparison ``X < Y`` of the comparison rule, in clingo's order (numbers < names)."""
    if rule != "comparison":
        return True
    x, y = binding["X"], binding["Y"]
    rank = {Number: 0, Name: 1}
    return (rank[type(x)], x.value) < (rank[type(y)], y.value)


def engine_answers(rule: str, stream: list[list[Atom]], w: int, v: int, keyed: bool) -> list[set[Atom]]:
    program = parse_program(RULES[rule][0].format(w=w, v=v))
    slices = [(t, as_slices(atoms, keyed)) for t, atoms in enumerate(stream) if atoms]
    answers = evaluate(program, iter(slices), Timeline(0, len(stream) - 1), strategy="stratified")
    found = []
    for answer in answers:
        (only,) = answer.streams
        assert {time for _, time in only} <= {answer.time}
        found.append({atom for atom, _ in only})
    return found


def as_slices(atoms: list[Atom], keyed: bool):
    """The slice as the reader gives it: keys for a slice of one signature when ``keyed``."""
    if keyed and len({a.signature for a in atoms}) == 1:
        return KeyedSlice.from_keys(atoms[0].signature, [keys_of(a) for a in atoms])
    return atoms


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(RULES)), STREAMS, st.integers(0, 3), st.integers(0, 3), st.booleans())
@example("self-join", [[Atom("p", (Number(1), Number(1)))]] * 3, 1, 1, True)  # one tuple, both sides
@example("self-join", [[Atom("p", (Number(1), Number(2))), Atom("p", (Number(2), Number(1)))], [],
                       [Atom("p", (Number(1), Number(2)))], []], 1, 1, False)  # re-entering
def test_delta_joins_equal_joins_recomputed_at_each_time_point(rule, stream, w, v, keyed) -> None:
    assert engine_answers(rule, stream, w, v, keyed) == recomputed(rule, stream, w, v)
