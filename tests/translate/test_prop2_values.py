"""Proposition 2 for expressions and aggregates over typed literals (issue 15).

τ's answers equal rdflib's on random queries with SELECT expressions, BIND, FILTER and GROUP BY
with aggregates (:mod:`tests.translate.sparql_gen_values`), over random data with numbers of
several xsd types, strings, language tags, booleans, date-times and IRIs; for τ(Q) and for
τ1(cs(Q)) with the default graph as static data and on the stream. Where rdflib departs from
SPARQL 1.1, the case is a row of :data:`DEVIATIONS`: τ's answer is checked against SPARQL's, and
rdflib's departure is an expected failure that names it.
"""

from __future__ import annotations

import os
from decimal import Decimal

from types import MethodType
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from rdflib import Dataset, Literal, Namespace
from rdflib.plugins.sparql import evaluate
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.evalutils import _eval
from rdflib.namespace import XSD
from rdflib.plugins.sparql.operators import EBV, MultiplicativeExpression, RelationalExpression
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.plugins.sparql.sparql import SPARQLError

from tests.translate.solving import answer_rows, row_set
from tests.translate.sparql_gen import Case
from tests.translate.sparql_gen_values import valued_datasets, value_queries
from tests.translate.test_prop2 import (
    _eager, _left_join, check, dawg_collation, default_triples_on_stream, expression_nodes,
    named_atoms, rdflib_rows,
)
from translate import background_atoms, parse_query, translate
from translate.sparqlfunctions import _order_kind

EX = Namespace("http://ex.org/")
PREFIX = ("PREFIX ex: <http://ex.org/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n")


def _spec_relational(expression, ctx):
    """rdflib's comparisons as SPARQL 1.1 has them: ``=`` is RDFterm-equal for terms no operator
    compares by value, so two different such literals are an error (rdflib: not equal); ``<``
    and the other orderings are errors across kinds (rdflib: sometimes an answer); ``IN`` tests
    with ``=`` (rdflib: with term identity)."""
    op = expression.op
    if op in ("IN", "NOT IN"):
        value = _value(_raw(expression, "expr"), ctx)
        tests = []
        for option in _raw(expression, "other"):
            try:
                tests.append(_spec_equal("=", value, _value(option, ctx)).toPython())
            except SPARQLError:
                tests.append(None)
        if True in tests:
            return Literal(op == "IN")
        if None in tests:
            raise SPARQLError("IN: an error and no match")
        return Literal(op == "NOT IN")
    a, b = _value(expression.expr, ctx), _value(expression.other, ctx)
    if op in ("=", "!="):
        return _spec_equal(op, a, b)
    if _order_kind(a) is None or _order_kind(a) != _order_kind(b):
        raise SPARQLError("SPARQL orders only numbers, strings, booleans and date-times")
    return RelationalExpression(CompValue("RelationalExpression", expr=a, op=op, other=b), None)


def _raw(node: CompValue, key: str):
    """A part of an expression node as written: ``node.other`` would look its variables up and
    raise on an unbound one, so that ``1 IN (?unbound, 1)`` were an error (SPARQL: true)."""
    return dict.get(node, key)


def _spec_equal(op, a, b) -> Literal:
    """``=`` and ``!=`` as SPARQL 1.1 §17.3.1 lets an implementation that knows the datatypes
    have them: two different literals whose value spaces it knows and that do not meet (a
    number and a string; a language-tagged literal and any other literal) are unequal, two of
    which it does not know both values are an error (RDFterm-equal)."""
    if isinstance(a, Literal) and isinstance(b, Literal) and a != b and (
            _order_kind(a) is None or _order_kind(a) != _order_kind(b)):
        if a.language is not None or b.language is not None or \
                None not in (_order_kind(a), _order_kind(b)):
            return Literal(op == "!=")
        raise SPARQLError("RDFterm-equal of two different literals")
    return RelationalExpression(CompValue("RelationalExpression", expr=a, op=op, other=b), None)


