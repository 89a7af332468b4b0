"""The C-SPARQL reader (SPEC section 4).

Accepted syntax: an optional ``REGISTER (QUERY|STREAM) name [COMPUTED EVERY d] AS`` and a SPARQL
SELECT query whose dataset clauses may include ``FROM [NAMED] STREAM <iri> [window]``. The
stream clauses are cut out (their positions are kept) and the rest goes to rdflib. C-SPARQL does
not say which part of the pattern reads which stream, so ``S`` has empty graph patterns.
``FROM NAMED STREAM`` is read like ``FROM STREAM`` (merged into the default graph).

>>> q = read_csparql('''REGISTER QUERY q COMPUTED EVERY 5s AS
... SELECT ?s FROM STREAM <http://ex.org/s1> [RANGE 30s STEP 5s] WHERE { ?s <http://ex.org/p> 1 }''')
>>> q.name, q.every, q.streams[0].window
('q', 5, RangeWindow(length=30, step=5))
"""

from __future__ import annotations

from lars.errors import ParseError
from translate.algebra import read_query, resolver
from translate.clauses import Cursor, depths, reader_input
from translate.rsp import RspQuery, StreamSpec
from translate.scanner import Rewrite, tokenize
from translate.sparql import constant_filter_edits, negated_inverse_edits, parse_sparql


def _register(cursor: Cursor, unit_ms: int) -> tuple[str, int | None, int]:
    """``REGISTER (QUERY|STREAM) name [COMPUTED EVERY d] AS``; returns name, period, end offset."""
    cursor.expect_keyword("REGISTER", "REGISTER")
    cursor.expect_keyword("QUERY or STREAM after REGISTER", "QUERY", "STREAM")
    token = cursor.peek()
    if token is None or token.kind not in ("word", "pname", "number"):
        raise cursor.error("a query name after REGISTER QUERY")
    name = cursor.next().text
    every = None
    if cursor.keyword("COMPUTED"):
        cursor.expect_keyword("EVERY after COMPUTED", "EVERY")
        every = cursor.duration(unit_ms)
    end = cursor.expect_keyword("AS before the query", "AS").end
    return name, every, end


def _stream_clause(cursor: Cursor, unit_ms: int):
    """``FROM [NAMED] STREAM name [window]`` from FROM; returns (name token, window, named, end)."""
    cursor.next()  # FROM
    named = cursor.keyword("NAMED")
    cursor.expect_keyword("STREAM", "STREAM")
    name = cursor.stream_name()
    if cursor.peek() is None or cursor.peek().text != "[":
        raise cursor.error("a window such as [RANGE 10s STEP 5s] after the stream IRI")
    window = cursor.window(unit_ms)
    return name, window, named, cursor.tokens[cursor.index - 1].end


def _is_stream_clause(cursor: Cursor) -> bool:
    first, second = cursor.peek(1), cursor.peek(2)
    return (first is not None and first.is_keyword("STREAM")) or (
        first is not None and first.is_keyword("NAMED") and second is not None
        and second.is_keyword("STREAM"))


def read_csparql(text: str, source: str = "<string>", unit: str | int = "1s") -> RspQuery:
    """Read a C-SPARQL query; durations become ticks of ``unit`` (a duration or milliseconds).

    Raises the errors of every reader (:func:`translate.clauses.reader_input`).
    """
    unit_ms, src = reader_input(text, source, unit)
    tokens = tokenize(text)
    level = depths(tokens)
    cursor = Cursor(tokens, src)
    edits, clauses, name, every = [], [], None, None
    while cursor.peek() is not None:
        token, depth = cursor.peek(), level[cursor.index]
        if token.is_keyword("REGISTER") and depth == 0 and name is None:
            start = token.start
            name, every, end = _register(cursor, unit_ms)
            edits.append((start, end, " "))
        elif token.is_keyword("FROM") and depth == 0 and _is_stream_clause(cursor):
            start, position = token.start, cursor.position(token)
            stream, window, named, end = _stream_clause(cursor, unit_ms)
            edits.append((start, end, " "))
            clauses.append((stream, window, named, position))
        else:
            cursor.next()
    edits += constant_filter_edits(cursor.tokens)
    edits += negated_inverse_edits(cursor.tokens)
    query = parse_sparql(Rewrite(text, edits), src)
    resolve = resolver(query, src)
    streams = tuple(StreamSpec(resolve(stream.text, src.position(stream.start)), window,
                               named=named) for stream, window, named, _ in clauses)
    parts = read_query(query, src)
    if not streams and name is None:
        raise ParseError("not a C-SPARQL query: no REGISTER and no FROM STREAM clause",
                         src.position(0), hint="read it as plain SPARQL or CQELS instead")
    return RspQuery(parts.variables, parts.pattern, parts.dataset, streams, parts.distinct,
                    engine="csparql", name=name, every=every, unit_ms=unit_ms,
                    prefixes=parts.prefixes, **parts.solution())
