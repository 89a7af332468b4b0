"""SPARQL's rules on projections that rdflib does not enforce, checked on its parse tree.

rdflib accepts queries SPARQL 1.1 makes errors and gives them a meaning of its own, which would
become ours: ``SELECT ?zone (AVG(?temp) AS ?avg)`` without ``GROUP BY ?zone`` answers with an
arbitrary zone (rdflib adds ``SAMPLE(?zone)``). Each rule is refused here with a
:class:`~lars.errors.ParseError` at the offending variable:

* in a grouped query (``GROUP BY``, or an aggregate in SELECT, HAVING or ORDER BY), a variable
  used outside an aggregate in SELECT, HAVING or ORDER BY must be a group key (SPARQL 1.1
  section 11.4, 18.2.4.1; W3C tests ``agg09``, ``agg10``, ``group06``, ``group07``,
  ``syn-bad-02``); a SELECT expression or ORDER BY may also use an earlier SELECT alias;
  ``SELECT *`` is not allowed (``syn-bad-01``);
* the variable of ``(expr AS ?v)`` must not be in scope (section 18.2.1, grammar note 12): not
  bound by the WHERE clause (in a grouped query: not a group key), not selected before
  (``syntax-SELECTscope2``); a variable may not be selected twice;
* ``BIND (expr AS ?v)``: ``?v`` must not be in scope in the group up to the BIND (note 13;
  ``syntax-BINDscope6`` to ``8``);
* each VALUES row has one value per variable (``syn-bad-values-too-many``, ``-too-few``).

And one valid form the translation cannot hold is refused as unsupported (it failed inside the
translation): ``GROUP BY ?v`` where the WHERE clause does not bind ``?v``.

Positions: rdflib's tree has none, so the error points at the first token ``?v`` after the
clause keyword of the query concerned (the queries in text order are the tree's in pre-order).

>>> from rdflib.plugins.sparql.parser import parseQuery
>>> text = "SELECT ?zone (AVG(?t) AS ?a) WHERE { ?s <z> ?zone ; <t> ?t }"
>>> check_projections(parseQuery(text), SourceText(text, "q.rq"))
Traceback (most recent call last):
...
lars.errors.ParseError: q.rq:1:8: error: ?zone is selected but neither grouped nor aggregated (SPARQL 1.1 section 11.4; GROUP BY ?zone, or SAMPLE(?zone))
"""

from __future__ import annotations

from collections.abc import Iterator

from pyparsing import ParseResults
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Variable

from lars.errors import ParseError, UnsupportedError
from translate.scanner import SourceText, Token, tokenize

_QUERIES = ("SelectQuery", "SubSelect")
_NOT_BINDING = ("Filter", "MinusGraphPattern", "Builtin_EXISTS", "Builtin_NOTEXISTS")
"""Parts whose variables are not in scope outside them (section 18.2.1)."""


def check_projections(parsed: ParseResults, source: SourceText) -> None:
    """Refuse the first violation of the rules above in ``parsed`` (rdflib's parse tree)."""
    checker = _Checker(source)
    for query in _queries(parsed[1]):
        checker.query(query)


