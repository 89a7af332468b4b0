"""Handing plain SPARQL 1.1 text to rdflib, with errors mapped back to the user's text.

The readers cut the stream clauses out of the query first, so the text rdflib sees is a
:class:`~translate.scanner.Rewrite` of the user's. pyparsing's ``ParseException`` gives the offset
where parsing stopped; it is mapped back through the rewrite to a ``line:column`` of the
original, and the message says what was expected and what was found there.

>>> from translate.scanner import Rewrite, SourceText
>>> text = "SELECT ?x WHERE { ?x <p> ?y ?z }"
>>> parse_sparql(Rewrite(text, []), SourceText(text, "q.rq"))
Traceback (most recent call last):
...
lars.errors.ParseError: q.rq:1:29: error: SPARQL syntax error: expected the rest of the SELECT query but found '?z'
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import rdflib.plugins.sparql
import rdflib.plugins.sparql.algebra as rdflib_algebra
from pyparsing import ParseBaseException, ParseResults
from rdflib import URIRef
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.sparql import Query

from lars.errors import ParseError, Position, UnsupportedError
from translate.grouping import check_projections
from translate.iris import is_absolute, resolve
from translate.scanner import Rewrite, SourceText, Token, tokenize

rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = False  # SPEC 11: never fetch FROM IRIs

LARGE_BGP = 256
"""Above this many triple patterns, a basic graph pattern keeps the order it was written in."""
_reorder_triples = rdflib_algebra.reorderTriples


def _reorder_unless_large(triples):
    """rdflib's join ordering of a BGP's triple patterns, which takes time quadratic in their
    number (40 s for 1000 patterns): kept for ordinary queries, whose translations it shapes,
    and skipped for large ones. The order changes no answer: a BGP is a conjunction."""
    triples = list(triples)
    return _reorder_triples(triples) if len(triples) <= LARGE_BGP else triples


rdflib_algebra.reorderTriples = _reorder_unless_large

_FRIENDLY = {
    "SelectQuery": "the rest of the SELECT query",
    "ConstructQuery": "the rest of the CONSTRUCT query",
    "AskQuery": "the rest of the ASK query",
    "DescribeQuery": "the rest of the DESCRIBE query",
    "{SelectQuery | ConstructQuery | DescribeQuery | AskQuery}":
        "a query (SELECT, CONSTRUCT, DESCRIBE or ASK)",
}


def _expected(message: str) -> str:
    what = message[len("Expected "):] if message.startswith("Expected ") else message
    return _FRIENDLY.get(what, what)


_GROUP_PROBE = "SELECT * WHERE "


def _narrow(text: str, location: int, expected: str) -> tuple[int, str]:
    """A deeper error location: pyparsing reports where a whole alternative failed (say, at
    ``GRAPH``); if a ``{ group }`` starts within the next tokens, parse it alone, and so on down.
    """
    tokens = tokenize(text[location:])
    brace = next((t for t in tokens[:6] if t.text == "{"), None)
    if brace is None:
        return location, expected
    start, depth = location + brace.start, 0
    end = len(text)
    for token in tokens[tokens.index(brace):]:
        depth += {"{": 1, "}": -1}.get(token.text, 0)
        if depth == 0:
            end = location + token.end
            break
    try:
        parseQuery(_GROUP_PROBE + text[start:end])
    except ParseBaseException as inner:
        deeper = start + inner.loc - len(_GROUP_PROBE)
        if deeper > location:
            return _narrow(text, deeper, "a graph pattern element, '.' or '}'")
    return location, expected


BUILT_IN_CALLS = (
    "COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT", "STR", "LANG", "LANGMATCHES",
    "DATATYPE", "BOUND", "IRI", "URI", "BNODE", "RAND", "ABS", "CEIL", "FLOOR", "ROUND", "CONCAT",
    "SUBSTR", "STRLEN", "REPLACE", "UCASE", "LCASE", "ENCODE_FOR_URI", "CONTAINS", "STRSTARTS",
    "STRENDS", "STRBEFORE", "STRAFTER", "YEAR", "MONTH", "DAY", "HOURS", "MINUTES", "SECONDS",
    "TIMEZONE", "TZ", "NOW", "UUID", "STRUUID", "MD5", "SHA1", "SHA256", "SHA384", "SHA512",
    "COALESCE", "IF", "STRLANG", "STRDT", "SAMETERM", "ISIRI", "ISURI", "ISBLANK", "ISLITERAL",
    "ISNUMERIC", "REGEX", "EXISTS")
"""The names SPARQL 1.1's grammar calls with parentheses (``BuiltInCall`` and ``Aggregate``)."""


