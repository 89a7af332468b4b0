"""The witness search (SPEC section 13) against ``lars agree`` and against brute force.

* soundness: on random small queries, every witness, written as timestamped N-Triples and given
  to ``lars agree``, disagrees on the interval the search reported;
* minimality: no stream over the same candidates with fewer triples (or as many, ending
  earlier) makes the engines disagree, by enumeration (:mod:`tests.agreement.witness_oracle`);
* completeness on small cases: when the search finds none, enumeration finds none either.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from rdflib import Dataset

from agreement.cli import main
from ingest.eager import static_graphs
from agreement.witness.child import Watch
from agreement.witness.find import find_witness
from agreement.witness.search import Bounds
from lars.errors import LarsError
from tests.agreement.witness_oracle import count_smaller, smaller_witnesses
from tests.translate.sparql_gen import datasets, queries
from translate.api import parse_query

PREFIX = "PREFIX ex: <http://ex.org/>\n"
MAX_ENUMERATED = 600


def search(query_text: str, period: int, bounds: Bounds, graphs=None):
    query = parse_query(query_text, "<q>", "cqels")
    graphs = graphs if graphs is not None else static_graphs([], query)
    return query, graphs, *find_witness(query, graphs, period, bounds)


def assert_minimal(query, graphs, period, bounds, result, witness, random: bool = True) -> None:
    times = range(bounds.earliest, bounds.horizon + 1)
    candidates = result.vocabulary.candidates
    size = len(witness.elements) if witness else bounds.max_triples
    last = witness.last if witness else bounds.horizon + 1
    small = count_smaller(len(candidates), len(times), size) <= MAX_ENUMERATED
    if random:
        assume(small)
    assert small
    assert smaller_witnesses(query, graphs, period, bounds.horizon, candidates, times, size, last) == []


@pytest.mark.parametrize("text, period, bounds, expected", [
    pytest.param("SELECT ?x WHERE { STREAM <http://ex.org/s1> [RANGE 1s] { ?x ex:p ex:a } }", 3,
                 Bounds(2, 3, 1), (1, 1), id="expiring"),
    pytest.param("SELECT ?x WHERE { STREAM <http://ex.org/s1> [RANGE 2s] { ?x ex:p ?y . ?y ex:q ex:a } }",
                 2, Bounds(2, 2, 1), (2, 0), id="join"),
    pytest.param("SELECT ?x WHERE { STREAM <http://ex.org/s1> [RANGE 2s SLIDE 2s] { ?x ex:p 3 } }", 2,
                 Bounds(1, 2, 1, earliest=1), (1, 1), id="hopping"),
    pytest.param("SELECT ?x WHERE { STREAM <http://ex.org/s1> [ALL] { ?x ex:p ?y } FILTER(?y > 2) }", 3,
                 Bounds(2, 3, 1, earliest=1), None, id="none"),
])
def test_minimal_against_brute_force(text, period, bounds, expected):
    query, graphs, result, witness = search(PREFIX + text, period, bounds)
    assert (None if witness is None else (len(witness.elements), witness.last)) == expected
    assert_minimal(query, graphs, period, bounds, result, witness, random=False)


def test_filter_values_on_both_sides_are_in_the_vocabulary():
    _, _, result, _ = search(PREFIX + "SELECT ?x WHERE { STREAM <http://ex.org/s1> [NOW] "
                             "{ ?x ex:v ?y } FILTER(?y > 80) }", 2, Bounds(1, 2, 1))
    assert {str(v) for v in result.vocabulary.domains["y"]} >= {"79", "80", "81"}


def graphs_of(data: Dataset | None, query) -> dict:
    if data is None:
        return static_graphs([], query)
    graphs = {None if g.identifier.startswith("urn:x-rdflib:default") else g.identifier: g
              for g in data.graphs() if len(g)}
    graphs.setdefault(None, data.default_graph)
    return graphs


WINDOWS = ["[RANGE 3s]", "[RANGE 3s]", "[RANGE 2s SLIDE 2s]", "[TRIPLES 2]", "[NOW]", "[ALL]"]
cases = st.tuples(queries().filter(lambda case: case.cqels is not None), st.sampled_from([2, 3, 4]),
                  st.sampled_from([1, 2]), st.booleans(), st.one_of(st.none(), datasets()),
                  st.sampled_from(WINDOWS))


def check_random(tmp_path_factory, case) -> None:
    generated, period, intervals, own, data, window = case
    folder = tmp_path_factory.mktemp("witness")
    query_file = folder / "q.rq"
    query_file.write_text(generated.cqels.replace("[RANGE 3s]", window))
    argv = ["witness", str(query_file), "--period", f"{period}s", "--horizon", str(period * intervals),
            "--max-triples", "2", "--constants", "1", "--format", "json",
            "--output", str(folder / "w.nt"), "--max-ground", "400000"]
    if own:
        argv.append("--own-streams")
    if data is not None:
        data.serialize(folder / "static.trig", format="trig")
        argv += ["--static", str(folder / "static.trig")]
    status, document = run_json(argv)
    event(["witness", "none", "refused"][[1, 0, 2].index(status)])
    assume(status != 2)  # outside the fragment, or a collision of literals: not this test's concern
    if status == 0:
        return
    agree_status, report = run_json(document["check"].split()[1:] + ["--format", "json"])
    interval = document["interval"]
    [verdict] = [i for i in report["intervals"] if (i["start"], i["end"]) == (interval["start"], interval["end"])]
    assert agree_status == 1 and not verdict["agree"], (generated.cqels, window, document["stream"])


def run_json(argv: list[str]) -> tuple[int, dict]:
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    assert "internal error" not in err.getvalue(), err.getvalue()
    return status, json.loads(out.getvalue()) if status != 2 else {}


@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(case=cases)
def test_every_witness_makes_lars_agree_disagree(tmp_path_factory, case):
    check_random(tmp_path_factory, case)


def in_this_process(task, arguments, time_limit=None, on_progress=None):
    """:func:`agreement.witness.child.run_in_child` without the child: ``task`` run here, never
    asked to stop (the tests give no ``--time-limit``). A child process costs about a second of
    CPU to import the search (most of each example); the test above runs the real child."""
    assert time_limit is None
    return task(*arguments, Watch(stop=lambda: None, ruled_out=lambda k: None, stage=lambda s: None,
                                  progress=on_progress, offer=lambda result: None))


@pytest.mark.slow
@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(case=cases)
def test_every_witness_makes_lars_agree_disagree_many(tmp_path_factory, case):
    """The same soundness check on more examples, the search run in this process."""
    with mock.patch("agreement.witness.child.run_in_child", in_this_process):
        check_random(tmp_path_factory, case)


@pytest.mark.slow
@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(generated=queries().filter(lambda case: case.cqels is not None), period=st.sampled_from([2, 3]),
       window=st.sampled_from(WINDOWS))
def test_random_witnesses_are_minimal(generated, period, window):
    bounds = Bounds(2, period, 1)
    try:
        query, graphs, result, witness = search(generated.cqels.replace("[RANGE 3s]", window), period,
                                                bounds)
    except LarsError:  # outside the fragment: not this test's concern
        assume(False)
    assert_minimal(query, graphs, period, bounds, result, witness)
