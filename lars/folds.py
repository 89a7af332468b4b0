"""Folds: a value computed from a whole group of atoms (:class:`~lars.formulas.Fold`).

A rule ``h ← R = fold{f, A, V : a}`` derives ``h`` once per group of instances of ``a`` (those
that agree on the variables of ``a`` other than ``A`` and ``V``), with ``R`` the fold of the
group's values ``V`` in the order of their ``A`` (the total order of constants,
:func:`lars.terms.order_key`, which is clingo's)::

    S1 = @agg_start(f, V1),  Sk = @agg_step(f, Sk-1, Vk),  R = @agg_result(f, Sn).

``A`` must determine ``V`` within a group (each ``A`` is one element of the chain). Other body
literals of a fold rule are a guard on the groups (:func:`fold_of`). The fold's atom must not
depend on the head (it is read like a negated atom,
:func:`lars.analysis.body_atoms`, so a program folding over its own result is not stratified).

Two readings, the same answers (tested against each other):

* :func:`expand` writes a fold rule as plain rules: the group's elements put in a chain by
  ``<`` and folded along it. That is LARS without folds, which clingo grounds (the reference and
  the incremental strategy, the time-indexed encoding), at a cost quadratic (``lt``) to cubic
  (``gap``) in the size of a group.
* :func:`fold_ordered` computes it directly, for the Python strategy
  (:mod:`solver.incremental.folds` sorts the group and checks it with :func:`check_functional`),
  in one pass: through ``@agg_all(f, V1, ..., Vn)`` when a module registers it (a linear
  version of the same fold; GROUP_CONCAT's step copies its growing state), else step by step.

>>> from lars.parser import parse_program
>>> from lars.printer import print_program
>>> print(print_program(expand(parse_program('n(K,R) :- R = fold{"c", A, V : e(K,A,V)}.')), "ascii"))
n_lt(K,A,_B) :- e(K,A,V), e(K,_B,_W), A < _B.
n_gap(K,A,_C) :- n_lt(K,A,_B), n_lt(K,_B,_C).
n_next(K,A,_B) :- n_lt(K,A,_B), not n_gap(K,A,_B).
n_prev(K,_B) :- n_lt(K,A,_B).
n_later(K,A) :- n_lt(K,A,_B).
n_acc(K,A,_S) :- e(K,A,V), not n_prev(K,A), _S = @agg_start("c", V).
n_acc(K,_B,_S) :- n_acc(K,A,_Q), n_next(K,A,_B), e(K,_B,V), _S = @agg_step("c", _Q, V).
n(K,R) :- n_acc(K,A,_S), not n_later(K,A), R = @agg_result("c", _S).
"""

from __future__ import annotations

from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.externals import is_registered, lookup
from lars.formulas import Fold, base_atom
from lars.rules import Literal, Program, Rule
from lars.terms import Constant, Function, Term, Variable

START, STEP, RESULT, ALL = "agg_start", "agg_step", "agg_result", "agg_all"
"""The external functions of a fold (see the module docstring)."""


def fold_of(rule: Rule) -> Fold | None:
    """The fold of a fold rule, ``None`` for a plain rule.

    A fold rule has one positive fold in its body; its other literals (a guard, such as the
    ``trigger`` of push and pull) must not use the fold's variables ``R``, ``A``, ``V``: they
    select the groups and never split one.

    Raises:
        UnsupportedError: two folds, a negated one, a guard over the fold's variables, a head
            under ``@``.
    """
    folds = [literal for literal in rule.body if isinstance(literal.formula, Fold)]
    if not folds:
        return None
    if len(folds) != 1 or folds[0].negated:
        raise UnsupportedError("a rule may have one fold, not negated", rule.position)
    found = folds[0].formula
    own = {found.result.name, found.element.name, found.value.name}
    if any(literal.variables() & own for literal in rule.body if literal is not folds[0]):
        raise UnsupportedError("a fold's variables must not occur in the other literals of its "
                               "rule", rule.position)
    if not isinstance(rule.head, Atom):
        raise UnsupportedError("a fold rule's head must be a plain atom", rule.position)
    if found.result.name in found.atom.variables() or found.element == found.value:
        raise UnsupportedError("a fold's result, order and value variables must be distinct",
                               rule.position)
    return found


def has_folds(program: Program) -> bool:
    """Whether any rule of ``program`` is a fold rule."""
    return any(fold_of(rule) is not None for rule in program)


