"""Partitioned evaluation (solver/partition.py) against the single-process reference solver.

Splitting the timeline into ranges, shipping each range the history its windows need and
evaluating the ranges independently must give exactly ``Problem(...).run()``: in process on
generated programs and streams, on Spark on fixed cases whose windows straddle range boundaries.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lars.errors import InputError, LimitError
from lars.parser import parse_program
from lars.streams import Stream, Timeline
from solver.reference import Limits, Problem
from solver.partition import (
    Lookback, RangeTask, Shipped, answers_of, cut_before, evaluate_partitioned, evaluate_range,
    evaluate_ranges, history_needed, in_process, range_input, spark_runner, split,
)
from tests.helpers import atom, make_stream
from tests.strategies import (
    backgrounds, dense_streams, masking_scenario, programs, straddling_scenario,
)


def reference(program, stream: Stream, background=frozenset()) -> list:
    return list(Problem(program, stream, frozenset(background)).run())


def partitioned(program, stream: Stream, background=frozenset(), parts=3, runner=in_process,
                strategy="reference") -> list:
    return list(evaluate_partitioned(program, stream.items, stream.timeline, frozenset(background),
                                     parts, runner, strategy=strategy))


# --- how much history ----------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    pytest.param("x :- p.", Lookback(0), id="plain-atom-now"),
    pytest.param("x :- [0] <> p.", Lookback(0), id="window-now"),
    pytest.param("x :- [3] <> p.", Lookback(3), id="sliding-3"),
    pytest.param("x :- [3,1,5] <> p.", Lookback(7), id="hopping-3-1-5"),
    pytest.param("x :- [2] <> p, [4,0,4] [] q.", Lookback(7), id="widest-wins"),
    pytest.param("x :- [inf] <> p.", Lookback(None), id="unbounded-window"),
    pytest.param("x :- @2 p.", Lookback(None), id="at-outside-window"),
    pytest.param("x :- [#4] <> p, [1] <> q.", Lookback(1, 4), id="tuple-window"),
    pytest.param("@2 x :- [1] <> p.", Lookback(1, 0, frozenset({("x", 0)})), id="constant-head-time"),
    pytest.param("@T x :- [3] @T p.", Lookback(3), id="window-bound-head-time"),
    pytest.param("@U x :- [3] @T p, U = T + 1.", Lookback(3, 0, frozenset({("x", 0)})),
                 id="computed-head-time"),
    pytest.param("@2 x :- [inf] <> p.", Lookback(None), id="unbounded-needs-no-masks"),
])
def test_history_needed(text, expected):
    assert history_needed(parse_program(text)) == expected


# --- ranges ----------------------------------------------------------------------------------

@pytest.mark.parametrize("timeline, parts, expected", [
    pytest.param((0, 9), 3, [(0, 3), (4, 6), (7, 9)], id="ten-in-three"),
    pytest.param((5, 6), 4, [(5, 5), (6, 6)], id="more-parts-than-points"),
    pytest.param((3, 3), 1, [(3, 3)], id="one-point"),
    pytest.param((1, 0), 2, [], id="empty-timeline"),
])
def test_split(timeline, parts, expected):
    assert split(Timeline(*timeline), parts) == [Timeline(*span) for span in expected]


def test_split_refuses_zero_parts():
    with pytest.raises(InputError, match="cannot split the timeline into 0 parts"):
        split(Timeline(0, 9), 0)


SLICES = [(t, (atom(f"p({t})"),) * (t % 3)) for t in range(1, 20) if t % 3]


@pytest.mark.parametrize("span, lookback, expected", [
    pytest.param((10, 12), Lookback(0), [10, 11], id="now-only"),
    pytest.param((10, 12), Lookback(4), [7, 8, 10, 11], id="ticks-back"),
    pytest.param((10, 12), Lookback(0, 3), [7, 8, 10, 11], id="latest-3-atoms"),
    pytest.param((10, 12), Lookback(0, 4), [5, 7, 8, 10, 11], id="latest-4-atoms"),
    pytest.param((10, 12), Lookback(None), [1, 2, 4, 5, 7, 8, 10, 11], id="unbounded"),
    pytest.param((1, 2), Lookback(0, 50), [1, 2], id="fewer-atoms-than-tuples"),
])
def test_range_input(span, lookback, expected):
    assert [t for t, _ in range_input(SLICES, Timeline(*span), lookback)] == expected


def test_range_input_ships_masked_atoms_from_the_whole_history():
    slices = [(1, (atom("x"), atom("p"))), (2, (atom("p"),)), (8, (atom("p"),))]
    got = range_input(slices, Timeline(8, 9), Lookback(0, 0, frozenset({("x", 0)})))
    assert got == [(1, (atom("x"),)), (8, (atom("p"),))]


# --- partitioned == single process -----------------------------------------------------------

@settings(deadline=None)
@given(programs(), dense_streams(), backgrounds(), st.integers(2, 5))
def test_partitioned_equals_single_process(program, stream, background, parts):
    assert partitioned(program, stream, background, parts) == reference(program, stream, background)


@settings(deadline=None)
@given(masking_scenario())
def test_partitioned_equals_single_process_when_old_input_masks_derived_atoms(case):
    """Input atoms of derived predicates mask what heads ``@_k a`` derive (``Lookback.masks``)."""
    program, stream, background, parts = case
    assert partitioned(program, stream, background, parts) == reference(program, stream, background)


@settings(max_examples=150, deadline=None)
@given(straddling_scenario())
def test_partitioned_equals_single_process_on_long_streams(case):
    program, stream, background, parts = case
    assert partitioned(program, stream, background, parts) == reference(program, stream, background)


@settings(max_examples=150, deadline=None)
@given(st.one_of(straddling_scenario(), masking_scenario()))
def test_ranges_solved_by_the_fast_strategies_equal_the_reference(case):
    """Each range stepped by the incremental engine from the start of the timeline over its
    shipped history only: the answers inside the range are still the reference's."""
    program, stream, background, parts = case
    assert partitioned(program, stream, background, parts, strategy="auto") == \
        reference(program, stream, background)


