"""The reader of RSEP-QL event queries (paper 001, Example 4) and of C-SPARQL's ``timestamp()``
idiom (section 2, R3.2). Grammar and examples: ``docs/events.md``.

Event syntax (keywords in any case; a duration without a unit is a number of ticks)::

    PREFIX : <http://ex.org/>
    SELECT ?x ?z
    FROM NAMED :S WIN [LND 1] AS :w1
    FROM NAMED :S WIN [RANGE 5] AS :w2
    EVENT ON :w1 { ?x :p ?y } AS E1
    EVENT ON :w2 { ?y :q ?z } AS E2
    WHERE { MATCH { E1 SEQ E2 } }

Windows: ``[RANGE α]``, ``[RANGE α STEP β]`` (or ``SLIDE``; ``W^τ``), ``[LND t0]`` (``W^λ``),
``[ALL]`` or ``[ID]`` (``W^id``). MATCH takes ``FIRST E``, ``LAST E``, ``E1 SEQ E2`` (left
associative; ``SEQ^n``, ``SEQ^c``, ``SEQ^r`` or ``SEQN``, ``SEQC``, ``SEQR`` for the selection
policies of section 4.3) and parentheses. The BGPs go to rdflib, so they may use any SPARQL
triple syntax; blank nodes are refused (an event mapping binds every variable it consumes).

C-SPARQL form: ``[REGISTER QUERY q [COMPUTED EVERY d] AS] … FROM STREAM <s> [RANGE α STEP β]
WHERE { tp1 . tp2 FILTER (timestamp(tp1) < timestamp(tp2)) }`` is read as the paper reads it
(Table 1): ``(EVENT w {tp1}) SEQ^n (EVENT w {tp2})`` over ``W^τ(α, β)``.

>>> q = read_event_query('''PREFIX : <http://ex.org/> SELECT ?x
... FROM NAMED :S WIN [RANGE 5] AS :w EVENT ON :w { ?x :p ?y } AS A
... EVENT ON :w { ?y :q ?x } AS B WHERE { MATCH { LAST (A SEQ^c B) } }''')
>>> from translate.events import pattern_text
>>> pattern_text(q.pattern), q.windows[0].window
('LAST (A SEQ^c B)', RangeWindow(length=5, step=1))
"""

from __future__ import annotations

from collections.abc import Callable

from rdflib import URIRef

from lars.errors import ParseError, Position, UnsupportedError
from translate.algebra import read_query, resolver
from translate.clauses import Cursor
from translate.durations import make_duration, parse_unit, to_ticks
from translate.events import (
    SEQ_KEYWORDS, Basic, EventPattern, EventQuery, EventWindow, First, LandmarkWindow, Last,
    NamedWindow, Seq, pattern_variables,
)
from translate.rsp import BGP, AllWindow, BlankVar, RangeWindow, TriplePattern, Var
from translate.scanner import Rewrite, SourceText, Token, tokenize
from translate.sparql import parse_sparql


class _EventCursor(Cursor):
    """A :class:`~translate.clauses.Cursor` with the amounts and windows of event queries."""

    def amount(self, unit_ms: int) -> int:
        """An integer (ticks) or a duration such as ``5s``, in ticks."""
        value, token = self.integer("a number of ticks or a duration such as 5s")
        follower = self.peek()
        if follower is None or follower.kind != "word" or follower.start != token.end:
            return value
        suffix = self.next().text
        where = self.position(token)
        return to_ticks(make_duration(value, suffix, where), unit_ms, where)

    def event_window(self, unit_ms: int) -> EventWindow:
        self.expect_text("[", "a window such as [RANGE 5] or [LND 1]")
        if self.keyword("LND"):
            window: EventWindow = LandmarkWindow(self.amount(unit_ms))
        elif self.keyword("ALL", "ID"):
            window = AllWindow()
        else:
            self.expect_keyword("a window: [RANGE α], [RANGE α STEP β], [LND t0], [ALL] or [ID]",
                                "RANGE")
            length = self.amount(unit_ms)
            step = 1
            if self.keyword("STEP", "SLIDE"):
                where = self.position()
                step = self.amount(unit_ms)
                if step < 1:
                    raise ParseError("a window's STEP must be at least one tick", where)
            if length < 1:
                raise ParseError("a time-based window W^τ(α, β) needs α ≥ 1 (it covers "
                                 "(t'−α, t'])", self.position())
            window = RangeWindow(length, step)
        self.expect_text("]", "']' closing the window")
        return window

    def braces(self) -> tuple[Token, Token]:
        """The ``{`` at the cursor and its matching ``}``; the cursor moves past it."""
        opening = self.expect_text("{", "'{'")
        depth = 1
        while depth:
            token = self.next()
            if token is None:
                raise ParseError("'{' is never closed", self.source.position(opening.start))
            depth += {"{": 1, "}": -1}.get(token.text, 0)
        return opening, self.tokens[self.index - 1]


