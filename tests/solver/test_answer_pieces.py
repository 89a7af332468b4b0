"""The jsonl pieces of an answer atom (solver/formats.py atom_pieces), put together from its
constants' remembered pieces, against ``json.dumps`` of :func:`atom_json` and ``print_atom``."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.printer import print_atom
from lars.terms import Iri, Name, Number, String
from solver.formats import atom_json, atom_pieces

CONSTANTS = st.one_of(
    st.integers(-2**31, 2**31 - 1).map(Number),
    st.from_regex(r"[a-z][A-Za-z0-9_]{0,5}", fullmatch=True).map(Name),
    st.text(max_size=6).map(String),  # quotes, backslashes, control characters, any Unicode
    st.from_regex(r"http://ex\.org/[a-zé]{0,4}", fullmatch=True).map(Iri),
)


@given(st.sampled_from(["p", "q_1"]), st.lists(CONSTANTS, max_size=3), st.integers(-5, 5))
def test_pieces_are_what_the_printer_and_json_write(predicate, args, time) -> None:
    atom = Atom(predicate, tuple(args))
    text, head = atom_pieces(atom)
    assert text == print_atom(atom)
    assert head + f', "time": {time}}}' == json.dumps(atom_json(atom, time), ensure_ascii=False)