def check_functional(ordered: list) -> None:
    """Refuses a group in which one ``A`` (of the sorted distinct pairs' ``ordered`` ``A``) has
    two values: the chain has one element per ``A``, the fold would not be a function."""
    for a, b in zip(ordered, ordered[1:]):
        if a == b:
            raise UnsupportedError(f"a fold whose order term {a} has two values in one group")


def fold_ordered(function: Constant, values: list[Constant]) -> Constant:
    """The fold ``function`` of ``values`` (at least one), in this order."""
    if is_registered(ALL):
        return lookup(ALL)(function, *values)
    state = lookup(START)(function, values[0])
    step = lookup(STEP)
    for value in values[1:]:
        state = step(function, state, value)
    return lookup(RESULT)(function, state)


# --- the expansion into plain rules ----------------------------------------------------------

_ROLES = ("lt", "gap", "next", "prev", "later", "acc")


def expand(program: Program) -> Program:
    """``program`` with every fold rule replaced by the plain rules of its chain (module doc);
    ``program`` itself when it has none."""
    if not has_folds(program):
        return program
    return Program(tuple(rule for rules in expansion(program) for rule in rules))


def expansion(program: Program) -> list[tuple[Rule, ...]]:
    """The plain rules of each rule of ``program``: itself, or a fold rule's chain. The chain's
    predicates are named after the head's, ``h_lt``, ``h_gap``, …, with more ``_`` before the
    role while a name is taken."""
    names = {base_atom(literal.formula).predicate for rule in program for literal in rule.body
             if not isinstance(literal.formula, Comparison)} | {base_atom(r.head).predicate for r in program}
    found: list[tuple[Rule, ...]] = []
    for rule in program:
        fold_formula = fold_of(rule)
        if fold_formula is None:
            found.append((rule,))
            continue
        prefix = base_atom(rule.head).predicate
        while any(f"{prefix}_{role}" in names for role in _ROLES):
            prefix += "_"
        names |= {f"{prefix}_{role}" for role in _ROLES}
        found.append(tuple(Rule(head, tuple(body), rule.position)
                           for head, body in _chain(rule, fold_formula, prefix)))
    return found


def _fresh(taken: frozenset[str], name: str) -> Variable:
    while name in taken:
        name += "_"
    return Variable(name)


def _chain(rule: Rule, found: Fold, prefix: str) -> list[tuple]:
    """The plain rules of one fold rule (heads and bodies)."""
    taken = rule.variables() | found.atom.variables()
    b, c, w, s, q = (_fresh(taken, name) for name in ("_B", "_C", "_W", "_S", "_Q"))
    a, v, f = found.element, found.value, found.function
    groups = _group_terms(found)

    def helper(role: str, *args: Term) -> Atom:
        return Atom(f"{prefix}_{role}", (*groups, *args))

    def element(at: Variable, value: Variable) -> Atom:
        return _renamed(found.atom, {a.name: at, v.name: value})

    def pos(atom: Atom | Comparison, negated: bool = False) -> Literal:
        return Literal(atom, negated)

    lt = helper("lt", a, b)
    return [
        (lt, [pos(found.atom), pos(element(b, w)), pos(Comparison("<", a, b))]),
        (helper("gap", a, c), [pos(lt), pos(helper("lt", b, c))]),
        (helper("next", a, b), [pos(lt), pos(helper("gap", a, b), True)]),
        (helper("prev", b), [pos(lt)]),
        (helper("later", a), [pos(lt)]),
        (helper("acc", a, s), [pos(found.atom), pos(helper("prev", a), True),
                               pos(Comparison("=", s, Function(START, (f, v))))]),
        (helper("acc", b, s), [pos(helper("acc", a, q)), pos(helper("next", a, b)),
                               pos(element(b, v)),
                               pos(Comparison("=", s, Function(STEP, (f, q, v))))]),
        (rule.head, [pos(helper("acc", a, s)), pos(helper("later", a), True),
                     pos(Comparison("=", found.result, Function(RESULT, (f, s)))),
                     *(literal for literal in rule.body if literal.formula is not found)]),
    ]


def _group_terms(found: Fold) -> tuple[Variable, ...]:
    """The group's variables, in their order of first occurrence in the fold's atom."""
    seen: dict[str, None] = {}
    for arg in found.atom.args:
        if isinstance(arg, Variable) and arg.name in found.groups():
            seen.setdefault(arg.name, None)
    return tuple(Variable(name) for name in seen)


def _renamed(atom: Atom, renaming: dict[str, Variable]) -> Atom:
    return Atom(atom.predicate, tuple(renaming.get(arg.name, arg) if isinstance(arg, Variable) else arg
                                      for arg in atom.args))
