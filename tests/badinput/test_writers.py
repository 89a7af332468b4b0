"""Every writer conforms to its format's spec, checked by reading its output back with an
independent parser (issue 28): SPARQL 1.1 TSV and CSV, ``lars run``'s CSV, and CONSTRUCT's
N-Triples, on generated terms holding tabs, line breaks, quotes and backslashes.

Before: ``--format sparql-tsv`` wrote tabs and newlines inside terms as they were (a row split
into two lines, another got four fields), a CONSTRUCT's output wrote a literal with a newline
as a Turtle long string across two lines, and a field holding a lone ``\\r`` went out bare in
CSV. The readers here are Python's ``csv`` module and Oxigraph's Turtle and N-Triples parsers.
"""

from __future__ import annotations

import csv
import io

import pyoxigraph as ox
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import BNode, Literal, URIRef

from solver.sinks import CsvRows
from translate.results import document, ntriples, term_csv

pytestmark = pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")  # ill-typed on purpose
XSD = "http://www.w3.org/2001/XMLSchema#"
HARD = st.sampled_from(["\t", "\n", "\r", "\r\n", '"', "\\", ",", " ", "'", "\x00", "\x0b", "\x85",
                        "\u2028", "é", "\U0001f600", '"""', "#"])
TEXT = st.lists(st.one_of(HARD, st.text(st.characters(blacklist_categories=("Cs",)), max_size=4)),
                max_size=5).map("".join)
IRIS = st.text(st.sampled_from("abcXYZ019-._~:/@!$&'()*+,;=é"), max_size=8).map(lambda s: URIRef("http://e/" + s))
LANGS = st.sampled_from(["en", "en-us", "de-ch-1996", "fr", "zh-hant"])
LITERALS = st.one_of(
    TEXT.map(Literal),
    st.builds(lambda text, lang: Literal(text, lang=lang), TEXT, LANGS),
    st.builds(lambda text, dt: Literal(text, datatype=dt), TEXT, IRIS),
    st.integers(-10**20, 10**20).map(lambda n: Literal(str(n), datatype=URIRef(XSD + "integer"))),
    st.sampled_from(["1.0", "-.5", "01", "1e3", "true", "false", "x"]).flatmap(
        lambda text: st.sampled_from([Literal(text, datatype=URIRef(XSD + kind))
                                      for kind in ("decimal", "double", "boolean", "integer")])),
)
BNODES = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,5}", fullmatch=True).map(BNode)
TERMS = st.one_of(IRIS, BNODES, LITERALS)
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)


def key(term) -> tuple:
    """A term of rdflib or Oxigraph as one comparable value (RDF 1.1: a plain literal is an
    xsd:string, a literal with a language tag an rdf:langString)."""
    if isinstance(term, (URIRef, ox.NamedNode)):
        return ("iri", str(term.value if isinstance(term, ox.NamedNode) else term))
    if isinstance(term, (BNode, ox.BlankNode)):
        return ("bnode",)  # labels may be renamed by a reader; what matters is the kind
    if isinstance(term, ox.Literal):
        return ("literal", term.value, term.language, None if term.language else term.datatype.value)
    datatype = None if term.language else str(term.datatype or XSD + "string")
    return ("literal", str(term), term.language, datatype)


def turtle_object(cell: str):
    """A TSV cell read as the object of a Turtle triple (bare numbers and booleans included)."""
    [quad] = ox.parse(f"<http://s> <http://p> {cell} .".encode(), format=ox.RdfFormat.TURTLE)
    return quad.object


def rows_of(variables: int):
    return st.lists(st.lists(st.one_of(st.none(), TERMS), min_size=variables, max_size=variables), max_size=4)


@SETTINGS
@given(st.integers(1, 3).flatmap(rows_of))
@example([[Literal("a\tb")], [Literal("c\nd")]])
def test_sparql_tsv_reads_back_cell_by_cell(rows):
    variables = [f"v{i}" for i in range(len(rows[0]))] if rows else ["v0"]
    text = document([dict(zip(variables, row)) for row in rows], variables, "select", "sparql-tsv")
    lines = text.split("\n")
    assert lines[-1] == "" and len(lines) == len(rows) + 2  # the header, one line per row, the end
    for line, row in zip(lines[1:], rows):
        cells = line.split("\t")
        assert len(cells) == len(variables), line
        for cell, term in zip(cells, row):
            if term is None:
                assert cell == ""
            elif isinstance(term, Literal) and term.datatype is not None and str(term.datatype).startswith(XSD) \
                    and not str(term.datatype).endswith("string") and cell == str(term):
                assert key(turtle_object(cell))[1] == str(term)  # bare: the lexical form stays
            else:
                assert key(turtle_object(cell)) == key(term), cell


@SETTINGS
@given(st.integers(1, 3).flatmap(rows_of))
@example([[Literal("a\rb"), Literal('q"x,y')]])
def test_sparql_csv_reads_back_with_the_csv_module(rows):
    variables = [f"v{i}" for i in range(len(rows[0]))] if rows else ["v0"]
    text = document([dict(zip(variables, row)) for row in rows], variables, "select", "sparql-csv")
    read = list(csv.reader(io.StringIO(text, newline="")))
    assert read[0] == variables
    assert read[1:] == [[term_csv(term) for term in row] for row in rows]


@SETTINGS
@given(st.lists(st.lists(TEXT, min_size=1, max_size=3), max_size=4))
@example([["a\rb", "c"]])
def test_csv_rows_read_back_with_the_csv_module(rows):
    out = io.StringIO()
    CsvRows(out).writerows(rows)
    assert list(csv.reader(io.StringIO(out.getvalue(), newline=""))) == rows
    assert out.getvalue().count("\n") - sum(field.count("\n") for row in rows for field in row) == len(rows)


@SETTINGS
@given(st.lists(st.tuples(st.one_of(IRIS, BNODES), IRIS, TERMS), max_size=5))
@example([(URIRef("http://e/a"), URIRef("http://e/p"), Literal("line\nbreak"))])
def test_construct_ntriples_is_one_triple_per_line_and_reads_back(triples):
    text = ntriples(triples)
    assert text.count("\n") == len(triples)
    for line, triple in zip(text.splitlines(), triples):  # each line a triple of its own
        [quad] = ox.parse(line.encode(), format=ox.RdfFormat.N_TRIPLES)
        assert (key(quad.subject), key(quad.predicate), key(quad.object)) == tuple(map(key, triple))
