"""The search program's pieces: the size guard, interruption with the best model so far, and
what a side that is not stratified means."""

from __future__ import annotations

import _thread
import threading
from dataclasses import replace

import pytest

from agreement.witness.search import Bounds, Side, check_sides, solve, terminal_progress
from lars.errors import LimitError
from lars.parser import parse_program
from translate.api import parse_query, translate

HARD = """
{ hole(P,H) : H=1..11 } = 1 :- P=1..12.
__tin(p(P),H) :- hole(P,H).
#minimize { 1,P,Q,H : hole(P,H), hole(Q,H), P<Q }.
#show __tin/2.
"""
"""Twelve pigeons, eleven holes, minimize collisions: branch and bound finds models at once, and
proving that one collision is the least takes long (pigeonhole: ten pigeons and nine holes are
refuted in under a second here, twelve and eleven not in 20 s)."""


def test_ctrl_c_keeps_the_best_model_so_far():
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        found = solve(HARD, options=["--opt-mode=opt", "--opt-strategy=bb", "--models=0"])
    finally:
        timer.cancel()
    assert found is not None and found.interrupted and not found.optimal
    assert len(found.stream) == 12  # one hole per pigeon


def test_none_when_there_is_no_model():
    assert solve(":- not a. a :- b. {b}. :- b.") is None


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


def test_progress_shows_models_and_the_optimum_on_a_terminal_only():
    assert terminal_progress(Terminal(False)) is None
    terminal = Terminal(True)
    terminal_progress(terminal)(3, [4, 1])
    assert terminal.text == "\r3 model(s); best so far: 4 triple(s), last at 1   "


def test_a_time_limit_keeps_the_best_model_so_far():
    found = solve(HARD, options=["--opt-mode=opt", "--opt-strategy=bb", "--models=0"], time_limit=1)
    assert found is not None and found.interrupted and not found.optimal


def test_a_time_limit_without_any_model_is_an_error_not_a_verdict():
    with pytest.raises(LimitError, match="bounds are not exhausted"):
        solve(HARD.replace("#minimize", ":- hole(P,H), hole(Q,H), P<Q. #minimize"), time_limit=1)
