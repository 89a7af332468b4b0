"""Whether a query's answers can only grow when its windows hold more triples.

``lars check``'s boundary tolerance (:mod:`agreement.check.judge`) accepts a recorded relation
that lies between the relations computed with the items at the window boundaries left out and
taken in. That reading stands only for a query whose answer relation grows with its windows'
content: BGPs, joins, UNION, FILTER and BIND without EXISTS, VALUES, GRAPH, unsliced subqueries,
under Rstream. An aggregate, OPTIONAL, MINUS, EXISTS (NOT EXISTS is the usual one), LIMIT or
OFFSET, or Istream and Dstream (which read the previous relation) can lose answers when an item
comes in, so for them the relations with the boundary items out and in are no bounds of what
an engine may report.

>>> from translate.api import parse_query
>>> grows_with_windows(parse_query(
...     "PREFIX : <http://ex.org/> SELECT ?s WHERE { STREAM :s [RANGE 2s] { ?s :p ?o } }"), "rstream")
True
>>> grows_with_windows(parse_query("PREFIX : <http://ex.org/> SELECT (COUNT(?s) AS ?n) "
...     "WHERE { STREAM :s [RANGE 2s] { ?s :p ?o } }"), "rstream")
False
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from translate.rsp import Exists, Extend, Filter, Group, Minus, Optional, RspQuery, StreamPattern, SubSelect
from translate.scope import children


def grows_with_windows(query: RspQuery, r2s: str) -> bool:
    """Whether ``query``'s relation at a time point can only gain rows when any of its windows
    holds more triples (and the report under ``r2s`` with it)."""
    if r2s != "rstream" or query.limit is not None or query.offset:
        return False
    return all(_grows(pattern) for pattern in (query.pattern, *(s.pattern for s in query.streams)))


def _grows(pattern) -> bool:
    if isinstance(pattern, (Optional, Minus, Group)):
        return False
    if isinstance(pattern, SubSelect) and pattern.sliced:
        return False
    if isinstance(pattern, Filter) and _reads_exists(pattern.condition):
        return False
    if isinstance(pattern, Extend) and _reads_exists(pattern.expr):
        return False
    if isinstance(pattern, StreamPattern):  # a leaf for children(): its pattern reads the window
        return _grows(pattern.pattern)
    return all(_grows(child) for child in children(pattern))


def _reads_exists(expression) -> bool:
    """Whether an expression holds ``EXISTS`` anywhere (``NOT EXISTS`` is ``Not(Exists)``)."""
    if isinstance(expression, Exists):
        return True
    if isinstance(expression, tuple):
        return any(map(_reads_exists, expression))
    if is_dataclass(expression):
        return any(_reads_exists(getattr(expression, field.name)) for field in fields(expression))
    return False
