"""SPARQL expressions and aggregates in τ: exact RDF values, errors, and the rules' answers."""

from __future__ import annotations

import pytest
from rdflib import Dataset, Literal, URIRef
from rdflib.namespace import XSD  # noqa: I001

from lars.errors import UnsupportedError
from tests.translate.solving import answer_rows, row_set
from translate import background_atoms, parse_query, translate
from translate.rdf import ERROR, FALSE, NULL, TRUE, from_constant, to_constant
from translate import sparqlfunctions as f

PREFIX = "PREFIX : <http://ex.org/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
EX = "http://ex.org/"


def c(term):
    return to_constant(term)


def typed(text: str, name: str) -> Literal:
    return Literal(text, datatype=XSD[name])


# --- the functions on constants ------------------------------------------------------------------

@pytest.mark.parametrize(("function", "args", "result"), [
    pytest.param(f.sparql_eq, (Literal(1), typed("1.0", "double")), TRUE, id="integer-eq-double"),
    pytest.param(f.sparql_eq, (typed("0.3", "decimal"), typed("0.30", "decimal")), TRUE,
                 id="decimal-eq"),
    pytest.param(f.sparql_lt, (typed("87.5", "decimal"), Literal(88)), TRUE, id="decimal-lt"),
    pytest.param(f.sparql_eq, (Literal("xyz", lang="en"), Literal("xyz", lang="EN")), TRUE,
                 id="language-tag-case"),
    pytest.param(f.sparql_lt, (typed("2004-08-08T06:10:00", "dateTime"),
                               typed("2004-08-08T07:00:00", "dateTime")), TRUE, id="date-time-lt"),
    pytest.param(f.sparql_lt, (Literal(False), Literal(True)), TRUE, id="boolean-lt"),
    pytest.param(f.sparql_lt, (typed("abc", "integer"), Literal(3)), ERROR, id="ill-typed-lt"),
    pytest.param(f.sparql_eq, (typed("abc", "integer"), Literal(3)), ERROR, id="ill-typed-eq"),
    pytest.param(f.sparql_lt, (Literal(1), Literal("x")), ERROR, id="number-lt-string"),
    pytest.param(f.sparql_eq, (Literal("b"), Literal(2)), FALSE, id="string-eq-number"),
    pytest.param(f.sparql_eq, (Literal("b"), Literal("2", datatype=URIRef(EX + "t"))), ERROR, id="string-eq-unknown"),
    pytest.param(f.sparql_eq, (URIRef(EX + "a"), Literal(2)), FALSE, id="iri-eq-number"),
    pytest.param(f.sparql_or, (ERROR, TRUE), TRUE, id="error-or-true"),
    pytest.param(f.sparql_and, (ERROR, FALSE), FALSE, id="error-and-false"),
    pytest.param(f.sparql_and, (ERROR, TRUE), ERROR, id="error-and-true"),
    pytest.param(f.sparql_in, (Literal(1), typed("1.0", "double")), TRUE, id="in-by-value"),
    pytest.param(f.sparql_in, (Literal("b"), Literal("2", datatype=URIRef(EX + "t"))), ERROR, id="in-with-error"),
    pytest.param(f.sparql_coalesce, (NULL, ERROR, Literal(3)), Literal(3), id="coalesce"),
    pytest.param(f.sparql_if, (ERROR, Literal(1), Literal(2)), ERROR, id="if-error"),
    pytest.param(f.sparql_bound, (NULL,), FALSE, id="bound-null"),
    pytest.param(f.sparql_value, (ERROR,), NULL, id="value-of-error"),
    pytest.param(f.sparql_add, (typed("0.1", "decimal"), typed("0.2", "decimal")),
                 typed("0.3", "decimal"), id="decimal-sum-exact"),
    pytest.param(f.sparql_mul, (Literal(2), Literal(3)), Literal(6), id="integer-product"),
    pytest.param(f.sparql_div, (Literal(1), Literal(2)), typed("0.5", "decimal"),
                 id="integer-quotient-decimal"),
    pytest.param(f.sparql_div, (typed("1.5E0", "double"), Literal(3)), typed("5.0E-1", "double"),
                 id="double-quotient"),
    pytest.param(f.sparql_div, (Literal(1), Literal(0)), ERROR, id="integer-division-by-zero"),
    pytest.param(f.sparql_div, (typed("1", "double"), Literal(0)), typed("INF", "double"),
                 id="double-division-by-zero"),
    pytest.param(f.sparql_add, (Literal(1), Literal("x")), ERROR, id="add-string"),
])
def test_functions(function, args, result) -> None:
    constants = [a if a in (NULL, ERROR, TRUE, FALSE) else c(a) for a in args]
    found = function(*constants)
    expected = result if result in (NULL, ERROR, TRUE, FALSE) else c(result)
    assert found == expected, from_constant(found)


