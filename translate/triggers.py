"""Push and pull execution modes as LARS rules (SPEC section 6, paper section 4.1).

* ``trigger(r)`` adds the atom ``trigger`` to the body of ``r``; ``trigger(P)`` does so for every
  rule of ``P`` with a non-empty body (facts stay facts).
* push ``℘(P) = trigger(P) ∪ {trigger ← ⊞^0 ◇ p(X1,…,Xn) | p/n an input predicate of P}`` — the
  input predicates are those bodies use and no head derives, minus the background ones the caller
  names (``triple/4`` holds at every time point and must not trigger anything) and minus
  ``true``, which holds at every time point too.
* pull ``℘(P,U) = trigger(P) ∪ {trigger ← ⊞^0 @_T true, T % U = 0}``.

>>> from lars.parser import parse_program
>>> from lars.printer import print_program
>>> p = parse_program("q(X) :- [3] <> p(X), b(X).")
>>> print(print_program(push(p, background=[("b", 1)]), "ascii"))
q(X) :- [3] <> p(X), b(X), trigger.
trigger :- [0] <> p(X1).
>>> print(print_program(pull(p, 5), "ascii"))
q(X) :- [3] <> p(X), b(X), trigger.
trigger :- [0] @T true, T % 5 = 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from lars.analysis import Signature, derived_predicates, input_predicates
from lars.atoms import TRUE_PREDICATE, Atom, Comparison
from lars.errors import InputError
from lars.formulas import DIAMOND, At, WindowAtom
from lars.rules import Literal, Program, Rule
from lars.terms import BinaryOp, Number, Variable
from lars.windows import NOW
from translate.names import TRIGGER


def _check_free(program: Program, name: str) -> Atom:
    used = {s for s in derived_predicates(program) | input_predicates(program) if s[0] == name}
    if used:
        raise InputError(f"the program already uses the predicate '{name}', which push and pull "
                         "need for themselves", hint="rename that predicate")
    return Atom(name)


def trigger_rule(rule: Rule, trigger: Atom = Atom(TRIGGER)) -> Rule:
    """``trigger(r)``: the rule with ``trigger`` added to a non-empty body."""
    if not rule.body:
        return rule
    return Rule(rule.head, rule.body + (Literal(trigger),), rule.position)


def with_trigger(program: Program, trigger: Atom = Atom(TRIGGER)) -> Program:
    """``trigger(P)``."""
    return Program(tuple(trigger_rule(rule, trigger) for rule in program))


def push_rules(program: Program, background: Iterable[Signature] = (),
               trigger: Atom = Atom(TRIGGER)) -> list[Rule]:
    """``trigger ← ⊞^0 ◇ p(X1,…,Xn)`` for each input predicate ``p/n`` (sorted)."""
    inputs = sorted(input_predicates(program) - frozenset(background) - {(TRUE_PREDICATE, 0)})
    return [Rule(trigger, (Literal(WindowAtom(NOW, DIAMOND, Atom(name, tuple(
        Variable(f"X{k}") for k in range(1, arity + 1))))),)) for name, arity in inputs]


def pull_rule(period: int, trigger: Atom = Atom(TRIGGER)) -> Rule:
    """``trigger ← ⊞^0 @_T true, T % U = 0``."""
    if period < 1:
        raise InputError(f"a pulling period must be at least one tick, not {period}")
    time = Variable("T")
    return Rule(trigger, (Literal(WindowAtom(NOW, At(time), Atom(TRUE_PREDICATE))),
                          Literal(Comparison("=", BinaryOp("%", time, Number(period)), Number(0)))))


def push(program: Program, background: Iterable[Signature] = (), name: str = TRIGGER) -> Program:
    """``℘(P)``: evaluate when input arrives."""
    trigger = _check_free(program, name)
    return Program(with_trigger(program, trigger).rules
                   + tuple(push_rules(program, background, trigger)))


def pull(program: Program, period: int, name: str = TRIGGER) -> Program:
    """``℘(P, U)``: evaluate at the multiples of ``period``."""
    trigger = _check_free(program, name)
    return Program(with_trigger(program, trigger).rules + (pull_rule(period, trigger),))
