"""RAND, UUID, STRUUID and BNODE (SPARQL 1.1 §17.4) as functions of the solution they are called
for, so that every strategy, every run and both sides of an agreement check give the same values.

SPARQL asks of these only what holds within one query execution: ``BNODE()`` and ``UUID()`` are
different at every call, ``BNODE(str)`` is the same blank node for the same string within one
solution and different across solutions, ``RAND()`` is pseudo-random in ``[0, 1)``. Each call
here is a hash of its *call site* (the call's number in the query), its argument and the
*solution* (the values of the variables in scope, packed into one constant): different call
sites and different solutions give different values (up to hash collisions, 2^-64 for blank
nodes), one call site and one solution the same value. So the answers stay a function of the
data, which the streaming semantics and every differential test rely on. A solution that
SPARQL counts twice is two solutions here too (witness variables, :mod:`translate.bags`).

``NOW()`` stays refused: its value is the instant of the query's execution, which neither the
data nor the time points (ticks with a unit, no epoch) give.

>>> from lars.terms import String
>>> from translate.rdf import from_constant
>>> solution = String("[]")
>>> a, b = (from_constant(sparql_bnode(String(s), solution)) for s in ("1", "2"))
>>> type(a).__name__, a == b, sparql_bnode(String("1"), solution) == sparql_bnode(String("1"), solution)
('BNode', False, True)
>>> 0 <= from_constant(sparql_rand(String("1"), solution)).toPython() < 1
True
"""

from __future__ import annotations

import hashlib
import uuid

from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

from lars.externals import external
from lars.terms import Constant
from translate.rdf import ERROR, NULL, from_constant, to_constant

SOLUTION_FUNCTIONS = {"RAND": "rand", "UUID": "uuid", "STRUUID": "struuid", "BNODE": "bnode"}
"""SPARQL keyword → external function; each takes the call site and the solution first."""

_NAMESPACE = uuid.UUID("5b3c6a52-7d0e-4d0f-9a43-2f1e7c1d8a10")
"""The name space of the version-5 UUIDs made here (any fixed UUID would do)."""


def _digest(*parts: Constant) -> bytes:
    text = "\x1f".join(f"{type(p).__name__}:{p.value}" for p in parts)
    return hashlib.sha256(text.encode("utf-8")).digest()


@external("bnode")
def sparql_bnode(site: Constant, solution: Constant, label: Constant | None = None) -> Constant:
    """``BNODE()`` (one blank node per call site and solution) or ``BNODE(str)`` (one per string
    and solution, whatever the call site); a label that is not a simple literal or an
    xsd:string is an error."""
    if label is None:
        return to_constant(BNode("lars" + _digest(site, solution).hex()[:16]))
    if label in (NULL, ERROR):
        return ERROR
    term = from_constant(label)
    if not isinstance(term, Literal) or term.language is not None or \
            term.datatype not in (None, XSD.string):
        return ERROR
    return to_constant(BNode("lars" + _digest(solution, to_constant(Literal(str(term)))).hex()[:16]))


@external("rand")
def sparql_rand(site: Constant, solution: Constant) -> Constant:
    """``RAND()``: an xsd:double in ``[0, 1)`` from 52 bits of the hash."""
    bits = int.from_bytes(_digest(site, solution)[:7], "big") >> 4
    return to_constant(Literal(bits / 2**52, datatype=XSD.double))


def _uuid(site: Constant, solution: Constant) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, _digest(site, solution).hex())


@external("uuid")
def sparql_uuid(site: Constant, solution: Constant) -> Constant:
    """``UUID()``: an IRI of the UUID URN scheme."""
    return to_constant(URIRef(_uuid(site, solution).urn))


@external("struuid")
def sparql_struuid(site: Constant, solution: Constant) -> Constant:
    """``STRUUID()``: the UUID as a simple literal."""
    return to_constant(Literal(str(_uuid(site, solution))))
