"""RDF terms ↔ LARS constants, triples ↔ atoms, answers ↔ rows (SPEC sections 2, 5).

This module owns the encoding in both directions. It is exact: two RDF terms get the same
constant exactly when they are the same term, and every constant decodes to its term without
memory. Constants:

* an IRI ``<i>`` is ``Iri("i")``; a blank node ``_:b`` of the data is ``Iri("_:b")`` (IRIs
  starting with ``_:`` are refused, so the two never meet);
* an xsd:integer in canonical form within clingo's 32-bit integers is ``Number(value)``
  (compact, and the time arithmetic of the translation stays native);
* the booleans ``true`` and ``false`` (canonical xsd:boolean) are ``Name("true")`` and
  ``Name("false")``, which the SPARQL functions return (:mod:`translate.sparqlfunctions`);
* a plain or xsd:string literal whose text does not start with ``"`` is ``String(text)``;
* every other literal (other datatypes, other numbers, language tags, ill-typed literals) is
  ``String`` of its N-Triples form, which starts with ``"``; language tags are lower-cased:
  SPARQL's tests treat ``"a"@EN`` and ``"a"@en`` as one term (a pattern with one matches the
  other, ``dawg-lang-3``; ``=`` is true on them), as RDF 1.1 Concepts (3.3) permits ("lexical
  representations of language tags MAY be converted to lower case").
* ``null`` (an unbound variable) is ``Name("null")``, ``error`` (a SPARQL expression error,
  inside expressions only) ``Name("error")`` and the default graph ``Name("default")``.

Values are compared by the SPARQL functions, never by the constant order: ``"1"^^xsd:integer``
(``1``) and ``"1.0"^^xsd:double`` (a string) are different terms with equal values.

Terms are kept exactly as written (RDF 1.1 Concepts, 3.3: two literals are the same term when
their lexical forms, datatypes and language tags are equal character by character; the tags up
to case, above): ``"01"^^xsd:integer`` and ``"1.0"^^xsd:decimal`` are different terms from ``1``
and ``"1"^^xsd:decimal``, so joins, DISTINCT and GROUP BY, which use term identity,
keep them apart, and answers show them as the data wrote them; ``=``, ``<`` and the other
operators compare their values (:mod:`translate.sparqlfunctions`). For this, importing this
module turns off rdflib's literal normalisation (``rdflib.NORMALIZE_LITERALS``), which would
rewrite ``"01"^^xsd:integer`` as ``"1"`` while parsing data or queries. One identity rdflib
does not normalise and RDF 1.1 makes: ``"a"^^xsd:string`` is ``"a"``.

>>> enc = RdfTermEncoder()
>>> enc.encode(Literal("83", datatype=XSD_DOUBLE)), enc.encode(Literal(83))
(String(value='"83"^^<http://www.w3.org/2001/XMLSchema#double>'), Number(value=83))
>>> enc.decode(enc.encode(Literal("chat", lang="FR")))
rdflib.term.Literal('chat', lang='fr')
>>> enc.encode(Literal("01", datatype=XSD_INTEGER)), enc.encode(Literal("-0", datatype=XSD_INTEGER))
(String(value='"01"^^<http://www.w3.org/2001/XMLSchema#integer>'), String(value='"-0"^^<http://www.w3.org/2001/XMLSchema#integer>'))
"""

from __future__ import annotations

import logging
import math
import re
import warnings
from collections.abc import Callable, Hashable, Iterable
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import rdflib
from rdflib import BNode, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Dataset, Graph
from rdflib.term import Identifier
from rdflib.util import from_n3

from lars.atoms import Atom
from lars.errors import InputError
from lars.terms import Constant, Iri, Name, Number, String, is_iri_text
from translate.xsdvalues import INTEGER_TYPES, numeric

XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_INTEGER = URIRef(XSD + "integer")
XSD_DOUBLE = URIRef(XSD + "double")
XSD_STRING = URIRef(XSD + "string")
XSD_BOOLEAN = URIRef(XSD + "boolean")

NULL = Name("null")
ERROR = Name("error")
TRUE, FALSE = Name("true"), Name("false")
DEFAULT_GRAPH = Name("default")
STREAMS = Name("streams")
"""The constant naming the stream set ``S`` in ``ans_i(V̄, D, S)``."""

TRIPLE = "triple"
STRIPLE = "striple"
INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1
_BOOLEANS = {"true": TRUE, "false": FALSE}
_XSD_INTEGER_TEXT, _XSD_BOOLEAN_TEXT, _XSD_STRING_TEXT = XSD + "integer", XSD + "boolean", XSD + "string"


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
# The same for the UserWarning rdflib raises when it writes an ill-typed numeric literal
# ("abc"^^xsd:decimal, a newcomer's stream): it printed its source line on stderr, once per
# worker process. The text it then writes is the literal's N-Triples form, the constant wanted,
# and the ill-typed value is already handled as SPARQL says (an expression over it is an error:
# a FILTER drops the row, an aggregate is unbound), so there is nothing to tell.
warnings.filterwarnings("ignore", message="Serializing weird numerical", category=UserWarning,
                        module="rdflib.term")
