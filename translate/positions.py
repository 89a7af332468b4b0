"""Positions of SPARQL features in the user's text, for error messages.

rdflib's algebra keeps no positions, so :mod:`translate.algebra` asks these functions where a
feature it refuses was written: they search the tokens of the original text.

>>> path_position(SourceText("SELECT * WHERE { ?s <p>/<q> ?o }"))
Position(source='<string>', line=1, column=24)
>>> binding_feature(SourceText("SELECT (1 AS ?x) WHERE { }"), "x")
('SELECT expression (... AS ?var)', Position(source='<string>', line=1, column=11))
"""

from __future__ import annotations

from lars.errors import Position
from translate.scanner import SourceText, tokenize


def select_star(source: SourceText) -> bool:
    """Whether the query projects ``*``."""
    tokens = iter(tokenize(source.text))
    for token in tokens:
        if token.is_keyword("SELECT"):
            following = next(tokens, None)
            if following is not None and following.is_keyword("DISTINCT", "REDUCED"):
                following = next(tokens, None)
            return following is not None and following.text == "*"
    return False


def binding_feature(source: SourceText, name: str) -> tuple[str, Position | None]:
    """``(... AS ?name)``: a SELECT expression if it comes before the WHERE clause, else BIND."""
    tokens = tokenize(source.text)
    first_brace = next((t.start for t in tokens if t.text == "{"), len(source.text))
    for k, token in enumerate(tokens[:-1]):
        following = tokens[k + 1]
        if token.is_keyword("AS") and following.kind == "var" and following.text[1:] == name:
            if token.start < first_brace:
                return "SELECT expression (... AS ?var)", source.position(token.start)
            bind = next((t for t in reversed(tokens[:k]) if t.is_keyword("BIND")), token)
            return "BIND", source.position(bind.start)
    return "BIND", source.find_keyword("BIND")


def path_position(source: SourceText) -> Position | None:
    """Where the first property path operator is (``/``, ``|``, ``^``, ``*``, ``+``, ``?``)."""
    tokens = tokenize(source.text)
    for before, token, after in zip(tokens, tokens[1:], tokens[2:]):
        predicate = before.kind in ("iri", "pname") or before.text in (")", "a")
        inverse = token.text == "^" and after.kind in ("iri", "pname")
        if predicate and token.text in ("/", "|") or inverse:
            return source.position(token.start)
        if predicate and token.text in ("*", "+", "?") and after.kind in ("var", "iri", "pname"):
            return source.position(token.start)
    return None


def nth_select(source: SourceText) -> Position | None:
    upper = source.text.upper()
    first = upper.find("SELECT")
    second = upper.find("SELECT", first + 1)
    return source.position(second) if second >= 0 else None
