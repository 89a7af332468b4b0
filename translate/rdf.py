"""RDF terms ↔ LARS constants, triples ↔ atoms, answers ↔ rows (SPEC sections 2, 5).

This module owns the encoding in both directions. Constants:

* an IRI ``<i>`` is ``Iri("i")``; a blank node ``_:b`` of the data is ``Iri("_:b")`` (IRIs
  starting with ``_:`` are refused, so the two never meet);
* a numeric literal (xsd:integer, decimal, double, float and the integer subtypes) whose value
  is integral is ``Number(value)``: numbers compare by value, as SPARQL compares them;
  non-integral values and values outside clingo's 32-bit integers are refused;
* a plain or xsd:string literal is ``String(text)`` (text starting with ``"`` is refused);
* any other literal (language-tagged, other datatypes) is ``String`` of its N-Triples form, which
  starts with ``"``;
* ``null`` (an unbound variable) is ``Name("null")`` and the default graph ``Name("default")``.

Two different RDF terms that would get the same constant (``"83"^^xsd:double`` and
``"83"^^xsd:integer``, or ``"a"`` and ``"a"^^xsd:string``) are refused by
:class:`RdfTermEncoder`, which also remembers each literal constant's original term so that
answers print it back. Only literals can collide: an IRI or a blank node is decoded from its
constant alone, so the encoder does not remember them, and a stream of ever new IRIs (sensor
observations) does not grow its memory.

Because constants of each kind fill one range of the total order (numbers < names < strings <
IRIs, see :func:`lars.terms.order_key`), the type tests of SPARQL are range comparisons
(:func:`kind_guards`): ``isLiteral(?x)`` is ``X < null`` or ``"" <= X < <!>`` (``<!>`` is the
least IRI the encoding makes: IRIs with control characters are refused).

>>> enc = RdfTermEncoder()
>>> enc.encode(Literal("83", datatype=XSD_DOUBLE)), enc.encode(URIRef("http://ex.org/a"))
(Number(value=83), Iri(value='http://ex.org/a'))
>>> enc.encode(Literal("83", datatype=XSD_INTEGER))
Traceback (most recent call last):
...
lars.errors.InputError: error: the RDF terms "83.0"^^<http://www.w3.org/2001/XMLSchema#double> and "83"^^<http://www.w3.org/2001/XMLSchema#integer> would both be the constant 83 (SPARQL matches triples by term equality, so this data cannot be encoded exactly)
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from rdflib import BNode, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Dataset, Graph
from rdflib.term import Identifier

from lars.atoms import Atom, Comparison
from lars.errors import InputError
from lars.printer import print_formula, print_term
from lars.terms import Constant, Iri, Name, Number, String, Term, is_iri_text

XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_INTEGER = URIRef(XSD + "integer")
XSD_DOUBLE = URIRef(XSD + "double")
XSD_STRING = URIRef(XSD + "string")
NUMERIC_TYPES = frozenset(URIRef(XSD + name) for name in (
    "integer", "decimal", "double", "float", "int", "long", "short", "byte",
    "nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger",
    "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte"))
VALUE_TYPES = frozenset(URIRef(XSD + name) for name in ("boolean", "dateTime", "dateTimeStamp"))
"""Datatypes SPARQL compares by value but this encoding only by identity (refused when the
query compares values)."""

NULL = Name("null")
DEFAULT_GRAPH = Name("default")
STREAMS = Name("streams")
"""The constant naming the stream set ``S`` in ``ans_i(V̄, D, S)``."""

TRIPLE = "triple"
STRIPLE = "striple"
INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1

_IRI_LOW, _BLANK_LOW, _BLANK_HIGH = Iri("!"), Iri("_:"), Iri("_;")
_STRING_LOW, _OTHER_LOW, _OTHER_HIGH = String(""), String('"'), String("#")
BOUNDARIES = frozenset({NULL, _IRI_LOW, _BLANK_LOW, _BLANK_HIGH, _STRING_LOW, _OTHER_LOW, _OTHER_HIGH})
"""The constants that only type guards compare with (the edges of each kind's range)."""

Conjunction = tuple[Comparison, ...]
DNF = list[Conjunction]


class _QuietTermWarnings(logging.Filter):
    """Drops two warnings rdflib logs while it builds terms, which would print stray lines (one
    with a traceback) before ours: "does not look like a valid URI" (the readers refuse such an
    IRI themselves, naming the file: :func:`ingest.rdffiles.check_iris`, :func:`to_constant`)
    and "Failed to convert Literal lexical form" (an ill-typed literal such as
    ``"x"^^xsd:integer`` is a valid RDF term; it is kept by its lexical form)."""

    QUIET = ("does not look like a valid URI", "Failed to convert Literal lexical form")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(text in message for text in self.QUIET)


logging.getLogger("rdflib.term").addFilter(_QuietTermWarnings())


def _c(op: str, left: Term, right: Term) -> Comparison:
    return Comparison(op, left, right)


def kind_guards(x: Term) -> dict[str, DNF]:
    """Range tests on the encoding, as disjunctions of conjunctions of comparisons.

    >>> kind_guards(Name("x"))["number"]
    [(Comparison(op='<', left=Name(value='x'), right=Name(value='null')),)]
    """
    return {
        "bound": [(_c("!=", x, NULL),)],
        "unbound": [(_c("=", x, NULL),)],
        "number": [(_c("<", x, NULL),)],
        "plain": [(_c(">=", x, _STRING_LOW), _c("<", x, _OTHER_LOW)),
                  (_c(">=", x, _OTHER_HIGH), _c("<", x, _IRI_LOW))],
        "resource": [(_c(">=", x, _IRI_LOW),)],
        "iri": [(_c(">=", x, _IRI_LOW), _c("<", x, _BLANK_LOW)), (_c(">=", x, _BLANK_HIGH),)],
        "not_iri": [(_c("!=", x, NULL), _c("<", x, _IRI_LOW)),
                    (_c(">=", x, _BLANK_LOW), _c("<", x, _BLANK_HIGH))],
        "blank": [(_c(">=", x, _BLANK_LOW), _c("<", x, _BLANK_HIGH))],
        "not_blank": [(_c("!=", x, NULL), _c("<", x, _BLANK_LOW)), (_c(">=", x, _BLANK_HIGH),)],
        "literal": [(_c("<", x, NULL),), (_c(">=", x, _STRING_LOW), _c("<", x, _IRI_LOW))],
        "not_literal": [(_c(">=", x, _IRI_LOW),)],
    }


GUARD_NAMES = {
    "number": "is_numeric", "plain": "is_plain_string", "resource": "is_iri_or_blank",
    "iri": "is_iri", "blank": "is_blank", "not_blank": "is_not_blank", "not_iri": "is_not_iri",
    "literal": "is_literal", "not_literal": "is_iri_or_blank", "bound": "is_bound",
    "unbound": "is_unbound",
}
"""The name a reader knows for each range test of :func:`kind_guards`."""


def guard_readings(comparisons: Iterable[Comparison]) -> list[str]:
    """What the type guards among ``comparisons`` mean, as named predicates (``Percent < null``
    reads ``is_numeric(Percent)``), for the comments of translated rules: the guards compare
    with the boundary constants of the encoding's order, which a LARS reader cannot know.

    >>> from lars.terms import Variable
    >>> guard_readings([Comparison("<", Variable("P"), NULL), Comparison(">=", Variable("P"), Number(20))])
    ['P < null: is_numeric(P)']
    """
    found, given = [], list(comparisons)
    for comparison in given:
        if comparison.right not in BOUNDARIES or isinstance(comparison.left, Constant):
            continue
        guards = kind_guards(comparison.left)
        order = list(GUARD_NAMES)
        candidates = [(-len(d), order.index(kind), kind, d) for kind, disjuncts in guards.items()
                      for d in disjuncts if comparison in d and set(d) <= set(given)]
        if candidates:
            _, _, kind, disjunct = min(candidates, key=lambda c: c[:2])
            text = ", ".join(print_formula(c, "ascii") for c in disjunct)
            reading = f"{text}: {GUARD_NAMES[kind]}({print_term(comparison.left)})"
            if reading not in found:
                found.append(reading)
    return found


def constant_kind(constant: Constant) -> str:
    """``number``, ``plain``, ``other`` (a non-string literal), ``iri``, ``blank`` or ``name``."""
    if isinstance(constant, Number):
        return "number"
    if isinstance(constant, String):
        return "other" if constant.value.startswith('"') else "plain"
    if isinstance(constant, Iri):
        return "blank" if constant.value.startswith("_:") else "iri"
    return "name"


def numeric_value(literal: Literal) -> Fraction | None:
    """The exact value of a numeric literal, ``None`` for other or ill-typed literals."""
    if literal.language is not None or literal.datatype not in NUMERIC_TYPES:
        return None
    value = literal.value
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    if isinstance(value, (float, Decimal)) and not math.isfinite(value):
        return None
    return Fraction(value)


def _refuse_number(literal: Literal) -> None:
    value = numeric_value(literal)
    if value is None or value.denominator != 1:
        raise InputError(
            f"cannot keep numeric comparisons exact for {literal.n3()}: numbers become clingo "
            "integers, so only integral numeric values can be encoded",
            hint="scale the data to integers (e.g. tenths) or leave the value out")
    if not INT_MIN <= value.numerator <= INT_MAX:
        raise InputError(f"the number {literal} is outside clingo's 32-bit integers")


def to_constant(term: Identifier, compares_values: bool = False) -> Constant:
    """The constant of an RDF term (no collision check: see :class:`RdfTermEncoder`).

    >>> to_constant(Literal("x", lang="en")), to_constant(BNode("b0"))
    (String(value='"x"@en'), Iri(value='_:b0'))
    """
    if isinstance(term, URIRef):
        text = str(term)
        if text.startswith("_:") or not is_iri_text(text) or text < "!":
            raise InputError(f"cannot encode the IRI <{term}>: it is empty, holds white "
                             "space, '<', '>' or control characters, or starts with '_:' like a "
                             "blank node")
        return Iri(text)
    if isinstance(term, BNode):
        return Iri(f"_:{term}")
    if not isinstance(term, Literal):
        raise InputError(f"cannot encode {term!r} as a LARS constant")
    if term.language is None and term.datatype in NUMERIC_TYPES and term.ill_typed is not True:
        _refuse_number(term)
        return Number(numeric_value(term).numerator)
    if term.language is None and term.datatype in (None, XSD_STRING):
        return _plain_string(str(term))
    if compares_values and term.datatype in VALUE_TYPES:
        raise InputError(f"cannot compare {term.n3()} by value: this encoding compares only "
                         "numbers and strings by value, and the query has FILTER comparisons")
    return String(term.n3())


def _plain_string(text: str) -> String:
    if text.startswith('"') or "\x00" in text:
        raise InputError(f"cannot encode the string {text!r}: strings starting with a double "
                         "quote (or holding NUL) clash with the encoding of other literals")
    return String(text)


class RdfTermEncoder:
    """Encodes RDF terms as LARS constants, remembers the literals, refuses collisions.

    IRIs and blank nodes are not remembered: their constants (``Iri``) decode to them exactly.

    Args:
        compares_values: refuse literals that SPARQL compares by value and the encoding cannot
            (xsd:boolean, xsd:dateTime); set it when the query has FILTER comparisons.
    """

    RECENT = 1 << 14
    """Terms whose constants are kept for reuse (a stream repeats its predicates, classes and
    values at every time point; fresh individuals are dropped when the memo is cleared)."""

    def __init__(self, compares_values: bool = False):
        self.compares_values = compares_values
        self._terms: dict[Constant, Identifier] = {}
        self._recent: dict[Identifier, Constant] = {}

    def encode(self, term: Identifier) -> Constant:
        """The constant of ``term``; an :class:`InputError` on a collision."""
        constant = self._recent.get(term)  # rdflib terms are equal only if of the same kind
        if constant is not None:
            return constant
        constant = to_constant(term, self.compares_values)
        if len(self._recent) >= self.RECENT:
            self._recent.clear()
        if isinstance(constant, Iri):
            self._recent[term] = constant
            return constant
        known = self._terms.setdefault(constant, term)
        if known != term or type(known) is not type(term):
            raise InputError(
                f"the RDF terms {known.n3()} and {term.n3()} would both be the constant "
                f"{_show(constant)} (SPARQL matches triples by term equality, so this data "
                "cannot be encoded exactly)")
        self._recent[term] = constant
        return constant

    def decode(self, constant: Constant) -> Identifier | None:
        """The RDF term behind a constant (``None`` for ``null``)."""
        if constant == NULL:
            return None
        if constant in self._terms:
            return self._terms[constant]
        return _fallback_term(constant)

    def terms(self) -> tuple[Identifier, ...]:
        """The literals encoded so far (the terms that can collide), in the order first seen."""
        return tuple(self._terms.values())

    def __len__(self) -> int:
        """How many literals the encoder remembers."""
        return len(self._terms)


def _show(constant: Constant) -> str:
    return str(constant.value) if isinstance(constant, (Number, Name)) else repr(constant.value)


def _fallback_term(constant: Constant) -> Identifier:
    if isinstance(constant, Number):
        return Literal(constant.value)
    if isinstance(constant, Iri):
        text = constant.value
        return BNode(text[2:]) if text.startswith("_:") else URIRef(text)
    return Literal(constant.value)


# --- triples ↔ atoms --------------------------------------------------------------------------

def triple_atom(triple: tuple, graph: Constant, encoder: RdfTermEncoder) -> Atom:
    """The background atom ``triple(s, p, o, G)``."""
    s, p, o = (encoder.encode(term) for term in triple)
    return Atom(TRIPLE, (s, p, o, graph))


def stream_atom(triple: tuple, stream: URIRef, encoder: RdfTermEncoder) -> Atom:
    """The input atom ``striple(s, p, o, stream)``."""
    s, p, o = (encoder.encode(term) for term in triple)
    return Atom(STRIPLE, (s, p, o, encoder.encode(URIRef(stream))))


def graph_atoms(graph: Graph, encoder: RdfTermEncoder,
                name: URIRef | None = None) -> list[Atom]:
    """``triple(s,p,o,G)`` for each triple of ``graph``: ``G`` is ``default`` or ``<name>``."""
    constant = DEFAULT_GRAPH if name is None else encoder.encode(URIRef(name))
    return sorted((triple_atom(t, constant, encoder) for t in graph), key=repr)


def dataset_atoms(dataset: Dataset, encoder: RdfTermEncoder) -> list[Atom]:
    """The background atoms of an rdflib ``Dataset``: its default graph and its named graphs."""
    atoms = []
    for graph in dataset.graphs():
        default = graph.identifier == DATASET_DEFAULT_GRAPH_ID
        atoms += graph_atoms(graph, encoder, None if default else graph.identifier)
    return atoms


def stream_contents(timed: Iterable[tuple[tuple, int, URIRef]],
                    encoder: RdfTermEncoder) -> dict[int, list[Atom]]:
    """``{t: striple atoms}`` from ``(triple, t, stream)`` items, keeping arrival order."""
    contents: dict[int, list[Atom]] = {}
    for triple, t, stream in timed:
        contents.setdefault(t, []).append(stream_atom(triple, stream, encoder))
    return contents


# --- answers ----------------------------------------------------------------------------------

_ANSWER = re.compile(r"ans_\d+(_prime)?\Z")


def is_answer_predicate(predicate: str) -> bool:
    """True for the predicates ``ans_i`` and ``ans_i_prime`` that τ generates."""
    return _ANSWER.match(predicate) is not None


def chop(atoms: Iterable[Atom]) -> frozenset[Atom]:
    """Project the stream-set argument ``S`` away from ``ans_i`` atoms (paper, section 4.3).

    >>> sorted(chop([Atom("ans_1", (Number(1), DEFAULT_GRAPH, STREAMS)), Atom("p")]), key=repr)
    [Atom(predicate='ans_1', args=(Number(value=1), Name(value='default'))), Atom(predicate='p', args=())]
    """
    return frozenset(Atom(a.predicate, a.args[:-1]) if is_answer_predicate(a.predicate) else a
                     for a in atoms)


def rows(atoms: Iterable[Atom], predicate: str, variables: tuple[str, ...],
         encoder: RdfTermEncoder, chopped: bool = False) -> list[dict[str, Identifier | None]]:
    """Result rows from answer atoms ``predicate(V̄, D[, S])``: ``{var: term or None}``, sorted.

    Args:
        atoms: any atoms; only those of ``predicate`` with the right arity count.
        variables: the SPARQL names of ``V̄`` in argument order.
        chopped: whether the ``S`` argument was already projected away.
    """
    arity = len(variables) + (1 if chopped else 2)
    found = {a.args[: len(variables)] for a in atoms
             if a.predicate == predicate and len(a.args) == arity}
    table = [{v: encoder.decode(c) for v, c in zip(variables, args)} for args in found]
    return sorted(table, key=lambda row: [str(row[v]) for v in variables])
