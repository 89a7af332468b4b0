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

import re

import rdflib.plugins.sparql
from pyparsing import ParseBaseException
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.sparql import Query

from lars.errors import ParseError
from translate.scanner import Rewrite, SourceText, tokenize

rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = False  # SPEC 11: never fetch FROM IRIs

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


def _found(source: SourceText, offset: int) -> str:
    tokens = tokenize(source.text[offset:])
    return f"'{tokens[0].text}'" if tokens else "end of input"


def parse_sparql(rewrite: Rewrite, source: SourceText) -> Query:
    """Parse and translate ``rewrite.text`` with rdflib; errors point into ``source``.

    Raises:
        ParseError: a syntax error or an unknown prefix, with the original position.
    """
    try:
        parsed = parseQuery(rewrite.text)
    except ParseBaseException as error:
        offset = rewrite.original_offset(error.loc)
        raise ParseError(f"SPARQL syntax error: expected {_expected(error.msg)} "
                         f"but found {_found(source, offset)}", source.position(offset)) from None
    try:
        return translateQuery(parsed)
    except Exception as error:  # rdflib raises bare Exception for unknown prefixes
        raise _translation_error(error, source) from None


def _translation_error(error: Exception, source: SourceText) -> ParseError:
    match = re.search(r"Unknown namespace prefix : (\S*)", str(error))
    if match:
        prefix = match.group(1)
        position = None
        for token in tokenize(source.text):
            if token.kind == "pname" and token.text.split(":")[0] == prefix:
                position = source.position(token.start)
                break
        return ParseError(f"unknown prefix '{prefix}:'", position,
                          hint=f"declare it with PREFIX {prefix}: <...>")
    return ParseError(f"SPARQL error: {error}", None)