@settings(max_examples=150, deadline=None)
@given(st.one_of(straddling_scenario(), masking_scenario()), st.lists(st.integers(-5, 60), max_size=6),
       st.sampled_from(["reference", "auto"]))
def test_ranges_cut_at_random_points_equal_the_reference(case, cuts, strategy):
    """Ranges of any lengths (as a stream file's byte offsets make them), each shipped the
    history :func:`history_needed` asks for: the answers are still the reference's."""
    program, stream, background, _ = case
    lookback = history_needed(program)
    ranges = [(span, Shipped(tuple(range_input(stream.items, span, lookback))))
              for span in cut_before(stream.timeline, cuts)]
    assert list(evaluate_ranges(program, ranges, stream.timeline, frozenset(background),
                                strategy=strategy)) == reference(program, stream, background)


def test_a_hopping_window_reaches_back_a_hop_before_its_range():
    """``⊞^{3,0,5}`` at t=14 covers [7,10]: the range [14,19] needs input from 14 - (5-1) - 3."""
    program, stream = parse_program("x :- [3,0,5] <> p."), make_stream((0, 19), {8: "p"})
    assert split(stream.timeline, 3)[2] == Timeline(14, 19)
    expected = reference(program, stream)
    assert expected[14].streams == (frozenset({(atom("x"), 14)}),)
    assert partitioned(program, stream, parts=3) == expected


def test_derived_atoms_that_are_also_old_input_stay_masked():
    """``@_1 x`` derived at t=8 is input at 1, so the answer leaves it out: the range [5,9]
    needs the input ``x`` at 1 although its windows look at ``[t, t]`` only."""
    program = parse_program("@1 x :- p.")
    stream = make_stream((0, 9), {1: "x", 8: "p"})
    expected = reference(program, stream)
    assert expected[8].streams == (frozenset(),)
    assert partitioned(program, stream, parts=2) == expected


