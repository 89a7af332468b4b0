"""IRIs as written: no normalisation anywhere, relative references resolved by RFC 3986 only.

Sources: RFC 3986 section 5.4 (every normal and abnormal example), the W3C SPARQL 1.0 suite's
``i18n/normalization-02`` and ``-03`` (w3c/rdf-tests, sparql/sparql10/i18n: the query's
``<eXAMPLE://a/./b/../b/%63/%7bfoo%7d#xyz>`` matches the same string in the data and not
``<example://a/b/c/%7Bfoo%7D#xyz>``; ``<http://example.com:80/#abc>`` does not match
``<http://example.com/#abc>``), through the command line with the data as static Turtle, as an
N-Triples stream and as a Turtle stream folder; and a differential test against Oxigraph's
resolver (an independent RFC 3986 implementation, in Rust).
"""

from __future__ import annotations

import csv
import io
import json

import pyoxigraph
import pytest
import rdflib
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest.rdffiles  # noqa: F401 - installs the RFC 3986 resolution in rdflib's Turtle parser
from tests.badinput.clirun import lars
from translate.iris import resolve

BASE = "http://a/b/c/d;p?q"
RFC_3986_EXAMPLES = {  # section 5.4.1 (normal) and 5.4.2 (abnormal, strict parser)
    "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
    "/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
    ";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
    "": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
    "../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
    "../../g": "http://a/g",
    "../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g",
    "/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..",
    "..g": "http://a/b/c/..g", "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/",
    "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h", "g;x=1/./y": "http://a/b/c/g;x=1/y",
    "g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x",
    "g?y/../x": "http://a/b/c/g?y/../x", "g#s/./x": "http://a/b/c/g#s/./x",
    "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
}
W3C_IRI = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d#xyz"


@pytest.mark.parametrize("reference, expected", [pytest.param(r, e, id=r or "empty")
                                                 for r, e in RFC_3986_EXAMPLES.items()])
def test_rfc_3986_examples(reference, expected):
    assert resolve(reference, BASE) == expected


@pytest.mark.parametrize("iri", [W3C_IRI, "HTTP://A/./b/%7e", "http://example.com:80/#abc", "urn:X:%41"])
def test_absolute_iris_stay_as_written(iri):
    assert resolve(iri, BASE) == iri


segments = st.sampled_from(["a", "b", ".", "..", "", "c;x", "%41", "g.", ".g"])
references = st.builds(
    lambda lead, parts, query, fragment: lead + "/".join(parts) + query + fragment,
    st.sampled_from(["", "/", "./", "../", "//h/"]), st.lists(segments, max_size=5),
    st.sampled_from(["", "?", "?y", "?a/../b"]), st.sampled_from(["", "#", "#s", "#s/../t"]))
bases = st.sampled_from([BASE, "http://a", "http://a/", "eXAMPLE://a/b/", "file:///x/y.rq",
                         "http://a/b/c?q#f"])
"""Bases with an authority: for a rootless base path (``tag:a/b`` with ``../``) RFC 3986's
remove_dot_segments yields ``/`` (``tag:/``), where Oxigraph writes ``tag:`` (RFC errata 4547)."""


@settings(max_examples=300, derandomize=True, deadline=None)
@given(references, bases)
def test_resolution_agrees_with_oxigraph(reference, base):
    """Differential: Oxigraph's Turtle parser resolves the same reference to the same IRI.

    Except a network-path reference (``//h/.``) with dot segments: RFC 3986 section 5.2.2 removes
    them (``T.path = remove_dot_segments(R.path)``), Oxigraph keeps them."""
    path = reference.split("?")[0].split("#")[0]
    if reference.startswith("//") and any(s in (".", "..") for s in path.split("/")):
        return
    text = f"<urn:s> <urn:p> <{reference}> ."
    try:
        quads = list(pyoxigraph.parse(text, format=pyoxigraph.RdfFormat.TURTLE, base_iri=base))
    except (SyntaxError, ValueError):
        return  # an IRI Oxigraph refuses (a path of a base without authority starting with //)
    assert resolve(reference, base) == quads[0].object.value


