"""The façade end to end: the paper's running example (Examples 1–8) and CSRBench on real data."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.rdffiles import read_turtle_folder
from rdflib import Dataset, Graph, Literal, Namespace

from lars.errors import InputError
from lars.streams import Timeline
from tests.translate import csrbench
from tests.translate.solving import row_set, solve
from translate import (
    background_atoms, chop, input_atoms, lars_stream, parse_query, query_background, translate,
)
from translate.engines import engine
from translate.rdf import RdfTermEncoder

EX = Namespace("http://ex.org/")
Q1 = """PREFIX : <http://ex.org/>
SELECT ?shop ?product ?percent
FROM <http://ex.org/static>
FROM STREAM <http://ex.org/s1> [RANGE 30m]
FROM STREAM <http://ex.org/s2> [RANGE 5m]
WHERE { ?shop :offers ?coupon . ?coupon :reduce ?percent . ?coupon :on ?product .
        ?user :isNear ?shop . ?product :g_classify ?gender .
        FILTER (?percent >= 20 && ?gender != 1) }"""
Q2 = """PREFIX : <http://ex.org/>
SELECT ?shop ?product ?percent
FROM <http://ex.org/static>
WHERE { STREAM <http://ex.org/s1> [RANGE 30m] {
          ?shop :offers ?coupon . ?coupon :reduce ?percent . ?coupon :on ?product . }
        STREAM <http://ex.org/s2> [RANGE 5m] { ?user :isNear ?shop . }
        ?product :g_classify ?gender .
        FILTER (?percent >= 20 && ?gender != 1) }"""
STATIC = Graph()
STATIC.add((EX.mbt, EX.g_classify, Literal(1)))
STATIC.add((EX.rayban, EX.g_classify, Literal(0)))
ELEMENTS = [  # paper Example 5, as RDF: offers on s1 at 10 and 15, isNear on s2 at 18
    ((EX.a, EX.offers, EX.c1), 10, EX.s1), ((EX.c1, EX.on, EX.mbt), 10, EX.s1),
    ((EX.c1, EX.reduce, Literal(30)), 10, EX.s1),
    ((EX.b, EX.offers, EX.c2), 15, EX.s1), ((EX.c2, EX.on, EX.rayban), 15, EX.s1),
    ((EX.c2, EX.reduce, Literal(25)), 15, EX.s1),
    ((EX.claire, EX.isNear, EX.a), 18, EX.s2), ((EX.claire, EX.isNear, EX.b), 18, EX.s2),
]
ANSWER = {"shop": EX.b, "product": EX.rayban, "percent": Literal(25)}


def run(translation, t: int) -> list[dict]:
    encoder = translation.encoder()
    background = query_background(translation.query, {EX.static: STATIC}, encoder)
    contents = input_atoms(ELEMENTS, encoder)
    (stream,) = solve(translation.program, background, contents, t, Timeline(0, 50))
    return translation.rows(chop(stream), encoder, chopped=True)


@pytest.mark.parametrize(("text", "engine_name", "mode", "variant"), [
    pytest.param(Q1, "csparql", "pull", "brave", id="csparql-pull"),
    pytest.param(Q2, "csparql", "pull", "brave", id="cqels-text-as-csparql"),
    pytest.param(Q2, "cqels", "push", "brave", id="cqels-brave-push"),
    pytest.param(Q2, "cqels", "push", "cautious", id="cqels-cautious-push"),
    pytest.param(Q2, "cqels", "none", "bc", id="cqels-bc"),
])
def test_running_example_at_18(text: str, engine_name: str, mode: str, variant: str) -> None:
    translation = translate(parse_query(text, unit="1m"), engine_name, variant=variant, mode=mode,
                            period_ticks=1)
    assert run(translation, 18) == [ANSWER]
    assert list(run(translation, 18)[0]) == ["shop", "product", "percent"]


@pytest.mark.parametrize(("t", "push_rows", "plain_rows"), [
    pytest.param(15, [], [], id="offer-without-nearby-user"),
    pytest.param(18, [ANSWER], [ANSWER], id="input-at-18"),
    pytest.param(20, [], [ANSWER], id="no-input-at-20"),
    pytest.param(24, [], [], id="is-near-expired"),
])
def test_push_answers_only_when_input_arrives(t: int, push_rows, plain_rows) -> None:
    query = parse_query(Q2, unit="1m")
    assert run(translate(query, "cqels", mode="push"), t) == push_rows
    assert run(translate(query, "cqels"), t) == plain_rows


def test_answer_spec() -> None:
    translation = translate(parse_query(Q2, unit="1m"), "cqels")
    assert translation.answer.predicate == "ans_1"
    assert translation.answer.variables == ("percent", "product", "shop")
    assert translation.answer.select_order == ("shop", "product", "percent")
    assert translation.answer.arity == 5
    assert (translation.dataset.value, translation.streams.value) == ("default", "streams")
    assert translation.background == {("triple", 4)} and translation.inputs == {("striple", 4)}


def test_engine_and_mode_errors() -> None:
    query = parse_query(Q2, unit="1m")
    with pytest.raises(InputError, match="did you mean 'cqels'"):
        translate(query, "cqles")
    with pytest.raises(InputError, match="unknown mode 'pushy'"):
        translate(query, "cqels", mode="pushy")
    with pytest.raises(InputError, match="did you mean 'csparql'"):
        engine("csparq")


def test_query_background_maps_from_and_from_named() -> None:
    query = parse_query("SELECT * FROM <http://ex.org/d> FROM NAMED <http://ex.org/g> "
                        "WHERE { ?s ?p ?o }")
    encoder = RdfTermEncoder()
    atoms = query_background(query, {EX.d: STATIC, EX.g: STATIC}, encoder)
    assert {a.args[3].value for a in atoms} == {"default", "http://ex.org/g"}
    with pytest.raises(InputError, match="no data given for FROM NAMED <http://ex.org/g>"):
        query_background(query, {EX.d: STATIC}, encoder)


def test_background_atoms_of_a_dataset() -> None:
    data = Dataset()
    data.default_graph.add((EX.a, EX.p, EX.b))
    data.graph(EX.g).add((EX.a, EX.p, EX.c))
    atoms = background_atoms(data, RdfTermEncoder())
    assert {a.args[3].value for a in atoms} == {"default", "http://ex.org/g"}


def test_input_atoms_need_a_stream() -> None:
    with pytest.raises(InputError, match="no stream IRI"):
        input_atoms([((EX.a, EX.p, EX.b), 3, None)], RdfTermEncoder())
    contents = input_atoms([((EX.a, EX.p, EX.b), 3, None)], RdfTermEncoder(), stream=EX.s)
    assert lars_stream(contents).timeline == Timeline(0, 3)


# --- CSRBench on the recorded data: τ1/τ2 answers = rdflib on the window's triples -------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "csrbench"
CSRBENCH = EXAMPLES / "stream"


def _example(path: Path):
    return pytest.param(path, id=path.stem)


@pytest.mark.parametrize("path", [_example(p) for p in sorted((EXAMPLES / "queries").glob("*.rq"))])
def test_example_queries_parse_and_translate(path: Path) -> None:
    query = parse_query(path.read_text(), source=str(path))
    assert query.engine == path.stem.split("-")[1]
    translate(query, query.engine, mode="push" if query.engine == "cqels" else "pull",
              period_ticks=1)


@pytest.fixture(scope="module")
def csrbench_elements():
    """The bundled CSRBench stream (examples/csrbench); a missing folder fails, never skips."""
    return list(read_turtle_folder(CSRBENCH))


@pytest.mark.parametrize(("number", "syntax", "t"), [
    pytest.param(1, "cqels", 20, id="q1-cqels-20"),
    pytest.param(3, "cqels", 20, id="q3-cqels-20"),
    pytest.param(6, "csparql", 10, id="q6-csparql-10"),
    pytest.param(7, "cqels", 24, id="q7-cqels-24"),
    pytest.param(2, "csparql", 24, id="q2-csparql-24"),
])
def test_csrbench_answers_match_rdflib_on_the_window(csrbench_elements, number, syntax, t) -> None:
    translation = translate(parse_query(getattr(csrbench, syntax)(number)), syntax)
    encoder = translation.encoder()
    contents = input_atoms(csrbench_elements, encoder)
    (stream,) = solve(translation.program, (), contents, t, Timeline(0, 33))
    ours = row_set(translation.rows(chop(stream), encoder, chopped=True))
    window = translation.query.streams[0].window
    pivot = t // window.step * window.step
    graph = Graph()
    for element in csrbench_elements:
        if pivot - window.length <= element.time <= pivot:
            graph.add(element.triple)
    select, _, _, pattern, filters = csrbench.QUERIES[number]
    text = f"{csrbench.PREFIXES}SELECT {select} WHERE {{ {pattern} {filters} }}"
    expected = row_set({str(k): v for k, v in b.items()} for b in graph.query(text).bindings)
    assert ours == expected and ours


def test_slice_atoms_are_input_atoms_and_fail_as_they_do() -> None:
    """lars agree's per-slice encoding gives :func:`input_atoms`' atoms, and its errors, placed."""
    from rdflib import URIRef
    from ingest.rdffiles import StreamTriple
    from lars.errors import Position
    from translate.api import input_atoms, slice_atoms
    ex, stream = "http://ex.org/", URIRef("http://ex.org/s")
    good = [StreamTriple(3, stream, (URIRef(ex + "a"), URIRef(ex + "p"), Literal(n)), Position("s.nt", n))
            for n in (1, 2, 1)]
    encoder = RdfTermEncoder()
    assert slice_atoms(good, encoder) == input_atoms(good, RdfTermEncoder())[3]
    unnamed = [*good, StreamTriple(3, None, good[0].triple, Position("s.nt", 9))]
    with pytest.raises(InputError, match="no stream IRI") as caught:
        slice_atoms(unnamed, encoder)
    assert caught.value.position.line == 9
    nul = [*good, StreamTriple(3, stream, (URIRef(ex + "a"), URIRef(ex + "p"), Literal("a\x00b")),
                               Position("s.nt", 12))]
    with pytest.raises(InputError, match="holds NUL") as refused:
        slice_atoms(nul, encoder)
    assert str(refused.value).startswith("s.nt:12")
