"""Differential test: the clingo solver against the brute-force oracle of SPEC section 3.

The oracle (``tests/oracles/bruteforce.py``) is written from the definitions without reading
the solver; on small random programs and streams both must give the same answer streams, all of
them, at the same time point.
"""

from hypothesis import given

from solver.reference import Problem
from solver.answers import canonical
from tests.strategies import oracle_answers, scenario, window_scenario


def assert_solver_matches_oracle(case) -> None:
    program, stream, background, t = case
    expected = oracle_answers(program, stream, t, background)
    assert Problem(program, stream, background).solve_at(t).streams == canonical(expected)


@given(scenario())
def test_solver_agrees_with_brute_force_oracle(case):
    assert_solver_matches_oracle(case)


@given(window_scenario())
def test_solver_agrees_with_oracle_on_each_window_and_modality(case):
    """Single window atoms over dense data: kills off-by-one mutants of each encoder."""
    assert_solver_matches_oracle(case)
