"""The RSP-QL reader (RSP4J's syntax) and the behaviours RSP4J documents, under the rsp4j profile.

Behaviours (RSP-QL semantics, Dell'Aglio et al. 2014; RSP4J's ``CSPARQLStreamToRelationOp``:
an element at ``t`` is in ``[o, c)`` when ``o ≤ t < c``; ``MultipleWindowTest``, join and
aggregate operator tests): several windows on one stream, a join of two streams' windows,
COUNT over an empty window, and a right-open window leaving out an event at its end.
"""

from __future__ import annotations

import pytest
from rdflib import Graph, URIRef

from agreement.check.expected import reports
from ingest.eager import query_data
from ingest.rdffiles import StreamTriple
from lars.errors import ParseError, Position, UnsupportedError
from lars.streams import Timeline
from translate.api import parse_query
from translate.engines import guess_engine
from translate.profiles import profile
from translate.reports import compile_profile
from translate.rsp import RangeWindow, TriplesWindow
from translate.rspql import read_rspql

EX = "http://ex.org/"
HEAD = "PREFIX : <http://ex.org/>\nREGISTER RSTREAM :out AS\n"


def test_register_windows_and_window_blocks_make_the_cqels_query():
    rspql = read_rspql(HEAD + "SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT10S STEP PT5S] "
                       "WHERE { WINDOW :w { ?s :p ?o } }")
    cqels = parse_query("PREFIX : <http://ex.org/>\nSELECT ?s WHERE { STREAM :s [RANGE 10s SLIDE 5s] "
                        "{ ?s :p ?o } }")
    assert rspql == cqels
    assert rspql.r2s == "rstream" and rspql.name == EX + "out" and rspql.engine == "rspql"


@pytest.mark.parametrize("operator", ["RSTREAM", "ISTREAM", "DSTREAM"])
def test_r2s_operator_is_kept(operator):
    q = read_rspql(HEAD.replace("RSTREAM", operator) + "SELECT ?s FROM NAMED WINDOW :w ON :s "
                   "[RANGE PT2S] WHERE { WINDOW :w { ?s :p ?o } }")
    assert q.r2s == operator.lower()


@pytest.mark.parametrize("window, unit, expected", [
    pytest.param("[RANGE PT2S STEP PT1S]", "1s", RangeWindow(2, 1), id="seconds"),
    pytest.param("[RANGE PT1.5S STEP PT0.5S]", "500ms", RangeWindow(3, 1), id="fraction"),
    pytest.param("[RANGE PT1M STEP PT30S]", "1s", RangeWindow(60, 30), id="minutes"),
    pytest.param("[RANGE P1DT1H]", "1h", RangeWindow(25, 1), id="days"),
    pytest.param("[ELEMENTS 5]", "1s", TriplesWindow(5), id="elements"),
])
def test_windows_and_iso_durations(window, unit, expected):
    q = read_rspql(HEAD + f"SELECT ?s FROM NAMED WINDOW :w ON :s {window} "
                   "WHERE { WINDOW :w { ?s :p ?o } }", unit=unit)
    assert q.streams[0].window == expected


@pytest.mark.parametrize("text, error, message, column", [
    pytest.param("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT2S] WHERE { WINDOW :v { ?s :p ?o } }",
                 ParseError, "WINDOW :v names no FROM NAMED WINDOW", 66, id="unknown-window"),
    pytest.param("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT2S] WHERE { WINDOW ?w { ?s :p ?o } }",
                 UnsupportedError, "WINDOW \\?variable", 66, id="window-variable"),
    pytest.param("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE P1Y] WHERE { WINDOW :w { ?s :p ?o } }",
                 ParseError, "ISO 8601", 45, id="years"),
    pytest.param("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE 2s] WHERE { WINDOW :w { ?s :p ?o } }",
                 ParseError, "ISO 8601 duration", 45, id="not-iso"),
])
def test_errors_point_at_the_spot(text, error, message, column):
    with pytest.raises(error, match=message) as found:
        read_rspql(HEAD + text, source="q.rspql")
    assert (found.value.position.source, found.value.position.line,
            found.value.position.column) == ("q.rspql", 3, column)


