"""Where the CQELS side of a C-SPARQL query cannot be derived, the refusal points at the construct.

``lars agree QUERY`` (and ``--analyze``, ``--follow``, ``lars witness``) derives the CQELS side
of a C-SPARQL query (:func:`agreement.defaults.derive_cqels`) and refuses where it cannot be the
same query. The refusals said ``error: …`` with no position (newcomer finding): now each names
``file:line:col`` of the triple pattern or stream clause concerned, found again in the text by
:mod:`translate.positions` (the query model keeps no positions).
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from rdflib import URIRef

import pytest

from tests.badinput.clirun import assert_refused, lars
from translate.positions import stream_position, triple_position
from translate.rsp import TriplePattern, Var
from translate.scanner import SourceText

HEAD = "PREFIX : <http://ex.org/>\nSELECT ?s\nFROM STREAM <http://ex.org/s> [RANGE 5s STEP 5s]\n"
BOTH = "FROM STREAM <http://ex.org/r> [RANGE 5s STEP 5s]\n"
ON_S = ("<http://ex.org/a> <http://ex.org/p> <http://ex.org/z> <http://ex.org/s> 1\n"
        "<http://ex.org/a> <http://ex.org/q> <http://ex.org/z> <http://ex.org/s> 2\n")
ON_BOTH = ON_S + "<http://ex.org/a> <http://ex.org/p> <http://ex.org/z> <http://ex.org/r> 2\n"

CASES = [
    pytest.param(HEAD + "WHERE {\n  ?s :p ?o .\n  FILTER NOT EXISTS { ?s :q ?x }\n}\n", ON_S, None, (),
                 "q.rq:6:23: error: the CQELS side cannot be derived exactly from this C-SPARQL "
                 "query ({?s :q ?x} stays outside its STREAM pattern)", id="stream-pattern-in-not-exists"),
    pytest.param(HEAD + BOTH + "WHERE {\n  ?s :p ?o .\n}\n", ON_BOTH, None, (),
                 "q.rq:6:3: error: the triple pattern {?s :p ?o} matches triples of several streams",
                 id="pattern-on-two-streams"),
    pytest.param(HEAD + "WHERE {\n  ?s :p _:b . _:b :k ?c .\n}\n", ON_S,
                 "<http://ex.org/b> <http://ex.org/k> <http://ex.org/c> .\n", (),
                 "q.rq:5:15: error: the blank node in {_:b1 :k ?c} joins a stream triple pattern",
                 id="blank-node-joins-stream-and-static"),
    pytest.param(HEAD + "FROM STREAM <http://ex.org/s> [RANGE 10s STEP 5s]\nWHERE { ?s :p ?o }\n", ON_S,
                 None, ("--period", "5s"),
                 "q.rq:4:13: error: the stream <http://ex.org/s> has two windows", id="two-windows"),
    pytest.param(HEAD + BOTH + "WHERE { ?s :p ?o }\n", ON_S, None, (),
                 "q.rq:4:13: error: the CQELS side cannot be derived exactly from this C-SPARQL "
                 "query (no triple pattern reads the stream <http://ex.org/r>)", id="stream-read-by-none"),
    pytest.param(HEAD + BOTH + "WHERE {\n  ?s :p ?o .\n}\n", None, None, ("--analyze", "--period", "5s"),
                 "q.rq:6:3: error: with no triple of the query's streams to look at, which of them "
                 "the triple pattern {?s :p ?o} reads cannot be told", id="analyze-which-stream"),
    pytest.param(HEAD + BOTH + "WHERE {\n  ?s :p ?o .\n}\n", ON_BOTH, None, ("--follow",),
                 "q.rq:4:13: error: the CQELS side of this C-SPARQL query is derived from the "
                 "stream's triples (which of its streams each triple pattern reads)", id="follow-two-streams"),
]


@pytest.mark.parametrize(("query", "stream", "static", "options", "said"), CASES)
def test_agree_points_at_what_cannot_be_derived(tmp_path, monkeypatch, query, stream, static,
                                                options, said):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.rq").write_text(query)
    argv = ["agree", "q.rq", *options]
    if stream is not None:
        (tmp_path / "s.nt").write_text(stream)
        argv += ["--stream", "s.nt"]
    if static is not None:
        (tmp_path / "b.nt").write_text(static)
        argv += ["--static", "b.nt"]
    status, out, err = lars(*argv)
    assert assert_refused(status, err).startswith(said), err


def test_witness_points_at_the_pattern_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.rq").write_text(HEAD + BOTH + "WHERE {\n  ?s :p ?o .\n}\n")
    status, out, err = lars("witness", "q.rq", "--period", "5s")
    assert assert_refused(status, err).startswith("q.rq:6:3: error: with no triple"), err


NAMES = ["p", "q", "knows", "k2"]


@st.composite
def written_bgps(draw):
    """A BGP written with random layout, some triples after ``;`` (same subject) and some
    predicates as full IRIs, and where each triple's subject (or, after ``;``, its predicate)
    was written: the offsets a reading of the text must find."""
    count = draw(st.integers(1, 5))
    parts, expected, offset = ["PREFIX : <http://e/>\nSELECT * WHERE {"], [], None
    text_length = len(parts[0])
    subject = None
    for k in range(count):
        space = draw(st.sampled_from([" ", "\n", "\n    ", "  "]))
        predicate = draw(st.sampled_from(NAMES))
        full = draw(st.booleans())
        obj = f"o{k}"
        verb = f"<http://e/{predicate}>" if full else f":{predicate}"
        if subject is not None and draw(st.booleans()):
            chunk = f" ;{space}"
            offset = text_length + len(chunk)
            chunk += f"{verb} ?{obj}"
        else:
            subject = draw(st.sampled_from(["s", "t", "u"]))
            chunk = (" ." if k else "") + space
            offset = text_length + len(chunk)
            chunk += f"?{subject} {verb} ?{obj}"
        parts.append(chunk)
        text_length += len(chunk)
        expected.append((TriplePattern(Var(subject), URIRef(f"http://e/{predicate}"), Var(obj)), offset))
    text = "".join(parts) + " }"
    return text, expected


@settings(max_examples=60, derandomize=True, deadline=None)
@given(written_bgps())
def test_each_triple_is_found_where_it_was_written(written):
    text, expected = written
    source = SourceText(text, "q.rq")
    for triple, offset in expected:
        assert triple_position(source, triple, [("", "http://e/")]) == source.position(offset), text


def test_a_triple_that_is_not_written_is_not_found():
    source = SourceText("PREFIX : <http://e/> SELECT * WHERE { ?s :p ?o }")
    absent = TriplePattern(Var("s"), URIRef("http://e/q"), Var("o"))
    assert triple_position(source, absent, [("", "http://e/")]) is None
    assert stream_position(source, URIRef("http://e/s")) is None
