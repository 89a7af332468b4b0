"""Fold rules in the Python residual: the whole group folded at once, in linear time.

A fold rule ``h(Ḡ,R) ← R = fold{f, A, V : a}`` (:mod:`lars.folds`) is planned as its *proxy*
``h(Ḡ,A) ← a, β`` (``β`` its guard): a plain rule with the same head predicate and the fold's
atom in place of the fold, so that the engine's analysis (body atoms, strata, relations) treats it as any rule
reading ``a``. Only its evaluation differs (:class:`FoldPlan`): the proxy's instances are grouped by
their variables other than ``A`` and ``V`` (a guard shares none with them, so each group holds all
its elements), each group is folded by :func:`lars.folds.fold`, and the
head is made from the group and the fold's value. Since a fold's atom counts as negated in the
dependency graph, ``a`` is complete (in a lower stratum) when the fold reads it.

Cost per time point: one pass over the relation of ``a`` and a sort of each group, where the
plain rules of :func:`lars.folds.expand` cost the square (``lt``) and the cube (``gap``) of a
group's size.
"""

from __future__ import annotations

from lars.atoms import Atom
from lars.folds import check_functional, fold_of, fold_ordered
from lars.formulas import Fold
from lars.rules import Literal, Program, Rule
from solver.incremental.joins import Head, Pair, RulePlan, Tuple
from solver.keys import Key, fresh_constant, key_constant


def fold_rules(program: Program) -> dict[int, tuple[Rule, Fold]]:
    """The fold rules of ``program`` by index, each with its fold."""
    found = {}
    for index, rule in enumerate(program):
        fold_formula = fold_of(rule)
        if fold_formula is not None:
            found[index] = (rule, fold_formula)
    return found


def planned(program: Program, folds: dict[int, tuple[Rule, Fold]]) -> Program:
    """``program`` with each fold rule replaced by its proxy (module docstring)."""
    if not folds:
        return program
    return Program(tuple(_proxy(*folds[index]) if index in folds else rule
                         for index, rule in enumerate(program)))


def _proxy(rule: Rule, found: Fold) -> Rule:
    head = rule.head
    args = tuple(found.element if arg == found.result else arg for arg in head.args)
    body = tuple(Literal(found.atom) if literal.formula is found else literal for literal in rule.body)
    return Rule(Atom(head.predicate, args), body, rule.position)


class FoldPlan:
    """Evaluates one fold rule from its proxy's instances (tuples over ``plan.variables``)."""

    def __init__(self, rule: Rule, found: Fold, plan: RulePlan, timeline):
        variables = plan.variables
        self.function = found.function
        self.groups = tuple(i for i, name in enumerate(variables)
                            if name not in (found.element.name, found.value.name))
        self.element = variables.index(found.element.name)
        self.value = variables.index(found.value.name)
        self.head = Head(rule, (*variables, found.result.name), timeline)
        self.result = len(variables)  # the result goes into the head as it is: a GROUP_CONCAT
        # of 10^4 literals of 1 KB is 10 MB, which neither a key nor key_constant's memo copies

    def heads(self, instances: list[Tuple], t: int) -> list[Pair | None]:
        """The head of each group of ``instances``, with the group's fold.

        The elements are ordered by their keys (:func:`key_order`, the order of their
        constants) and only the values become constants, once each, outside the shared memo of
        :func:`solver.keys.key_constant`: a GROUP_CONCAT over 10^4 literals of 1 KB would
        otherwise keep tens of MB of copies there."""
        element, value = self.element, self.value
        groups: dict[Tuple, tuple[Tuple, set]] = {}
        for instance in instances:
            key = tuple(instance[i] for i in self.groups)
            entry = groups.get(key)
            if entry is None:
                entry = groups[key] = (instance, set())
            entry[1].add((instance[element], instance[value]))
        heads = []
        for instance, pairs in groups.values():
            ordered = sorted(pairs, key=lambda pair: key_order(pair[0]))
            check_functional([a for a, _ in ordered])
            result = fold_ordered(self.function, [fresh_constant(v) for _, v in ordered])
            heads.append((Atom(self.head.predicate, tuple(
                result if i == self.result else key_constant(instance[i]) if i is not None else c
                for i, c in self.head.getters)), t))
        return heads


_KEY_RANKS = {'"': 2, "<": 3}


def key_order(key: Key) -> tuple[int, Key]:
    """A sort key of keys in the order of their constants (:func:`lars.terms.order_key`, clingo's):
    numbers, names, strings, IRIs. Keys of one kind share their first character, so they sort
    as their texts do."""
    if type(key) is int:
        return 0, key
    return _KEY_RANKS.get(key[:1], 1), key
