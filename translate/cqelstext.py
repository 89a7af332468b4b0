"""A query ``Q`` written as CQELS text that :func:`translate.cqels.read_cqels` reads back to ``Q``.

``lars agree`` derives the CQELS side of a C-SPARQL query (``agreement.defaults.derive_cqels``)
and shows it in CQELS syntax, ready to save, edit and give with ``--cqels FILE``. The reader's
shapes are undone: the chain of ``Extend`` over a ``Group`` becomes the SELECT clause
(aggregates in place of their ``__agg_i__`` results, ``SAMPLE(?k)`` of a key as ``?k``), a
``Filter`` right above the ``Group`` is HAVING, the ``_lars_o`` bindings are ORDER BY
expressions, windows are written as durations of the query's unit. :func:`cqels_text` raises
:class:`~lars.errors.UnsupportedError` for a shape it cannot write; callers check the round trip
(``read_cqels(cqels_text(q)) == q``) before showing the text.

>>> from translate.api import parse_query
>>> q = parse_query("PREFIX : <http://e/> SELECT ?s (COUNT(?o) AS ?n) "
...                 "WHERE { STREAM <http://e/s> [RANGE 10s] { ?s :p ?o } } GROUP BY ?s")
>>> print(cqels_text(q), end="")
PREFIX : <http://e/>
SELECT ?s (COUNT(?o) AS ?n)
WHERE {
  STREAM :s [RANGE 10s] { ?s :p ?o . }
}
GROUP BY ?s
"""

from __future__ import annotations

import re
from functools import singledispatch

from lars.errors import UnsupportedError
from translate.rsp import (
    BGP, Extend, Filter, Graph, Group, Join, Minus, NowWindow, Optional, RangeWindow,
    RspQuery, RspWindow, StreamPattern, SubSelect, TriplesWindow, Union, Values,
)
from translate.durations import unit_text
from translate.sparqltext import Names, aggregate_text, expr_text, term_text, triple_text

ORDER_PREFIX = "_lars_o"  # translate.algebra's name for ORDER BY expressions


def cqels_text(query: RspQuery) -> str:
    """``query`` as a CQELS query (SELECT form)."""
    if query.form != "select":
        raise UnsupportedError(f"printing a {query.form.upper()} query as CQELS text")
    names = Names(query.prefixes)
    printer = _Printer(names, query.unit_ms)
    body = printer.select(query.variables, query.pattern, query.distinct, query.order,
                          query.limit, query.offset, dataset=query.dataset)
    used = [(p, ns) for p, ns in query.prefixes
            if re.search(rf"(?<![\w<\"]){re.escape(p)}:", body)]
    return "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in used) + body


def window_text(window: RspWindow, unit_ms: int, engine: str = "cqels") -> str:
    """A window in CQELS syntax, durations in the query's unit (``unit_ms`` ms a tick), as the
    query is written: also how ``lars agree`` names the windows of its explanations; with
    ``engine="csparql"``, with C-SPARQL's ``STEP`` for CQELS's ``SLIDE``.

    >>> window_text(RangeWindow(30), 60000), window_text(RangeWindow(10, 5), 1000)
    ('[RANGE 30m]', '[RANGE 10s SLIDE 5s]')
    >>> window_text(RangeWindow(10, 5), 1000, "csparql")
    '[RANGE 10s STEP 5s]'
    >>> window_text(TriplesWindow(3), 1000), window_text(NowWindow(), 1000)
    ('[TRIPLES 3]', '[NOW]')
    """
    if isinstance(window, RangeWindow):
        text = f"[RANGE {unit_text(window.length * unit_ms)}"
        step = "STEP" if engine == "csparql" else "SLIDE"
        return text + (f" {step} {unit_text(window.step * unit_ms)}]" if window.step != 1 else "]")
    if isinstance(window, TriplesWindow):
        return f"[TRIPLES {window.count}]"
    return "[NOW]" if isinstance(window, NowWindow) else "[ALL]"


