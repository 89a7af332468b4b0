"""Exact RDF terms (issue 15): lexical forms kept, values compared, XML Schema's orders and forms.

Each group checks one definition against an independent reading: Python's ``datetime`` for the
order of time-zoned date-times, ``float``/``Decimal`` parsing for canonical forms, and the W3C
SPARQL tests' own data and expected answers (cited by test name) for the rest.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta, timezone
from decimal import Context, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Literal, URIRef
from rdflib.namespace import XSD

from tests.translate.solving import answer_rows, row_set
from translate import background_atoms, parse_query, translate
from translate import sparqlfunctions as f
from translate.rdf import ERROR, FALSE, TRUE, from_constant, to_constant
from translate.xsdvalues import (
    canonical,
    compare_temporal,
    temporal,
    to_float32,
    xpath_string,
)

PREFIX = "PREFIX : <http://ex.org/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"


def typed(text: str, name: str) -> Literal:
    return Literal(text, datatype=XSD[name])


def rows(query: str, turtle: str) -> set:
    data = Dataset()
    data.parse(data=f"@prefix : <http://ex.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> ."
                    f" {turtle}", format="trig")
    translation = translate(parse_query(PREFIX + query), "sparql")
    encoder = translation.encoder()
    found = row_set(answer_rows(translation, encoder, background_atoms(data, encoder)))
    return {tuple(sorted((k, v.n3()) for k, v in row)) for row in found}


# --- lexical forms are kept; identity is by term, = by value -----------------------------------

SPELLINGS = ':a :p "01"^^xsd:integer . :b :p 1 . :c :p "1.0"^^xsd:decimal . :d :p "1E0"^^xsd:double .'


def test_answers_show_terms_as_the_data_writes_them() -> None:
    found = {dict(row)["v"] for row in rows("SELECT ?v WHERE { ?s :p ?v }", SPELLINGS)}
    assert found == {f'"01"^^<{XSD}integer>', f'"1"^^<{XSD}integer>',
                     f'"1.0"^^<{XSD}decimal>', f'"1E0"^^<{XSD}double>'}


def test_distinct_and_joins_use_term_identity_and_filters_use_values() -> None:
    """SPARQL 1.1 §18.4 (DISTINCT, compatible mappings: the same RDF term) against §17.3 (=):
    four spellings of one are four terms, each equal to 1 by value."""
    assert len(rows("SELECT DISTINCT ?v WHERE { ?s :p ?v }", SPELLINGS)) == 4
    assert len(rows("SELECT ?s WHERE { ?s :p ?v FILTER (?v = 1) }", SPELLINGS)) == 4
    assert rows("SELECT ?s WHERE { ?s :p ?v . :b :p ?v }", SPELLINGS) == {(("s", "<http://ex.org/b>"),)}
    assert len(rows("SELECT ?v (COUNT(*) AS ?n) WHERE { ?s :p ?v } GROUP BY ?v", SPELLINGS)) == 4


def test_a_query_constant_matches_only_its_own_spelling() -> None:
    assert rows('SELECT ?s WHERE { ?s :p "01"^^xsd:integer }', SPELLINGS) == \
        {(("s", "<http://ex.org/a>"),)}


def test_language_tags_match_in_any_case() -> None:
    """dawg-lang-3: the pattern ``"string"@EN`` matches the data's ``"string"@en``."""
    assert rows('SELECT ?s WHERE { ?s :p "string"@EN }', ':x :p "string"@en .') == \
        {(("s", "<http://ex.org/x>"),)}


@given(st.sampled_from(["0", "-0", "+1", "01", "1", "-12", "2147483648", "1.0", " 1"]))
def test_integer_constants_round_trip_exactly(text: str) -> None:
    term = typed(text, "integer")
    assert str(from_constant(to_constant(term))) == text


# --- = and != (SPARQL 1.1 §17.3.1, §17.4.1.7) ------------------------------------------------

