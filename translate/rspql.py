"""The RSP-QL reader, as RSP4J implements it (its grammar ``RSPQL.g4``; SPEC section 12).

Accepted syntax::

    REGISTER (RSTREAM|ISTREAM|DSTREAM) <out> AS
    SELECT ...
    FROM NAMED WINDOW <w> ON <s> [RANGE PT10S STEP PT5S]      (or [ELEMENTS n])
    FROM <static>
    WHERE { ... WINDOW <w> { graph pattern } ... }

Durations are ISO 8601 without years and months (``PT2S``, ``PT1.5S``, ``PT10M``, ``P1DT2H``).
A window without ``STEP`` slides by one tick (as CQELS's ``[RANGE L]``). Each ``WINDOW <w> {``
is rewritten to a placeholder ``GRAPH`` before rdflib parses the text, as the CQELS reader does
for ``STREAM``, and comes back as a :class:`~translate.rsp.StreamPattern` on the window's stream:
an RSP-QL query is read into the same ``Q`` as a CQELS query, with its R2S operator in
:attr:`~translate.rsp.RspQuery.r2s`. Windows are read through the τ2 translation.

>>> q = read_rspql('''PREFIX : <http://ex.org/>
... REGISTER ISTREAM <http://ex.org/out> AS SELECT ?s
... FROM NAMED WINDOW :w ON :s [RANGE PT4S STEP PT2S]
... WHERE { WINDOW :w { ?s :p ?o } }''')
>>> q.r2s, q.streams[0].stream, q.streams[0].window
('istream', rdflib.term.URIRef('http://ex.org/s'), RangeWindow(length=4, step=2))
"""

from __future__ import annotations

import re

from rdflib import URIRef

from lars.errors import ParseError, UnsupportedError
from translate.algebra import StreamSlot, read_query, resolver
from translate.clauses import Cursor
from translate.cqels import PLACEHOLDER
from translate.durations import Duration, parse_unit, to_ticks
from translate.rsp import RangeWindow, RspQuery, RspWindow, StreamSpec, TriplesWindow
from translate.scanner import Rewrite, SourceText, Token, tokenize
from translate.scope import stream_patterns
from translate.sparql import constant_filter_edits, parse_sparql

_ISO = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,3}))?S)?)?\Z", re.I)


def iso_duration(cursor: Cursor, unit_ms: int) -> int:
    """An ISO 8601 duration (``PT2S``) at the cursor, in ticks of ``unit_ms``."""
    first = cursor.peek()
    if first is None or first.kind != "word" or not first.text.upper().startswith("P"):
        raise cursor.error("an ISO 8601 duration such as PT10S")
    parts: list[Token] = [cursor.next()]
    while cursor.peek() is not None and cursor.peek().start == parts[-1].end \
            and cursor.peek().text not in ("]",):
        parts.append(cursor.next())
    text = "".join(token.text for token in parts)
    found = _ISO.match(text)
    position = cursor.position(first)
    if found is None or text.upper() in ("P", "PT"):
        raise ParseError(f"not an ISO 8601 duration without years or months: {text}", position,
                         hint="write e.g. PT10S, PT1.5S, PT5M or P1DT2H")
    days, hours, minutes, seconds, fraction = (found[k] or "0" for k in range(1, 6))
    milliseconds = ((int(days) * 24 + int(hours)) * 60 + int(minutes)) * 60_000 \
        + int(seconds) * 1000 + int(fraction.ljust(3, "0"))
    return to_ticks(Duration(milliseconds, "ms"), unit_ms, position)


def _window(cursor: Cursor, unit_ms: int) -> RspWindow:
    """``[RANGE d [STEP d]]`` or ``[ELEMENTS n [STEP n]]``."""
    cursor.expect_text("[", "a window such as [RANGE PT10S STEP PT5S]")
    if cursor.keyword("ELEMENTS"):
        count, token = cursor.integer("a number of elements")
        if cursor.keyword("STEP"):
            step, where = cursor.integer("a number of elements")
            if step != 1:
                raise UnsupportedError("[ELEMENTS n STEP m] with m > 1", cursor.position(where))
        window: RspWindow = TriplesWindow(count)
    else:
        cursor.expect_keyword("RANGE or ELEMENTS", "RANGE")
        length = iso_duration(cursor, unit_ms)
        step = iso_duration(cursor, unit_ms) if cursor.keyword("STEP") else 1
        if step < 1:
            raise ParseError("a window's STEP must be at least one tick", cursor.position())
        window = RangeWindow(length, step)
    cursor.expect_text("]", "']' closing the window")
    return window