def test_every_builtin_is_total_on_bad_arguments() -> None:
    """No built-in raises, whatever its arguments: bad ones give ``error``."""
    from lars.externals import lookup
    odd = [NULL, ERROR, c(typed("abc", "integer")), c(URIRef(EX + "a")), c(Literal("x", lang="en"))]
    for name in set(f.BUILTINS.values()) - {"bound", "if", "coalesce", "regex", "replace", "iri"}:
        for arity in (1, 2, 3):
            for arg in odd:
                lookup(name)(*[arg] * arity)
    for arg in odd:
        assert f.sparql_regex(arg, arg, arg) == f.sparql_replace(arg, arg, arg, arg) == ERROR
        f.sparql_iri(arg), f.sparql_iri(arg, arg)  # the argument, and the base


# --- the answers of translated queries ---------------------------------------------------------

def rows_of(query: str, turtle: str, prologue: str = "", **options) -> set:
    data = Dataset()
    data.parse(data=PREFIX.replace("PREFIX ", "@prefix ").replace(">\n", "> .\n") + turtle,
               format="trig")
    translation = translate(parse_query(prologue + PREFIX + query), "sparql", **options)
    encoder = translation.encoder()
    found = row_set(answer_rows(translation, encoder, background_atoms(data, encoder)))
    return {tuple(sorted((k, v.n3().replace(EX, ":")) for k, v in row)) for row in found}


DATA = ':a :v 1 ; :k :x . :b :v "2.5"^^xsd:decimal ; :k :x . :c :v "3"^^xsd:double ; :k :y . ' \
       ':d :v "z" ; :k :y .'


def test_filter_error_eliminates_and_bind_error_leaves_unbound() -> None:
    query = "SELECT ?s ?w WHERE { ?s :v ?v BIND (?v + 1 AS ?w) FILTER (?v > 2 || ?v = \"z\") }"
    assert rows_of(query, DATA) == {
        (("s", "<:b>"), ("w", '"3.5"^^<http://www.w3.org/2001/XMLSchema#decimal>')),
        (("s", "<:c>"), ("w", '"4.0E0"^^<http://www.w3.org/2001/XMLSchema#double>')),
        (("s", "<:d>"),)}


def test_aggregates_per_group() -> None:
    query = ("SELECT ?k (COUNT(*) AS ?n) (SUM(?v) AS ?s) (MIN(?v) AS ?lo) "
             "(GROUP_CONCAT(?v; SEPARATOR=\"|\") AS ?all) WHERE { ?x :v ?v ; :k ?k } GROUP BY ?k")
    rows = rows_of(query, DATA)
    x = dict(next(r for r in rows if ("k", "<:x>") in r))
    assert x["n"] == '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'
    assert x["s"] == '"3.5"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    assert x["lo"] == '"1"^^<http://www.w3.org/2001/XMLSchema#integer>'
    assert set(x["all"].strip('"').split("|")) == {"1", "2.5"}
    y = dict(next(r for r in rows if ("k", "<:y>") in r))
    assert "s" not in y  # SUM over "z" is an error: unbound


def test_having_and_distinct() -> None:
    query = "SELECT ?k (COUNT(DISTINCT ?v) AS ?n) WHERE { ?x :v ?v ; :k ?k } GROUP BY ?k " \
            "HAVING (SUM(?v) > 3)"
    assert rows_of(query, DATA) == {
        (("k", "<:x>"), ("n", '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'))}


