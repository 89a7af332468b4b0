"""The stream clauses both readers share: windows and stream names, read from tokens.

Windows (keywords in any case, durations as in :mod:`translate.durations`):

* ``[RANGE d]``, ``[RANGE d STEP d]``, ``[RANGE d SLIDE d]``, ``[RANGE d TUMBLING]``,
  ``[RANGE UNBOUNDED]``, ``[RANGE TRIPLES n]``, ``[TRIPLES n]``, ``[ROWS n]``, ``[NOW]``, ``[ALL]``.

Both readers accept every form (C-SPARQL writes ``STEP``, CQELS ``SLIDE``; they mean the same).

>>> cursor = Cursor(tokenize("[RANGE 10s STEP 5 s]"), SourceText("[RANGE 10s STEP 5 s]"))
>>> cursor.window(1000)
RangeWindow(length=10, step=5)
"""

from __future__ import annotations

from lars.errors import ParseError, Position
from translate.durations import make_duration, parse_unit, to_ticks
from translate.rsp import AllWindow, NowWindow, RangeWindow, RspWindow, TriplesWindow
from translate.scanner import SourceText, Token, tokenize  # noqa: F401 (doctest)

WINDOW_FORMS = ("[RANGE d]", "[RANGE d STEP d]", "[RANGE d SLIDE d]", "[RANGE d TUMBLING]",
                "[RANGE TRIPLES n]", "[TRIPLES n]", "[NOW]", "[ALL]")


class Cursor:
    """A position in a token list, with helpers that raise :class:`ParseError` at the spot."""

    def __init__(self, tokens: list[Token], source: SourceText, index: int = 0):
        self.tokens = tokens
        self.source = source
        self.index = index

    def peek(self, ahead: int = 0) -> Token | None:
        at = self.index + ahead
        return self.tokens[at] if at < len(self.tokens) else None

    def next(self) -> Token | None:
        token = self.peek()
        self.index += 1
        return token

    def position(self, token: Token | None = None) -> Position:
        token = token if token is not None else self.peek()
        return self.source.position(token.start if token else len(self.source.text))

    def error(self, expected: str, hint: str | None = None) -> ParseError:
        token = self.peek()
        found = f"'{token.text}'" if token else "end of input"
        return ParseError(f"expected {expected} but found {found}", self.position(), hint=hint)

    def keyword(self, *words: str) -> bool:
        """Consume the next token if it is one of the keywords ``words``."""
        token = self.peek()
        if token is not None and token.is_keyword(*words):
            self.index += 1
            return True
        return False

    def expect_keyword(self, expected: str, *words: str) -> Token:
        token = self.peek()
        if token is None or not token.is_keyword(*words):
            raise self.error(expected)
        return self.next()

    def expect_text(self, text: str, expected: str | None = None) -> Token:
        token = self.peek()
        if token is None or token.text != text:
            raise self.error(expected or f"'{text}'")
        return self.next()

    def stream_name(self) -> Token:
        """An IRI ``<...>`` or a prefixed name such as ``:offers`` (resolved later)."""
        token = self.peek()
        if token is None or token.kind not in ("iri", "pname"):
            raise self.error("a stream IRI (<...> or a prefixed name)")
        return self.next()

    def integer(self, what: str) -> tuple[int, Token]:
        token = self.peek()
        if token is None or token.kind != "number" or not token.text.isdigit():
            raise self.error(what)
        return int(self.next().text), token

    def duration(self, unit_ms: int) -> int:
        """A duration (``10s``, ``10 s``, ``500ms``) in ticks of ``unit_ms``."""
        amount, token = self.integer("a duration such as 10s (an integer and a unit)")
        unit = self.peek()
        glued = unit is not None and unit.kind == "word"
        suffix = self.next().text if glued else ""
        position = self.position(token)
        return to_ticks(make_duration(amount, suffix, position), unit_ms, position)

    def window(self, unit_ms: int) -> RspWindow:
        """A window ``[ ... ]`` (the cursor is on ``[``)."""
        self.expect_text("[", "a window such as [RANGE 10s]")
        window = self._window_body(unit_ms)
        if self.peek() is None or self.peek().text != "]":
            raise self.error("']' closing the window",
                             hint="windows are " + ", ".join(WINDOW_FORMS))
        self.next()
        return window

    def _window_body(self, unit_ms: int) -> RspWindow:
        if self.keyword("NOW"):
            return NowWindow()
        if self.keyword("ALL"):
            return AllWindow()
        if self.keyword("TRIPLES", "ROWS"):
            return TriplesWindow(self._count())
        self.expect_keyword("a window (" + ", ".join(WINDOW_FORMS) + ")", "RANGE")
        if self.keyword("TRIPLES", "ROWS"):
            return TriplesWindow(self._count())
        if self.keyword("UNBOUNDED"):
            return AllWindow()
        length = self.duration(unit_ms)
        if self.keyword("STEP", "SLIDE"):
            where = self.position()
            step = self.duration(unit_ms)
            if step < 1:
                raise ParseError("a window's STEP/SLIDE must be at least one tick", where)
            return RangeWindow(length, step)
        if self.keyword("TUMBLING"):
            return RangeWindow(length, max(length, 1))
        return RangeWindow(length)

    def _count(self) -> int:
        count, token = self.integer("a number of triples")
        if count < 1:
            raise ParseError("a triple window holds at least one triple", self.position(token))
        return count


def reader_input(text: str, source: str, unit: str | int) -> tuple[int, SourceText]:
    """What every query reader starts from: the tick in milliseconds (``unit`` is a duration
    such as ``"1s"`` or milliseconds) and the text with its source name, for positions.

    Every reader raises ``ParseError`` for bad syntax (with line and column in ``text``),
    ``UnsupportedError`` for SPARQL outside the fragment (all of them listed) and ``InputError``
    for a duration that is not a whole number of ticks.
    """
    return (parse_unit(unit) if isinstance(unit, str) else unit), SourceText(text, source)


def depths(tokens: list[Token]) -> list[int]:
    """The brace depth at each token (``{`` itself is at the outer depth)."""
    result, depth = [], 0
    for token in tokens:
        if token.text == "}":
            depth -= 1
        result.append(depth)
        if token.text == "{":
            depth += 1
    return result
