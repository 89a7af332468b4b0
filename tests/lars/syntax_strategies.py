"""Hypothesis strategies for LARS values, built bottom-up: terms → atoms → formulas → rules → programs.

They cover everything the text syntax must round-trip: all constant kinds (strings with quotes,
backslashes, newlines and any Unicode; IRIs; negative numbers; names that are window words
elsewhere, such as ``inf``), arithmetic trees, every window kind (``∞``, ahead and step, tuple),
every modality, negation, ``@`` heads and empty bodies.
"""

from __future__ import annotations

from hypothesis import strategies as st

from lars.atoms import COMPARISON_OPERATORS, Atom, Comparison
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom
from lars.lexer import is_iri_text
from lars.rules import Literal, Program, Rule
from lars.terms import ARITHMETIC_OPERATORS, MAX_INTEGER, MIN_INTEGER, BinaryOp, Iri, Name, Number, String, Variable
from lars.windows import TimeWindow, TupleWindow

_TAIL = "[A-Za-z0-9_]{0,6}"

names = st.one_of(
    st.from_regex(rf"[a-z]{_TAIL}", fullmatch=True).filter(lambda text: text != "not"),
    st.sampled_from(["inf", "now", "null", "true", "g_classify", "nota", "not_"]),
)
variables = st.one_of(
    st.from_regex(rf"[A-Z_]{_TAIL}", fullmatch=True),
    st.sampled_from(["_", "_X", "__", "T"]),
).map(Variable)
numbers = st.one_of(st.integers(-1000, 1000), st.integers(MIN_INTEGER, MAX_INTEGER)).map(Number)  # clingo's range: others are refused
strings = st.one_of(
    st.text(),
    st.text(alphabet='"\\\n\t\r #<>[]{}@_⊞◇□←≠≤≥∞ab'),
).map(String)
iris = st.one_of(
    st.text(min_size=1).filter(is_iri_text),
    st.sampled_from(["http://ex.org/a#b", "=", "urn:x", "http://ex.org/[#]"]),
).map(Iri)

constants = st.one_of(numbers, names.map(Name), strings, iris)
simple_terms = st.one_of(constants, variables)
time_terms = st.one_of(numbers, variables)

terms = st.recursive(
    simple_terms,
    lambda inner: st.builds(BinaryOp, st.sampled_from(ARITHMETIC_OPERATORS), inner, inner),
    max_leaves=8,
)

atoms = st.builds(Atom, names, st.lists(simple_terms, max_size=4).map(tuple))

time_windows = st.builds(
    TimeWindow,
    st.one_of(st.none(), st.integers(0, 100)),
    st.one_of(st.just(0), st.integers(0, 20)),
    st.one_of(st.just(1), st.integers(1, 20)),
)
substreams = st.builds(Atom, names, st.lists(st.one_of(constants, st.just(Variable("_"))), max_size=4).map(tuple))
windows = st.one_of(time_windows, st.builds(TupleWindow, st.integers(1, 100),
                                            st.one_of(st.none(), substreams)))
modalities = st.one_of(st.just(Diamond()), st.just(Box()), st.builds(At, time_terms))

comparisons = st.builds(Comparison, st.sampled_from(COMPARISON_OPERATORS), terms, terms)
body_formulas = st.one_of(
    atoms,
    st.builds(AtAtom, time_terms, atoms),
    st.builds(WindowAtom, windows, modalities, atoms),
    comparisons,
)
literals = st.builds(Literal, body_formulas, st.booleans())
heads = st.one_of(atoms, st.builds(AtAtom, time_terms, atoms))
rules = st.builds(Rule, heads, st.lists(literals, max_size=4).map(tuple))
programs = st.builds(Program, st.lists(rules, max_size=5).map(tuple))
