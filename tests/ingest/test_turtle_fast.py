"""The Oxigraph fast path of ``parse_turtle_document`` (ingest/turtlefast.py) against rdflib's.

``parse_turtle_document`` must give exactly what it gave when rdflib read every document: the
same elements in the same order, with the same rdflib terms (type, lexical form, language tag,
datatype), and the same error (message, file, line, column) for every bad document. Each test
reads a document both ways, the second with the fast path switched off, and compares; and
checks that the documents the fast path is meant for do take it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from unittest import mock

import pytest
import rdflib
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from rdflib.term import Literal

from lars.errors import LarsError
from ingest import rdffiles
from ingest.policy import read_text
from ingest.rdffiles import parse_turtle_document, turtle_files
from ingest.turtlefast import fast_turtle_triples

CSRBENCH = Path(__file__).parents[2] / "examples" / "csrbench" / "stream"
W3C_SAMPLE = Path(__file__).parent / "data" / "w3c-turtle"
W3C_SUITE = Path("/tmp/rdf-tests/rdf")  # a clone of https://github.com/w3c/rdf-tests, if present
SOURCE = "/streams/data_7.ttl"
BASE = Path(os.path.abspath(SOURCE)).as_uri()
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals


SPACE_BEFORE_TAG = re.compile(r"""(["'])(?:[ \t\r\n]|#[^\r\n]*)+(?=@[a-zA-Z]|\^\^)""")
"""White space or a comment between a string and its language tag or ``^^``: Turtle allows it
(they are separate terminals), rdflib refuses it, the fast path reads it as Turtle says."""


def outcome(text: str, source: str = SOURCE, *, fast: bool = True):
    """``parse_turtle_document``'s result or error, with the fast path or rdflib's alone."""
    with mock.patch.object(rdffiles, "fast_turtle_triples",
                           fast_turtle_triples if fast else (lambda text, base: None)):
        try:
            return "ok", parse_turtle_document(text, source)
        except LarsError as error:
            return "error", (type(error), str(error), error.position)
        except Exception as error:  # noqa: BLE001 - rdflib's path crashes on some documents (a lone
            return "crash", (type(error), str(error))  # surrogate with blank nodes): the same both ways


def assert_same(text: str, source: str = SOURCE, *, strict: bool = True) -> bool:
    """Both ways give the same; returns whether the fast path answered.

    Where it did not, both ways run the same rdflib code, whose result is not always the same
    from one run to the next (with blank nodes: which of several bad IRIs it names, the labels
    of blank node predicates); ``strict=False`` then compares only the kind of outcome.
    """
    kind, result = outcome(text, source)
    slow_kind, expected = outcome(text, source, fast=False)
    if (kind, slow_kind) == ("ok", "error") and SPACE_BEFORE_TAG.search(text):
        slow_kind, expected = outcome(SPACE_BEFORE_TAG.sub(r"\1", text), source, fast=False)
    fast = fast_turtle_triples(text, Path(os.path.abspath(source)).as_uri()) is not None
    assert kind == slow_kind, text
    if not fast and not strict:
        return fast
    assert result == expected, text
    if kind == "ok":
        for element, slow in zip(result[1], expected[1], strict=True):
            assert (element.time, element.stream, element.position) == (slow.time, slow.stream, slow.position)
            for term, slow_term in zip(element.triple, slow.triple, strict=True):
                assert type(term) is type(slow_term) and str(term) == str(slow_term)
                assert term.n3() == slow_term.n3()
                if isinstance(slow_term, Literal):
                    assert (term.language, term.datatype) == (slow_term.language, slow_term.datatype)
                    assert type(term.datatype) is type(slow_term.datatype)
    return fast


def test_every_file_of_the_bundled_stream_takes_the_fast_path_with_the_same_elements():
    paths = turtle_files(CSRBENCH)
    assert len(paths) == 34
    for path in paths:
        assert assert_same(read_text(path), path), path


# --- the W3C Turtle tests -----------------------------------------------------------------------

W3C_FALLBACKS = {  # the sample files rdflib reads (the others of the sample take the fast path)
    "numeric_with_leading_0", "positive_numeric", "turtle-subm-11",  # numbers rdflib rewrites
    "turtle-syntax-number-13",
    "langtagged_LONG_with_subtag",  # a capital in a language tag
    "collection_object", "labeled_blank_node_object",  # blank nodes
    "IRI-resolution-01", "old_style_base",  # relative IRIs
}


def sample_files() -> list[Path]:
    return sorted(W3C_SAMPLE.glob("*.ttl"))


@pytest.mark.parametrize("path", sample_files(), ids=lambda path: path.stem)
def test_w3c_sample_both_ways(path):
    fast = assert_same(read_text(path), f"/w3c/{path.stem}_1.ttl")
    if path.stem.startswith("turtle-syntax-bad-"):
        assert not fast  # every negative test goes through rdflib: the same error, or none
    else:
        assert fast == (path.stem not in W3C_FALLBACKS)


@pytest.mark.parametrize("path", [path for path in sample_files() if path.with_suffix(".nt").exists()
                                  and path.stem not in W3C_FALLBACKS], ids=lambda path: path.stem)
def test_w3c_sample_fast_path_gives_the_expected_triples(path):
    """A third opinion: the suite's expected N-Triples (all these use absolute IRIs only)."""
    triples = fast_turtle_triples(read_text(path), "file:///w3c/x.ttl")
    expected = rdflib.Graph().parse(path.with_suffix(".nt"), format="nt")
    assert set(triples) == set(expected) and len(triples) == len(expected)


def test_rdflib_errors_stay_as_they_were():
    kind, (_, message, _) = outcome(read_text(W3C_SAMPLE / "turtle-syntax-bad-esc-01.ttl"), "/w3c/bad_1.ttl")
    assert (kind, message) == ("error", "/w3c/bad_1.ttl:2:81: error: syntax error: bad escape")
    kind, (_, message, _) = outcome(read_text(W3C_SAMPLE / "turtle-syntax-bad-uri-01.ttl"), "/w3c/bad_1.ttl")
    assert kind == "error" and message.startswith("/w3c/bad_1.ttl: error: the IRI <http://www.w3.org/2013/TurtleTests/ space>")
    # a negative test rdflib accepts still reads as before (Oxigraph refuses it)
    assert outcome(read_text(W3C_SAMPLE / "turtle-syntax-bad-esc-02.ttl"), "/w3c/bad_1.ttl")[0] == "ok"


@pytest.mark.slow
@pytest.mark.skipif(not W3C_SUITE.is_dir(), reason=(
    "the whole W3C suite is not bundled (its 43-file sample in tests/ingest/data/w3c-turtle always "
    "runs); to run all 420 files: git clone --depth 1 https://github.com/w3c/rdf-tests /tmp/rdf-tests"))
def test_whole_w3c_turtle_suite_both_ways():
    """Every Turtle file of the RDF 1.1 and 1.2 Turtle suites (positive, negative, evaluation)."""
    paths = [path for folder in ("rdf11/rdf-turtle", "rdf12/rdf-turtle")
             for path in sorted((W3C_SUITE / folder).rglob("*.ttl"))
             if path.name != "manifest.ttl" and "reports" not in path.parts]
    assert len(paths) > 300
    taken = sum(assert_same(read_text(path), f"/w3c/{path.stem}_1.ttl") for path in paths)
    assert taken > 100


# --- documents that must take each way ------------------------------------------------------------

PREFIXES = ("@prefix ex: <http://ex.org/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
            "PREFIX : <http://ex.org/d#>\n")


@pytest.mark.parametrize("body", [
    'ex:s a ex:C ; ex:p ex:o1, ex:o2 ; :q "x", "y"@en, "z"@en-us, "1"^^xsd:integer .',
    'ex:s ex:p "tab\\there \\"q\\" \\u00e9 \\U0001F600 \\\\", """long\nwith "quotes" and \r""" .',
    "ex:s ex:p 'single', '''long single''' .",
    "ex:s ex:p 1, -2, 3.5, -0.25, 1e3, 2.5E-1, true, false .",
    'ex:s ex:p "1"^^xsd:integer, "abc"^^xsd:integer, "1.50"^^xsd:decimal, "x"^^ex:dt, "1"^^<http://ex.org/dt> .',
    'ex:s ex:p "x"^^xsd:double ; ex:q "plain" .  # a comment',
    "ex:s ex:p () .",
    "ex:a\\-b ex:p%20q ex:c.d .",
    '@prefix e2: <http://ex.org/two/> . e2:s e2:p "x"^^e2:string .',
    "<http://ex.org/a/../b> <urn:x:p> <HTTP://EX.org/c> .",
    "@base <http://ex.org/base/> . ex:s ex:p ex:o .",
    "<s> <p> <o>, <#frag>, <>, <../up>, <.>, <//h/x> .",  # relative IRIs both resolve alike
    '@prefix r: <rel/> . r:s r:p "a <tag> in a string" .',
    "ex:s ex:p <?q> .",  # relative IRIs rdflib's own join resolved otherwise than RFC 3986;
    "ex:s ex:p <a/./b> .",  # ingest.rdffiles gives its parser RFC 3986 (translate.iris)
    "@prefix r: <a/../b/> . r:s r:p r:o .",
])
def test_common_documents_take_the_fast_path(body):
    assert assert_same(PREFIXES + body)


@pytest.mark.parametrize("body", [
    "@base <http://ex.org/b/> . <s> <p> <o> .",  # a base directive and relative IRIs
    "ex:s ex:p <\\u0068ttp://ex.org/x> .",
    'ex:s ex:p "a < b" .',  # a '<' in a string: cannot tell, so rdflib
    "ex:s ex:p _:b1 .",  # blank nodes
    "ex:s ex:p [ ex:q ex:r ] .",
    "ex:s ex:p ( ex:a ex:b ) .",
    'ex:s ex:p "x"@EN .',  # Oxigraph lowercases language tags
    'ex:s ex:p "x"@en-US, "y"@en-us .',
    "ex:s ex:p +1 .",  # numbers rdflib rewrites
    "ex:s ex:p 01 .",
    "ex:s ex:p .5 .",
    "ex:s ex:p -0 .",
    "ex:s ex:p 0.0000001 .",
    'ex:s ex:p "01"^^xsd:integer .',  # ... and the same as typed literals (Oxigraph's result is the same)
    'ex:s ex:p "x"^^xsd:string .',  # xsd:string spelled out, in every way
    'ex:s ex:p "x"^^<http://www.w3.org/2001/XMLSchema#string> .',
    'ex:s ex:p "x"^^<http://www.w3.org/2001/XMLSchema#\\u0073tring> .',
    'ex:s ex:p "x" ^^ # comment\n xsd:string .',
    '@prefix s: <http://www.w3.org/2001/XMLSchema#str> . ex:s ex:p "x"^^s:ing .',
    '@prefix s: <http://www.w3.org/2001/XMLSchema> . ex:s ex:p "x"^^s:\\#string .',
    '@prefix s: <http://www.w3.org/2001/XMLSchema#string> . ex:s ex:p "x"^^s: .',
    'ex:s ex:p "x", "y"^^xsd:string .',
    'ex:s ex:p "^^" .',
    "ex:s ex:p << ex:a ex:b ex:c >> .",  # RDF 1.2, not Turtle 1.1: rdflib refuses them
    "ex:s ex:p ex:o ~ ex:r .",
    "ex:s ex:p ex:o {| ex:q ex:z |} .",
    'ex:s ex:p "x"@en--ltr .',
    'VERSION "1.2"\nex:s ex:p ex:o .',
    "ex:s ex:p ex:o",  # syntax errors
    "ex:s ex:p <http://ex.org/a b> .",
    'ex:s ex:p "\\uD800" .',
    "ex:s ex:p \"x\"@en-abcdefghi .",
])
def test_other_documents_take_rdflibs_path(body):
    assert not assert_same(PREFIXES + body)


@pytest.mark.parametrize("body", ['ex:s ex:p "x" @en .', "ex:s ex:p 'x'\n@en-gb .", 'ex:s ex:p """x""" ^^ex:dt .',
                                  'ex:s ex:p "x" # a comment\n ^^ex:dt .'])
def test_white_space_before_a_language_tag_or_datatype_is_read_as_turtle_says(body):
    """rdflib refuses these documents; the fast path reads them as without the space."""
    assert outcome(PREFIXES + body, fast=False)[0] == "error"
    assert outcome(PREFIXES + body) == outcome(SPACE_BEFORE_TAG.sub(r"\1", PREFIXES + body), fast=False)
    assert outcome(PREFIXES + body)[0] == "ok"


def test_a_document_without_triples():
    assert assert_same("")
    assert assert_same(PREFIXES + "# nothing but directives\n")


# --- generated documents ------------------------------------------------------------------------

# Each pool has common pieces (the fast path takes them) and pieces that send a document to
# rdflib or make it an error; half the documents draw from the common pieces only.
POOLS = {
    "iri": (["<http://ex.org/a>", "<urn:x:b>", "<http://ex.org/é#x>", "<http://ex.org/\\u00e9>", "<x:>",
             "<http://ex.org/a/../b>", "<HTTP://Ex.org/C>", "ex:a", ":b", "ex:a.b", "ex:a\\-b", "ex:%20x", "ex:1",
             "ex:", "ex:é", "xsd:string"],
            ["<http://ex.org/a b>", "ex:a.", "ex:-a", "<>", "<#f>", "<rel>", "<../up>", "<?q>", "<//h/p>"]),
    "char": (["a", "b", " ", "é", "😀", "'", '"', "\\", "\n", "\r", "\t", "\\t", "\\n", "\\r", '\\"', "\\'",
              "\\\\", "\\u00E9", "\\U0001F600", "\\b", "\\f", "#", "@en"],
             ["<", "^^", "@EN", "\\x", "\\uD800"]),
    "language": (["en", "en-us", "de-ch", "x-a1"], ["EN", "en-US", "en--ltr", "1en"]),
    "datatype": (["xsd:integer", "xsd:double", "xsd:decimal", "xsd:boolean", "ex:dt", "<http://ex.org/dt>",
                  " ex:dt", "#c\nex:dt", "str:ings"],
                 ["xsd:string", "<http://www.w3.org/2001/XMLSchema#string>", "str:ing", " xsd:string",
                  "#c\nxsd:string", "<dt>"]),
    "number": (["0", "-2", "3.5", "-0.25", "1e3", "2.5E-1", "1.50", "true", "false"],
               [".5", "01", "-0", "+1", "0.0000001", "1.", "TRUE"]),
    "blank": ([], ["_:b1", "[]", "[ ex:p ex:o ]", "( ex:a 1 )", "()", "<< ex:a ex:b ex:c >>"]),
    "annotation": (["", "", ""], [" ~ ex:r", " {| ex:q ex:z |}"]),  # (no blank node predicates: rdflib
    # accepts them)
    "directive": (["", "@base <http://ex.org/base/> .\n", "@prefix ex: <http://ex.org/x/> .\n", "# a comment\n",
                   "@prefix str: <http://www.w3.org/2001/XMLSchema#str> .\n"],
                  ["BASE <sub/>\n", "# a comment with ^^xsd:string and <\n", 'VERSION "1.2"\n']),
}


@st.composite
def documents(draw) -> str:
    risky = draw(st.booleans())

    def piece(pool: str) -> str:
        common, other = POOLS[pool]
        return draw(st.sampled_from(common + other if risky else common))

    def literal() -> str:
        quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
        text = quote + "".join(piece("char") for _ in range(draw(st.integers(0, 5)))) + quote
        suffix = draw(st.sampled_from(["", "", "lang", "datatype"]))
        if suffix == "lang":
            return f"{text}@{piece('language')}"
        return f"{text}^^{piece('datatype')}" if suffix == "datatype" else text

    def term() -> str:
        kind = draw(st.sampled_from(["iri", "literal", "literal", "number"] + (["blank"] if risky else [])))
        return literal() if kind == "literal" else piece(kind)

    statements = []
    for _ in range(draw(st.integers(1, 3))):
        pairs = [draw(st.sampled_from(["a", piece("iri")])) + " " + ", ".join(term() for _ in range(draw(st.integers(1, 3))))
                 for _ in range(draw(st.integers(1, 3)))]
        subject = draw(st.sampled_from(["_:s", piece("iri")])) if risky else piece("iri")
        statements.append(subject + " " + " ;\n  ".join(pairs) + piece("annotation") + " .")
    return PREFIXES + piece("directive") + "\n".join(statements) + "\n"


@st.composite
def mutated_documents(draw) -> str:
    """A document with one character deleted, replaced or inserted: mostly near misses."""
    text = draw(documents())
    at = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(["", ".", "<", ">", '"', ";", ",", ":", "@", "^", "\\", "#", " ", "_", "a", "[", "("]))
    cut = draw(st.integers(0, 1))
    return text[:at] + piece + text[at + cut:]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
