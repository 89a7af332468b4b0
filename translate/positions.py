"""Positions of SPARQL features in the user's text, for error messages.

rdflib's algebra keeps no positions, so :mod:`translate.algebra` asks these functions where a
feature it refuses was written: they search the tokens of the original text.

>>> path_position(SourceText("SELECT * WHERE { ?s <p>/<q> ?o }"))
Position(source='<string>', line=1, column=24)
>>> binding_feature(SourceText("SELECT (1 AS ?x) WHERE { }"), "x")
('SELECT expression (... AS ?var)', Position(source='<string>', line=1, column=11))

The query model keeps no positions either: :func:`triple_position` and :func:`stream_position`
find a triple pattern and a stream's clause again, for refusals that concern them (``lars
agree`` deriving the CQELS side of a C-SPARQL query, :func:`agreement.defaults.derive_cqels`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import Literal, URIRef
from rdflib.namespace import RDF

from lars.errors import Position
from translate.rsp import BlankVar, PatternTerm, TriplePattern, Var
from translate.scanner import SourceText, Token, tokenize


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


def triple_position(source: SourceText, triple: TriplePattern,
                    prefixes: Iterable[tuple[str, str]] = ()) -> Position | None:
    """Where ``triple`` is written: its subject, or its predicate after a ``;`` (``None`` when
    it cannot be found, e.g. written with ``,`` between objects or under a property path).
    Prefixed names are read with ``prefixes`` (the query's).

    >>> text = "PREFIX : <http://e/> SELECT * WHERE {\\n  ?s :p ?o ;\\n     a :C }"
    >>> p = lambda s, o: TriplePattern(Var("s"), URIRef("http://e/" + s) if s else RDF.type, o)
    >>> triple_position(SourceText(text), p("p", Var("o")), [("", "http://e/")])
    Position(source='<string>', line=2, column=3)
    >>> triple_position(SourceText(text), p("", URIRef("http://e/C")), [("", "http://e/")])
    Position(source='<string>', line=3, column=6)
    """
    namespaces = dict(prefixes)
    tokens = tokenize(source.text)
    for k in range(1, len(tokens) - 1):
        before, verb, after = tokens[k - 1], tokens[k], tokens[k + 1]
        if not (_denotes(verb, triple.predicate, namespaces) and _denotes(after, triple.object, namespaces)):
            continue
        if _denotes(before, triple.subject, namespaces):
            return source.position(before.start)
        if before.text == ";":
            return source.position(verb.start)
    return None


def stream_position(source: SourceText, stream: URIRef, prefixes: Iterable[tuple[str, str]] = (),
                    occurrence: int = 1) -> Position | None:
    """Where the ``occurrence``-th clause naming ``stream`` after ``STREAM`` (``FROM STREAM``,
    a CQELS ``STREAM`` block) names it.

    >>> text = "SELECT * FROM STREAM <http://e/s> [RANGE 1s]\\nFROM STREAM <http://e/s> [RANGE 2s] WHERE {}"
    >>> stream_position(SourceText(text), URIRef("http://e/s"), occurrence=2)
    Position(source='<string>', line=2, column=13)
    """
    namespaces = dict(prefixes)
    tokens = tokenize(source.text)
    found = [name for keyword, name in zip(tokens, tokens[1:])
             if keyword.is_keyword("STREAM") and _denotes(name, stream, namespaces)]
    return source.position(found[occurrence - 1].start) if len(found) >= occurrence else None


def _denotes(token: Token, term: PatternTerm, namespaces: dict[str, str]) -> bool:
    """Whether ``token`` can be where ``term`` is written: a variable by its name, an IRI in
    full (or relative to a base), by a prefixed name or as ``a``, a blank node by any blank
    node, a literal by its lexical form, anything else (a property path) by any token."""
    if isinstance(term, Var):
        return token.kind == "var" and token.text[1:] == term.name
    if isinstance(term, BlankVar):
        return token.kind == "bnode" or token.text == "["
    if isinstance(term, URIRef):
        if token.kind == "iri":
            return token.text[1:-1] == str(term) or (bool(token.text[1:-1])
                                                     and str(term).endswith(token.text[1:-1]))
        if token.kind == "pname":
            prefix, _, local = token.text.partition(":")
            return prefix in namespaces and namespaces[prefix] + local == str(term)
        return token.text == "a" and term == RDF.type
    if isinstance(term, Literal):
        return token.kind in ("string", "number", "word") and str(term) in token.text
    return True
