"""A fast path for Turtle stream files: Oxigraph's parser (Rust), giving rdflib's terms.

:func:`ingest.rdffiles.parse_turtle_document` reads a stream file with rdflib, whose Turtle
parser (pure Python) dominated the reading of a stream folder. pyoxigraph parses the same text
some 15 times faster. This module gives the triples rdflib would give, as rdflib terms, or
``None`` whenever it cannot be sure of that; the caller then reads the document with rdflib
as before, so every error message and position, and every document outside the common shape,
stays exactly as it was.

The two parsers agree on the common shape: absolute IRIs and prefixed names, literals with
escapes, language tags, datatypes, numbers, booleans, collections of IRIs and literals.
Where they differ, or where Oxigraph's result does not tell what rdflib would have built, this
path answers ``None``:

- any syntax error;
- a relative IRI reference that rdflib resolves otherwise than RFC 3986 (``<?q>``, say; each is
  resolved both ways), a base directive in a document with relative references, an IRI
  reference with ``\\u`` escapes that does not start with a scheme, or a ``<`` in a string or
  a comment (when it does not read as a plain relative reference);
- blank nodes (rdflib's canonical labelling makes their labels deterministic) and RDF 1.2
  (triple terms, reifiers, directional language tags, ``VERSION``), which Oxigraph accepts and
  Turtle 1.1 does not (rdflib then rejects them as before);
- a language tag written with a capital letter (Oxigraph lowercases tags, rdflib keeps them);
- a number written in a form rdflib rewrites (``+1``, ``01``, ``.5``) that could also have been
  written as a typed literal, which rdflib keeps as written: Oxigraph's result is the same for both;
- a simple literal in a document that may spell out the datatype ``xsd:string`` (rdflib keeps
  ``"x"^^xsd:string`` apart from ``"x"``, Oxigraph does not).

Every answer is deduplicated as an rdflib graph would be, in no particular order.

One difference is kept on purpose: Oxigraph reads white space or a comment between a string and
its language tag or ``^^`` (``"x" @en``), which Turtle 1.1 allows (they are separate terminals)
and rdflib refuses. Such a document is read as Turtle says when this path answers, and still
refused when it goes to rdflib (say, because it has blank nodes). Oxigraph parses locally: Turtle
has nothing to fetch, so the offline guarantee (SPEC 11) holds without the audit hook.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal

import pyoxigraph
import rdflib
from rdflib.term import Node

from ingest.rdfterms import iri_term, literal_term

Triple = tuple[Node, Node, Node]

XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = XSD + "string"
_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

_NOT_ABSOLUTE_IRI = re.compile(r"<(?![A-Za-z][A-Za-z0-9+.-]*:)")
_VERSION = re.compile(r"version", re.IGNORECASE)
_BASE = re.compile(r"base", re.IGNORECASE)
_IRI_REFERENCE = re.compile(r'<([^\x00-\x20<>"{}|^`\\]*)>')  # without escapes
_CAPITAL_LANGUAGE_TAG = re.compile(r"@[A-Za-z0-9-]*[A-Z]")
_INTEGER = re.compile(r"[-+]?[0-9]+")  # rdflib's number syntaxes (its notation3 parser)
_DECIMAL = re.compile(r"[-+]?[0-9]*\.[0-9]+")
# The datatype after ``^^``: white space and comments, then an IRI or a prefixed name (its local
# part: name characters, ``%XX`` and ``\\`` escapes, inner dots; Oxigraph has already checked
# the syntax, so the name ends where a character no local name has comes).
_DATATYPE = re.compile(
    r"\^\^(?:[ \t\r\n]|#[^\r\n]*)*"
    r"(?:<(?P<iri>[^>]*)>|[^\s:<>\"'#^]*:"
    r"(?P<local>(?:[\w\-:%\u00b7\u0300-\u036f\u203f\u2040]|\\.|\.(?=[\w\-:%\\\u00b7]))*))")
_LOCAL_ESCAPE = re.compile(r"\\(.)")


def _rdflib_number(value: str, datatype: str) -> str:
    """How rdflib writes ``value`` when it is a Turtle number token of ``datatype`` (its
    notation3 parser reads ``01`` as ``"1"`` and ``.5`` as ``"0.5"``; doubles as written)."""
    if datatype == XSD + "integer" and _INTEGER.fullmatch(value):
        return str(int(value))
    if datatype == XSD + "decimal" and _DECIMAL.fullmatch(value):
        return str(Decimal(value))
    return value


def _may_name_xsd_string(text: str) -> bool:
    """Whether some ``^^`` of ``text`` could be followed by the datatype ``xsd:string``.

    A prefixed name can only spell ``xsd:string`` if its local part (unescaped) is a suffix of
    the IRI; an IRI with ``\\`` escapes might spell it. Anything else after ``^^`` (a ``^^`` in
    a string or a comment) counts as a maybe.
    """
    for start in (found.start() for found in re.finditer(r"\^\^", text)):
        match = _DATATYPE.match(text, start)
        if match is None:
            return True
        iri, local = match.group("iri", "local")
        if iri is not None and ("\\" in iri or iri == XSD_STRING):
            return True
        if local is not None and XSD_STRING.endswith(_LOCAL_ESCAPE.sub(r"\1", local)):
            return True
    return False


class _Document:
    """Oxigraph's terms of one document as rdflib terms; ``None`` where rdflib's could differ."""

    def __init__(self, text: str):
        self.text = text

    @functools.cached_property
    def capital_language_tag(self) -> bool:
        return _CAPITAL_LANGUAGE_TAG.search(self.text) is not None

    @functools.cached_property
    def may_name_xsd_string(self) -> bool:
        return "^^" in self.text and _may_name_xsd_string(self.text)

    def term(self, term: object) -> Node | None:
        if type(term) is pyoxigraph.NamedNode:
            return iri_term(term.value)
        if type(term) is not pyoxigraph.Literal:
            return None  # a blank node or an RDF 1.2 triple term
        value, language, datatype = term.value, term.language, term.datatype.value
        if language is not None:
            if datatype != _LANG_STRING or self.capital_language_tag:
                return None  # a directional tag (RDF 1.2), or a tag Oxigraph lowercased
            return literal_term(value, language, None)
        if datatype == XSD_STRING:
            return None if self.may_name_xsd_string else literal_term(value, None, None)
        if _rdflib_number(value, datatype) != value:
            return None  # rdflib rewrites it as a number token, keeps it as a typed literal
        return literal_term(value, None, datatype)


def _resolved_alike(text: str, base: str) -> bool:
    """Whether rdflib resolves each relative IRI reference of ``text`` against ``base`` as
    Oxigraph does (RFC 3986); ``False`` where unsure: a base directive (``base`` anywhere in the
    text), or a ``<`` that does not start a plain reference (escapes, or a ``<`` in a string).

    Each parser reads the references alone, one line ``<urn:lars:N> <urn:lars:p> <reference> .``
    each; a ``<`` in a string or a comment that reads as a reference only adds a line.
    """
    if _BASE.search(text):
        return False
    references = set()
    for start in (found.start() for found in _NOT_ABSOLUTE_IRI.finditer(text)):
        match = _IRI_REFERENCE.match(text, start)
        if match is None:
            return False
        references.add(match.group(1))
    references = sorted(references)
    probe = "".join(f"<urn:lars:{number}> <urn:lars:p> <{reference}> .\n"
                    for number, reference in enumerate(references))
    try:
        oxigraph = {quad.subject.value: quad.object.value
                    for quad in pyoxigraph.parse(probe, format=pyoxigraph.RdfFormat.TURTLE, base_iri=base)}
        graph = rdflib.Graph().parse(data=probe, format="turtle", publicID=base)
    except Exception:  # noqa: BLE001 - any failure (rdflib raises several types): ask rdflib
        return False
    return len(graph) == len(references) and all(oxigraph.get(str(s)) == str(o) for s, _, o in graph)


def fast_turtle_triples(text: str, base: str) -> list[Triple] | None:
    """The distinct triples of the Turtle document ``text`` as rdflib reads it with base IRI
    ``base``, in no particular order; ``None`` where this path cannot answer (see the module)."""
    if _VERSION.search(text) or (_NOT_ABSOLUTE_IRI.search(text) and not _resolved_alike(text, base)):
        return None
    triples: dict[Triple, None] = {}
    document = _Document(text)
    seen: dict[object, Node | None] = {}  # Oxigraph term → rdflib term
    try:
        for quad in pyoxigraph.parse(text, format=pyoxigraph.RdfFormat.TURTLE, base_iri=base):
            triple = []
            for term in (quad.subject, quad.predicate, quad.object):
                node = seen.get(term, seen)
                if node is seen:
                    node = seen[term] = document.term(term)
                if node is None:
                    return None
                triple.append(node)
            triples[tuple(triple)] = None
    except (SyntaxError, ValueError):
        return None
    return list(triples)