@example(PREFIXES + 'ex:s ex:p "x"@en, "X"@EN, "a"^^str:ing .')
@example(PREFIXES + "ex:s ex:p 1, 01, +1, 1.50, .5, 1e1 .")
def test_generated_documents_both_ways(text):
    event("fast path" if assert_same(text, strict=False) else "rdflib")


def assert_position_in(text: str) -> None:
    """A syntax error's line and column, where it has them, lie in ``text`` (or just after it)."""
    kind, result = outcome(text)
    if kind == "error" and result[2].line is not None:
        lines = text.split("\n")
        line, column = result[2].line, result[2].column
        assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1, (text, result)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
@example(PREFIXES + "ex:s ex:p ex:o .\nex:s ex:p\n\n")
def test_mutated_documents_both_ways(text):
    event("fast path" if assert_same(text, strict=False) else "rdflib")
    assert_position_in(text)


@pytest.mark.parametrize(("text", "where"), [
    ("<a:s> <a:p> <a:o> .\n<a:s> <a:p>\n\n", (2, 12)),  # rdflib's own line count said 8
    ("# No DOT\n<a:s> <a:p> <a:o>\n", (3, 1)),  # at the end of the text (rdflib: offset -1)
    (read_text(W3C_SAMPLE / "turtle-syntax-bad-string-03.ttl"), (2, 16)),
])
def test_syntax_error_positions_are_read_from_the_text(text, where):
    kind, (_, _, position) = outcome(text)
    assert kind == "error" and (position.line, position.column) == where
