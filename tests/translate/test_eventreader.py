"""The event query reader: the syntax of docs/events.md, and its errors with positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from lars.errors import InputError, ParseError, UnsupportedError
from translate.eventreader import read_event_query
from translate.scanner import is_event_query
from translate.events import (
    SELECTIONS, AllWindow, First, LandmarkWindow, Last, Seq, pattern_text, with_selection,
)
from translate.rsp import RangeWindow

HEAD = """PREFIX : <http://ex.org/>
SELECT ?x
FROM NAMED :S WIN [LND 1] AS :w1
FROM NAMED :S WIN [RANGE 5] AS :w2
EVENT ON :w1 { ?x :p ?y } AS A
EVENT ON :w2 { ?y :q ?x } AS B
"""


def read(match: str, head: str = HEAD):
    return read_event_query(head + f"WHERE {{ MATCH {{ {match} }} }}", "q.rq")


@pytest.mark.parametrize("match, printed", [
    pytest.param("A SEQ B", "A SEQ B", id="seq"),
    pytest.param("A SEQ^n B", "A SEQ^n B", id="seq-n"),
    pytest.param("A seq^C B", "A SEQ^c B", id="seq-c-any-case"),
    pytest.param("A SEQR B", "A SEQ^r B", id="seq-r-one-word"),
    pytest.param("A SEQ B SEQ A", "A SEQ B SEQ A", id="left-associative"),
    pytest.param("A SEQ (B SEQ A)", "A SEQ (B SEQ A)", id="parentheses"),
    pytest.param("FIRST (A SEQ B)", "FIRST (A SEQ B)", id="first"),
    pytest.param("LAST A SEQ FIRST B", "LAST A SEQ FIRST B", id="last-binds-tighter"),
])
def test_match_patterns(match, printed):
    assert pattern_text(read(match).pattern) == printed


def test_structure_of_nesting():
    pattern = read("LAST A SEQ^c (B SEQ A)").pattern
    assert isinstance(pattern, Seq) and pattern.selection == "chronological"
    assert isinstance(pattern.left, Last) and isinstance(pattern.right, Seq)
    assert isinstance(read("FIRST A").pattern, First)


@pytest.mark.parametrize("window, expected", [
    pytest.param("[LND 3]", LandmarkWindow(3), id="landmark"),
    pytest.param("[LND 2s]", LandmarkWindow(2), id="landmark-duration"),
    pytest.param("[RANGE 7 STEP 2]", RangeWindow(7, 2), id="range-step"),
    pytest.param("[RANGE 4s SLIDE 2s]", RangeWindow(4, 2), id="range-slide-duration"),
    pytest.param("[ID]", AllWindow(), id="identity"),
    pytest.param("[ALL]", AllWindow(), id="all"),
])
def test_windows(window, expected):
    query = read("A", HEAD.replace("[LND 1]", window))
    assert query.window(URIRef("http://ex.org/w1")).window == expected


def test_select_star_takes_every_variable_of_match():
    assert [v.name for v in read("A SEQ B", HEAD.replace("?x\n", "*\n", 1)).variables] == ["x", "y"]


def test_detects_event_queries():
    assert is_event_query(HEAD + "WHERE { MATCH { A } }")
    assert is_event_query("SELECT ?x WHERE { ?x <p> ?y FILTER(timestamp(?x,<p>,?y) < 3) }")
    assert not is_event_query("SELECT ?x WHERE { ?x <http://e/EVENT> ?y }")


@pytest.mark.parametrize("text, error, message, where", [
    pytest.param(HEAD + "WHERE { MATCH { A SEQ C } }", ParseError, "expected an event name (A, B)",
                 "q.rq:7:23", id="unknown-event"),
    pytest.param(HEAD.replace("ON :w2", "ON :w9") + "WHERE { MATCH { A } }", ParseError,
                 "no window named <http://ex.org/w9>", "q.rq:6:10", id="unknown-window"),
    pytest.param(HEAD.replace("?y :q ?x", "_:b :q ?x") + "WHERE { MATCH { A } }", UnsupportedError,
                 "blank nodes", "q.rq:6:14", id="blank-node"),
    pytest.param(HEAD.replace("{ ?y :q ?x }", "{ ?y :q ?x OPTIONAL { ?x :r ?y } }")
                 + "WHERE { MATCH { A } }", UnsupportedError, "basic graph pattern", "q.rq:6:14",
                 id="not-a-bgp"),
    pytest.param(HEAD + "WHERE { ?x :p ?y }", ParseError, "expected MATCH", "q.rq:7:9",
                 id="no-match"),
    pytest.param(HEAD.replace("SELECT ?x", "SELECT ?w") + "WHERE { MATCH { A } }", ParseError,
                 "?w is selected but no event pattern", "q.rq:2:1", id="unbound-select"),
    pytest.param(HEAD + "WHERE { MATCH { A SEQ^x B } }", ParseError, "SEQ^n, SEQ^c or SEQ^r",
                 "q.rq:7:19", id="bad-seq-variant"),
    pytest.param(HEAD.replace("[LND 1]", "[RANGE 0]") + "WHERE { MATCH { A } }", ParseError,
                 "α ≥ 1", "q.rq:3", id="empty-range"),
    pytest.param(HEAD.replace("[LND 1]", "[RANGE 1500ms]") + "WHERE { MATCH { A } }", InputError,
                 "not a whole number of ticks", "q.rq:3:26", id="fractional-duration"),
])
def test_errors(text, error, message, where):
    with pytest.raises(error) as caught:
        read_event_query(text, "q.rq")
    assert message in str(caught.value) and str(caught.value).startswith(where), str(caught.value)


CSPARQL = """REGISTER QUERY q COMPUTED EVERY 2 AS
PREFIX : <http://ex.org/>
SELECT ?x ?z
FROM STREAM :S [RANGE 7 STEP 1]
WHERE { ?x :p ?y . ?y :q ?z . FILTER (timestamp(?y, :q, ?z) > timestamp(?x, :p, ?y)) }
"""


def test_timestamp_idiom_reads_as_seq_n_in_either_direction():
    query = read_event_query(CSPARQL)
    assert pattern_text(query.pattern) == "E1 SEQ^n E2" and query.every == 2
    assert query.pattern.left.pattern.triples[0].predicate == URIRef("http://ex.org/p")
    assert query.windows[0].window == RangeWindow(7, 1) and query.engine == "csparql"


@pytest.mark.parametrize("change, message", [
    pytest.param(("?y :q ?z . FILTER", "?y :q ?z . ?z :r ?x FILTER"), "exactly the two triple patterns",
                 id="extra-triple"),
    pytest.param(("[RANGE 7 STEP 1]", "[LND 1]"), "other than [RANGE", id="landmark"),
    pytest.param((") > timestamp", ") = timestamp"), "compares with < or >", id="equality"),
])
def test_timestamp_idiom_refusals(change, message):
    with pytest.raises((UnsupportedError, ParseError)) as caught:
        read_event_query(CSPARQL.replace(*change))
    assert message in str(caught.value)


def render(pattern) -> str:
    """A MATCH clause for ``pattern`` whose basic patterns are A and B."""
    return HEAD + f"WHERE {{ MATCH {{ {pattern_text(pattern)} }} }}"


LEAVES = read("A SEQ B").pattern
patterns = st.recursive(st.sampled_from((LEAVES.left, LEAVES.right)), lambda inner: st.one_of(
    st.builds(First, inner), st.builds(Last, inner),
    st.builds(Seq, inner, inner, st.sampled_from(SELECTIONS))), max_leaves=5)


@settings(max_examples=100)
@given(patterns)
def test_printed_patterns_read_back_to_the_same_pattern(pattern):
    """``read(print(E)) == E`` on random nestings of FIRST, LAST and the four SEQ."""
    assert read_event_query(render(pattern)).pattern == pattern


def test_profiles_rewrite_only_plain_seq():
    pattern = read("(A SEQ^n B) SEQ FIRST (B SEQ A)").pattern
    assert pattern_text(with_selection(pattern, "recent")) == "A SEQ^n B SEQ^r FIRST (B SEQ^r A)"