class _Checker:
    def __init__(self, source: SourceText):
        self.source = source
        self.tokens = tokenize(source.text)
        self.selects = [k for k, t in enumerate(self.tokens) if t.is_keyword("SELECT")]
        self.index = -1  # which SELECT of the text the current query is

    def query(self, query: CompValue) -> None:
        self.index += 1
        self._values(_get(query, "where"))
        self._binds(_get(query, "where"))
        projection = _get(query, "projection")
        keys, grouped = self._keys(query), self._grouped(query)
        in_where = set(_scope(_get(query, "where")))
        aliases: set[Variable] = set()
        selected: set[Variable] = set()
        for key in keys - in_where:
            if any(c == key for c in _conditions(_get(query, "groupby"))):
                raise UnsupportedError(f"GROUP BY ?{key}, which the WHERE clause does not bind (it "
                                       "would be unbound in every group)", self._at("GROUP", key))
        if grouped and projection is None:
            raise ParseError("SELECT * in a grouped query (SPARQL 1.1 section 11.4: select the "
                             "group keys and aggregates by name)", self._at("SELECT", None))
        for item in projection or []:
            variable = _get(item, "evar") or _get(item, "var")
            if variable in selected:
                raise ParseError(f"?{variable} is selected twice", self._at("SELECT", variable, 2))
            if "evar" in item:
                if variable in (keys if grouped else in_where):
                    raise ParseError(f"?{variable} is already in scope: (... AS ?{variable}) must "
                                     "name a new variable (SPARQL 1.1 section 18.2.1)",
                                     self._alias(variable))
                if grouped:
                    self._only_grouped(item["expr"], keys | aliases, "SELECT")
                aliases.add(variable)
            elif grouped and variable not in keys:
                raise ParseError(f"?{variable} is selected but neither grouped nor aggregated "
                                 f"(SPARQL 1.1 section 11.4; GROUP BY ?{variable}, or SAMPLE(?{variable}))",
                                 self._at("SELECT", variable))
            selected.add(variable)
        if grouped:
            for condition in _conditions(_get(query, "having")):
                named = sorted((aliases - keys) & set(_free(condition)))
                if named:
                    raise ParseError(
                        f"?{named[0]} is named by SELECT's (... AS ?{named[0]}), which HAVING cannot "
                        "see: HAVING is evaluated before SELECT's expressions (SPARQL 1.1 section "
                        f"18.2.4.1); write the aggregate itself in HAVING instead of ?{named[0]}",
                        self._at("HAVING", named[0]))
                self._only_grouped(condition, keys, "HAVING")
            for condition in _conditions(_get(query, "orderby")):
                self._only_grouped(condition, keys | aliases, "ORDER")

    def _keys(self, query: CompValue) -> set[Variable]:
        keys = set()
        for condition in _conditions(_get(query, "groupby")):
            if isinstance(condition, Variable):
                keys.add(condition)
            elif isinstance(condition, CompValue) and condition.name == "GroupAs" and _get(condition, "var"):
                keys.add(condition["var"])
        return keys

    def _grouped(self, query: CompValue) -> bool:
        if _get(query, "groupby") is not None:
            return True
        parts = [_get(item, "expr") for item in _get(query, "projection") or []]
        parts += _conditions(_get(query, "having")) + _conditions(_get(query, "orderby"))
        return any(_has_aggregate(part) for part in parts)

    def _only_grouped(self, expr, allowed: set[Variable], clause: str) -> None:
        for variable in _free(expr):
            if variable not in allowed:
                raise ParseError(f"?{variable} is used in {clause if clause != 'ORDER' else 'ORDER BY'} "
                                 "outside an aggregate but is not grouped (SPARQL 1.1 section 11.4; "
                                 f"GROUP BY ?{variable}, or an aggregate such as SAMPLE(?{variable}))",
                                 self._at(clause, variable))

    def _binds(self, group) -> None:
        """BIND to a variable in scope in its group up to that point (note 13)."""
        for node in _nodes(group, into_queries=False):
            if isinstance(node, CompValue) and node.name == "GroupGraphPatternSub":
                bound: set[Variable] = set()
                for part in _get(node, "part") or []:
                    if isinstance(part, CompValue) and part.name == "Bind":
                        if part["var"] in bound:
                            raise ParseError(f"BIND to ?{part['var']}, which is already in scope in "
                                             "its group (SPARQL 1.1 section 18.2.1)",
                                             self._at("BIND", part["var"], after_query=False))
                        bound.add(part["var"])
                    else:
                        bound |= set(_scope(part))

    def _values(self, where) -> None:
        for node in _nodes(where, into_queries=False):
            if isinstance(node, CompValue) and node.name == "InlineData":
                width = len(_get(node, "var") or [])
                for row in _get(node, "value") or []:
                    if isinstance(row, (list, ParseResults)) and len(row) != width:
                        raise ParseError(f"a VALUES row with {len(row)} value(s) for {width} "
                                         "variable(s)", self._at("VALUES", None, after_query=False))

    def _alias(self, variable: Variable):
        """The position of ``?variable`` in this query's first ``AS ?variable``."""
        start = self.selects[self.index] if self.index < len(self.selects) else 0
        tokens = self.tokens[start:]
        for before, token in zip(tokens, tokens[1:]):
            if before.is_keyword("AS") and token.kind == "var" and token.text[1:] == str(variable):
                return self.source.position(token.start)
        return self._at("SELECT", variable)

    def _at(self, keyword: str, variable: Variable | None, nth: int = 1, after_query: bool = True):
        """The position of the ``nth`` token ``?variable`` after ``keyword`` (after this query's
        SELECT), else of the keyword, else of this query's SELECT."""
        start = self.selects[self.index] if after_query and self.index < len(self.selects) else 0
        tokens: list[Token] = self.tokens[start:]
        clause = next((k for k, t in enumerate(tokens) if t.is_keyword(keyword)), None)
        if clause is None:
            return self.source.position(tokens[0].start) if tokens else None
        seen = 0
        for token in tokens[clause:]:
            if variable is not None and token.kind == "var" and token.text[1:] == str(variable):
                seen += 1
                if seen == nth:
                    return self.source.position(token.start)
        return self.source.position(tokens[clause].start)