@pytest.mark.parametrize(("empty_group", "rows"), [
    ("row", {(("a", '"0"^^<http://www.w3.org/2001/XMLSchema#integer>'),
              ("n", '"0"^^<http://www.w3.org/2001/XMLSchema#integer>'))}),
    ("none", set()),
])
def test_empty_group_without_group_by(empty_group: str, rows: set) -> None:
    query = "SELECT (AVG(?v) AS ?a) (COUNT(?v) AS ?n) WHERE { ?x :missing ?v }"
    assert rows_of(query, DATA, empty_group=empty_group) == rows


def test_exists_and_not_exists() -> None:
    query = "SELECT ?s WHERE { ?s :v ?v FILTER (EXISTS { ?s :k :x } && NOT EXISTS { ?s :v 1 }) }"
    assert rows_of(query, DATA) == {(("s", "<:b>"),)}


@pytest.mark.parametrize(("query", "count"), [
    pytest.param("SELECT (COUNT(*) AS ?n) WHERE { { ?s :k :x } UNION { ?s :k :x } }", 4,
                 id="union"),
    pytest.param("SELECT (COUNT(?s) AS ?n) WHERE { ?s :k [] }", 4, id="blank-node"),
    pytest.param("SELECT (COUNT(*) AS ?n) WHERE { ?s :k ?k } GROUP BY ?k", None, id="group-rows"),
])
def test_aggregates_count_sparqls_multiset(query: str, count) -> None:
    """Witnesses inside the group (translate.bags) tell repeated solutions apart."""
    rows = rows_of(query, DATA)
    if count is None:  # two groups of two: two rows with n = 2, which answers as sets merge
        assert rows == {(("n", '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'),)}
    else:
        assert rows == {(("n", f'"{count}"^^<http://www.w3.org/2001/XMLSchema#integer>'),)}


@pytest.mark.parametrize(("query", "message"), [
    pytest.param("SELECT ?s WHERE { ?s :v ?v FILTER EXISTS { ?s :k ?k OPTIONAL { ?k :v ?w } } }",
                 "OPTIONAL, MINUS or an aggregate inside EXISTS", id="optional-in-exists"),
    pytest.param("SELECT ?s WHERE { ?s :v ?v FILTER (?v < NOW()) }", "function NOW", id="now"),
])
def test_refusals(query: str, message: str) -> None:
    with pytest.raises(UnsupportedError, match=message):
        translate(parse_query(PREFIX + query), "sparql")


# --- IRI() against the base (SPARQL 1.1 §17.4.2.8) ---------------------------------------------

@pytest.mark.parametrize(("prologue", "argument", "expected"), [
    pytest.param("BASE <http://example.org/>\n", '"iri"', "<http://example.org/iri>",
                 id="relative-against-base"),
    pytest.param("BASE <http://example.org/a/b>\n", '"../c?q#f"', "<http://example.org/c?q#f>",
                 id="rfc3986-dot-segments"),
    pytest.param("BASE <http://example.org/>\n", '"http://other.org/x"', "<http://other.org/x>",
                 id="absolute-unchanged"),
    pytest.param("BASE <http://example.org/>\n", "<http://other.org/y>", "<http://other.org/y>",
                 id="iri-unchanged"),
    pytest.param("", '"rel"', None, id="relative-without-base-is-an-error"),
    pytest.param("BASE <http://example.org/>\n", '"a"@en', None, id="language-tag-is-an-error"),
    pytest.param("BASE <http://example.org/>\n", "1", None, id="number-is-an-error"),
])
def test_iri_resolves_against_the_base(prologue: str, argument: str, expected) -> None:
    for keyword in ("IRI", "URI"):
        rows = rows_of(f"SELECT ?i WHERE {{ BIND ({keyword}({argument}) AS ?i) }}", "",
                       prologue=prologue)
        assert rows == ({(("i", expected),)} if expected else {()})


def test_iri_without_base_resolves_against_the_query_file(tmp_path) -> None:
    """A query read from a file has that file's URI as its base (as FROM <data.ttl> does)."""
    query = tmp_path / "q.rq"
    query.write_text('SELECT ?i WHERE { BIND (IRI("data.ttl") AS ?i) }')
    translation = translate(parse_query(query.read_text(), str(query)), "sparql")
    rows = answer_rows(translation, translation.encoder(), ())
    assert rows == [{"i": URIRef((tmp_path / "data.ttl").as_uri())}]
