"""The oracle for four engine profiles (SPEC section 12), with ``t0 = 0``, one window.

Read from SPEC section 12 and the sources it cites, sharing no code with the project:

* **rsp4j** (RSP-QL as RSP4J runs it): window instances ``[o, o+L)`` with ``o = k·β`` for every
  integer ``k`` (partial start-up windows); a report at each close ``c`` (``(c - L) % β = 0``,
  ``c > 0``) of the instance closing at ``c``; Rstream; empty relations emitted; τ2 (the
  window's content is the named graph the ``WINDOW`` block reads);
* **csparql** (C-SPARQL 0.9 as CSRBench configures it): the same instances, but no partial
  start-up window (the first close is ``t0 + L``), a report only when the instance holds
  input (non-empty), τ1 (content merged into the default graph);
* **sparqlstream** (SPARQLstream 1.0.5 as CSRBench configures it): as ``csparql``, but
  aggregates without GROUP BY over no solution give COUNT 0 and the other aggregates unbound
  (its recorded Q4); empty relations, which it drops, never occur under non-empty content;
* **cqels** (CQELS as the CSRBench oracle models it): at each time ``τ > t0`` at which input
  arrives, the scope ``[max(t0, t0 + aβ), τ]`` with ``a`` the least such that
  ``t0 + aβ + L > τ``; Istream against the previous *relation* (reported or not); empty
  relations dropped; aggregates without GROUP BY over no solution give no row (CQELS's
  recorded CSRBench Q4 never has one); τ2.

Answers are sets of rows per report time (C-SPARQL's bags are not compared here).
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.fuzz.model import Query, oracle_sparql, window_graph
from tests.fuzz.oracle import Answers, Item, Row, Triple, rows, store, variables

PROFILES = ("rsp4j", "csparql", "sparqlstream", "cqels")
"""The profiles this oracle reads; each names the spelling the tool is given (RSP-QL for
``rsp4j``, C-SPARQL for ``csparql`` and ``sparqlstream``, CQELS for ``cqels``)."""


def _evaluate(query: Query, merged: bool, static: Sequence[Triple], content: list[Triple],
              empty_group: str = "row") -> frozenset[Row]:
    """The query's rows on one window's content. Aggregates without GROUP BY over no solution
    give SPARQL's one row (``empty_group="row"``), no row (``"none"``: CQELS, as CSRBench
    recorded it for Q4), or one row with COUNT 0 and every other aggregate unbound (``"null"``:
    SPARQLstream's recorded Q4)."""
    windows = {None if merged else window_graph(0): content}
    data = store(static, windows)
    if empty_group != "row" and not query.group_by and any(v.startswith("(") for v in query.select):
        count = Query(query.windows, ("(COUNT(*) AS ?n)",), query.where)
        if rows(oracle_sparql(count, merged=merged), data, ("n",)) == {(("number", 0),)}:
            if empty_group == "none":
                return frozenset()
            return frozenset(tuple(value if v.startswith("(COUNT") else None  # HAVING kept
                                   for v, value in zip(query.select, row))
                             for row in rows(oracle_sparql(query, merged=merged), data,
                                             variables(query)))
    return rows(oracle_sparql(query, merged=merged), data, variables(query))


def _closes(items: Sequence[Item], length: int, step: int, end: int, full: bool,
            non_empty: bool, shift: int) -> list[tuple[int, list[Triple]]]:
    """(close ``c``, content of ``[c-L, c)``) of every reported window-close instance."""
    found = []
    for close in range(1, end + 1):
        if (close - length) % step or (full and close < length):
            continue
        content = [i.triple for i in items if close - length + shift <= i.time < close + shift]
        if content or not non_empty:
            found.append((close, content))
    return found


def _changes(items: Sequence[Item], length: int, step: int, end: int,
             shift: int) -> list[tuple[int, list[Triple]]]:
    """(``τ``, content of the content-change scope at ``τ``) for every input time ``τ > 0``."""
    found = []
    for tau in sorted({i.time for i in items if 0 < i.time <= end}):
        a = 0
        while a * step + length <= tau:
            a += 1
        start = a * step + shift
        found.append((tau, [i.triple for i in items if start <= i.time <= tau]))
    return found


def profile_answers(name: str, query: Query, items: Sequence[Item], static: Sequence[Triple],
                    end: int, shift: int = 0) -> Answers:
    """The non-empty relations profile ``name`` reports on ``[0, end]`` (``shift`` moves every
    window: a deliberately wrong oracle, for the self-test)."""
    [window] = query.windows
    merged = name in ("csparql", "sparqlstream")
    if name == "cqels":
        answers, previous = {}, frozenset()
        for tau, content in _changes(items, window.length, window.step, end, shift):
            relation = _evaluate(query, False, static, content, "none")
            answers[tau], previous = relation - previous, relation
    else:
        scopes = _closes(items, window.length, window.step, end, full=merged, non_empty=merged,
                         shift=shift)
        reading = "null" if name == "sparqlstream" else "row"
        answers = {c: _evaluate(query, merged, static, content, reading) for c, content in scopes}
    return {t: rows for t, rows in answers.items() if rows}
