"""Bottom-up evaluation in Python of the rules that read derived predicates (stratified programs).

At each time point the atoms derived so far (``derived[signature][time]``: the counted rules'
heads first) are extended stratum by stratum until the perfect model of the program is reached,
which is its one answer stream. The relation of a body atom over a derived predicate is computed
from the derived atoms, the input atoms of that predicate and the background
(:func:`solver.incremental.bodyatoms.derived_relation`); fed body atoms use their incremental states.
"""

from __future__ import annotations

from lars.analysis import Signature
from lars.atoms import Atom
from lars.formulas import base_atom
from lars.graphs import components
from solver.incremental.bodyatoms import BodyAtom, derived_relation
from solver.incremental.joins import OFF_TIMELINE, Head, Pair, RulePlan, Table

Derived = dict[Signature, dict[int, set[Atom]]]


class PythonResidual:
    """Bottom-up evaluation of the rules that read derived predicates, one stratum at a time.

    Strata are the strongly connected components of the dependency graph, in topological order;
    a component with a cycle is iterated to its fixpoint (positive recursion: every body atom is
    monotone, and negation only reads completed lower strata, since the program is stratified).
    """

    def __init__(self, engine, plans: list[RulePlan], rules: list[int]):
        self.engine = engine
        self.plans = plans
        self.heads = {r: Head(engine.program.rules[r], plans[r].variables, engine.timeline) for r in rules}
        self.atom_at = {(a.rule, a.index): a for a in engine.atoms}
        graph: dict[Signature, dict[Signature, None]] = {}  # body → heads (ordered, unlike a set)
        for r in rules:
            head = base_atom(engine.program.rules[r].head).signature
            graph.setdefault(head, {})
            for atom in engine.atoms:
                if atom.rule == r and not atom.fed:
                    graph.setdefault(atom.atom.signature, {})[head] = None
        self.strata = []
        for component in components(graph):
            members = set(component)
            stratum_rules = [r for r in rules if base_atom(engine.program.rules[r].head).signature in members]
            recursive = any(b in graph[a] for a in members for b in members)
            if stratum_rules:
                self.strata.append((stratum_rules, recursive))

    def solve(self, t: int, derived: Derived, deltas) -> list[set[Pair]]:
        cache: dict = {}
        for rules, recursive in self.strata:
            while True:
                grew = False
                for r in rules:
                    for pair in self.evaluate(r, t, derived, cache):
                        if pair is OFF_TIMELINE:
                            return []
                        atom, time = pair
                        by_time = derived.setdefault(atom.signature, {}).setdefault(time, set())
                        if atom not in by_time:
                            by_time.add(atom)
                            cache.pop(atom.signature, None)
                            grew = True
                if not (recursive and grew):
                    break
        return [set()]

    def relation(self, r: int, j: int, t: int, derived: Derived, cache: dict) -> Table:
        """The relation of body atom ``j`` of rule ``r`` at ``t`` (cached until its predicate grows)."""
        engine = self.engine
        atom: BodyAtom = self.atom_at[r, j]
        if atom.fed:
            state = engine.state_of[r, j]
            fed = cache.setdefault("fed", {})
            if id(state) not in fed:
                fed[id(state)] = Table(state.tuples, shared=True)
            return fed[id(state)]
        by_key = cache.setdefault(atom.atom.signature, {})
        if atom.key() not in by_key:
            by_key[atom.key()] = Table(derived_relation(
                atom, t, engine.timeline, derived, engine.history, engine.background, engine.domain,
                by_key))
        return by_key[atom.key()]

    def evaluate(self, r: int, t: int, derived: Derived, cache: dict) -> list[Pair | None]:
        plan = self.plans[r]
        relations = {}
        for j, _ in plan.positives:
            relations[j] = self.relation(r, j, t, derived, cache)
            if not relations[j].tuples:
                return []
        for j, _ in plan.negatives:
            relations[j] = self.relation(r, j, t, derived, cache)
        if plan.positives:
            seed = min((j for j, _ in plan.positives), key=lambda j: len(relations[j].tuples))
            seeds = relations[seed].tuples
        else:
            seed, seeds = None, [()]
        make = self.heads[r].make
        return [make(instance, t) for instance in plan.instances(seed, seeds, relations)
                if plan.negation_holds(instance, relations)]
