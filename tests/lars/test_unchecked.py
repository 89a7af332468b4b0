"""``Atom.unchecked`` and ``Iri.unchecked`` (the readers' per-triple constructors) make values
that behave exactly as the checked constructors' do: equal, same hash, same text, and the same
after pickling (Spark and worker processes receive them)."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.terms import Iri, Name, is_iri_text

names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(lambda n: n != "not")
iri_texts = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF), min_size=1, max_size=12
                    ).filter(is_iri_text)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(iri_texts)
def test_an_unchecked_iri_is_the_checked_one(text):
    made, checked = Iri.unchecked(text), Iri(text)
    assert made == checked and hash(made) == hash(checked) and repr(made) == repr(checked)
    assert pickle.loads(pickle.dumps(made)) == checked


@settings(max_examples=200, derandomize=True, deadline=None)
@given(names, st.lists(st.one_of(iri_texts.map(Iri), names.map(Name)), max_size=4).map(tuple))
def test_an_unchecked_atom_is_the_checked_one(predicate, args):
    made, checked = Atom.unchecked(predicate, args), Atom(predicate, args)
    assert made == checked and hash(made) == hash(checked) and repr(made) == repr(checked)
    assert made.signature == checked.signature and {made: 1}[checked] == 1
    again = pickle.loads(pickle.dumps(made))
    assert again == checked and hash(again) == hash(checked)
