"""The clingo text of constants and atoms, made without clingo, is what clingo itself prints."""

import clingo
from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.terms import Iri, Name, Number, String, is_iri_text
from solver.symbols import atom_symbol, atom_text, constant_of, constant_text, symbol_of

# Any text, with the characters clingo escapes (and NUL, where clingo cuts) drawn often.
texts = st.text(st.one_of(st.sampled_from('"\\\n\0\tx'), st.characters()), max_size=12)
names = st.from_regex(r"[a-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(lambda name: name != "not")
iris = texts.map(lambda text: "http://ex.org/" + text).filter(is_iri_text).map(Iri)
constants = st.one_of(
    st.integers(-2**31, 2**31 - 1).map(Number), names.map(Name), texts.map(String), iris)


@given(constants)
def test_constant_text_is_what_clingo_prints(constant):
    assert constant_text(constant) == str(symbol_of(constant))


@given(names, st.lists(constants, max_size=3).map(tuple))
def test_atom_text_is_what_clingo_prints(predicate, args):
    atom = Atom(predicate, args)
    assert atom_text(atom) == str(atom_symbol(atom))


@given(constants.filter(lambda c: "\0" not in str(c.value)))
def test_clingo_reads_the_text_back_as_the_constant(constant):
    assert constant_of(clingo.parse_term(constant_text(constant))) == constant
