"""The clingo residual: rules that read derived predicates, solved per time point with fed facts.

The residual rules are encoded exactly as :mod:`solver.encode` does, except that a *fed* body
atom (:mod:`solver.incremental.bodyatoms`) has no defining rules: its auxiliary predicate ``__a<r>_<j>`` is
given as facts, the tuples of its incremental state. The other facts are those of
:meth:`solver.reference.Problem.facts` restricted to what the residual reads: ``__rng`` of its
non-fed body atoms (and ``__dom`` when a ``□`` window is empty), ``__h`` for input atoms of
derived predicates in reach and for the heads of counted rules (which the engine reports
itself), ``__bg``, ``__now``, ``__tl``. So the ground program is the reference's with rules whose
bodies are facts replaced by their heads, which has the same answer sets.

Time points that cannot change are skipped by the engine (:meth:`solver.incremental.engine.Engine.step`)
before the residual is asked.

Memory. clingo keeps every symbol it ever saw for the life of its process, so the residual is
solved in a child process that is replaced once it has grown (:mod:`solver.incremental.clingoprocess`);
this process renders the facts as text without clingo. Fewer symbols mean fewer
replacements: when the program has no ``@`` at all and every time window has step 1
(:func:`shift_invariant`), time points occur in the ground program only as ``__now``,
``__rng``, ``__h`` arguments and in order comparisons between them, so shifting every time by
the same amount maps answer sets onto answer sets: time points then reach clingo *relative to*
``t`` (``t`` itself is ``0``) and repeat from one time point to the next; other programs use
absolute time points. Data values that never repeat (fresh IRIs) make new symbols either way.
"""

from __future__ import annotations

import weakref

from functools import lru_cache

from lars.analysis import program_functions
from lars.externals import modules_of
from lars.formulas import At, AtAtom, WindowAtom
from lars.terms import Constant
from lars.windows import TimeWindow
from solver.incremental.clingoprocess import GroundTooLarge, shared_process
from solver.encode import encode_head, encode_literal, term_text
from solver.limits import too_many_derived, too_many_models
from solver.symbols import atom_text
from solver.keys import key_constant

Pair = tuple


@lru_cache(maxsize=1 << 16)
def cached_constant_text(constant: Constant) -> str:
    """ASP text of a constant (:func:`solver.symbols.constant_text`), cached: domains repeat."""
    return term_text(constant)


@lru_cache(maxsize=1 << 16)
def key_text(key) -> str:
    """ASP text of a key of :mod:`solver.incremental.windowstate`."""
    return term_text(key_constant(key))


def at_free(program) -> bool:
    """No ``@`` anywhere: no head at another time point, no time constant or ``@_T`` binding."""
    for rule in program:
        if isinstance(rule.head, AtAtom):
            return False
        for literal in rule.body:
            formula = literal.formula
            if isinstance(formula, AtAtom) or (isinstance(formula, WindowAtom)
                                               and isinstance(formula.modality, At)):
                return False
    return True


def shift_invariant(program) -> bool:
    """No ``@`` anywhere and only step-1 time windows (see the module docstring)."""
    return at_free(program) and all(
        formula.window.step == 1 for rule in program for literal in rule.body
        if isinstance(formula := literal.formula, WindowAtom) and isinstance(formula.window, TimeWindow))


class ClingoResidual:
    """Solves the residual rules of an :class:`solver.incremental.engine.Engine` with clingo."""

    def __init__(self, engine, plans, rules: list[int]):
        self.engine = weakref.proxy(engine)  # the engine holds this: no cycle left for the collector
        atom_at = {(a.rule, a.index): a for a in engine.atoms}
        lines = ["__h(A,T) :- __d(A,T).", "__bg(true)."]
        self.scopes = []
        self.fed = {}
        for r in rules:
            rule = engine.program.rules[r]
            body = []
            for j, literal in enumerate(rule.body):
                text, aux_rules, scope = encode_literal(r, j, literal)
                atom = atom_at.get((r, j))
                if atom is not None and atom.fed:
                    self.fed[f"__a{r}_{j}"] = engine.state_of[r, j]
                else:
                    lines.extend(aux_rules)
                    if scope is not None:
                        self.scopes.append((scope, atom))
                body.append(text)
            lines.extend(encode_head(rule, ", ".join(body)))
        lines.append("#show __d/2.")
        self.text = "\n".join(lines)
        self.background_text = "\n".join(f"__bg({atom_text(a)})." for a in sorted(
            engine.background, key=atom_text))
        self.relative = shift_invariant(engine.program)
        self.modules = modules_of(program_functions(engine.program))
        self.solved = 0

    def solve(self, t: int, derived, deltas) -> list[set[Pair]]:
        """The residual's derived pairs in each answer set at ``t`` (all of them; none if inconsistent)."""
        engine = self.engine
        timeline = engine.timeline
        ranges = [(scope, atom.range(t, timeline)) for scope, atom in self.scopes]
        earliest = min([lo for _, (lo, hi) in ranges if lo <= hi] + [t])
        inputs = [(a, time) for time, groups in engine.history.by_time.items() if earliest <= time <= t
                  for atoms in groups.values() for a in atoms]
        counted = [(a, time) for by_time in derived.values() for time, atoms in by_time.items() for a in atoms]
        return self._solve(t, t if self.relative else 0, ranges, inputs + counted)

    def facts(self, t: int, offset: int, ranges, pairs) -> str:
        """The facts at ``t``, every time point minus ``offset``."""
        timeline = self.engine.timeline
        parts = [self.background_text, f"__now({t - offset}).",
                 f"__tl({timeline.start - offset},{timeline.end - offset})."]
        for scope, (lo, hi) in ranges:
            parts.append(f"__rng({scope.ident},{lo - offset},{hi - offset}).")
            if scope.needs_domain and lo > hi:
                parts.extend(f"__dom({cached_constant_text(c)})." for c in self.engine.domain.values())
        parts.extend(f"__h({atom_text(a)},{time - offset})." for a, time in pairs)
        for name, state in self.fed.items():
            for values in state.tuples:
                parts.append(f"{name}({','.join(map(key_text, values))})." if values else f"{name}.")
        return "\n".join(parts)

    def _solve(self, t: int, offset: int, ranges, pairs) -> list[set[Pair]]:
        limit = self.engine.max_models
        try:
            found = shared_process().solve(self.text, self.facts(t, offset, ranges, pairs),
                                           f" at t={t}", self.modules, limit + 1,
                                           self.engine.max_derived)
        except GroundTooLarge:
            raise too_many_derived(t, self.engine.max_derived) from None
        if len(found) > limit:
            raise too_many_models(t, limit)
        self.solved += 1
        return [{(atom, time + offset) for atom, time in model} for model in found]
