"""Hypothesis strategies for queries with expressions and aggregates over typed literals.

The data (:func:`valued_datasets`) gives subjects ``ex:a ex:b ex:c`` values through ``ex:p`` (any
term: numbers of several xsd types, strings, language-tagged strings, booleans, date-times,
IRIs), ``ex:n`` (numbers only) and a group key through ``ex:g``. A query (:func:`value_queries`)
either computes with expressions (SELECT expressions, BIND, FILTER) or aggregates per group.

Aggregates stay where rdflib follows SPARQL: SUM and AVG over ``ex:n`` (rdflib raises on a
non-number where SPARQL leaves the result unbound), no GROUP_CONCAT or SAMPLE over values (their
order, and so their value, is the evaluator's choice).
"""

from __future__ import annotations

from hypothesis import strategies as st
from rdflib import Dataset, Literal, Namespace
from rdflib.namespace import XSD

from tests.translate.sparql_gen import Case, PREFIX, STREAM

EX = Namespace("http://ex.org/")
SUBJECTS = (EX.a, EX.b, EX.c)
NUMBERS = (Literal(1), Literal(2), Literal(-3), Literal("2.5", datatype=XSD.decimal),
           Literal("0.1", datatype=XSD.decimal), Literal("1.5E0", datatype=XSD.double),
           Literal("2", datatype=XSD.double, normalize=False))
"""The values of ``ex:n``, which SUM and AVG read (no xsd:float or xsd:int: rdflib's AVG of floats
is a double and its SUM of one xsd:int an xsd:int, see ``test_prop2_values.DEVIATIONS``). Terms
are built as written (``normalize=False``), whatever rdflib's setting when this module loads."""
VALUES = NUMBERS + (Literal("2.0", datatype=XSD.float, normalize=False),
                    Literal("01", datatype=XSD.integer, normalize=False),  # another spelling of 1
                    Literal("7", datatype=XSD.int), Literal("x"), Literal("abc"),
                    Literal("x", lang="en"), Literal("X", lang="en-GB"),
                    Literal(True), Literal("2004-08-08T06:10:00", datatype=XSD.dateTime),
                    Literal("2004-08-08T07:00:00", datatype=XSD.dateTime), EX.a)
KEYS = (EX.k1, EX.k2)


@st.composite
def valued_datasets(draw) -> Dataset:
    data = Dataset()
    graph = data.default_graph
    for subject in SUBJECTS:
        for value in draw(st.lists(st.sampled_from(VALUES), max_size=3, unique=True)):
            graph.add((subject, EX.p, value))
        for value in draw(st.lists(st.sampled_from(NUMBERS), max_size=3, unique=True)):
            graph.add((subject, EX.n, value))
        if draw(st.booleans()):
            graph.add((subject, EX.g, draw(st.sampled_from(KEYS))))
    return data


CONSTANTS = ("1", "2", "2.5", "1.5e0", '"x"', '"x"@en', "ex:a", "true",
             '"2004-08-08T07:00:00"^^xsd:dateTime', '"7"^^xsd:int')
UNARY = ("STR", "LANG", "DATATYPE", "STRLEN", "UCASE", "ABS", "isNumeric", "isIRI", "isLiteral",
         "!", "-")
BINARY = ("+", "-", "*", "/", "=", "!=", "<", ">=", "&&", "||", "LANGMATCHES", "CONTAINS",
          "STRSTARTS", "sameTerm", "COALESCE")


@st.composite
def expressions(draw, names: tuple[str, ...], depth: int = 2) -> str:
    """A SPARQL expression over the variables ``names``."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([f"?{n}" for n in names] + list(CONSTANTS)))
    kind = draw(st.sampled_from(["unary", "binary", "binary", "if", "in", "bound"]))
    if kind == "bound":
        return f"BOUND(?{draw(st.sampled_from(names))})"
    a = draw(expressions(names, depth - 1))
    if kind == "unary":
        op = draw(st.sampled_from(UNARY))
        return f"{op}({a})" if op[0].isalpha() else f"{op}({a})"
    b = draw(expressions(names, depth - 1))
    if kind == "if":
        return f"IF({a}, {b}, {draw(expressions(names, depth - 1))})"
    if kind == "in":
        return f"({a} {draw(st.sampled_from(['IN', 'NOT IN']))} ({b}, 1))"
    op = draw(st.sampled_from(BINARY))
    return f"{op}({a}, {b})" if op[0].isalpha() else f"({a} {op} {b})"


AGGREGATES = ("COUNT(*)", "COUNT(?v)", "COUNT(DISTINCT ?v)", "SUM(?m)", "AVG(?m)",
              "SUM(DISTINCT ?m)", "MIN(?m)", "MAX(?m)", "COUNT(DISTINCT ?m)")


@st.composite
def value_queries(draw) -> Case:
    """An expression query or an aggregate query, in SPARQL and C-SPARQL."""
    prefix = PREFIX + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
    if draw(st.booleans()):
        pattern = "?s ex:p ?v OPTIONAL { ?s ex:n ?m }"
        names = ("s", "v", "m")
        result = draw(expressions(names))
        bound = draw(expressions(names))
        condition = draw(expressions(names + ("b",)))
        head = f"?s ?v (({result}) AS ?r) ?b"
        body = f"{pattern} BIND (({bound}) AS ?b) FILTER ({condition})"
        tail = ""
    else:
        grouped = draw(st.booleans())
        chosen = draw(st.lists(st.sampled_from(AGGREGATES), min_size=1, max_size=3, unique=True))
        results = " ".join(f"({a} AS ?r{k})" for k, a in enumerate(chosen))
        head = f"?k {results}" if grouped else results
        body = "?s ex:p ?v ; ex:n ?m" + (" ; ex:g ?k" if grouped else "")
        tail = " GROUP BY ?k" if grouped else ""
        if draw(st.booleans()):
            tail += f" HAVING ({draw(st.sampled_from(AGGREGATES))} > 1)"
    sparql = f"{prefix}SELECT {head} WHERE {{ {body} }}{tail}"
    csparql = f"{prefix}SELECT {head} FROM STREAM <{STREAM}> [RANGE 3s] WHERE {{ {body} }}{tail}"
    return Case(sparql, csparql, None, sparql)
