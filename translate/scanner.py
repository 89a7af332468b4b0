"""A small SPARQL-aware scanner with positions, and text rewrites that keep them.

The readers cut stream clauses out of the query text before handing it to rdflib. They need
to find keywords outside strings, IRIs and comments (:func:`tokenize`), to turn offsets into
``line:column`` positions (:class:`SourceText`), and to map a position in the rewritten text
back to the user's original text (:class:`Rewrite`). The tokens also tell an RSEP-QL event
query from the other languages (:func:`is_event_query`), before anything is parsed.

>>> [t.text for t in tokenize('SELECT ?x # STREAM\\nWHERE { ?x <http://e/STREAM> "STREAM" }')]
['SELECT', '?x', 'WHERE', '{', '?x', '<http://e/STREAM>', '"STREAM"', '}']
>>> r = Rewrite("FROM STREAM <s> [RANGE 1s] SELECT", [(0, 27, "")])
>>> r.text, r.original_offset(r.text.index("SELECT"))
('SELECT', 27)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from lars.errors import Position

_TOKEN_PATTERNS = (
    ("space", r"\s+"),
    ("comment", r"#[^\n]*"),
    ("string", r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
               r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''),
    ("iri", r'<[^<>"{}|^`\\\x00-\x20]*>'),
    ("var", r"[?$][A-Za-z0-9_\u00B7-\uFFFF]+"),
    ("bnode", r"_:[A-Za-z0-9_\u00B7-\uFFFF](?:[\w.\-]*[\w\-])?"),
    ("pname", r"(?:[A-Za-z\u00C0-\uFFFF](?:[\w.\-]*[\w\-])?)?:(?:[\w\-:%]|\.(?=[\w\-:%]))*"),
    ("number", r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"),
    ("word", r"[A-Za-z_][\w\-]*"),
    ("punct", r"\^\^|&&|\|\||<=|>=|!=|."),
)
_TOKEN = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _TOKEN_PATTERNS),
                    re.DOTALL)


@dataclass(frozen=True)
class Token:
    """One token: its kind (``word``, ``pname``, ``iri``, ``var``, ``number``, ``string``, ...),
    its text and its ``[start, end)`` offsets in the scanned text."""

    kind: str
    text: str
    start: int
    end: int

    def is_keyword(self, *words: str) -> bool:
        """True for a ``word`` token spelling one of ``words`` in any case."""
        return self.kind == "word" and self.text.upper() in words


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text`` without whitespace and comments."""
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind not in ("space", "comment"):
            tokens.append(Token(kind, match.group(), match.start(), match.end()))
    return tokens


def is_event_query(text: str) -> bool:
    """Whether ``text`` uses the event syntax (``EVENT ON``, ``MATCH {``) or ``timestamp(``."""
    tokens = tokenize(text)
    for k, token in enumerate(tokens[:-1]):
        following = tokens[k + 1]
        if (token.is_keyword("EVENT") and following.is_keyword("ON")) or (
                token.is_keyword("MATCH") and following.text == "{") or (
                token.text.lower() == "timestamp" and following.text == "("):
            return True
    return False


@dataclass(frozen=True)
class SourceText:
    """The user's text and its name (a file name or ``<string>``), for positions."""

    text: str
    source: str = "<string>"

    def position(self, offset: int) -> Position:
        """The 1-based ``line:column`` of ``offset``.

        >>> SourceText("ab\\ncd", "q.rq").position(4)
        Position(source='q.rq', line=2, column=2)
        """
        offset = max(0, min(offset, len(self.text)))
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return Position(self.source, line, column)

    def find_keyword(self, *words: str) -> Position | None:
        """Where the first token spelling one of ``words`` (any case) is, if anywhere."""
        wanted = {word.upper() for word in words}
        for token in tokenize(self.text):
            if token.text.upper() in wanted:
                return self.position(token.start)
        return None


class Rewrite:
    """``original`` with the spans ``[start, end)`` replaced, remembering where text moved.

    Args:
        original: the user's text.
        edits: ``(start, end, replacement)`` triples, non-overlapping.
    """

    def __init__(self, original: str, edits: Iterable[tuple[int, int, str]]):
        self.original = original
        self.edits = sorted(edits)
        parts, self._moves, last, shift = [], [], 0, 0
        for start, end, replacement in self.edits:
            parts += [original[last:start], replacement]
            self._moves.append((start + shift, start + shift + len(replacement), start, end))
            shift += len(replacement) - (end - start)
            last = end
        parts.append(original[last:])
        self.text = "".join(parts)

    def original_offset(self, offset: int) -> int:
        """The offset in the original text of ``offset`` in the rewritten text.

        An offset inside a replacement maps to the start of the replaced span.
        """
        shift = 0
        for new_start, new_end, old_start, old_end in self._moves:
            if offset < new_start:
                break
            if offset < new_end:
                return old_start
            shift = old_end - new_end
        return offset + shift
