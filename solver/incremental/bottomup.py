"""Bottom-up evaluation in Python of the rules that read derived predicates (stratified programs).

At each time point the atoms derived so far (``derived[signature][time]``: the counted rules'
heads first) are extended stratum by stratum until the perfect model of the program is reached,
which is its one answer stream. The relation of a body atom over a derived predicate is computed
from the derived atoms, the input atoms of that predicate and the background
(:func:`solver.incremental.bodyatoms.derived_relation`); fed body atoms use their incremental states.
"""

from __future__ import annotations

import weakref

from lars.analysis import Signature
from lars.atoms import Atom
from lars.formulas import base_atom
from lars.graphs import components
from solver.incremental.bodyatoms import BodyAtom, derived_growth, derived_relation
from solver.incremental.folds import FoldPlan
from solver.incremental.joins import OFF_TIMELINE, Head, Pair, RulePlan, Table
from solver.limits import too_many_derived

Derived = dict[Signature, dict[int, set[Atom]]]


class PythonResidual:
    """Bottom-up evaluation of the rules that read derived predicates, one stratum at a time.

    Strata are the strongly connected components of the dependency graph, in topological order;
    a component with a cycle is iterated to its fixpoint, semi-naively (positive recursion: every
    body atom is monotone, and negation only reads completed lower strata, since the program is
    stratified).
    """

    def __init__(self, engine, plans: list[RulePlan], rules: list[int]):
        self.engine = weakref.proxy(engine)  # the engine holds this: no cycle left for the collector
        self.plans = plans
        self.heads = {r: Head(engine.program.rules[r], plans[r].variables, engine.timeline) for r in rules}
        self.folds = {r: FoldPlan(rule, found, plans[r], engine.timeline)
                      for r, (rule, found) in engine.folds.items() if r in self.heads}
        self.atom_at = {(a.rule, a.index): a for a in engine.atoms}
        graph: dict[Signature, dict[Signature, None]] = {}  # body → heads (ordered, unlike a set)
        heads = {r: base_atom(engine.program.rules[r].head).signature for r in rules}
        for r in rules:
            graph.setdefault(heads[r], {})
        for atom in engine.atoms:
            if atom.rule in heads and not atom.fed:
                graph.setdefault(atom.atom.signature, {})[heads[atom.rule]] = None
        by_head: dict[Signature, list[int]] = {}
        for r in rules:
            by_head.setdefault(heads[r], []).append(r)
        self.strata = []
        for component in components(graph):
            members = set(component)
            stratum_rules = sorted(r for head in component for r in by_head.get(head, ()))
            recursive = any(b in graph[a] for a in members for b in members)
            if stratum_rules:
                self.strata.append((stratum_rules, recursive))

    def solve(self, t: int, derived: Derived, deltas) -> list[set[Pair]]:
        cache: dict = {}
        self.room = self.engine.max_derived
        for rules, recursive in self.strata:
            if recursive:
                if not self.fixpoint(rules, t, derived, cache):
                    return []
                continue
            for r in rules:
                new: list[Pair] = []
                if not self.add_new(t, self.evaluate(r, t, derived, cache), derived, new):
                    return []
                for atom, _ in new:
                    cache.pop(atom.signature, None)
        return [set()]

    def fixpoint(self, rules: list[int], t: int, derived: Derived, cache: dict) -> bool:
        """Iterates a recursive stratum to its fixpoint, semi-naively (the delta rule): after a
        first round over the whole relations, each round evaluates a rule once per body atom over
        the stratum's predicates, seeded with the tuples that atom's relation gained in the
        previous round and joined with the whole relations of the others. Every instance with a
        body atom gained in round k is found in round k+1 (seeded from the last-gained one), so
        the fixpoint is the naive one, at a cost per round of what is new rather than of all that
        was derived (a counter of n steps: n rounds of one atom each, not n² work).
        ``False`` when a head falls off the timeline."""
        members = {base_atom(self.engine.program.rules[r].head).signature for r in rules}
        growing = [(r, j) for r in rules for j, _ in self.plans[r].positives
                   if not self.atom_at[r, j].fed and self.atom_at[r, j].atom.signature in members]
        for r, j in growing:  # materialized now, so that every round's growth reaches them
            self.relation(r, j, t, derived, cache)
        new: list[Pair] = []
        for r in rules:
            if not self.add_new(t, self.evaluate(r, t, derived, cache), derived, new):
                return False
        by_key = {self.atom_at[r, j].key(): self.atom_at[r, j] for r, j in growing}
        while new:
            growth = self.grow(new, by_key, t, derived, cache)
            new = []
            for r, j in growing:
                seeds = growth.get(self.atom_at[r, j].key())
                if seeds and not self.add_new(t, self.evaluate(r, t, derived, cache, (j, seeds)),
                                              derived, new):
                    return False
        return True

    def grow(self, new: list[Pair], atoms: dict[tuple, BodyAtom], t: int, derived: Derived,
             cache: dict) -> dict[tuple, set]:
        """Adds what the derived atoms ``new`` give to the cached relations of ``atoms`` (by key);
        returns, by key, the tuples each relation gained. Other memos over the grown predicates
        (:func:`derived_relation`'s keyed pairs) are dropped."""
        engine = self.engine
        for signature in {atom.signature for atom, _ in new}:
            tables = cache.get(signature, {})
            for key in [key for key in tables if key not in atoms]:
                del tables[key]
        growth = {}
        for key, atom in atoms.items():
            tables = cache[atom.atom.signature]
            table = tables[key]
            found = derived_growth(atom, t, engine.timeline, new)
            if found is None:
                found = derived_relation(atom, t, engine.timeline, derived, engine.history,
                                         engine.background, engine.domain, tables)
            gained = {values for values in found if values not in table.tuples}
            if gained:
                table.add_all(gained)
                growth[key] = gained
        return growth

    def add_new(self, t: int, pairs: list[Pair | None], derived: Derived, new: list[Pair]) -> bool:
        """:func:`add_new`, refusing ``t`` once more than ``engine.max_derived`` atoms are new."""
        before = len(new)
        added = add_new(pairs, derived, new)
        self.room -= len(new) - before
        if self.room < 0:
            raise too_many_derived(t, self.engine.max_derived)
        return added

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

    def evaluate(self, r: int, t: int, derived: Derived, cache: dict,
                 seeded: tuple[int, set] | None = None) -> list[Pair | None]:
        """The heads of rule ``r``'s instances at ``t``; with ``seeded`` ``(j, tuples)``, only the
        instances whose body atom ``j`` takes one of ``tuples`` (a semi-naive round)."""
        plan = self.plans[r]
        relations = {}
        for j, _ in plan.positives:
            relations[j] = self.relation(r, j, t, derived, cache)
            if not relations[j].tuples:
                return []
        for j, _ in plan.negatives:
            relations[j] = self.relation(r, j, t, derived, cache)
        fold = self.folds.get(r)
        if fold is not None:  # the whole relations (the fold's atom is complete: a lower stratum)
            seed = plan.positives[0][0]
            return fold.heads([instance for instance in plan.instances(seed, relations[seed].tuples, relations)
                               if plan.negation_holds(instance, relations)], t)
        if seeded is not None:
            seed, seeds = seeded
        elif plan.positives:
            seed = min((j for j, _ in plan.positives), key=lambda j: len(relations[j].tuples))
            seeds = relations[seed].tuples
        else:
            seed, seeds = None, [()]
        make = self.heads[r].make
        return [make(instance, t) for instance in plan.instances(seed, seeds, relations)
                if plan.negation_holds(instance, relations)]


def add_new(pairs: list[Pair | None], derived: Derived, new: list[Pair]) -> bool:
    """Adds the heads ``pairs`` to ``derived``, appending those not there before to ``new``;
    ``False`` when one falls off the timeline."""
    for pair in pairs:
        if pair is OFF_TIMELINE:
            return False
        atom, time = pair
        by_time = derived.setdefault(atom.signature, {}).setdefault(time, set())
        if atom not in by_time:
            by_time.add(atom)
            new.append(pair)
    return True