@pytest.mark.parametrize("reference, base, expected", [
    pytest.param("c", "eXAMPLE://a/b/", "eXAMPLE://a/b/c", id="scheme-unknown-to-urljoin"),
    pytest.param("#f:g", "http://a/b/c", "http://a/b/c#f:g", id="colon-in-fragment"),
    pytest.param("?q", "http://a/b/c", "http://a/b/c?q", id="query-only"),
    pytest.param("z", "urn:x:y", "urn:z", id="base-without-slash"),
])
def test_turtle_and_sparql_resolve_by_rfc_3986(tmp_path, reference, base, expected):
    graph = rdflib.Graph().parse(data=f"@base <{base}> . <urn:s> <urn:p> <{reference}> .", format="turtle")
    assert str(next(iter(graph))[2]) == expected
    (tmp_path / "q.rq").write_text(f"BASE <{base}> SELECT (<{reference}> AS ?i) {{}}")
    status, out, err = lars("run", tmp_path / "q.rq", "--format", "sparql-json")
    assert status == 0, err
    assert json.loads(out)["results"]["bindings"][0]["i"]["value"] == expected


def test_iri_function_keeps_absolute_iris_and_resolves_relative_ones(tmp_path):
    (tmp_path / "q.rq").write_text('BASE <http://a/b/> SELECT (IRI("HTTP://A/./b") AS ?i) '
                                   '(IRI("../x") AS ?j) {}')
    status, out, err = lars("run", tmp_path / "q.rq", "--format", "sparql-json")
    assert status == 0, err
    row = json.loads(out)["results"]["bindings"][0]
    assert (row["i"]["value"], row["j"]["value"]) == ("HTTP://A/./b", "http://a/x")


NORMALIZATION = {  # case: (query's IRI, data, expected subject)
    "02": ("PREFIX p: <eXAMPLE://a/./b/../b/%63/%7bfoo%7d#> SELECT ?S WHERE { ?S :p p:xyz }",
           [("s1", "example://a/b/c/%7Bfoo%7D#xyz"), ("s2", W3C_IRI)], "s2"),
    "03": ("PREFIX p: <http://example.com:80/#> SELECT ?S WHERE { ?S :p p:abc }",
           [("s3", "http://example.com:80/#abc"), ("s4", "http://example.com/#abc"),
            ("s5", "http://example.com/#abc")], "s3"),
}
VOCAB = "http://example/vocab#"


@pytest.fixture(params=sorted(NORMALIZATION), ids=lambda n: f"normalization-{n}")
def case(request, tmp_path):
    query, data, expected = NORMALIZATION[request.param]
    (tmp_path / "q.rq").write_text(f"PREFIX : <{VOCAB}>\n{query}\n")
    (tmp_path / "d.ttl").write_text(f"@prefix : <{VOCAB}> .\n"
                                    + "".join(f":{s} :p <{o}> .\n" for s, o in data))
    return tmp_path, data, VOCAB + expected


def test_w3c_normalization_with_static_turtle(case):
    folder, _, expected = case
    status, out, err = lars("run", folder / "q.rq", "--static", folder / "d.ttl", "--format", "sparql-json")
    assert status == 0, err
    assert [b["S"]["value"] for b in json.loads(out)["results"]["bindings"]] == [expected]


def stream_query(folder):
    text = (folder / "q.rq").read_text().replace("WHERE", "FROM STREAM <http://ex.org/s> [RANGE 5s STEP 1s]\nWHERE")
    (folder / "s.rq").write_text("REGISTER QUERY n AS\n" + text)
    return folder / "s.rq"


def test_w3c_normalization_over_an_ntriples_stream(case):
    folder, data, expected = case
    (folder / "s.nt").write_text("".join(f"<{VOCAB}{s}> <{VOCAB}p> <{o}> 1\n" for s, o in data))
    status, out, err = lars("run", stream_query(folder), "--stream", folder / "s.nt", "--format", "csv")
    assert status == 0, err
    assert list(csv.reader(io.StringIO(out)))[1:] == [["1", f"<{expected}>"]]


def test_w3c_normalization_over_a_turtle_stream_folder(case):
    folder, _, expected = case
    (folder / "stream").mkdir()
    (folder / "stream" / "data_1.ttl").write_text((folder / "d.ttl").read_text())
    status, out, err = lars("run", stream_query(folder), "--stream", folder / "stream", "--format", "csv")
    assert status == 0, err
    assert list(csv.reader(io.StringIO(out)))[1:] == [["1", f"<{expected}>"]]


@pytest.mark.parametrize("fmt", ["sparql-json", "sparql-csv", "csv", "table", "json"])
def test_output_writes_the_iri_as_written(tmp_path, fmt):
    (tmp_path / "d.ttl").write_text(f"<{VOCAB}s2> <{VOCAB}p> <{W3C_IRI}> .\n")
    (tmp_path / "q.rq").write_text("SELECT ?o WHERE { ?s ?p ?o }")
    status, out, err = lars("run", tmp_path / "q.rq", "--static", tmp_path / "d.ttl",
                            "--format", fmt, "--no-prefixes")
    assert status == 0, err
    assert W3C_IRI in out