def _get(node, key: str):
    """``node[key]`` or ``None`` (``CompValue.get`` answers the key itself for a missing one)."""
    return dict.get(node, key) if isinstance(node, dict) else None


def _conditions(clause) -> list:
    return list(_get(clause, "condition") or []) if isinstance(clause, CompValue) else []


def _children(node) -> Iterator:
    if isinstance(node, CompValue):
        yield from node.values()
    elif isinstance(node, (list, ParseResults)):
        yield from node


def _nodes(node, into_queries: bool) -> Iterator:
    """``node`` and everything under it, in pre-order (subqueries only if ``into_queries``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if not into_queries and isinstance(current, CompValue) and current.name in _QUERIES \
                and current is not node:
            continue
        stack.extend(reversed(list(_children(current))))


def _queries(node) -> Iterator[CompValue]:
    """The SELECT queries and subqueries in text order."""
    for current in _nodes(node, into_queries=True):
        if isinstance(current, CompValue) and current.name in _QUERIES:
            yield current


def _scope(node) -> Iterator[Variable]:
    """The variables a pattern binds (in scope after it, section 18.2.1): not those only in
    FILTER, MINUS or EXISTS; of a subquery, what it selects."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Variable):
            yield current
        elif isinstance(current, CompValue) and current.name in _NOT_BINDING:
            continue
        elif isinstance(current, CompValue) and current.name == "SubSelect":
            projection = _get(current, "projection")
            if projection is None:
                stack.append(_get(current, "where"))
            else:
                yield from (_get(item, "evar") or _get(item, "var") for item in projection)
        else:
            stack.extend(_children(current))


def _has_aggregate(expr) -> bool:
    return any(isinstance(n, CompValue) and n.name.startswith("Aggregate_")
               for n in _nodes(expr, into_queries=False))


def _free(expr) -> Iterator[Variable]:
    """The variables of ``expr`` outside aggregates and EXISTS patterns, in text order."""
    stack = [expr]
    while stack:
        current = stack.pop()
        if isinstance(current, Variable):
            yield current
        elif isinstance(current, CompValue) and (current.name.startswith("Aggregate_")
                                                 or current.name in _NOT_BINDING):
            continue
        else:
            stack.extend(reversed(list(_children(current))))
