"""The clingo text of constants and atoms, made without clingo, is what clingo itself prints."""

import clingo
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.errors import UnsupportedError
from lars.terms import Iri, Name, Number, String, is_iri_text
from solver.symbols import IRI_FUNCTION, atom_text, constant_of, constant_text

# Any text but NUL (refused, below) and lone surrogates (not UTF-8: no file or clingo string can
# hold one), with the characters clingo escapes drawn often.
texts = st.text(st.one_of(st.sampled_from('"\\\n\tx'),
                          st.characters(blacklist_characters="\0", blacklist_categories=("Cs",))),
                max_size=12)
names = st.from_regex(r"[a-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(lambda name: name != "not")
iris = texts.map(lambda text: "http://ex.org/" + text).filter(is_iri_text).map(Iri)


def symbol_of(constant):
    """The oracle: the clingo symbol of a LARS constant, made by clingo."""
    if isinstance(constant, Number):
        return clingo.Number(constant.value)
    if isinstance(constant, Name):
        return clingo.Function(constant.value)
    if isinstance(constant, String):
        return clingo.String(constant.value)
    return clingo.Function(IRI_FUNCTION, [clingo.String(constant.value)])


def atom_symbol(atom):
    return clingo.Function(atom.predicate, [symbol_of(arg) for arg in atom.args])


constants = st.one_of(
    st.integers(-2**31, 2**31 - 1).map(Number), names.map(Name), texts.map(String), iris)


@given(constants)
def test_constant_text_is_what_clingo_prints(constant):
    assert constant_text(constant) == str(symbol_of(constant))


@given(names, st.lists(constants, max_size=3).map(tuple))
def test_atom_text_is_what_clingo_prints(predicate, args):
    atom = Atom(predicate, args)
    assert atom_text(atom) == str(atom_symbol(atom))


@given(constants)
def test_clingo_reads_the_text_back_as_the_constant(constant):
    assert constant_of(clingo.parse_term(constant_text(constant))) == constant


def test_a_string_with_nul_is_refused_as_clingo_would_cut_it():
    assert str(clingo.String("a\0b")) == str(clingo.String("a\0c"))  # why
    with pytest.raises(UnsupportedError, match="a string with a NUL character cannot be passed to clingo"):
        atom_text(Atom("p", (String("a\0b"),)))
