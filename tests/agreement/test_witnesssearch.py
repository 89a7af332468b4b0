"""The search program's pieces: the size guard, the deepening's interruption (never a verdict),
and what a side that is not stratified means."""

from __future__ import annotations

import _thread
import threading
from dataclasses import replace

import pytest

from agreement.cli.witness import terminal_progress
from agreement.witness.search import Bounds, Side, check_sides, deepen
from lars.errors import LimitError
from lars.parser import parse_program
from translate.api import parse_query, translate

HARD = """
{ hole(P,H) : H=1..11 } = 1 :- P=1..12.
__tin(p(P),H) :- hole(P,H).
#minimize { 1,P,Q,H : hole(P,H), hole(Q,H), P<Q }.
#show __tin/2.
"""
"""Twelve pigeons, eleven holes, minimize collisions: the core-guided lower bound must first
refute "no collision", a pigeonhole that takes long (ten pigeons and nine holes are refuted in
under a second here, twelve and eleven not in 20 s); no model comes before that."""
BOUNDS = Bounds(12, 11, 0)


def test_ctrl_c_before_any_witness_is_an_interruption_not_a_verdict():
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            deepen(HARD, BOUNDS, 11)
    finally:
        timer.cancel()


def test_none_when_there_is_no_model():
    assert deepen(":- not a. a :- b. {b}. :- b.", Bounds(1, 0, 0), 0) is None


def test_fewest_triples_then_earliest_last():
    program = """{ __tin(x,T) : T=0..3 ; __tin(y,T) : T=0..3 }.
    #external __wupto(0..2). [free]
    __wused(T) :- __tin(A,T).
    :- __wupto(L), __wused(T), T>L.
    :- not __tin(x,_).
    :- __tin(x,T), T<2.
    #minimize { 1,A,T : __tin(A,T) }.
    #show __tin/2."""
    found = deepen(program, Bounds(3, 3, 0), 3)
    assert found is not None and found.optimal and [str(t) for _, t in found.stream] == ["2"]
    assert deepen(program.replace("T<2", "T<2. :- #count { A,T : __tin(A,T) } < 2"), Bounds(1, 3, 0), 3) is None


def sides(program_text: str | None = None) -> list[Side]:
    query = parse_query("PREFIX : <http://ex.org/> SELECT ?x WHERE { STREAM <http://ex.org/s> [NOW] "
                        "{ ?x :p 1 } }", "<q>", "cqels")
    pull = translate(query, "csparql", mode="pull", period_ticks=2)
    push = translate(query, "cqels", mode="push")
    if program_text is not None:
        push = replace(push, program=parse_program(program_text))
    return [Side("paper-pull", "C-SPARQL", pull, "pull"), Side("paper-push", "CQELS", push, "push")]


def test_stratified_sides_need_no_note():
    assert check_sides(sides()) == []


def test_a_side_that_is_not_stratified_says_what_is_decided():
    [note] = check_sides(sides("x :- not y. y :- not x."))
    assert "paper-push is not stratified" in note and "some choice of its answer streams" in note


def test_bounds_are_checked():
    with pytest.raises(Exception, match="--max-triples"):
        Bounds(0, 5, 1)


class Terminal:
    def __init__(self, tty: bool):
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_progress_shows_the_step_on_a_terminal_only():
    assert terminal_progress(Terminal(False)) is None
    terminal = Terminal(True)
    terminal_progress(terminal)(3, [4, 1])
    assert terminal.text == "\r3 step(s); now: ≤ 4 triple(s), last at ≤ 1   "


def test_a_time_limit_without_any_witness_is_an_error_not_a_verdict():
    with pytest.raises(LimitError, match="bounds are not exhausted"):
        deepen(HARD, BOUNDS, 11, time_limit=1)


LATE_OR_HARD = """
{ __tin(x,3); __tin(y,0) }.
:- not __tin(x,3), not __tin(y,0).
#external __wupto(0..2). [free]
__wused(T) :- __tin(A,T).
:- __wupto(L), __wused(T), T>L.
{ hole(P,H) : H=1..11 } = 1 :- P=1..12, __tin(y,0).
:- hole(P,H), hole(Q,H), P<Q.
#minimize { 1,A,T : __tin(A,T) }.
#show __tin/2.
"""
"""One triple: ``x`` at 3 is easy; ``y`` at 0, the earlier one, needs the twelve pigeons in
eleven holes, so the step refuting ``L = 0`` runs into the time limit."""


def test_a_time_limit_after_a_witness_keeps_it_but_not_as_minimal():
    found = deepen(LATE_OR_HARD, Bounds(1, 3, 0), 3, time_limit=2)
    assert found is not None and found.interrupted and not found.optimal
    assert [t for _, t in found.stream] == [3]