def _misspelt_call(source: SourceText, offset: int) -> tuple[Token, str] | None:
    """A bare name called like a function near a syntax error (``CONT(?v)``) that is close to a
    built-in call's name, with that name: rdflib reports such an error at the expression's
    start, a few tokens before the name, and without naming it."""
    tokens = tokenize(source.text[offset:])[:6]
    for token, following in zip(tokens, tokens[1:]):
        if token.kind == "word" and following.text == "(" and token.text.upper() not in BUILT_IN_CALLS:
            close = difflib.get_close_matches(token.text.upper(), BUILT_IN_CALLS, n=1, cutoff=0.8)
            if close:
                return Token(token.kind, token.text, offset + token.start, offset + token.end), close[0]
    return None


def _found(source: SourceText, offset: int) -> str:
    tokens = tokenize(source.text[offset:])
    return f"'{tokens[0].text}'" if tokens else "end of input"


def constant_filter_edits(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Rewrites ``FILTER (false)`` to ``FILTER (!(!false))`` (likewise for a lone number or string).

    rdflib's algebra drops a FILTER whose whole condition is a constant with a false Python value
    (``false``, ``0``, ``""``), which would keep every solution; a double negation is the same
    condition in a form rdflib keeps.
    """
    edits = []
    for k in range(len(tokens) - 3):
        keyword, opening, constant, closing = tokens[k: k + 4]
        if keyword.is_keyword("FILTER") and opening.text == "(" and closing.text == ")" and (
                constant.is_keyword("FALSE", "TRUE") or constant.kind in ("number", "string")):
            edits.append((constant.start, constant.end, f"!(!{constant.text})"))
    return edits


INVERSE_MARK = "urn:lars:inverse"
"""rdflib's parser drops the IRI of an inverse member of a negated property set (``!(^:p)``);
:func:`negated_inverse_edits` writes ``^:p`` as ``<urn:lars:inverse>|:p``, and
:func:`translate.paths.from_rdflib` reads a member after the mark as inverse."""


def negated_inverse_edits(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Edits marking the inverse members of negated property sets (see :data:`INVERSE_MARK`)."""
    edits = []
    for k, token in enumerate(tokens[:-2]):
        if token.text != "!":
            continue
        following = tokens[k + 1]
        if following.text == "^":  # !^:p
            member = tokens[k + 2]
            edits.append((following.start, following.end, f"(<{INVERSE_MARK}>|"))
            edits.append((member.end, member.end, ")"))
        elif following.text == "(":
            members = []
            for inner in tokens[k + 2:]:
                if inner.text == ")" or inner.kind not in ("iri", "pname", "word", "punct") or \
                        inner.text not in ("^", "|") and inner.kind == "punct":
                    break
                members.append(inner)
            if members and tokens[k + 2 + len(members)].text == ")":
                edits += [(m.start, m.end, f"<{INVERSE_MARK}>|") for m in members if m.text == "^"]
    return edits


def parse_sparql(rewrite: Rewrite, source: SourceText) -> Query:
    """Parse and translate ``rewrite.text`` with rdflib; errors point into ``source``.

    Raises:
        ParseError: a syntax error or an unknown prefix, with the original position.
    """
    _refuse_service(rewrite, source)
    try:
        parsed = parseQuery(rewrite.text)
    except RecursionError:
        raise UnsupportedError("a query nested too deeply for rdflib's SPARQL parser "
                               "(it recursed without end)", source.position(0)) from None
    except ParseBaseException as error:
        location, expected = _narrow(rewrite.text, error.loc, _expected(error.msg))
        offset = rewrite.original_offset(location)
        found = _found(source, offset)
        if found.upper() == "'FILTER'":
            expected = "a FILTER with a well-formed condition in parentheses"
        misspelt = _misspelt_call(source, offset)
        if misspelt is not None:
            token, meant = misspelt
            raise ParseError(f"SPARQL syntax error: unknown function {token.text}() "
                             f"(did you mean {meant}?)", source.position(token.start)) from None
        raise ParseError(f"SPARQL syntax error: expected {expected} but found {found}",
                         source.position(offset)) from None
    check_projections(parsed, source)
    base = resolve_references(parsed, file_base(source.source))
    try:
        return translateQuery(parsed, base=base)
    except Exception as error:  # rdflib raises bare Exception for unknown prefixes
        raise _translation_error(error, source) from None


def _refuse_service(rewrite: Rewrite, source: SourceText) -> None:
    """Refuse ``SERVICE`` before rdflib parses: the project never reaches the network, and
    rdflib's parser takes minutes over a SERVICE nested in another (a search over the whole
    text per SERVICE group)."""
    for token in tokenize(rewrite.text):
        if token.is_keyword("SERVICE"):
            raise UnsupportedError("SERVICE (federated queries reach the network)",
                                   source.position(rewrite.original_offset(token.start)))


def resolve_references(parsed: ParseResults, base: str | None) -> str | None:
    """Resolve the relative IRI references of rdflib's parse tree in place by RFC 3986
    (:mod:`translate.iris`), leaving every absolute IRI as written; returns the query's base.

    rdflib's own resolution (``Prologue.absolutize``) is not RFC 3986 (see :mod:`translate.iris`)
    and sets a ``BASE`` without resolving it against the one before; after this pass every IRI
    it meets is absolute, so it changes none. ``BASE`` and ``PREFIX`` apply in prologue order.
    """
    prologue, query = parsed[0], parsed[1]
    for decl in prologue:
        if decl.name in ("Base", "PrefixDecl"):
            decl["iri"] = URIRef(resolve(str(decl["iri"]), base))
            if decl.name == "Base":
                base = str(decl["iri"])
    if base is None:
        return None
    stack = [query]
    while stack:
        node = stack.pop()
        entries = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(entries):
            if isinstance(value, URIRef):
                if not is_absolute(value):
                    node[key] = URIRef(resolve(str(value), base))
            elif isinstance(value, (dict, list, ParseResults)):
                stack.append(value)
    return base


def file_base(name: str) -> str | None:
    """The base IRI of a query read from the file ``name`` (its ``file:`` URI), so that relative
    IRIs such as ``FROM <data.ttl>`` name files next to the query; ``None`` for text."""
    path = Path(name)
    return path.resolve().as_uri() if not name.startswith("<") and path.is_file() else None


def _translation_error(error: Exception, source: SourceText) -> ParseError:
    match = re.search(r"Unknown namespace prefix : (\S*)", str(error))
    if match:
        prefix = "" if match.group(1) == "None" else match.group(1)  # rdflib's name for ':'
        position = None
        for token in tokenize(source.text):
            if token.kind == "pname" and token.text.split(":")[0] == prefix:
                position = source.position(token.start)
                break
        return ParseError(f"unknown prefix '{prefix}:'", position or Position(source.source),
                          hint=f"declare it with PREFIX {prefix}: <...>")
    return ParseError(f"SPARQL error: {error}", Position(source.source))
