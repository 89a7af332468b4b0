"""``lars agree`` solves each side as its plain program ``P`` and samples it where the trigger of
``℘(P)`` or ``℘(P, U)`` holds (:mod:`agreement.agree.streaming`): LARS applies rules at the reference
time only (SPEC section 3), so there both have the same answer. Checked on LARS programs that
read derived atoms through windows and derive atoms at other time points, and on the
translations of the running example and of CSRBench's queries over their streams."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.facade import prepare_run
from lars.atoms import Atom
from lars.parser import parse_program
from lars.streams import Timeline
from lars.terms import Number
from solver.strategies import evaluate
from translate.triggers import TRIGGER, pull, push

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
CSRBENCH = ROOT / "examples" / "csrbench"

PROGRAMS = [
    "q(X) :- [3] <> p(X). r(X) :- [2] [] q(X). s :- q(X), not r(X).",
    "@T q(X) :- [2] @T p(X). r(X) :- [4] <> q(X), not p(X).",
    "q(X) :- p(X). r :- [1] <> q(X), [3] [] q(Y), X != Y.",
]
streams = st.dictionaries(st.integers(0, 12), st.lists(st.integers(1, 3), min_size=1, max_size=3,
                                                       unique=True), max_size=8)


def answers(program, stream: dict[int, list[int]]) -> dict:
    slices = [(t, [Atom("p", (Number(v),)) for v in stream[t]]) for t in sorted(stream)]
    return {a.time: {frozenset((atom, time) for atom, time in s if atom.predicate != TRIGGER)
                     for s in a.streams}
            for a in evaluate(program, slices, Timeline(0, 12))}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PROGRAMS), streams, st.integers(1, 4))
def test_a_triggered_program_answers_as_the_plain_one_where_its_trigger_holds(text, stream, period):
    program = parse_program(text)
    plain = answers(program, stream)
    pushed, pulled = answers(push(program), stream), answers(pull(program, period), stream)
    assert all(pushed[t] == plain[t] for t in stream)
    assert all(pulled[t] == plain[t] for t in plain if t % period == 0)


def triggered_and_plain(query: Path, stream: Path, static: list[str], unit: str, mode: str,
                        period: int) -> tuple[dict, dict]:
    """A query's answers under ``mode`` at its trigger's time points, and the plain program's."""
    found = []
    for chosen in (mode, "none"):
        plan = prepare_run(query, stream=stream, static=static, unit=unit, mode=chosen, period=period)
        found.append({a.time: a.streams for a in plan.answers()})
    inputs = {t for t, atoms in plan.slices() if atoms}
    times = [t for t in found[0] if (t % period == 0 if mode == "pull" else t in inputs)]
    return {t: found[0][t] for t in times}, {t: found[1][t] for t in times}


RUNNING = [(COUPONS / f"{engine}.rq", COUPONS / "stream.nt", [str(COUPONS / "static.ttl")], "1m",
            mode) for engine, mode in (("cqels", "push"), ("csparql", "pull"))]
CSRBENCH_QUERIES = [(CSRBENCH / "queries" / f"q{n}-{engine}.rq", CSRBENCH / "stream", [], "1s", mode)
                    for n in range(1, 8) for engine, mode in (("cqels", "push"), ("csparql", "pull"))]


@pytest.mark.parametrize("query, stream, static, unit, mode", RUNNING, ids=["cqels", "csparql"])
def test_the_running_example_sampled_as_triggered(query, stream, static, unit, mode):
    triggered, plain = triggered_and_plain(query, stream, static, unit, mode, 10)
    assert triggered == plain and any(triggered.values())


@pytest.mark.slow
@pytest.mark.parametrize("query, stream, static, unit, mode", CSRBENCH_QUERIES,
                         ids=[q[0].name for q in CSRBENCH_QUERIES])
def test_csrbench_queries_sampled_as_triggered(query, stream, static, unit, mode):
    triggered, plain = triggered_and_plain(query, stream, static, unit, mode, 10)
    assert triggered == plain