class _Reader:
    def __init__(self, text: str, source: str, unit_ms: int):
        self.src = SourceText(text, source)
        self.cursor = _EventCursor(tokenize(text), self.src)
        self.unit_ms = unit_ms
        self.prologue = (0, 0)
        self.resolve: Callable[[str, Position | None], URIRef] | None = None
        self.prefixes: tuple[tuple[str, str], ...] = ()

    # --- pieces -----------------------------------------------------------------------------

    def read_prologue(self) -> None:
        cursor = self.cursor
        start = cursor.peek().start if cursor.peek() else 0
        end = start
        while cursor.peek() is not None and cursor.peek().is_keyword("PREFIX", "BASE"):
            keyword = cursor.next()
            if keyword.is_keyword("PREFIX"):
                cursor.next()
            end = cursor.stream_name().end
        self.prologue = (start, end)
        probe = Rewrite(self.src.text, [(0, start, ""), (end, len(self.src.text),
                                                         " SELECT * WHERE {}")])
        query = parse_sparql(probe, self.src)
        self.resolve = resolver(query, self.src)
        self.prefixes = tuple((p, str(ns)) for p, ns in
                              query.prologue.namespace_manager.namespaces())

    def iri(self) -> URIRef:
        token = self.cursor.stream_name()
        return self.resolve(token.text, self.src.position(token.start))

    def bgp(self, opening: Token, closing: Token, cut: list[tuple[int, int]] = ()) -> BGP:
        """The triples between ``opening`` and ``closing`` as a BGP (read by rdflib)."""
        text = self.src.text
        start, end = self.prologue
        edits = [(0, start, ""), (end, opening.start, " SELECT * WHERE "),
                 (closing.end, len(text), "")] + [(a, b, " ") for a, b in cut]
        parts = read_query(parse_sparql(Rewrite(text, edits), self.src), self.src)
        if not isinstance(parts.pattern, BGP):
            raise UnsupportedError("an event pattern's graph pattern must be a basic graph "
                                   "pattern (triples only)", self.src.position(opening.start))
        if any(isinstance(t, BlankVar) for triple in parts.pattern.triples for t in triple.terms()):
            raise UnsupportedError("blank nodes in an event pattern (use variables)",
                                   self.src.position(opening.start))
        return parts.pattern

    def select(self) -> tuple[list[Var], bool]:
        cursor = self.cursor
        cursor.expect_keyword("SELECT", "SELECT")
        cursor.keyword("DISTINCT", "REDUCED")
        if cursor.peek() is not None and cursor.peek().text == "*":
            cursor.next()
            return [], True
        names = []
        while cursor.peek() is not None and cursor.peek().kind == "var":
            names.append(Var(cursor.next().text[1:]))
        if not names:
            raise cursor.error("result variables or * after SELECT")
        return names, False

    # --- the event form ---------------------------------------------------------------------

    def named_window(self) -> NamedWindow:
        cursor = self.cursor
        cursor.expect_keyword("FROM", "FROM")
        cursor.expect_keyword("NAMED after FROM", "NAMED")
        stream = self.iri()
        cursor.expect_keyword("WIN after the stream IRI", "WIN")
        window = cursor.event_window(self.unit_ms)
        cursor.expect_keyword("AS and the window's name", "AS")
        return NamedWindow(self.iri(), stream, window)

    def event(self, windows: dict[URIRef, NamedWindow]) -> Basic:
        cursor = self.cursor
        cursor.expect_keyword("EVENT", "EVENT")
        cursor.expect_keyword("ON after EVENT", "ON")
        where = cursor.position()
        name = self.iri()
        if name not in windows:
            raise ParseError(f"no window named <{name}> (declare it with FROM NAMED … AS)", where)
        opening, closing = cursor.braces()
        pattern = self.bgp(opening, closing)
        cursor.expect_keyword("AS and the event's name", "AS")
        label = cursor.next()
        if label is None or label.kind != "word":
            raise ParseError("expected a name such as E1 after AS", cursor.position(label))
        return Basic(name, pattern, label.text)

    def match(self, events: dict[str, Basic]) -> EventPattern:
        cursor = self.cursor
        cursor.expect_keyword("WHERE", "WHERE")
        cursor.expect_text("{")
        cursor.expect_keyword("MATCH", "MATCH")
        cursor.expect_text("{")
        pattern = self.sequence(events)
        cursor.expect_text("}", "SEQ, SEQ^n, SEQ^c, SEQ^r or '}'")
        cursor.expect_text("}", "'}' closing WHERE (only MATCH is supported in WHERE)")
        return pattern

    def sequence(self, events: dict[str, Basic]) -> EventPattern:
        pattern = self.unary(events)
        while (selection := self.seq_keyword()) is not None:
            pattern = Seq(pattern, self.unary(events), selection)
        return pattern

    def seq_keyword(self) -> str | None:
        cursor = self.cursor
        token = cursor.peek()
        if token is None or token.kind != "word":
            return None
        word = token.text.upper()
        if word in ("SEQN", "SEQC", "SEQR"):
            cursor.next()
            return SEQ_KEYWORDS[f"SEQ^{word[-1]}"]
        if word != "SEQ":
            return None
        cursor.next()
        caret = cursor.peek()
        if caret is None or caret.text != "^" or caret.start != token.end:
            return "unrestricted"
        cursor.next()
        variant = cursor.next()
        key = f"SEQ^{variant.text.upper()}" if variant is not None else ""
        if key not in SEQ_KEYWORDS:
            raise ParseError("expected SEQ^n, SEQ^c or SEQ^r", self.src.position(token.start))
        return SEQ_KEYWORDS[key]

    def unary(self, events: dict[str, Basic]) -> EventPattern:
        cursor = self.cursor
        if cursor.keyword("FIRST"):
            return First(self.unary(events))
        if cursor.keyword("LAST"):
            return Last(self.unary(events))
        token = cursor.peek()
        if token is not None and token.text == "(":
            cursor.next()
            inner = self.sequence(events)
            cursor.expect_text(")", "')'")
            return inner
        if token is None or token.kind != "word" or token.text not in events:
            known = ", ".join(sorted(events)) or "none declared"
            raise cursor.error(f"an event name ({known}), FIRST, LAST or '('")
        cursor.next()
        return events[token.text]

    def event_form(self, variables: list[Var], select_all: bool) -> EventQuery:
        cursor = self.cursor
        windows: dict[URIRef, NamedWindow] = {}
        while cursor.peek() is not None and cursor.peek().is_keyword("FROM"):
            window = self.named_window()
            windows[window.name] = window
        events: dict[str, Basic] = {}
        while cursor.peek() is not None and cursor.peek().is_keyword("EVENT"):
            event = self.event(windows)
            events[event.label] = event
        pattern = self.match(events)
        return self.finish(variables, select_all, tuple(windows.values()), pattern, "rsep", None)

    # --- the C-SPARQL timestamp() form ---------------------------------------------------------

    def csparql_form(self, variables: list[Var], select_all: bool, every: int | None) -> EventQuery:
        cursor = self.cursor
        cursor.expect_keyword("FROM", "FROM")
        cursor.keyword("NAMED")
        cursor.expect_keyword("STREAM after FROM", "STREAM")
        stream = self.iri()
        where = cursor.position()
        window = cursor.event_window(self.unit_ms)
        if not isinstance(window, RangeWindow):
            raise UnsupportedError("the timestamp() idiom over a window other than [RANGE α STEP β]",
                                   where)
        cursor.expect_keyword("WHERE", "WHERE")
        opening, closing = cursor.braces()
        inner = tokenize(self.src.text[:closing.start])
        filters = [k for k, t in enumerate(inner) if t.start > opening.start and t.is_keyword("FILTER")]
        if len(filters) != 1:
            raise UnsupportedError("the timestamp() idiom needs one FILTER (timestamp(tp1) < "
                                   "timestamp(tp2)) in WHERE", self.src.position(opening.start))
        filter_start = inner[filters[0]].start
        first, op, second = self.timestamps(filters[0], closing)
        triples = self.bgp(opening, closing, [(filter_start, closing.start)]).triples
        if sorted(map(repr, triples)) != sorted(map(repr, (first, second))) or first == second:
            raise UnsupportedError("the timestamp() idiom: the BGP must be exactly the two triple "
                                   "patterns under timestamp()", self.src.position(filter_start))
        if op == ">":
            first, second = second, first
        name = URIRef(f"{stream}#window")
        events = [Basic(name, BGP((tp,)), label) for tp, label in ((first, "E1"), (second, "E2"))]
        pattern = Seq(events[0], events[1], "naive")
        return self.finish(variables, select_all, (NamedWindow(name, stream, window),), pattern,
                           "csparql", every or window.step)

    def timestamps(self, at: int, closing: Token) -> tuple[TriplePattern, str, TriplePattern]:
        """``FILTER ( timestamp(s p o) op timestamp(s p o) )`` with ``op`` ``<`` or ``>``."""
        cursor = _EventCursor(self.cursor.tokens, self.src, at + 1)
        cursor.expect_text("(", "'(' after FILTER")
        first = self.timestamp(cursor)
        op = cursor.next()
        if op is None or op.text not in ("<", ">"):
            raise ParseError("the timestamp() idiom compares with < or >",
                             cursor.position(op))
        second = self.timestamp(cursor)
        cursor.expect_text(")", "')' closing the FILTER")
        if cursor.peek() != closing:
            raise UnsupportedError("anything after the timestamp() FILTER", cursor.position())
        return first, op.text, second

    def timestamp(self, cursor: _EventCursor) -> TriplePattern:
        token = cursor.next()
        if token is None or token.text.lower() != "timestamp":
            raise ParseError("expected timestamp(?s, :p, ?o)", cursor.position(token))
        opening = cursor.expect_text("(", "'(' after timestamp")
        terms = []
        while cursor.peek() is not None and cursor.peek().text != ")":
            token = cursor.next()
            if token.text != ",":
                terms.append(token)
        cursor.expect_text(")", "')'")
        if len(terms) != 3:
            raise ParseError("timestamp() takes a triple pattern: subject, predicate, object",
                             self.src.position(opening.start))
        text = self.src.text
        start, end = self.prologue
        body = " ".join(t.text for t in terms)
        probe = Rewrite(text, [(0, start, ""), (end, len(text), f" SELECT * WHERE {{ {body} }}")])
        [triple] = read_query(parse_sparql(probe, self.src), self.src).pattern.triples
        return triple

    # --- the query ----------------------------------------------------------------------------

    def finish(self, variables: list[Var], select_all: bool, windows, pattern: EventPattern,
               engine: str, every: int | None) -> EventQuery:
        names = pattern_variables(pattern)
        if select_all:
            variables = [Var(n) for n in sorted(names)]
        missing = [v.name for v in variables if v.name not in names]
        if missing:
            raise ParseError(f"?{missing[0]} is selected but no event pattern of MATCH binds it",
                             self.src.find_keyword("SELECT"))
        if self.cursor.peek() is not None:
            raise self.cursor.error("the end of the query")
        return EventQuery(tuple(variables), windows, pattern, engine, every, self.unit_ms,
                          self.prefixes)

    def read(self) -> EventQuery:
        cursor = self.cursor
        every = None
        if cursor.keyword("REGISTER"):
            cursor.expect_keyword("QUERY or STREAM after REGISTER", "QUERY", "STREAM")
            cursor.next()
            if cursor.keyword("COMPUTED"):
                cursor.expect_keyword("EVERY after COMPUTED", "EVERY")
                every = cursor.amount(self.unit_ms)
            cursor.expect_keyword("AS before the query", "AS")
        self.read_prologue()
        variables, select_all = self.select()
        ahead = [cursor.peek(1), cursor.peek(2)]
        if any(t is not None and t.is_keyword("STREAM") for t in ahead):
            return self.csparql_form(variables, select_all, every)
        return self.event_form(variables, select_all)


def read_event_query(text: str, source: str = "<string>", unit: str | int = "1s") -> EventQuery:
    """Read an event query (or the C-SPARQL ``timestamp()`` form) into an :class:`EventQuery`.

    Raises:
        ParseError: bad syntax, with line and column.
        UnsupportedError: a construct outside the fragment (blank nodes, non-BGP patterns, …).
        InputError: a duration that is not a whole number of ticks.
    """
    unit_ms = parse_unit(unit) if isinstance(unit, str) else unit
    return _Reader(text, source, unit_ms).read()