def _value(expr, ctx):
    try:
        value = _eval(expr, ctx)
    except Exception as error:  # noqa: BLE001 - rdflib's errors, as SPARQL errors
        raise SPARQLError(str(error)) from None
    if isinstance(value, Exception):
        raise SPARQLError(str(value))
    return value


def _spec_logic(expression, ctx):
    """SPARQL 1.1's ``&&`` and ``||`` (§17.2): a false (for ``||`` a true) operand decides even
    after an error; rdflib raises at the first error it meets."""
    others = _raw(expression, "other") or []
    if not others:
        return _value(_raw(expression, "expr"), ctx)
    deciding = expression.name == "ConditionalOrExpression"
    failed = None
    for operand in [_raw(expression, "expr"), *others]:
        try:
            if EBV(_value(operand, ctx)) == deciding:
                return Literal(deciding)
        except SPARQLError as error:
            failed = error
    if failed is not None:
        raise failed
    return Literal(not deciding)


def _spec_product(expression, ctx):
    """rdflib's ``*`` and ``/`` with XPath's result types: integer × integer is an integer and
    anything with a double (float) is a double (float); rdflib makes both decimals."""
    result = _value(expression.expr, ctx)
    for op, other in zip(expression.op, expression.other):
        other = _value(other, ctx)
        types = {getattr(result, "datatype", None), getattr(other, "datatype", None)}
        value = MultiplicativeExpression(CompValue("MultiplicativeExpression", expr=result,
                                                   op=[op], other=[other]), None)
        if op == "*" and types <= INTEGERS:
            value = Literal(int(value.toPython()))
        elif types & {XSD.double, XSD.float}:
            floating = XSD.double if XSD.double in types else XSD.float
            value = Literal(float(value.toPython()), datatype=floating)
        result = value
    return result


INTEGERS = {XSD.integer, XSD.int}


_NON_STRICT = {"Builtin_BOUND", "Builtin_IF", "Builtin_COALESCE", "Builtin_EXISTS",
               "Builtin_NOTEXISTS"}


def _strict(evaluate):
    """A built-in that is an error when an argument is (rdflib passes errors on as values, so
    that ``isNumeric(1 + ex:a)`` is false)."""
    def strict(node, ctx):
        for key, part in node.items():
            if not key.startswith("_"):
                for item in part if isinstance(part, list) else [part]:
                    _value(item, ctx)
        return evaluate(ctx)
    return strict


def _with_spec_relational(node) -> None:
    for found in expression_nodes(node):
        if found.name.startswith("Builtin_") and found.name not in _NON_STRICT:
            found._evalfn = MethodType(_strict(found._evalfn), found)
        if found.name == "RelationalExpression":
            found._evalfn = MethodType(_spec_relational, found)
        if found.name == "MultiplicativeExpression":
            found._evalfn = MethodType(_spec_product, found)
        if found.name in ("ConditionalAndExpression", "ConditionalOrExpression"):
            found._evalfn = MethodType(_spec_logic, found)


def sparql_rows(case: Case, data: Dataset) -> frozenset:
    """rdflib's answers, with its departures from SPARQL 1.1 that the generator can meet undone
    (each one a row of :data:`DEVIATIONS`)."""
    query = translateQuery(parseQuery(case.oracle))
    _eager(query.algebra)
    _with_spec_relational(query.algebra)
    with dawg_collation(), mock.patch.object(evaluate, "evalLeftJoin", _left_join):
        bindings = list(evaluate.evalQuery(data, query)["bindings"])
    rows = row_set({str(k): v for k, v in b.items()} for b in bindings)
    if "GROUP BY" in case.sparql and rows == {frozenset()}:
        return frozenset()  # empty-group-by
    return rows


