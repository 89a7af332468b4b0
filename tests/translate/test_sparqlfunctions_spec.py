"""SPARQL's functions on constants, against the examples and rules of SPARQL 1.1 §17 and XPath
Functions 3.1 (``fn:matches``, ``fn:replace``, the casts of §19 and the numeric operators).

Expected values are written from the specifications, not computed by the module's rdflib
calls: a regular-expression flag, a cast from a boolean, IEEE division by zero, the canonical
form of a decimal. Found by the mutation run (scripts/mutation.py): the FILTER functions had
examples for comparisons and arithmetic only, none for REGEX, REPLACE, the casts, the
built-ins of one or two arguments or NaN.
"""

from __future__ import annotations

import math

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from lars.externals import lookup
from translate import sparqlfunctions as f
from translate.rdf import ERROR, FALSE, TRUE, from_constant, to_constant

EX = "http://ex.org/"


def typed(text: str, name: str) -> Literal:
    return Literal(text, datatype=XSD[name])


def call(function, *args):
    """``function`` on the constants of ``args`` (``None``: an argument left out), decoded."""
    found = function(*(to_constant(a) for a in args))
    return found if found in (ERROR, TRUE, FALSE) else from_constant(found)


def same_value(found, expected) -> bool:
    """Equal datatypes and values (``NaN`` equal to itself), whatever the lexical form."""
    if expected in (ERROR, TRUE, FALSE) or found in (ERROR, TRUE, FALSE):
        return found == expected
    if found.datatype != expected.datatype or found.language != expected.language:
        return False
    a, b = found.toPython(), expected.toPython()
    return (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize(("args", "result"), [
    pytest.param((Literal("Alice"), Literal("^ali")), FALSE, id="no-flags-case-sensitive"),
    pytest.param((Literal("Alice"), Literal("^ali"), Literal("i")), TRUE, id="i"),
    pytest.param((Literal("Alice", lang="en"), Literal("^Ali")), TRUE, id="language-tagged-text"),
    pytest.param((Literal("a\nb"), Literal("a.b")), FALSE, id="dot-not-newline"),
    pytest.param((Literal("a\nb"), Literal("a.b"), Literal("s")), TRUE, id="s"),
    pytest.param((Literal("a\nb"), Literal("^b$")), FALSE, id="anchors-whole-text"),
    pytest.param((Literal("a\nb"), Literal("^b$"), Literal("m")), TRUE, id="m"),
    pytest.param((Literal("abc"), Literal("a b c")), FALSE, id="spaces-literal"),
    pytest.param((Literal("abc"), Literal("a b c"), Literal("x")), TRUE, id="x"),
    pytest.param((Literal("abc"), Literal("a.c")), TRUE, id="dot-any"),
    pytest.param((Literal("abc"), Literal("a.c"), Literal("q")), FALSE, id="q"),
    pytest.param((Literal("a.c"), Literal("a.c"), Literal("q")), TRUE, id="q-literal-match"),
    pytest.param((Literal("A.C"), Literal("a.c"), Literal("qi")), TRUE, id="q-with-i"),
    pytest.param((Literal("a b"), Literal("a b"), Literal("qx")), TRUE, id="q-turns-off-x"),
    pytest.param((Literal("abc"), Literal("b"), Literal("z")), ERROR, id="unknown-flag"),
    pytest.param((Literal("abc"), Literal("b"), Literal("i", lang="en")), ERROR, id="flags-not-simple"),
    pytest.param((Literal(1), Literal("1")), ERROR, id="text-not-a-string"),
    pytest.param((Literal("abc"), Literal("b", lang="en")), ERROR, id="pattern-not-simple"),
])
def test_regex(args, result):
    assert call(f.sparql_regex, *args) == result


@pytest.mark.parametrize(("args", "result"), [
    pytest.param((Literal("abcd"), Literal("b"), Literal("Z")), Literal("aZcd"), id="no-flags"),
    pytest.param((Literal("abAB"), Literal("b"), Literal("Z"), Literal("i")), Literal("aZAZ"), id="i"),
    pytest.param((Literal("a.c"), Literal("."), Literal("-"), Literal("q")), Literal("a-c"), id="q"),
    pytest.param((Literal("abc"), Literal("(b)"), Literal("[$1]")), Literal("a[b]c"), id="group"),
    pytest.param((Literal("abc", lang="en"), Literal("b"), Literal("Z")), Literal("aZc", lang="en"),
                 id="keeps-language"),
    pytest.param((Literal("abc"), Literal("x*"), Literal("Z")), ERROR, id="matches-empty-string"),
    pytest.param((URIRef(EX + "b"), Literal("b"), Literal("Z")), ERROR, id="text-an-iri"),
])
def test_replace(args, result):
    assert same_value(call(f.sparql_replace, *args), result)


@pytest.mark.parametrize(("target", "value", "result"), [
    pytest.param("integer", Literal(True), Literal(1), id="integer-of-true"),
    pytest.param("integer", typed("2.7", "decimal"), Literal(2), id="integer-of-decimal-truncates"),
    pytest.param("integer", typed("-2.7", "double"), Literal(-2), id="integer-of-double-truncates"),
    pytest.param("integer", Literal("12"), Literal(12), id="integer-of-string"),
    pytest.param("integer", typed("abc", "integer"), ERROR, id="integer-of-ill-typed"),
    pytest.param("integer", typed("INF", "double"), ERROR, id="integer-of-inf"),
    pytest.param("decimal", typed("NaN", "double"), ERROR, id="decimal-of-nan"),
    pytest.param("decimal", typed("1.5", "double"), typed("1.5", "decimal"), id="decimal-of-double"),
    pytest.param("decimal", Literal(True), typed("1", "decimal"), id="decimal-of-true"),
    pytest.param("float", typed("INF", "double"), typed("INF", "float"), id="float-of-inf"),
    pytest.param("double", typed("-INF", "double"), typed("-INF", "double"), id="double-of-inf"),
    pytest.param("double", Literal(3), typed("3", "double"), id="double-of-integer"),
    pytest.param("boolean", Literal(0), FALSE, id="boolean-of-zero"),
    pytest.param("boolean", typed("2.5", "decimal"), TRUE, id="boolean-of-decimal"),
    # XPath 19.1.2.4: NaN is false, INF and -INF are true (not errors, unlike integer/decimal)
    pytest.param("boolean", typed("INF", "double"), TRUE, id="boolean-of-inf"),
    pytest.param("boolean", typed("-INF", "float"), TRUE, id="boolean-of-minus-inf-float"),
    pytest.param("boolean", typed("NaN", "double"), FALSE, id="boolean-of-nan"),
    pytest.param("boolean", typed("NaN", "float"), FALSE, id="boolean-of-nan-float"),
    pytest.param("boolean", Literal("false"), FALSE, id="boolean-of-string-false"),
    pytest.param("boolean", Literal("1"), TRUE, id="boolean-of-string-one"),
    pytest.param("string", Literal(12), Literal("12"), id="string-of-integer"),  # simple = xsd:string
])
def test_casts(target, value, result):
    assert same_value(call(f.sparql_cast, XSD[target], value), result)


@pytest.mark.parametrize(("function", "args", "result"), [
    pytest.param(f.sparql_div, (typed("0", "double"), Literal(0)), typed("NaN", "double"), id="zero-by-zero"),
    pytest.param(f.sparql_div, (typed("NaN", "double"), Literal(0)), typed("NaN", "double"), id="nan-by-zero"),
    pytest.param(f.sparql_div, (typed("-1", "double"), Literal(0)), typed("-INF", "double"),
                 id="negative-by-zero"),
    pytest.param(f.sparql_div, (typed("1", "double"), typed("-0", "double")), typed("-INF", "double"),
                 id="by-negative-zero"),
    pytest.param(f.sparql_add, (typed("0.25", "decimal"), Literal(1)), typed("1.25", "decimal"),
                 id="decimal-kept-exact"),
    pytest.param(f.sparql_add, (Literal(True), Literal(1)), ERROR, id="boolean-is-no-number"),
    pytest.param(f.sparql_add, (Literal("1"), Literal(1)), ERROR, id="string-is-no-number"),
    pytest.param(f.sparql_add, (Literal("1"), Literal("2")), ERROR, id="strings-are-no-numbers"),
    pytest.param(f.sparql_div, (Literal("1"), Literal("2")), ERROR, id="strings-do-not-divide"),
    pytest.param(f.sparql_add, (URIRef(EX + "a"), Literal(1)), ERROR, id="iri-is-no-number"),
    pytest.param(f.sparql_mul, (typed("x", "decimal"), Literal(1)), ERROR, id="ill-typed-is-no-number"),
])
def test_arithmetic_corners(function, args, result):
    assert same_value(call(function, *args), result)


@pytest.mark.parametrize(("left", "right", "lexical"), [
    pytest.param("0.5", "0.5", "1.0", id="whole-keeps-one-decimal"),
    pytest.param("0.25", "1.00", "1.25", id="no-trailing-zeros"),
])
def test_decimal_sums_are_in_canonical_form(left, right, lexical):
    """XSD's canonical decimal: at least one digit after the point, no trailing zeros."""
    found = call(f.sparql_add, typed(left, "decimal"), typed(right, "decimal"))
    assert str(found) == lexical and found.datatype == XSD.decimal


@pytest.mark.parametrize(("keyword", "args", "result"), [
    pytest.param("STRLEN", (Literal("abc"),), Literal(3), id="one-argument"),
    pytest.param("UCASE", (Literal("abc", lang="en"),), Literal("ABC", lang="en"), id="one-argument-keeps-tag"),
    pytest.param("CONTAINS", (Literal("abc"), Literal("b")), TRUE, id="two-arguments"),
    pytest.param("STRSTARTS", (Literal("abc"), Literal("b")), FALSE, id="two-arguments-false"),
    pytest.param("SUBSTR", (Literal("abcd"), Literal(2), Literal(2)), Literal("bc"), id="three-arguments"),
    pytest.param("STRDT", (Literal("12"), XSD.integer), Literal(12), id="strdt-simple"),
    pytest.param("STRDT", (Literal("12", lang="en"), XSD.integer), ERROR, id="strdt-tagged"),
    pytest.param("STRLANG", (Literal("chat"), Literal("fr")), Literal("chat", lang="fr"), id="strlang-simple"),
    pytest.param("STRLANG", (typed("chat", "string"), Literal("fr")), Literal("chat", lang="fr"),
                 id="strlang-xsd-string"),
    pytest.param("STRLANG", (Literal(1), Literal("fr")), ERROR, id="strlang-number"),
])
def test_builtins(keyword, args, result):
    assert same_value(call(lookup(f.BUILTINS[keyword]), *args), result)