def test_ranges_are_answered_in_time_order():
    program = parse_program("y :- [#2] <> p(X). x(X) :- [2,0,3] <> p(X).")
    stream = make_stream((0, 11), {0: "p(1)", 3: "p(2); p(3)", 7: "p(4)"})
    answers = partitioned(program, stream, parts=4)
    assert [a.time for a in answers] == list(range(12))
    assert answers == reference(program, stream)


def test_a_limit_exceeded_in_a_range_is_raised_on_the_driver():
    slices = ((2, (atom("p"),)), (3, (atom("p"),)))
    task = RangeTask(parse_program("x :- [3] <> p."), frozenset(), Timeline(0, 5), Timeline(3, 5),
                     Shipped(slices), Limits(max_facts=1))
    result = evaluate_range(task)
    assert result.answers == () and result.error[0] is LimitError
    gathered = lambda tasks, notes: [answers_of(evaluate_range(t), notes) for t in tasks]  # noqa: E731
    for runner in (in_process, gathered):
        with pytest.raises(LimitError, match="would ground 2 input facts") as raised:
            list(evaluate_partitioned(task.program, slices, task.timeline, parts=2,
                                      runner=runner, limits=Limits(max_facts=1)))
        assert raised.value.hint == "raise it with --max-facts"


def test_in_process_answers_come_one_time_point_at_a_time(monkeypatch):
    solved = []
    solve_at = Problem.solve_at
    monkeypatch.setattr(Problem, "solve_at", lambda self, t: solved.append(t) or solve_at(self, t))
    answers = evaluate_partitioned(parse_program("x :- [3] <> p."), [(0, (atom("p"),))],
                                   Timeline(0, 999), parts=2)
    assert next(answers).time == 0 and solved == [0]


@pytest.mark.parametrize("slices, message", [
    pytest.param([(3, ()), (2, ())], "not in time order: 2 after 3", id="backwards"),
    pytest.param([(3, ()), (3, ())], "not in time order: 3 after 3", id="repeated"),
    pytest.param([(3, ()), (12, ())], "time point 12 is outside the timeline", id="outside"),
])
def test_bad_slices(slices, message):
    with pytest.raises(InputError, match=message):
        evaluate_partitioned(parse_program("x :- p."), slices, Timeline(0, 9), parts=2)


def test_an_unsafe_program_is_refused_before_any_range_runs():
    with pytest.raises(InputError, match="unsafe rule: variable"):
        evaluate_partitioned(parse_program("x(X) :- not p(X)."), [], Timeline(0, 9), parts=2)


def test_partition_does_not_load_pyspark():
    code = "import sys, solver.partition; sys.exit('pyspark' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- on Spark --------------------------------------------------------------------------------

SPARK_CASES = [
    pytest.param("x(X) :- [#3] <> p(X). y :- [#2] [] r.", (0, 23),
                 {1: "p(1); r", 2: "p(2)", 5: "p(3); r", 6: "r", 11: "p(4)", 12: "r", 17: "p(5); r; p(6)"},
                 4, id="tuple-windows"),
    pytest.param("x(X) :- [4,1,5] <> p(X), not [2,0,3] <> r. @T z(X) :- [3,0,2] @T p(X).", (0, 29),
                 {t: "p(1)" if t % 4 else "p(2); r" for t in range(0, 30, 3)}, 5, id="hopping-windows"),
]


@pytest.mark.spark
@pytest.mark.parametrize("text, timeline, contents, parts", SPARK_CASES)
def test_spark_partitioned_equals_single_process(spark_master, text, timeline, contents, parts):
    program, stream = parse_program(text), make_stream(timeline, contents)
    expected = reference(program, stream)
    assert any(s for answer in expected for s in answer.streams)
    assert partitioned(program, stream, parts=parts, runner=spark_runner(spark_master)) == expected


@pytest.mark.spark
def test_spark_raises_a_range_error_on_the_driver(spark_master):
    program, stream = parse_program("x :- [3] <> p."), make_stream((0, 9), {t: "p" for t in range(10)})
    with pytest.raises(LimitError, match="would ground 4 input facts"):
        list(evaluate_partitioned(program, stream.items, stream.timeline, parts=3,
                                  runner=spark_runner(spark_master), limits=Limits(max_facts=3)))
