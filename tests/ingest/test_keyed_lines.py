"""Stream lines read as keys (ingest/larsfile.py keyed_stream_line, solver/keys.py KeyedSlice)
against the parser that makes atoms (lars.parser.parse_stream_line).

Whatever shape a line has, the keyed reader gives the same time point and the same atoms, in
the same order, or the same error; a slice of keys reads as its atoms everywhere (equal to
their tuple, same length, same items, pickled and back).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ingest.larsfile import keyed_stream_line, stream_slices
from ingest.policy import ReadPolicy, ReadReport
from lars.atoms import Atom
from lars.errors import ParseError
from lars.parser import parse_stream_line
from lars.terms import Name, Number
from solver.keys import KeyedSlice, keys_of

ARGUMENTS = st.sampled_from(["1", "-2", "007", "a", "bC_1", "not", '"s"', "<i>", " 3 ", "x y", ""])
ATOM_TEXTS = st.builds(lambda p, args, paren: p + (f"({','.join(args)})" if paren else ""),
                       st.sampled_from(["p", "q", "not", "p "]), st.lists(ARGUMENTS, max_size=3),
                       st.booleans())
LINES = st.builds(lambda t, atoms, tail: f"{t}:{', '.join(atoms)}{tail}", st.sampled_from(["3", " -1 ", "x"]),
                  st.lists(ATOM_TEXTS, max_size=4), st.sampled_from(["", " ", "\r", " # c"]))


def outcome(parse, line: str):
    try:
        parsed = parse(line, "s", 1)
    except ParseError as error:
        return "error", str(error)
    return "ok", None if parsed is None else (parsed[0], tuple(parsed[1]))


@given(LINES)
@example("3: p(1,2), p(3,4)")
@example("3: p(1,a), p(b, -2)")
@example("3: p(1), p(1,2)")  # two arities: two signatures
@example("3: p, p")
@example("3: p(not)")
def test_keyed_lines_give_what_the_parser_gives(line) -> None:
    assert outcome(keyed_stream_line, line) == outcome(parse_stream_line, line)


def test_a_line_of_one_signature_is_keyed_and_others_are_atoms() -> None:
    _, keyed = keyed_stream_line("3: p(1,a), p(-2, b)", "s", 1)
    assert type(keyed) is KeyedSlice and keyed.keys() == [(1, "a"), (-2, "b")]
    _, mixed = keyed_stream_line("3: p(1), q(2)", "s", 1)
    assert type(mixed) is list


def test_a_slice_of_keys_reads_as_its_atoms() -> None:
    atoms = (Atom("p", (Number(1), Name("a"))), Atom("p", (Number(1), Name("a"))))
    keyed = KeyedSlice.from_keys(("p", 2), [keys_of(a) for a in atoms])
    assert keyed == atoms and atoms == keyed and list(keyed) == list(atoms)
    assert len(keyed) == 2 and keyed[1] == atoms[1] and repr(keyed) == repr(atoms)
    assert pickle.loads(pickle.dumps(keyed)) == keyed
    assert KeyedSlice(list(atoms)) == keyed and hash(keyed) == hash(atoms)


def test_lines_of_one_time_point_are_joined_in_line_order(tmp_path) -> None:
    path = tmp_path / "s.stream"
    path.write_text("0: p(1)\n0: p(2)\n1: p(3)\n1: q\n2: p(4)\n")
    slices = list(stream_slices(path, ReadPolicy(), ReadReport()))
    assert [type(atoms) for _, atoms in slices] == [KeyedSlice, tuple, KeyedSlice]
    assert [(t, [str(a.args[0].value) if a.args else a.predicate for a in atoms]) for t, atoms in slices] == \
        [(0, ["1", "2"]), (1, ["3", "q"]), (2, ["4"])]


def test_a_bad_line_is_refused_with_its_position(tmp_path) -> None:
    path = tmp_path / "s.stream"
    path.write_text("0: p(1)\n1: p(not)\n")
    with pytest.raises(ParseError, match=r"s\.stream:2:"):
        list(stream_slices(path, ReadPolicy(), ReadReport()))


def test_a_slice_indexed_before_it_was_keyed_still_gives_keys() -> None:
    """An index of atoms made before :meth:`KeyedSlice.keys` gives keys after it too (a
    pattern with a constant, then one without, then the first again with another value)."""
    keyed = KeyedSlice([Atom("p", (Name("a"), Number(1))), Atom("p", (Name("b"), Number(2)))])
    assert keyed.having(0, "a") == [("a", 1)]
    assert keyed.keys() == [("a", 1), ("b", 2)]
    assert keyed.having(0, "b") == [("b", 2)]
