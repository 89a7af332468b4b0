"""Ground-time external calls are made once per distinct call and grounding
(:class:`solver.symbols.Context`): the time-indexed program of ``lars witness`` repeats the same
bindings at every reference time, and clingo calls Python for each ground instance."""

from __future__ import annotations

import clingo

import solver.symbols
from solver.symbols import ground

PROGRAM = """
time(1..20). p(1..3). a(R,X) :- time(R), p(X).
q(R,X,Y) :- a(R,X), Y=@plus1(X).
r(R,X) :- a(R,X), @nothing(X)=1.
#show q/3. #show r/2.
"""


def solve(monkeypatch) -> tuple[list[tuple], list[str]]:
    calls = []

    def call(name, args):
        calls.append((name, args))
        return None if name == "nothing" else args[0].__class__(args[0].value + 1)
    monkeypatch.setattr(solver.symbols, "lookup", lambda name: None)
    monkeypatch.setattr(solver.symbols, "call", call)
    control = clingo.Control()
    control.add("base", [], PROGRAM)
    ground(control)
    shown: list[str] = []
    control.solve(on_model=lambda model: shown.extend(map(str, model.symbols(shown=True))))
    return calls, shown


def test_each_distinct_call_is_made_once_per_grounding(monkeypatch):
    calls, shown = solve(monkeypatch)
    assert len(calls) == len(set(calls))  # no call twice
    assert len(calls) == 6  # 3 values of X, 2 functions; not 20 time points × that


def test_cached_values_and_undefined_ones_are_what_the_function_gives(monkeypatch):
    _, shown = solve(monkeypatch)
    assert sorted(s for s in shown if s.startswith("q(1,")) == ["q(1,1,2)", "q(1,2,3)", "q(1,3,4)"]
    assert len([s for s in shown if s.startswith("q(")]) == 60
    assert not [s for s in shown if s.startswith("r(")]  # undefined: the literal is false
