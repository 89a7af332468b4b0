"""ORDER BY, LIMIT and OFFSET (SPARQL 1.1 section 15) on the answer relation of one time point.

τ's answer relation ``ans_1`` is a set; the solution modifiers that pick and order rows are
applied to it at each time point, after solving (as an RSP engine applies them to the result of
each window). DISTINCT and REDUCED need nothing: the rows are a set already.

Ordering follows section 15.1: unbound first, then blank nodes, IRIs, literals. Literals that the
``<`` operator compares are ordered by it: numbers by value, simple and xsd:string literals by
code points; other literals (language tags, other datatypes) come after these, by datatype and
lexical form, since SPARQL leaves their relative order to the implementation; date-times and
dates by their instant (a value without a time zone read as UTC, where XML Schema leaves the
order of a zoned and an unzoned value open).

>>> from rdflib import Literal, URIRef
>>> from translate.rsp import OrderKey, Var
>>> rows = [{"x": Literal(10)}, {"x": URIRef("http://e/a")}, {"x": Literal(9.5)}, {"x": None}]
>>> [r["x"] for r in modify(rows, (OrderKey(Var("x"), True),), limit=3)]
[rdflib.term.Literal('10', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#integer')), rdflib.term.Literal('9.5', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#double')), rdflib.term.URIRef('http://e/a')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier

from translate.rdf import XSD_STRING, numeric_value
from translate.xsdvalues import temporal
from translate.rsp import OrderKey

Row = dict[str, Identifier | None]


def order_key(term: Identifier | None) -> tuple:
    """A sort key placing ``term`` in SPARQL's ORDER BY order (see the module doc)."""
    if term is None:
        return (0,)
    if isinstance(term, BNode):
        return (1, str(term))
    if isinstance(term, URIRef):
        return (2, str(term))
    if isinstance(term, Literal):
        value = numeric_value(term) if not term.ill_typed else None
        if value is not None:
            return (3, 0, value)
        if isinstance(term.value, float) and math.isnan(term.value):
            return (3, 1)
        if term.language is None and term.datatype in (None, XSD_STRING):
            return (3, 2, str(term))
        moment = temporal(term)
        if moment is not None:  # by instant (one without a time zone read as UTC), then text
            return (3, 3, str(term.datatype), "", moment.seconds, str(term))
        return (3, 3, str(term.datatype or ""), str(term.language or ""), 0, str(term))
    return (4, str(term))


def modify(rows: Sequence, order: tuple[OrderKey, ...] = (), limit: int | None = None,
           offset: int = 0, row: Callable[[Any], Row] = lambda item: item) -> list:
    """``rows`` ordered by ``order`` (stable, key by key), then ``OFFSET offset LIMIT limit``;
    ``row`` gives the row of an item when the items carry more than their row."""
    result = list(rows)
    for key in reversed(order):
        result.sort(key=lambda item: order_key(row(item).get(key.variable.name)),
                    reverse=key.descending)
    end = None if limit is None else offset + limit
    return result[offset:end]