def _register(cursor: Cursor) -> tuple[str, Token, int]:
    cursor.next()
    kind = cursor.peek()
    if kind is None or not kind.is_keyword("RSTREAM", "ISTREAM", "DSTREAM"):
        raise cursor.error("RSTREAM, ISTREAM or DSTREAM after REGISTER")
    cursor.next()
    name = cursor.stream_name()
    end = cursor.expect_keyword("AS after the output stream", "AS").end
    return kind.text.lower(), name, end


def read_rspql(text: str, source: str = "<string>", unit: str | int = "1s") -> RspQuery:
    """Read an RSP-QL query; durations become ticks of ``unit``.

    Raises:
        ParseError: bad syntax, an unknown window name, with the line and column in ``text``.
        UnsupportedError: ``WINDOW ?var``, SPARQL features outside the fragment.
    """
    unit_ms = parse_unit(unit) if isinstance(unit, str) else unit
    src = SourceText(text, source)
    cursor = Cursor(tokenize(text), src)
    edits, declared, blocks, r2s, name = [], [], [], "rstream", None
    while cursor.peek() is not None:
        token = cursor.peek()
        if token.is_keyword("REGISTER"):
            r2s, name, end = _register(cursor)
            edits.append((token.start, end, " "))
        elif token.is_keyword("FROM") and cursor.peek(1) is not None and cursor.peek(1).is_keyword(
                "NAMED") and cursor.peek(2) is not None and cursor.peek(2).is_keyword("WINDOW"):
            cursor.index += 3
            window_name = cursor.stream_name()
            cursor.expect_keyword("ON after the window name", "ON")
            stream = cursor.stream_name()
            window = _window(cursor, unit_ms)
            edits.append((token.start, cursor.tokens[cursor.index - 1].end, " "))
            declared.append((window_name, stream, window))
        elif token.is_keyword("WINDOW"):
            cursor.next()
            target = cursor.peek()
            if target is not None and target.kind == "var":
                raise UnsupportedError("WINDOW ?variable (name the window)", cursor.position(target))
            window_name = cursor.stream_name()
            if cursor.peek() is None or cursor.peek().text != "{":
                raise cursor.error("'{' starting the window's graph pattern")
            placeholder = f"{PLACEHOLDER}{len(blocks) + 1}"
            edits.append((token.start, cursor.peek().start, f"GRAPH <{placeholder}> "))
            blocks.append((placeholder, window_name))
        else:
            cursor.next()
    edits += constant_filter_edits(cursor.tokens)
    query = parse_sparql(Rewrite(text, edits), src)
    resolve = resolver(query, src)
    windows = {resolve(w.text, src.position(w.start)): (resolve(s.text, src.position(s.start)), window)
               for w, s, window in declared}
    slots = {}
    for placeholder, window_name in blocks:
        position = src.position(window_name.start)
        iri = resolve(window_name.text, position)
        if iri not in windows:
            raise ParseError(f"WINDOW {window_name.text} names no FROM NAMED WINDOW", position)
        slots[URIRef(placeholder)] = StreamSlot(windows[iri][0], windows[iri][1], position)
    parts = read_query(query, src, slots)
    streams = tuple(StreamSpec(p.stream, p.window, p.pattern)
                    for p in stream_patterns(parts.pattern))
    output = None if name is None else str(resolve(name.text, src.position(name.start)))
    return RspQuery(parts.variables, parts.pattern, parts.dataset, streams, parts.distinct,
                    engine="rspql", name=output, unit_ms=unit_ms, prefixes=parts.prefixes,
                    r2s=r2s, **parts.solution())