def rounded(rows: frozenset) -> frozenset:
    """Rows with doubles and floats to 12 significant digits: SPARQL leaves the order of SUM and
    AVG open, and IEEE addition depends on it (45.3 or 45.300000000000004). Computed decimals are
    compared by exact value, not spelling: ours are canonical ("1.0", XML Schema's canonical
    form), rdflib spells 1/1 as "1"."""
    def term(value):
        if isinstance(value, Literal) and value.datatype in (XSD.double, XSD.float) \
                and isinstance(value.value, float):
            return Literal(float(f"{value.value:.12g}"), datatype=value.datatype)
        if isinstance(value, Literal) and value.datatype == XSD.decimal \
                and isinstance(value.value, Decimal):
            return Literal(format(value.value.normalize(), "f"), datatype=XSD.decimal)
        return value
    return frozenset(frozenset((k, term(v)) for k, v in row) for row in rows)


def run_case(case: Case, data: Dataset) -> None:
    expected = rounded(sparql_rows(case, data))
    plain = translate(parse_query(case.sparql), "sparql")
    check(plain)
    encoder = plain.encoder()
    assert rounded(row_set(answer_rows(plain, encoder, background_atoms(data, encoder)))) \
        == expected
    csparql = translate(parse_query(case.csparql), "csparql")
    encoder = csparql.encoder()
    assert rounded(row_set(answer_rows(csparql, encoder, background_atoms(data, encoder), t=2))) \
        == expected, "τ1, empty stream"
    streamed = default_triples_on_stream(data, encoder)
    assert rounded(row_set(answer_rows(csparql, encoder, named_atoms(data, encoder), streamed,
                                       t=2))) == expected, "τ1, default graph on the stream"


def _case(head: str, body: str, tail: str = "") -> Case:
    text = f"{PREFIX}SELECT {head} WHERE {{ {body} }}{tail}"
    return Case(text, f"{PREFIX}SELECT {head} FROM STREAM <http://ex.org/s1> [RANGE 3s] "
                      f"WHERE {{ {body} }}{tail}", None, text)


def _data(turtle: str) -> Dataset:
    data = Dataset()
    data.parse(data=f"@prefix ex: <http://ex.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . "
                    f"{turtle}", format="trig")
    return data


# Derandomized: a fresh draw can meet an rdflib departure not yet undone in the oracle (one found
# on a clean clone, IN with an unbound member, is undone now: :func:`_raw`); such a draw must
# become a named deviation, not a failure that comes and goes. LARS_PROP2_RANDOM=1 draws afresh.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=not os.environ.get("LARS_PROP2_RANDOM"), database=None)
@given(case=value_queries(), data=valued_datasets())
@example(case=_case("(AVG(?m) AS ?a)", "?s ex:n ?m"),  # xsd:double / xsd:integer is a double
         data=_data('ex:a ex:n "1.5E0"^^xsd:double . ex:b ex:n 2 .'))
@example(case=_case("?s ?v ?b", "?s ex:p ?v BIND ((?v / ?v) AS ?b)"),  # 1/1: "1.0" or "1"
         data=_data("ex:c ex:p 1 ."))
@example(case=_case("?s ?b", "?s ex:p ?v BIND ((?s && sameTerm(?s, ?v)) AS ?b)"),  # error && false
         data=_data("ex:c ex:p 1 ."))
@example(case=_case("?s ?v", "?s ex:p ?v . ?t ex:p ?w FILTER (?v = ?w && !sameTerm(?v, ?w))"),
         data=_data('ex:a ex:p 1 . ex:b ex:p "01"^^xsd:integer .'))  # equal values, two terms
@example(case=_case("?s ?b", "?s ex:p ?v BIND ((?v IN (?u, ?v)) AS ?b)"),  # error || true
         data=_data("ex:c ex:p 1 ."))
@example(case=_case("?s", "?s ex:p ?v FILTER (!(?u && false))"), data=_data("ex:c ex:p 1 ."))
def test_tau_agrees_with_sparql_on_values(case: Case, data: Dataset) -> None:
    run_case(case, data)


# --- where rdflib departs from SPARQL 1.1 ---------------------------------------------------------

def _row(**values) -> frozenset:
    return frozenset(values.items())