rdflib.NORMALIZE_LITERALS = False  # terms as written (see the module doc)


def numeric_value(literal: Literal) -> Fraction | None:
    """The exact value of a numeric literal, ``None`` for other or ill-typed literals (for the
    ORDER BY of :mod:`translate.modifiers`)."""
    value = numeric(literal)
    if value is None or (isinstance(value, (float, Decimal)) and not math.isfinite(value)):
        return None
    return Fraction(value)


def to_constant(term: Identifier) -> Constant:
    """The constant of an RDF term.

    >>> to_constant(Literal("x", lang="en")), to_constant(BNode("b0")), to_constant(Literal(2.5))
    (String(value='"x"@en'), Iri(value='_:b0'), String(value='"2.5"^^<http://www.w3.org/2001/XMLSchema#double>'))
    """
    if isinstance(term, URIRef):
        return iri_constant(str(term))
    if isinstance(term, BNode):
        return Iri(f"_:{term}")
    if not isinstance(term, Literal):
        raise InputError(f"cannot encode {term!r} as a LARS constant")
    return literal_constant(str(term), term.language, None if term.datatype is None else str(term.datatype))


def iri_constant(text: str) -> Iri:
    """The constant of the IRI ``<text>`` (:func:`to_constant` of a ``URIRef``, without making it:
    the static-data reader, :mod:`ingest.staticdata`, encodes Oxigraph's terms)."""
    if text.startswith("_:") or not is_iri_text(text) or text < "!":
        raise InputError(f"cannot encode the IRI <{text}>: it is empty, holds white "
                         "space, '<', '>' or control characters, or starts with '_:' like a "
                         "blank node")
    return Iri.unchecked(text)  # checked just above


def literal_constant(lexical: str, language: str | None, datatype: str | None) -> Constant:
    """The constant of a literal by its parts (:func:`to_constant` of a ``Literal``, which
    is made only where its N-Triples form is the constant)."""
    if "\x00" in lexical:
        raise InputError(f"cannot encode the literal {Literal(lexical, lang=language, datatype=datatype).n3()}: "
                         "it holds NUL")
    if language is not None:
        return String(Literal(lexical, lang=language.lower()).n3())
    if len(lexical) > MAX_INTEGER_DIGITS and datatype in _INTEGER_TYPE_TEXTS:
        raise InputError(f"cannot read an integer of {len(lexical)} characters (xsd:integer and its "
                         f"subtypes: at most {MAX_INTEGER_DIGITS}; Python converts longer ones in "
                         "quadratic time)", hint="write it as an xsd:decimal or xsd:double")
    if datatype == _XSD_INTEGER_TEXT and len(lexical) <= 11 and re.fullmatch(r"0|-?[1-9][0-9]*", lexical) \
            and INT_MIN <= int(lexical) <= INT_MAX:
        return Number(int(lexical))
    if datatype == _XSD_BOOLEAN_TEXT and lexical in _BOOLEANS:
        return _BOOLEANS[lexical]
    if datatype in (None, _XSD_STRING_TEXT) and not lexical.startswith('"'):
        return String(lexical)
    return String(Literal(lexical, datatype=datatype).n3())


MAX_INTEGER_DIGITS = 4300
"""The longest integer literal read: Python's own limit on converting text to ``int``
(``sys.get_int_max_str_digits``); a longer one was an internal error (issue 28, newcomer)."""

_INTEGER_TYPE_TEXTS = frozenset(map(str, INTEGER_TYPES))


LONG_TEXT = 1 << 8
"""Constants with a longer text are not remembered by :func:`from_constant`: its memory counts
entries (65,536 rdflib terms), which for literals of 1 KB is 100 MB, and a GROUP_CONCAT over a
window of 10^4 of them is a new 10 MB constant at each time point (issue 29: 318 → 272 MB for
that GROUP_CONCAT, the same CPU time). Numbers, IRIs and short literals are remembered."""


def from_constant(constant: Constant) -> Identifier | None:
    """The RDF term of a constant (``None`` for ``null`` and ``error``): the inverse of
    :func:`to_constant`; remembered unless its text is longer than :data:`LONG_TEXT`."""
    if type(constant.value) is str and len(constant.value) > LONG_TEXT:
        return _from_constant.__wrapped__(constant)
    return _from_constant(constant)


@lru_cache(maxsize=1 << 16)
def _from_constant(constant: Constant) -> Identifier | None:
    """:func:`from_constant`, remembered."""
    if isinstance(constant, Number):
        return Literal(constant.value)
    if isinstance(constant, Iri):
        text = constant.value
        return BNode(text[2:]) if text.startswith("_:") else URIRef(text)
    if isinstance(constant, Name):
        return {"true": Literal(True), "false": Literal(False)}.get(constant.value)
    if constant.value.startswith('"'):
        return from_n3(constant.value)
    return Literal(constant.value)


ENCODED_KEPT = 1 << 14
"""Constants an :class:`RdfTermEncoder` remembers in each of its two generations: past this
the older one is forgotten, so that a stream of fresh IRIs does not fill the memory."""