def test_the_syntax_is_recognised():
    text = HEAD + "SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT2S] WHERE { WINDOW :w { ?s :p ?o } }"
    assert guess_engine(text) == "rspql" and parse_query(text).engine == "rspql"


# --- RSP4J's behaviours under the rsp4j profile ---------------------------------------------

def triple(time, stream, s, p, o):
    return StreamTriple(time, URIRef(EX + stream), (URIRef(EX + s), URIRef(EX + p), URIRef(EX + o)),
                        Position())


def reported(text, elements, end):
    q = read_rspql(HEAD + text)
    translation = compile_profile(q, profile("rsp4j"))
    data = query_data([translation], elements, {None: Graph()}, Timeline(0, end))
    def text(value):
        return str(value)[len(EX):] if isinstance(value, URIRef) else str(value)
    return [(r.time, sorted(tuple(text(v) for v in row) for row in r.rows))
            for r in reports(translation, data)]


def test_a_right_open_window_leaves_out_the_event_at_its_end():
    # [RANGE PT2S STEP PT2S]: the event at 2 s is in [2, 4), not in [0, 2)
    found = reported("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT2S STEP PT2S] "
                     "WHERE { WINDOW :w { ?s :p ?o } }",
                     [triple(1, "s", "a", "p", "o"), triple(2, "s", "b", "p", "o")], 4)
    assert found == [(2, [("a",)]), (4, [("b",)])]


def test_windows_open_before_zero():
    # RSP4J opens [-2, 2) for RANGE 4 STEP 2: the first report is at 2
    found = reported("SELECT ?s FROM NAMED WINDOW :w ON :s [RANGE PT4S STEP PT2S] "
                     "WHERE { WINDOW :w { ?s :p ?o } }", [triple(1, "s", "a", "p", "o")], 6)
    assert found == [(2, [("a",)]), (4, [("a",)]), (6, [])]


def test_several_windows_on_one_stream():
    # w1 = [c-2, c), w2 = [c-4, c) on the same stream, closing together every 2 s
    text = ("SELECT ?x ?z FROM NAMED WINDOW :w1 ON :s [RANGE PT2S STEP PT2S] "
            "FROM NAMED WINDOW :w2 ON :s [RANGE PT4S STEP PT2S] "
            "WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }")
    elements = [triple(1, "s", "b", "q", "c"), triple(3, "s", "a", "p", "b")]
    found = reported(text, elements, 6)
    # at 4: w1 = [2,4) holds a p b, w2 = [0,4) holds b q c; at 6: w2 = [2,6) lost b q c
    assert (4, [("a", "c")]) in found and (6, []) in found
    assert all(rows == [] for time, rows in found if time != 4)


def test_a_join_of_two_streams_windows():
    text = ("SELECT ?x ?z FROM NAMED WINDOW :w1 ON :s1 [RANGE PT2S STEP PT2S] "
            "FROM NAMED WINDOW :w2 ON :s2 [RANGE PT2S STEP PT2S] "
            "WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }")
    elements = [triple(1, "s1", "a", "p", "b"), triple(1, "s2", "b", "q", "c"),
                triple(3, "s1", "d", "p", "e"), triple(4, "s2", "e", "q", "f")]
    found = reported(text, elements, 6)
    # a-b-c meet in [0,2); d p e (at 3, [2,4)) and e q f (at 4, [4,6)) never share a window
    assert found == [(2, [("a", "c")]), (4, []), (6, [])]


def test_count_over_an_empty_window_is_zero():
    found = reported("SELECT (COUNT(?s) AS ?n) FROM NAMED WINDOW :w ON :s [RANGE PT2S STEP PT2S] "
                     "WHERE { WINDOW :w { ?s :p ?o } }", [triple(1, "s", "a", "p", "o")], 4)
    assert [(t, [tuple(int(v) for v in row) for row in rows]) for t, rows in found] == [
        (2, [(1,)]), (4, [(0,)])]
