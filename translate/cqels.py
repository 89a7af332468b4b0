"""The CQELS reader (SPEC section 4).

Accepted syntax: a SPARQL SELECT query whose WHERE may hold stream graph patterns
``STREAM <iri> [window] { graph pattern }`` (any number, same or different streams; any pattern but
GRAPH and another block, read over the window: ``docs/translation.md`` §6a).
Each ``STREAM <iri> [window] {`` is rewritten to ``GRAPH <urn:lars:stream:K> {`` before rdflib
parses the text; :mod:`translate.algebra` turns those GRAPH nodes back into
:class:`~translate.rsp.StreamPattern` nodes, and ``S`` lists them in text order.
Plain SPARQL (no STREAM) reads as a query with ``S = ∅``.

>>> q = read_cqels('''PREFIX : <http://ex.org/>
... SELECT ?s WHERE { STREAM :s1 [NOW] { ?s :p ?o } FILTER(?o > 3) }''')
>>> q.streams[0].stream, q.streams[0].window
(rdflib.term.URIRef('http://ex.org/s1'), NowWindow())
"""

from __future__ import annotations

from rdflib import URIRef

from lars.errors import ParseError
from translate.algebra import StreamSlot, read_query, resolver
from translate.clauses import Cursor, reader_input
from translate.rsp import RspQuery, StreamSpec
from translate.scanner import Rewrite, tokenize
from translate.scope import stream_patterns
from translate.sparql import constant_filter_edits, negated_inverse_edits, parse_sparql

PLACEHOLDER = "urn:lars:stream:"
"""Graph IRIs ``urn:lars:stream:K`` stand for the K-th STREAM block while rdflib parses."""


def _refuse_csparql(cursor: Cursor) -> None:
    token = cursor.peek()
    if token.is_keyword("REGISTER"):
        raise ParseError("REGISTER is C-SPARQL syntax, not CQELS", cursor.position(token),
                         hint="read the query with engine csparql")
    following = [cursor.peek(1), cursor.peek(2)]
    if token.is_keyword("FROM") and any(t is not None and t.is_keyword("STREAM")
                                        for t in following):
        raise ParseError("FROM STREAM is C-SPARQL syntax; CQELS writes "
                         "STREAM <iri> [window] { ... } inside WHERE", cursor.position(token),
                         hint="read the query with engine csparql")


def _stream_block(cursor: Cursor, unit_ms: int):
    """``STREAM name [window]`` up to (not including) ``{``."""
    keyword = cursor.next()
    name = cursor.stream_name()
    if cursor.peek() is None or cursor.peek().text != "[":
        raise cursor.error("a window such as [RANGE 10s] after the stream IRI")
    window = cursor.window(unit_ms)
    if cursor.peek() is None or cursor.peek().text != "{":
        raise cursor.error("'{' starting the stream's graph pattern")
    return keyword, name, window


def read_cqels(text: str, source: str = "<string>", unit: str | int = "1s",
               engine: str = "cqels") -> RspQuery:
    """Read a CQELS query (or plain SPARQL); durations become ticks of ``unit``.

    Raises the errors of every reader (:func:`translate.clauses.reader_input`).
    """
    unit_ms, src = reader_input(text, source, unit)
    if PLACEHOLDER in text:
        raise ParseError(f"the query mentions <{PLACEHOLDER}...>, which the reader reserves",
                         src.position(text.index(PLACEHOLDER)))
    cursor = Cursor(tokenize(text), src)
    edits, blocks = [], []
    while cursor.peek() is not None:
        _refuse_csparql(cursor)
        following = cursor.peek(1)
        if cursor.peek().is_keyword("STREAM") and following is not None \
                and following.kind in ("iri", "pname"):
            keyword, name, window = _stream_block(cursor, unit_ms)
            placeholder = f"{PLACEHOLDER}{len(blocks) + 1}"
            edits.append((keyword.start, cursor.peek().start, f"GRAPH <{placeholder}> "))
            blocks.append((URIRef(placeholder), name, window, src.position(keyword.start)))
        else:
            cursor.next()
    edits += constant_filter_edits(cursor.tokens)
    edits += negated_inverse_edits(cursor.tokens)
    query = parse_sparql(Rewrite(text, edits), src)
    resolve = resolver(query, src)
    slots = {placeholder: StreamSlot(resolve(name.text, position), window, position)
             for placeholder, name, window, position in blocks}
    parts = read_query(query, src, slots)
    streams = tuple(StreamSpec(p.stream, p.window, p.pattern)
                    for p in stream_patterns(parts.pattern))
    return RspQuery(parts.variables, parts.pattern, parts.dataset, streams, parts.distinct,
                    engine=engine, unit_ms=unit_ms, prefixes=parts.prefixes, **parts.solution())
