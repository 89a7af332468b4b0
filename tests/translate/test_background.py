"""Only the static triples a query can read reach the solver (translate/background.py, issue 29).

The filter is judged by the answers: every query below, over generated static data and
streams, must give the same answer streams with the filtered background as with the whole
one (the background before this filter existed), and the filter must leave triples out where
the query's patterns allow it (else it filters nothing and the test of it proves nothing).
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef

from lars.atoms import Atom
from lars.parser import parse_program
from lars.streams import Timeline
from lars.terms import Iri, Name, Number
from solver.strategies import evaluate
from translate.api import input_atoms, parse_query, query_background, translate
from translate.background import background_patterns
from translate.rdf import STRIPLE

EX = "http://ex.org/"
PREFIX = f"PREFIX : <{EX}>\n"
QUERIES = {
    "constant-predicate": "SELECT ?s ?r ?v FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . ?s :in ?r . }",
    "constant-object": "SELECT ?s ?v FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . ?s :in :r1 . }",
    "variable-predicate": "SELECT ?s ?p ?v FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . ?s ?p :r1 . }",
    "not-exists": "SELECT ?s ?v FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . FILTER NOT EXISTS { ?s :in :r2 } }",
    "optional": "SELECT ?s ?v ?r FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . OPTIONAL { ?s :in ?r } }",
    "path": "SELECT ?s ?x FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :v ?v . ?s :in/:near* ?x . }",
    "named-graph": ("SELECT ?s ?g ?r FROM STREAM :s [RANGE 3s STEP 1s] FROM NAMED :g "
                    "WHERE { ?s :v ?v . GRAPH ?g { ?s :in ?r } }"),
    "stream-triple-in-default-graph": "SELECT ?s ?o FROM STREAM :s [RANGE 3s STEP 1s] WHERE { ?s :in ?o . }",
}
NAMES = [f"{EX}{n}" for n in ("a", "b", "c", "r1", "r2")]
PREDICATES = [f"{EX}{p}" for p in ("in", "near", "label", "v", "other")]
terms = st.sampled_from(NAMES).map(URIRef)
objects = st.one_of(terms, st.integers(0, 2).map(Literal))
static = st.lists(st.tuples(terms, st.sampled_from(PREDICATES).map(URIRef), objects), max_size=12)
stream = st.lists(st.tuples(st.sampled_from(NAMES[:3]).map(URIRef), st.sampled_from(["v", "in"]),
                            st.integers(0, 2), st.integers(0, 4)), max_size=6)


@functools.lru_cache(maxsize=None)
def translated(name: str, engine: str):
    """The query ``name`` in ``engine``'s syntax (CQELS: the stream pattern in a STREAM block)."""
    text = QUERIES[name]
    if engine == "cqels":
        text = text.replace("FROM STREAM :s [RANGE 3s STEP 1s] ", "").replace(
            "WHERE { ?s :v ?v .", "WHERE { STREAM :s [RANGE 3s] { ?s :v ?v . }")
    query = parse_query(PREFIX + text, "q.rq", engine, "1s")
    return query, translate(query, engine)


def answers(name: str, engine: str, graphs: dict, elements: list, filtered: bool) -> tuple[list, int]:
    query, translation = translated(name, engine)
    encoder = translation.encoder()
    wanted = background_patterns([translation.program]) if filtered else None
    background = query_background(query, graphs, encoder, wanted)
    timed = [((s, URIRef(EX + p), Literal(v) if p == "v" else URIRef(NAMES[3 + v % 2])), t, URIRef(EX + "s"))
             for s, p, v, t in elements]
    slices = sorted(input_atoms(timed, encoder).items())
    found = evaluate(translation.program, slices, Timeline(0, 5), background,
                     shown={translation.answer.predicate}, inputs={(STRIPLE, 4)})
    return [(a.time, sorted(sorted(map(repr, s)) for s in a.streams)) for a in found], len(background)


def graphs_of(default: list, named: list) -> dict:
    graphs = {None: Graph(), URIRef(EX + "g"): Graph()}
    for triple in default:
        graphs[None].add(triple)
    for triple in named:
        graphs[URIRef(EX + "g")].add(triple)
    return graphs


CASES = [pytest.param(name, "csparql", id=f"{name}-csparql") for name in QUERIES] + [
    pytest.param(name, "cqels", id=f"{name}-cqels") for name in ("constant-object", "not-exists", "path")]


@pytest.mark.parametrize("name, engine", CASES)
@settings(max_examples=30, derandomize=True, deadline=None)
@given(default=static, named=static, elements=stream)
def test_filtered_background_gives_the_same_answers(name, engine, default, named, elements):
    graphs = graphs_of(default, named)
    assert answers(name, engine, graphs, elements, True)[0] == answers(name, engine, graphs, elements, False)[0]


def test_the_filter_leaves_out_what_no_pattern_reads():
    other = [(URIRef(NAMES[0]), URIRef(f"{EX}label"), Literal("x")),
             (URIRef(NAMES[1]), URIRef(f"{EX}other"), URIRef(NAMES[2]))]
    located = [(URIRef(NAMES[0]), URIRef(f"{EX}in"), URIRef(NAMES[3]))]
    graphs = graphs_of(other + located, other)
    _, kept = answers("constant-predicate", "csparql", graphs, [], True)
    _, whole = answers("constant-predicate", "csparql", graphs, [], False)
    assert (kept, whole) == (1, 5)  # the named graph too: a query without FROM reads every graph


def test_patterns_come_from_bodies_and_box_over_variables_keeps_everything():
    program = parse_program("triple(S,P,O,default) :- [3] <> striple(S,P,O,<http://ex.org/s>).\n"
                            "a(S) :- triple(S,<http://ex.org/in>,<http://ex.org/r1>,default).")
    wanted = background_patterns([program])
    assert wanted.patterns == {(None, Iri(f"{EX}in"), Iri(f"{EX}r1"), Name("default"))}
    assert not wanted.admits(Atom("triple", (Iri(NAMES[0]), Iri(f"{EX}in"), Iri(NAMES[4]), Name("default"))))
    assert wanted.admits(Atom("triple", (Iri(NAMES[0]), Iri(f"{EX}in"), Iri(NAMES[3]), Name("default"))))
    assert wanted.predicates(Iri(f"{EX}g")) == frozenset()  # reads no named graph
    assert not wanted.reads_graph(Iri(f"{EX}g"))
    box = parse_program("a(X) :- [3] [] p(X), triple(X, <http://ex.org/in>, Y, default).")
    assert background_patterns([box]) is None
    assert background_patterns([parse_program("a :- [3] [] p(1), triple(1, 2, 3, default).")]).patterns \
        == {(Number(1), Number(2), Number(3), Name("default"))}
