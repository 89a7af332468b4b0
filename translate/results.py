"""The SPARQL 1.1 Query Results formats: JSON, CSV and TSV (W3C Recommendations, 2013).

:func:`document` writes the result of one evaluation: rows of a SELECT query with their variable
names, or the boolean of an ASK query. For a stream there is one result per time point;
:func:`stream_line` and :func:`stream_rows` carry the time point (JSON lines with ``time`` and
``results``; CSV and TSV with a first column ``time``).

>>> from rdflib import Literal, URIRef
>>> rows = [{"x": URIRef("http://e/a"), "n": Literal(1)}, {"x": None, "n": Literal("a", lang="en")}]
>>> print(document(rows, ("x", "n"), "select", "sparql-tsv"), end="")
?x	?n
<http://e/a>	1
	"a"@en
>>> print(document(rows, ("x", "n"), "select", "sparql-csv"), end="")
x,n\r
http://e/a,1\r
,a\r
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence

from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier

from lars.errors import InputError

FORMATS = ("sparql-json", "sparql-csv", "sparql-tsv")
XSD = "http://www.w3.org/2001/XMLSchema#"
_BARE = {XSD + "integer", XSD + "decimal", XSD + "double", XSD + "boolean"}

Row = dict[str, Identifier | None]


def term_json(term: Identifier) -> dict:
    """One RDF term in the JSON format (section 3.2.2)."""
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    found = {"type": "literal", "value": str(term)}
    if term.language is not None:
        found["xml:lang"] = term.language
    elif term.datatype is not None:
        found["datatype"] = str(term.datatype)
    return found


def json_document(rows: Sequence[Row], variables: Sequence[str], form: str) -> dict:
    """The JSON results object of a SELECT (``head.vars``, ``results.bindings``) or ASK."""
    if form == "ask":
        return {"head": {}, "boolean": bool(rows)}
    bindings = [{v: term_json(row[v]) for v in variables if row.get(v) is not None}
                for row in rows]
    return {"head": {"vars": list(variables)}, "results": {"bindings": bindings}}


def term_csv(term: Identifier | None) -> str:
    """A CSV cell: IRIs and literals by their text, blank nodes as ``_:label``, unbound empty."""
    if term is None:
        return ""
    return f"_:{term}" if isinstance(term, BNode) else str(term)


def term_tsv(term: Identifier | None) -> str:
    """A TSV cell: the N-Triples form (:func:`ntriples_term`: tabs and line breaks escaped, as
    SPARQL 1.1 TSV section 3 asks), numbers and booleans bare where they can be."""
    if term is None:
        return ""
    if isinstance(term, Literal) and str(term.datatype) in _BARE and _bare_ok(term):
        return str(term)
    return ntriples_term(term)


_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_IN_STRING = re.compile(r'[\\"\x00-\x1f\x7f\x85\u2028\u2029]')
_IN_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\\x7f\x85\u2028\u2029]')


def _uchar(match: re.Match) -> str:
    char = match.group()
    return _STRING_ESCAPES.get(char) or f"\\u{ord(char):04X}"


def ntriples_term(term: Identifier) -> str:
    """The N-Triples form of ``term`` on one line, whatever it holds: ``\\``, ``"``, tab and line
    breaks in a literal escaped (``\\t``, ``\\n``, ``\\r``), other control and line-separator
    characters as ``\\uXXXX``; characters an IRIREF may not hold as ``\\uXXXX`` too (rdflib's
    ``n3()`` writes a literal with a newline as a Turtle long string across two lines).

    >>> print(ntriples_term(Literal("a\\tb\\nc", lang="en")), ntriples_term(URIRef("http://e/a b")))
    "a\\tb\\nc"@en <http://e/a\\u0020b>
    """
    if isinstance(term, URIRef):
        return f"<{_IN_IRI.sub(_uchar, str(term))}>"
    if isinstance(term, BNode):
        return f"_:{term}"
    text = f'"{_IN_STRING.sub(_uchar, str(term))}"'
    if term.language:
        return f"{text}@{term.language}"
    return f"{text}^^{ntriples_term(term.datatype)}" if term.datatype is not None else text


def _bare_ok(term: Literal) -> bool:
    """Whether the lexical form reads back as the same literal in Turtle."""
    text, kind = str(term), str(term.datatype)[len(XSD):]
    if kind == "boolean":
        return text in ("true", "false")
    stripped = text.lstrip("+-")
    if kind == "integer":
        return stripped.isdigit()
    if kind == "decimal":
        whole, dot, fraction = stripped.partition(".")
        return dot == "." and fraction.isdigit() and (whole == "" or whole.isdigit())
    return "e" in text.lower() and text.replace(".", "", 1).lstrip("+-")[:1].isdigit()


def construct_triples(rows: Sequence[Row], template, scope: str = "") -> list[tuple]:
    """The triples of a CONSTRUCT ``template`` (:class:`~translate.rsp.TriplePattern`) for each
    row, as SPARQL 1.1 (16.2) builds them: a blank node of the template is a fresh blank node for
    each row (labelled ``scope``, the row and its label), and a triple with an unbound variable
    or a term where RDF allows none (a literal subject, a predicate that is no IRI) is left out.

    >>> from translate.rsp import TriplePattern, Var, BlankVar
    >>> template = [TriplePattern(Var("s"), URIRef("http://e/p"), BlankVar("b"))]
    >>> construct_triples([{"s": URIRef("http://e/a")}, {"s": Literal(1)}], template)
    [(rdflib.term.URIRef('http://e/a'), rdflib.term.URIRef('http://e/p'), rdflib.term.BNode('r1b'))]
    """
    triples: dict[tuple, None] = {}
    for k, row in enumerate(rows, start=1):
        for pattern in template:
            terms = tuple(_instance(t, row, f"{scope}r{k}") for t in pattern.terms())
            s, p, o = terms
            if None in terms or isinstance(s, Literal) or not isinstance(p, URIRef):
                continue
            triples[terms] = None
    return list(triples)


def _instance(term, row: Row, label: str):
    name = getattr(term, "name", None)
    if name is not None:  # a variable
        return row.get(name)
    blank = getattr(term, "label", None)
    return BNode(f"{label}{blank}") if blank is not None else term


def ntriples(triples: Sequence[tuple], time: int | None = None) -> str:
    """N-Triples lines; with ``time``, each line ends with it, as the stream files ``lars run``
    reads (``<s> <p> <o> 18``), so a CONSTRUCT query's output can feed another query."""
    end = " .\n" if time is None else f" {time}\n"
    return "".join(" ".join(map(ntriples_term, triple)) + end for triple in triples)