@pytest.mark.parametrize(("a", "b", "equal"), [
    (Literal("xyz"), Literal("xyz", lang="en"), FALSE),                     # open-eq-08
    (Literal("xyz", lang="en"), typed("xyz", "integer"), FALSE),            # open-eq-08
    (Literal("xyz", lang="en"), Literal("xyz", datatype=URIRef("http://ex.org/t")), FALSE),
    (Literal("xyz"), typed("xyz", "integer"), ERROR),                       # ill-typed
    (Literal("xyz"), Literal("xyz", datatype=URIRef("http://ex.org/t")), ERROR),
    (Literal("b"), Literal(2), FALSE),                                      # known, disjoint
    (typed("2006-08-23T09:00:00+01:00", "dateTime"), typed("2006-08-23", "date"), FALSE),
    (typed("2006-08-23", "date"), typed("2006-08-23Z", "date"), ERROR),     # date-1
    (typed("2001-01-01Z", "date"), typed("2006-08-23", "date"), FALSE),     # date-2
    (typed("1999-12-31T24:00:00", "dateTime"), typed("2000-01-01T00:00:00", "dateTime"), TRUE),
    (typed("2008-04-01T00:00:00.00Z", "dateTime"), typed("2008-04-01T00:00:00Z", "dateTime"),
     TRUE),
    (typed("2002-04-02T23:00:00", "dateTime"), typed("2002-04-02T23:00:00+06:00", "dateTime"),
     ERROR),                                                                # eq-dateTime d4
    (Literal("xyz", lang="en"), Literal("xyz", lang="EN"), TRUE),
    (typed("01", "integer"), Literal(1), TRUE),
])
def test_equality(a, b, equal) -> None:
    assert f.sparql_eq(to_constant(a), to_constant(b)) == equal
    assert f.sparql_ne(to_constant(a), to_constant(b)) == {TRUE: FALSE, FALSE: TRUE}.get(equal,
                                                                                        ERROR)


# --- XML Schema's order on date-times -----------------------------------------------------------

def _lexical(moment: datetime, zone: timezone) -> str:
    local = moment.astimezone(zone)
    offset = zone.utcoffset(None)
    minutes = int(offset.total_seconds() // 60)
    suffix = "Z" if minutes == 0 else f"{'+' if minutes > 0 else '-'}{abs(minutes) // 60:02}:{abs(minutes) % 60:02}"
    return f"{local.year:04}-" + local.strftime("%m-%dT%H:%M:%S") + suffix


MOMENTS = st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 1, 1)).map(
    lambda d: d.replace(microsecond=0, tzinfo=UTC))
ZONES = st.integers(-14 * 4, 14 * 4).map(lambda q: timezone(timedelta(minutes=15 * q)))


@settings(max_examples=200, deadline=None)
@given(MOMENTS, ZONES, MOMENTS, ZONES)
def test_zoned_date_times_compare_as_pythons_instants(a, zone_a, b, zone_b) -> None:
    left = temporal(typed(_lexical(a, zone_a), "dateTime"))
    right = temporal(typed(_lexical(b, zone_b), "dateTime"))
    assert compare_temporal(left, right) == (a > b) - (a < b)


@pytest.mark.parametrize(("p1", "p2", "order"), [  # data-dateTime.ttl of expr-ops, *-2 tests
    ("2008-10-01T00:00:00Z", "2008-10-03T00:00:00", -1),
    ("2008-10-03T00:00:00Z", "2008-10-01T00:00:00", 1),
    ("2008-10-01T00:00:00", "2008-10-03T00:00:00Z", -1),
    ("2008-10-03T00:00:00", "2008-10-01T00:00:00Z", 1),
    ("2008-10-01T00:00:00", "2008-10-01T14:00:00Z", None),   # 14 hours: indeterminate
    ("2008-10-01T00:00:00", "2008-10-01T14:00:01Z", -1),
])
def test_zoned_and_unzoned_compare_only_far_apart(p1, p2, order) -> None:
    assert compare_temporal(temporal(typed(p1, "dateTime")), temporal(typed(p2, "dateTime"))) \
        == order


@pytest.mark.parametrize("text", ["2008-02-30T00:00:00", "2008-10-01T24:00:01", "2008-10-01",
                                  "2008-10-01T00:00:00+15:00", "08-10-01T00:00:00"])
def test_invalid_date_times_have_no_value(text) -> None:
    assert temporal(typed(text, "dateTime")) is None


# --- canonical forms of computed numbers --------------------------------------------------------

