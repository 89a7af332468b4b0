"""clingo in a child process: the answers of an in-process Control, replacement, errors."""

import pytest

from lars.atoms import Atom
from lars.errors import SolverError
from lars.terms import Iri, Number
from solver.incremental.clingoprocess import ClingoProcess, GroundTooLarge, solve_text

CHOICE = "__d(p(1),0) :- not __d(q(1),0). __d(q(1),0) :- not __d(p(1),0). #show __d/2."


@pytest.fixture
def process():
    solver = ClingoProcess()
    yield solver
    solver.close()


def test_the_child_gives_the_answer_sets_of_clingo_in_this_process(process):
    assert process.solve(CHOICE) == solve_text(CHOICE)[1]
    assert set(map(frozenset, process.solve(CHOICE))) == {
        frozenset({(Atom("p", (Number(1),)), 0)}), frozenset({(Atom("q", (Number(1),)), 0)})}


def test_answers_come_back_as_lars_atoms_also_for_iris(process):
    text = '__d(a(iri("http://ex.org/x")),3). #show __d/2.'
    assert process.solve(text) == [{(Atom("a", (Iri("http://ex.org/x"),)), 3)}]


def test_an_inconsistent_text_has_no_answer_sets(process):
    assert process.solve("a. :- a. #show __d/2.") == []


def test_a_child_grown_past_its_limit_is_replaced_and_answers_stay_the_same(process):
    first = process.solve(CHOICE)
    assert process.limit_kib > process.budget_kib  # its first peak, plus the budget
    process.limit_kib = 1  # as if it had grown past its budget
    assert process.solve(CHOICE) == first and process.child is None
    assert process.solve(CHOICE) == first and process.started == 2


def test_a_child_within_its_budget_is_kept(process):
    for _ in range(5):
        process.solve(CHOICE)
    assert process.started == 1


def test_the_cpu_time_of_the_children_is_counted_across_replacements(process):
    process.solve(CHOICE)
    spent = process.cpu_seconds
    assert spent > 0  # the child's own start and first solve
    process.close()
    process.solve(CHOICE)
    assert process.cpu_seconds > spent and process.started == 2


def test_a_rejected_text_names_the_time_point_and_clingo_says_why(process):
    with pytest.raises(SolverError, match=r"clingo rejected the encoding at t=3: .*syntax error"):
        process.solve("a :- b(.", where=" at t=3")
    assert process.solve(CHOICE)  # the child goes on


def test_a_failure_in_the_child_is_an_error_and_the_child_goes_on(process):
    with pytest.raises(SolverError, match="clingo's process failed: IndexError"):
        process.solve("a.")  # shows a/0, which is no __d(A,T) pair
    assert process.solve(CHOICE) and process.started == 1


def test_a_child_that_died_is_an_error_and_the_next_solve_starts_another(process):
    process.solve(CHOICE)
    process.child.kill()
    process.child.wait()
    with pytest.raises(SolverError, match="clingo's process ended unexpectedly"):
        process.solve(CHOICE)
    assert process.solve(CHOICE) and process.started == 2


def test_an_interrupted_solve_ends_the_child_so_no_late_reply_is_read(process, monkeypatch):
    process.solve(CHOICE)

    def interrupted(stream):
        raise KeyboardInterrupt
    monkeypatch.setattr("solver.incremental.clingoprocess.pickle.load", interrupted)
    with pytest.raises(KeyboardInterrupt):
        process.solve('__d(late,0). #show __d/2.')
    monkeypatch.undo()
    assert process.child is None
    assert process.solve(CHOICE) == solve_text(CHOICE)[1] and process.started == 2


def test_a_grounding_past_max_derived_is_not_solved(process):
    """The atoms clingo grounds beyond the facts given (one a line) are counted before solving."""
    rules = "p(X,Y) :- q(X), q(Y). #show __d/2."
    facts = "\n".join(f"q({i})." for i in range(30))
    with pytest.raises(GroundTooLarge):
        process.solve(rules, facts, max_derived=899)
    assert process.solve(rules, facts, max_derived=900) == [set()]