class _Printer:
    def __init__(self, names: Names, unit_ms: int):
        self.names = names
        self.unit_ms = unit_ms

    def select(self, variables, pattern, distinct, order, limit, offset, dataset=None,
               indent: str = "") -> str:
        """A SELECT query (or subquery) whose reading is ``pattern`` projected on ``variables``."""
        bound: dict[str, object] = {}
        having = None
        while True:
            if isinstance(pattern, Extend) and (pattern.var in variables
                                                or pattern.var.name.startswith(ORDER_PREFIX)):
                bound[pattern.var.name] = pattern.expr
            elif isinstance(pattern, Filter) and having is None and _over_group(pattern.pattern):
                having = pattern.condition
            else:
                break
            pattern = pattern.pattern
        group, aggregates = None, {}
        if isinstance(pattern, Group):
            group, pattern = pattern, pattern.pattern
            aggregates = {v.name: a for v, a in group.aggregates}
        items = []
        for variable in variables:
            expr = bound.get(variable.name)
            if expr is None:
                items.append(f"?{variable.name}")
                continue
            text = self.expr(expr, aggregates)
            items.append(f"?{variable.name}" if text == f"SAMPLE(?{variable.name})" and group is not None
                         and variable in group.keys else f"({text} AS ?{variable.name})")
        lines = [f"{indent}SELECT {'DISTINCT ' if distinct else ''}{' '.join(items) or '*'}"]
        if dataset is not None:
            lines += [f"{indent}FROM {term_text(g, self.names)}" for g in dataset.default]
            lines += [f"{indent}FROM NAMED {term_text(g, self.names)}" for g in dataset.named]
        lines += [f"{indent}WHERE {{", f"{indent}  {self.group(pattern)}", f"{indent}}}"]
        if group is not None and group.keys:
            lines.append(f"{indent}GROUP BY {' '.join(f'?{k.name}' for k in group.keys)}")
        if having is not None:
            lines.append(f"{indent}HAVING ({self.expr(having, aggregates)})")
        if order:
            keys = []
            for key in order:
                expr = bound.get(key.variable.name) if key.variable.name.startswith(ORDER_PREFIX) else None
                text = f"?{key.variable.name}" if expr is None else f"({self.expr(expr, aggregates)})"
                keys.append(f"DESC({text})" if key.descending else text)
            lines.append(f"{indent}ORDER BY {' '.join(keys)}")
        if limit is not None:
            lines.append(f"{indent}LIMIT {limit}")
        if offset:
            lines.append(f"{indent}OFFSET {offset}")
        return "\n".join(lines) + "\n"

    def expr(self, expr, aggregates: dict) -> str:
        text = expr_text(expr, self.names)
        for name, aggregate in aggregates.items():
            text = re.sub(rf"\?{re.escape(name)}\b", lambda _: aggregate_text(aggregate, self.names), text)
        return text

    def group(self, pattern) -> str:
        """The inside of a group graph pattern whose reading is ``pattern``."""
        return _group(pattern, self)

    def element(self, pattern) -> str:
        """``pattern`` as one element of a group: inline where joining keeps its reading."""
        if isinstance(pattern, (BGP, StreamPattern, Join)):
            return self.group(pattern)
        return "{ " + self.group(pattern) + " }"


def _over_group(pattern) -> bool:
    """Whether ``pattern`` is a ``Group`` under SELECT expressions (so a FILTER over it is HAVING)."""
    while isinstance(pattern, Extend):
        pattern = pattern.pattern
    return isinstance(pattern, Group)


@singledispatch
def _group(pattern, printer: _Printer) -> str:
    raise UnsupportedError(f"printing {type(pattern).__name__} as CQELS text")


@_group.register(BGP)
def _(pattern: BGP, printer: _Printer) -> str:
    return " ".join(triple_text(t, printer.names) + " ." for t in pattern.triples)


@_group.register(StreamPattern)
def _(pattern: StreamPattern, printer: _Printer) -> str:
    return (f"STREAM {term_text(pattern.stream, printer.names)} {window_text(pattern.window, printer.unit_ms)} "
            f"{{ {_group(pattern.pattern, printer)} }}")


@_group.register(Join)
def _(pattern: Join, printer: _Printer) -> str:
    """Left-nested joins inline (a group's elements join from the left); a right operand that
    is a join, or a BGP after a BGP (adjacent triples would merge into one BGP), in braces."""
    right = printer.element(pattern.right)
    if isinstance(pattern.right, Join) or (isinstance(pattern.right, BGP) and _ends_in_bgp(pattern.left)):
        right = "{ " + printer.group(pattern.right) + " }"
    return f"{printer.element(pattern.left)} {right}"


def _ends_in_bgp(pattern) -> bool:
    while isinstance(pattern, Join):
        pattern = pattern.right
    return isinstance(pattern, BGP)


@_group.register(Filter)
def _(pattern: Filter, printer: _Printer) -> str:
    return f"{printer.element(pattern.pattern)} FILTER ({expr_text(pattern.condition, printer.names)})"


@_group.register(Optional)
def _(pattern: Optional, printer: _Printer) -> str:
    inner = printer.group(pattern.right)
    if pattern.condition is not None:
        inner += f" FILTER ({expr_text(pattern.condition, printer.names)})"
    return f"{printer.element(pattern.left)} OPTIONAL {{ {inner} }}"


@_group.register(Minus)
def _(pattern: Minus, printer: _Printer) -> str:
    return f"{printer.element(pattern.left)} MINUS {{ {printer.group(pattern.right)} }}"


@_group.register(Union)
def _(pattern: Union, printer: _Printer) -> str:
    return f"{{ {printer.group(pattern.left)} }} UNION {{ {printer.group(pattern.right)} }}"


@_group.register(Extend)
def _(pattern: Extend, printer: _Printer) -> str:
    return (f"{printer.element(pattern.pattern)} BIND ({expr_text(pattern.expr, printer.names)} "
            f"AS ?{pattern.var.name})")


@_group.register(Graph)
def _(pattern: Graph, printer: _Printer) -> str:
    return f"GRAPH {term_text(pattern.name, printer.names)} {{ {printer.group(pattern.pattern)} }}"


@_group.register(Values)
def _(pattern: Values, printer: _Printer) -> str:
    rows = " ".join("(" + " ".join("UNDEF" if v is None else term_text(v, printer.names) for v in row) + ")"
                    for row in pattern.rows)
    return f"VALUES ({' '.join(f'?{v}' for v in pattern.variables)}) {{ {rows} }}"


@_group.register(SubSelect)
def _(pattern: SubSelect, printer: _Printer) -> str:
    text = printer.select(pattern.variables, pattern.pattern, pattern.distinct, pattern.order,
                          pattern.limit, pattern.offset)
    return "{ " + " ".join(line.strip() for line in text.splitlines()) + " }"
