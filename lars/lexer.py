"""Tokens of the LARS text syntax, in both spellings (SPEC section 3; grammar in ``docs/syntax.md``).

The lexer folds the two spellings together: ``←`` and ``:-`` are both an :data:`ARROW` token,
``◇`` and ``<>`` a :data:`DIAMOND`, ``□`` and ``[]`` a :data:`BOX`, ``≤`` and ``<=`` the
comparison ``<=``, ``@_`` and ``@`` the at sign. So the parser never looks at the spelling, and
the two spellings may be mixed freely. Three spots need context, each decided here:

* ``<`` starts an IRI (``<http://ex.org/a>``) unless it follows a term (a name other than
  ``not``, a variable, a number, a string, an IRI or ``)``), where it is the comparison ``<``
  (or ``<=``); ``<>`` written together is always the diamond.
* ``#`` right after ``[`` or ``{`` (no space between) marks a tuple window (``[#10]``,
  ``⊞^{#10}``); anywhere else it starts a comment that runs to the end of the line.
* ``@_`` written together is the paper's at sign, so ``@_X`` is "at time ``X``"; the ASCII
  spelling of "at time ``_X``" is ``@ _X``.

>>> [token.kind for token in tokenize("a :- ⊞^{#3} ◇ b, X ≥ 2. # done")]
['name', ':-', '⊞', '^', '{', '#', 'number', '}', '<>', 'name', ',', 'variable', '>=', 'number', '.', 'eof']
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from lars.errors import ParseError, Position
from lars.terms import RESERVED_WORD, VARIABLE_PATTERN, is_iri_text

NAME, VARIABLE, NUMBER, STRING, IRI, EOF = "name", "variable", "number", "string", "iri", "eof"
ARROW, DIAMOND, BOX, AT, INFINITY = ":-", "<>", "[]", "@", "∞"

NEGATION = RESERVED_WORD
"""The one reserved word: it cannot be a predicate or a constant name."""

SYMBOLS = {
    ":-": ARROW, "←": ARROW, "<>": DIAMOND, "◇": DIAMOND, "[]": BOX, "□": BOX, "@_": AT, "@": AT,
    "!=": "!=", "≠": "!=", "<=": "<=", "≤": "<=", ">=": ">=", "≥": ">=", "∞": INFINITY,
    **{symbol: symbol for symbol in "=<>+-*/%()[]{},.:^⊞"},
}
"""Source text → token kind; the kind of a symbol is its ASCII spelling (``∞`` stays ``∞``)."""

STRING_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
"""``\\x`` in a string literal → the character it stands for."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = re.compile(r"[0-9]+")
_TERM_END = (VARIABLE, NUMBER, STRING, IRI, ")")


@dataclass(frozen=True)
class Token:
    """One token: its kind, source text, 1-based position and value (number, string or IRI)."""

    kind: str
    text: str
    line: int
    column: int
    value: int | str | None = None

    def describe(self) -> str:
        """The token as error messages quote it: ``'text'``, or ``end of input``."""
        return self.text if self.kind == EOF else f"'{self.text}'"


class _Lexer:
    """Splits one text into tokens; positions count Unicode characters from 1."""

    def __init__(self, text: str, source: str, first_line: int, end_name: str):
        self.text, self.source, self.first_line, self.end_name = text, source, first_line, end_name
        self.line_starts = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
        self.tokens: list[Token] = []

    def position(self, index: int) -> Position:
        row = bisect.bisect_right(self.line_starts, index) - 1
        return Position(self.source, self.first_line + row, index - self.line_starts[row] + 1)

    def token(self, kind: str, start: int, end: int, value: int | str | None = None) -> int:
        where = self.position(start)
        self.tokens.append(Token(kind, self.text[start:end], where.line, where.column, value))
        return end

    def error(self, expected: str, found: str, index: int) -> ParseError:
        return ParseError(f"expected {expected} but found {found}", self.position(index))

    def run(self) -> list[Token]:
        index = 0
        while index < len(self.text):
            index = self.step(index)
        where = self.position(len(self.text))
        self.tokens.append(Token(EOF, self.end_name, where.line, where.column))
        return self.tokens

    def step(self, index: int) -> int:
        """Reads what starts at ``index`` (blank, comment or token); returns where it ends."""
        char = self.text[index]
        if char.isspace() or char == "\ufeff":
            return index + 1
        if char == "#":
            return self.hash_sign(index)
        if char == '"':
            return self.string(index)
        if char == "<" and self.text[index + 1:index + 2] != ">" and not self.after_term():
            return self.iri(index)
        word = _WORD.match(self.text, index)
        if word:
            kind = VARIABLE if VARIABLE_PATTERN.fullmatch(word.group()) else NAME
            return self.token(kind, index, word.end())
        digits = _DIGITS.match(self.text, index)
        if digits:
            return self.token(NUMBER, index, digits.end(), int(digits.group()))
        return self.symbol(index)

    def after_term(self) -> bool:
        last = self.tokens[-1] if self.tokens else None
        return last is not None and (last.kind in _TERM_END or last.kind == NAME and last.text != NEGATION)

    def hash_sign(self, index: int) -> int:
        if index > 0 and self.text[index - 1] in "[{":
            return self.token("#", index, index + 1)
        end = self.text.find("\n", index)
        return len(self.text) if end < 0 else end

    def symbol(self, index: int) -> int:
        for size in (2, 1):
            kind = SYMBOLS.get(self.text[index:index + size])
            if kind is not None:
                return self.token(kind, index, index + size)
        raise self.error("a token", self.found_text(index, 1), index)

    def string(self, start: int) -> int:
        index, chars = start + 1, []
        while index < len(self.text) and self.text[index] not in '"\n':
            if self.text[index] == "\\":
                escape = self.text[index + 1:index + 2]
                if escape not in STRING_ESCAPES or escape == "":
                    raise self.error("one of \\\" \\\\ \\n \\t \\r", self.found_text(index, 2), index)
                chars.append(STRING_ESCAPES[escape])
                index += 2
            else:
                chars.append(self.text[index])
                index += 1
        if index == len(self.text) or self.text[index] == "\n":
            raise self.error("'\"' to close the string", self.found_text(index, 1), start)
        return self.token(STRING, start, index + 1, "".join(chars))

    def iri(self, start: int) -> int:
        index = start + 1
        while index < len(self.text) and is_iri_text(self.text[index]):
            index += 1
        if index == len(self.text) or self.text[index] != ">" or index == start + 1:
            raise self.error("'>' to close the IRI", self.found_text(index, 1), index)
        return self.token(IRI, start, index + 1, self.text[start + 1:index])

    def found_text(self, index: int, size: int) -> str:
        """``'text'`` at ``index`` for error messages, or the end of the input or line."""
        if index >= len(self.text):
            return self.end_name
        if self.text[index] == "\n":
            return "end of line"
        found = self.text[index:index + size]
        return f"'{found}'" if found.isprintable() else repr(found)


def tokenize(text: str, source: str = "<string>", first_line: int = 1,
             end_name: str = "end of input") -> list[Token]:
    """The tokens of ``text``, ending with an :data:`EOF` token named ``end_name``.

    Args:
        text: the source text, in either spelling or a mix.
        source: the file name (or ``<string>``) put in positions.
        first_line: the line number of the first line of ``text``.
        end_name: how errors name the end (``end of input``, ``end of line``).

    Raises:
        ParseError: on a character that starts no token, a bad escape, an unterminated string
            or IRI.
    """
    return _Lexer(text, source, first_line, end_name).run()