def document(rows: Sequence[Row], variables: Sequence[str], form: str, format: str,
             template=()) -> str:
    """One results document in ``format`` (one of :data:`FORMATS`); for CONSTRUCT, the graph in
    N-Triples whatever the format (a CONSTRUCT query's result is a graph, not a table)."""
    check_format(format)
    if form == "construct":
        return ntriples(construct_triples(rows, template))
    if format == "sparql-json":
        return json.dumps(json_document(rows, variables, form), ensure_ascii=False) + "\n"
    if form == "ask":
        return ("true" if rows else "false") + "\n"
    return _table(rows, variables, format)


def _table(rows: Sequence[Row], variables: Sequence[str], format: str,
           time: int | None = None, header: bool = True) -> str:
    out = io.StringIO()
    if format == "sparql-csv":
        writer = csv.writer(out, lineterminator="\r\n")
        prefix = [] if time is None else [str(time)]
        if header:
            writer.writerow((["time"] if time is not None else []) + list(variables))
        for row in rows:
            writer.writerow(prefix + [term_csv(row.get(v)) for v in variables])
        return out.getvalue()
    lines = []
    if header:
        heading = ["time"] if time is not None else []
        lines.append("\t".join(heading + [f"?{v}" for v in variables]))
    for row in rows:
        cells = [term_tsv(row.get(v)) for v in variables]
        lines.append("\t".join(([str(time)] if time is not None else []) + cells))
    return "".join(line + "\n" for line in lines)


def stream_line(time: int, rows: Sequence[Row], variables: Sequence[str], form: str) -> str:
    """One JSON line of a stream's results: ``{"time": t, "results": <results object>}``."""
    return json.dumps({"time": time, "results": json_document(rows, variables, form)},
                      ensure_ascii=False) + "\n"


def stream_rows(time: int, rows: Sequence[Row], variables: Sequence[str], form: str,
                format: str, first: bool) -> str:
    """The CSV or TSV lines of one time point of a stream (the header before the first)."""
    if "time" in variables:
        raise InputError("a stream's CSV/TSV results have a 'time' column, and the query has a "
                         "variable ?time", hint="use --format sparql-json, or rename ?time")
    if form == "ask":
        rows, variables = ([{"ask": Literal(bool(rows))}], ("ask",))
    return _table(rows, variables, format, time, header=first)


def check_format(format: str) -> None:
    if format not in FORMATS:
        raise InputError(f"unknown results format {format!r}", hint="use " + ", ".join(FORMATS))