@settings(max_examples=300)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_canonical_doubles_read_back_exactly(value: float) -> None:
    text = str(canonical(value, XSD.double))
    assert re.fullmatch(r"-?[0-9]\.[0-9]+E-?[0-9]+", text)
    assert float(text) == value and (text[0] == "-") == (math.copysign(1, value) < 0)
    assert text.lstrip("-") == "0.0E0" or text.lstrip("-")[0] != "0"


@settings(max_examples=300)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_canonical_floats_are_shortest_in_single_precision(value: float) -> None:
    text = str(canonical(value, XSD.float))
    assert to_float32(float(text)) == value
    assert str(canonical(float(text), XSD.float)) == text


@settings(max_examples=300)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=6),
       st.decimals(allow_nan=False, allow_infinity=False, places=3))
def test_canonical_decimals_read_back_exactly(value: Decimal, other: Decimal) -> None:
    text = str(canonical(value, XSD.decimal))
    assert re.fullmatch(r"-?(0|[1-9][0-9]*)\.([0-9]*[1-9]|0)", text)
    assert Decimal(text) == value
    total = f.sparql_add(to_constant(typed(text, "decimal")),
                         to_constant(typed(str(canonical(other, XSD.decimal)), "decimal")))
    assert Decimal(str(from_constant(total))) == Context(prec=100).add(value, other)  # exact


@pytest.mark.parametrize(("function", "args", "result"), [
    (f.sparql_add, (typed("3", "float"), typed("3", "float")), typed("6.0E0", "float")),
    (f.sparql_add, (typed("3", "decimal"), Literal(3)), typed("6.0", "decimal")),
    (f.sparql_div, (Literal(1), Literal(3)), typed("0.3333333333333333333333333333", "decimal")),
    (f.sparql_plus, (typed("3", "double"),), typed("3", "double")),  # the operand as written
    (f.sparql_neg, (typed("3", "float"),), typed("-3", "float")),  # query-unminus-2
    (f.sparql_neg, (typed("+7", "int"),), typed("-7", "integer")),
    (f.sparql_neg, (typed("-0.5", "decimal"),), typed("0.5", "decimal")),
    (f.sparql_neg, (typed("-INF", "double"),), typed("INF", "double")),
])
def test_arithmetic_keeps_the_promoted_type(function, args, result) -> None:
    assert from_constant(function(*map(to_constant, args))) == result


# --- casts ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "text"), [  # cast-string of the SPARQL 1.1 tests
    (Literal(True), "true"), (typed("0", "boolean"), "false"), (typed("-1", "integer"), "-1"),
    (typed("0.0", "decimal"), "0"), (typed("-1.0", "decimal"), "-1"), (typed("2.5", "decimal"), "2.5"),
    (typed("0E1", "double"), "0"), (typed("1E0", "double"), "1"), (typed("1.25", "float"), "1.25"),
    (typed("-7.875", "float"), "-7.875"), (typed("1.0E7", "double"), "1.0E7"),
    (typed("1.0E-7", "double"), "1.0E-7"), (typed("1.0E-6", "double"), "0.000001"),
])
def test_numbers_cast_to_strings_by_value(source, text) -> None:
    assert xpath_string(source) == text
    assert from_constant(f.sparql_cast(to_constant(XSD.string), to_constant(source))) == \
        Literal(text)


@pytest.mark.parametrize(("target", "source", "result"), [
    ("integer", Literal("01"), typed("1", "integer")),
    ("decimal", Literal("+33.3300"), typed("33.33", "decimal")),
    ("double", Literal("-10.2E3"), typed("-1.02E4", "double")),
    ("float", Literal(True), typed("1.0E0", "float")),
    ("decimal", typed("1E0", "double"), typed("1.0", "decimal")),
])
def test_casts_to_numbers_give_canonical_forms(target, source, result) -> None:
    assert from_constant(f.sparql_cast(to_constant(XSD[target]), to_constant(source))) == result


def test_order_by_puts_date_times_in_time_order() -> None:
    from translate.modifiers import modify
    from translate.rsp import OrderKey, Var
    times = ["2008-10-03T00:00:00Z", "2008-10-01T05:00:00+06:00", "2008-10-01T00:00:00Z"]
    ordered = modify([{"t": typed(t, "dateTime")} for t in times], (OrderKey(Var("t"), False),))
    assert [str(row["t"]) for row in ordered] == [times[1], times[2], times[0]]