def remembered(memo: dict, old: dict, key: Hashable, make: Callable[[Hashable], Any], kept: int) -> Any:
    """The value of ``key``, which ``memo`` lacks: ``old``'s (the previous generation's), else
    ``make(key)``; put in ``memo``. When ``memo`` holds ``kept`` entries it becomes the previous
    generation first: its entries move to ``old`` (whose own are dropped) and it starts empty.

    A replayed stream fills a memo with fresh subjects all the time; emptying it whole made
    the few values met on every line (predicates, classes, the stream) anew after each clear,
    equal but not the same objects, so every later dictionary look-up of them downstream (the
    encoder's, by term) compared them by rdflib's Python ``__eq__`` instead of by identity.
    With two generations, a value met in each stays the same object for as long as the
    reading goes on, and the two hold at most ``2 * kept`` entries. ``memo`` and ``old`` stay
    the same dictionaries (their contents move), so a caller's bound ``memo.get`` stays good.

    >>> memo, old = {}, {}
    >>> first = remembered(memo, old, "p", lambda key: [key], 2)
    >>> _ = remembered(memo, old, "s1", lambda key: [key], 2)
    >>> _ = remembered(memo, old, "s2", lambda key: [key], 2)      # memo was full: a new generation
    >>> sorted(memo), sorted(old)
    (['s2'], ['p', 's1'])
    >>> remembered(memo, old, "p", lambda key: [key], 2) is first  # met again: the same object
    True
    """
    value = old.get(key)
    if value is None:
        value = make(key)
    if len(memo) >= kept:
        old.clear()
        old.update(memo)
        memo.clear()
    memo[key] = value
    return value


class RdfTermEncoder:
    """Encodes RDF terms as LARS constants and back (:func:`to_constant`, :func:`from_constant`).

    The encoding depends on the term alone, so one encoder serves any number of streams and
    queries. It remembers the constants of the terms met lately: a stream repeats its
    predicates, stream IRI, sensors and values triple after triple, and looking a term up
    (rdflib terms hash their text once) costs a fiftieth of encoding it again (checking the
    IRI's text, making the constant). Terms equal in rdflib (same kind, text, datatype and
    language up to case) have the same constant, so the memory cannot give another term's.

    The memory has two generations (:attr:`encoded`, the terms met lately, and the older
    ones): when the recent one is full it becomes the older one, and a term found there moves
    back (:func:`remembered`), keyed by the term just met. The predicates and the stream stay remembered however
    many fresh IRIs pass, keyed by the objects the reader hands out now (whose lookups then
    stop at identity, where two equal rdflib terms are compared by a Python method).

    >>> encoder = RdfTermEncoder()
    >>> p = URIRef("http://e/p")
    >>> for i in range(2 * ENCODED_KEPT):
    ...     _ = encoder.encode(URIRef(f"http://e/s{i}")), encoder.encode(p)
    >>> encoder.encoded[p], len(encoder.encoded) <= ENCODED_KEPT
    (Iri(value='http://e/p'), True)
    """

    def __init__(self) -> None:
        self.encoded: dict[Identifier, Constant] = {}
        self.older: dict[Identifier, Constant] = {}

    def __getstate__(self) -> dict:
        return {}  # a copy (for Spark's workers, a child process) starts with an empty memory

    def __setstate__(self, state: dict) -> None:
        self.encoded, self.older = {}, {}

    def encode(self, term: Identifier) -> Constant:
        """The constant of ``term``."""
        found = self.encoded.get(term)
        if found is None:
            found = remembered(self.encoded, self.older, term, to_constant, ENCODED_KEPT)
        return found

    def decode(self, constant: Constant) -> Identifier | None:
        """The RDF term behind a constant (``None`` for ``null``)."""
        return from_constant(constant)


# --- triples ↔ atoms --------------------------------------------------------------------------

def triple_atom(triple: tuple, graph: Constant, encoder: RdfTermEncoder) -> Atom:
    """The background atom ``triple(s, p, o, G)``."""
    s, p, o = (encoder.encode(term) for term in triple)
    return Atom(TRIPLE, (s, p, o, graph))


def stream_atom(triple: tuple, stream: URIRef, encoder: RdfTermEncoder) -> Atom:
    """The input atom ``striple(s, p, o, stream)``: each term's constant looked up in the
    encoder's memory first (a constant is never false), encoded when it is not there."""
    s, p, o = triple
    known, encode = encoder.encoded.get, encoder.encode
    stream = stream if isinstance(stream, URIRef) else URIRef(stream)
    return Atom.unchecked(STRIPLE, (known(s) or encode(s), known(p) or encode(p),
                                    known(o) or encode(o), known(stream) or encode(stream)))


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

_ANSWER = re.compile(r"ans_\d+(_[a-z0-9]+)?\Z")


def is_answer_predicate(predicate: str) -> bool:
    """True for the predicates ``ans_i``, ``ans_i_prime`` and ``ans_i_<role>`` that τ generates."""
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