DEVIATIONS = [  # (head, body, tail, data, SPARQL 1.1's rows, what rdflib does, id)
    ("?k (COUNT(*) AS ?n)", "?s ex:g ?k", " GROUP BY ?k", "ex:a ex:p 1 .", set(),
     "rdflib makes one group of no solution also with GROUP BY", "empty-group-by"),
    ("(2 * 3 AS ?r)", "", "", "", {_row(r=Literal(6))},
     "rdflib multiplies integers into an xsd:decimal", "integer-product"),
    ('("b" IN ("2"^^ex:t) AS ?r)', "", "", "", {frozenset()},
     ("rdflib's IN answers false where RDFterm-equal has an error (a literal of an unknown "
      "datatype)"), "string-in-unknown"),
    ('(1 < "x" AS ?r)', "", "", "", {frozenset()},
     "rdflib's Literal.__lt__ answers false where SPARQL has an error", "number-lt-string"),
    ("(1 IN (1.0) AS ?r)", "", "", "", {_row(r=Literal(True))},
     "rdflib's IN tests term identity, not =", "in-by-value"),
    ("?s ?b", "?s ex:p ?v BIND ((1 IN (1, ?u)) AS ?b)", "", "ex:c ex:p 1 .",
     {_row(s=EX.c, b=Literal(True))},
     "rdflib's IN evaluates every member first: an unbound one is an error, also after a match",
     "in-with-an-unbound-member"),
    ("?s ?b", "?s ex:p ?v BIND ((?u || true) AS ?b)", "", "ex:c ex:p 1 .",
     {_row(s=EX.c, b=Literal(True))},
     "rdflib's || is an error when an operand is an unbound variable (SPARQL: true decides)",
     "or-with-an-unbound-operand"),
    ("(2.0e0 / 2 AS ?r)", "", "", "", {_row(r=Literal("1.0E0", datatype=XSD.double))},
     "rdflib divides a double by an integer into an xsd:decimal", "double-quotient"),
    ("(AVG(?v) AS ?a)", "?x ex:p ?v", "", 'ex:a ex:p "2.0"^^xsd:float .',
     {_row(a=Literal("2.0E0", datatype=XSD.float))},
     "rdflib's AVG of xsd:float values is an xsd:double", "avg-of-floats"),
    ("(isNumeric(1 + ex:a) AS ?r)", "", "", "", {frozenset()},
     "rdflib's functions take an error argument as a value (isNumeric: false)",
     "function-of-an-error"),
    ("(SUM(?v) AS ?s)", "?x ex:p ?v", "", 'ex:a ex:p "7"^^xsd:int .', {_row(s=Literal(7))},
     "rdflib's SUM keeps the first value's datatype (SPARQL: 0 + 7 is an xsd:integer)",
     "sum-of-one-int"),
    ("(SUM(?v) AS ?s)", "?x ex:p ?v", "", 'ex:a ex:p 1 . ex:b ex:p "z" .', {frozenset()},
     "rdflib raises on a non-number in SUM (SPARQL: an error, the result is unbound)",
     "sum-of-a-string"),
]


@pytest.mark.parametrize(("head", "body", "tail", "turtle", "rows"),
                         [pytest.param(*d[:5], id=d[6]) for d in DEVIATIONS])
def test_tau_gives_sparql_answers_where_rdflib_differs(head, body, tail, turtle, rows) -> None:
    case = _case(head, body, tail)
    translation = translate(parse_query(case.sparql), "sparql")
    encoder = translation.encoder()
    data = _data(turtle)
    assert row_set(answer_rows(translation, encoder, background_atoms(data, encoder))) == rows


@pytest.mark.parametrize(("head", "body", "tail", "turtle", "rows"), [
    pytest.param(*d[:5], id=d[6], marks=pytest.mark.xfail(strict=True, reason=d[5]))
    for d in DEVIATIONS])
def test_rdflib_departs_from_sparql(head, body, tail, turtle, rows) -> None:
    assert rdflib_rows(_case(head, body, tail).sparql, _data(turtle)) == rows
