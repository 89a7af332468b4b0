"""Incremental evaluation: input-side windows kept up to date, rules over them maintained by deltas.

The answer at ``t`` is what the reference strategy (:class:`solver.reference.Problem`) computes,
obtained with far less work per time point:

1. **Fed body atoms** (over input predicates, or in tuple windows; :mod:`solver.incremental.bodyatoms`) keep
   an incremental state (:mod:`solver.incremental.windowstate`) that takes each input slice once and reports,
   at every ``t``, its relation and what entered and left it since ``t - 1``. Equal body atoms
   share one state.
2. **Counted rules**, whose body atoms are all fed, keep their instances across time points and
   update them from those deltas (the delta rule of incremental view maintenance: the change of
   a join is the change of each relation joined with the others, taken one relation at a time).
   An instance depends on the data only, so the rule derives exactly its instances' heads at
   every ``t``: these are facts of the ASP program, whatever else it holds.
3. **The residual**, the rules that read derived predicates, is evaluated at each ``t``:
   bottom-up in Python, stratum by stratum (:class:`PythonResidual`, for stratified programs,
   whose one answer stream is their perfect model), or by clingo on the reference encoding with
   the fed relations as facts (:class:`solver.incremental.residual.ClingoResidual`, any program).

A head ``@_s a`` with ``s`` off the timeline (or not a number) is the encoding's constraint: the
time point then has no answer stream. Derived atoms are reported as :meth:`Problem.additions`
does: not background, not ``true``, not input at their time point.
"""

from __future__ import annotations

from itertools import repeat

from lars.analysis import Signature, check_safety, derived_predicates
from lars.atoms import TRUE_PREDICATE, Atom
from lars.folds import expand
from lars.formulas import AtAtom
from lars.rules import Program
from lars.streams import Timeline, distinct
from lars.windows import TupleWindow
from solver.incremental.bodyatoms import BodyAtom, InputHistory, body_atoms, domain_tracker, make_state
from solver.incremental.bottomup import Derived, PythonResidual
from solver.incremental.folds import fold_rules, planned
from solver.encode import encode_program
from solver.answers import AnswerStream, TimePointAnswer, canonical
from solver.incremental.residual import ClingoResidual, at_free
from solver.incremental.joins import OFF_TIMELINE, Head, Pair, RulePlan, Table, Tuple
from solver.limits import DEFAULT_MAX_DERIVED, DEFAULT_MAX_MODELS
from solver.keys import KeyedSlice
from solver.incremental.tuplestate import TupleState
from solver.incremental.unfold import inline_single_uses, unfold_copies
from solver.incremental.relations import Pattern
from solver.incremental.windowstate import TimeState



class CountedRule:
    """A rule whose body atoms are all fed: its instances are maintained from the states' deltas.

    The positive body atoms over one state share one :class:`Table` (a copy of the state's
    relation with the indexes the joins need), updated once per time point between the two
    halves of the delta rule: the instances a removed tuple took part in are found against
    the tables as they were (and dropped), those an added tuple takes part in against the
    tables as they are now. An instance with several changed tuples is found once per tuple,
    harmlessly: ``live`` is a set of instances (a dict to the head each derives, built once).
    """

    def __init__(self, plan: RulePlan, states: dict[int, object], head: Head):
        self.plan = plan
        self.states = states
        self.head = head
        joined = len(plan.positives) > 1  # a lone positive body atom is never joined with
        tables = {id(states[index]): Table() for index, _ in plan.positives} if joined else {}
        self.tables = list(tables.items())  # (id of a state, its table)
        self.views = {index: tables[id(states[index])] for index, _ in plan.positives} if joined else {}
        self.seeds = [(index, id(states[index])) for index, _ in plan.positives]
        self.live: dict[Tuple, object] = {}
        self.result = head.atom if head.plain else head.at
        if not plan.positives:
            self.live = {instance: self.result(instance) for instance in plan.instances(None, [()], {})}

    def apply(self, deltas: dict[int, tuple[list, list]]) -> None:
        """Update the instances from the states' deltas (``deltas[id(state)]``: added, removed)."""
        plan, views, live, result = self.plan, self.views, self.live, self.result
        for index, state in self.seeds:
            removed = deltas[state][1]
            if removed:
                for instance in plan.instances(index, removed, views):
                    live.pop(instance, None)
        for state, table in self.tables:
            added, removed = deltas[state]
            if removed:
                table.discard_all(removed)
            if added:
                table.add_all(added)
        for index, state in self.seeds:
            added = deltas[state][0]
            if added:
                for instance in plan.instances(index, added, views):
                    if instance not in live:
                        live[instance] = result(instance)

    def derive(self, t: int) -> list[Pair | None]:
        """What the instances whose negated body atoms do not hold now derive."""
        plan, states, live = self.plan, self.states, self.live
        heads = live.values() if not plan.negatives else \
            [head for instance, head in live.items() if plan.negation_holds(instance, states)]
        return list(zip(heads, repeat(t))) if self.head.plain else list(heads)


class EnginePlan:
    """What an :class:`Engine` takes from its program, background and options alone, whatever
    the timeline: the program checked (as the reference would refuse it), expanded for clingo,
    its copy rules unfolded and its hidden predicates read once inlined, its folds planned, its body atoms classified and each rule's join
    plan. Nothing here changes while an engine runs, so engines of one plan share it.

    Args: as :class:`Engine`'s.
    """

    def __init__(self, program: Program, background: frozenset[Atom], residual: str = "python",
                 shown: frozenset[str] | None = None, inputs: frozenset[Signature] | None = None):
        check_safety(program)
        encode_program(program)  # refuses what the reference refuses, with the same errors
        self.residual, self.shown, self.inputs = residual, shown, inputs
        if residual != "python":
            program = expand(program)  # clingo reads folds as their plain rules (lars.folds)
        background_signatures = frozenset(a.signature for a in background)
        program = unfold_copies(program, shown, background_signatures, inputs)
        program = inline_single_uses(program, shown, background_signatures, inputs)
        self.folds = fold_rules(program)
        program = self.program = planned(program, self.folds)
        self.background = frozenset(background) | {Atom(TRUE_PREDICATE)}
        self.derived = derived_predicates(program)
        self.filter_additions = any(a.signature in self.derived for a in self.background)
        self.atoms = body_atoms(program)
        self.fed = [(atom, atom.key(), atom.pattern()) for atom in self.atoms if atom.fed]
        """The fed body atoms with the key of the state they share and their pattern."""
        self.plans = [RulePlan(rule) for rule in program]
        fed = {(a.rule, a.index) for a in self.atoms if a.fed}
        self.counted = frozenset(
            r for r in range(len(program.rules)) if r not in self.folds
            and all((r, j) in fed for j, _ in self.plans[r].positives + self.plans[r].negatives))
        """The rules whose body atoms are all fed (:class:`CountedRule`)."""
        self.keeps_history = any(isinstance(rule.head, AtAtom) for rule in program)
        self.at_free = at_free(program)
        self.residual_atoms = [a for a in self.atoms if not a.fed]


class Engine:
    """One program on one timeline and background; :meth:`step` gives the answer at each ``t``.

    Args:
        residual: ``"python"`` (stratified programs) or ``"clingo"`` (any program), how the rules
            that read derived predicates are evaluated.
        max_models: the most answer streams a time point may have (clingo's residual stops
            enumerating past it and the time point is refused).
        max_derived: the most atoms the Python residual may derive at a time point (past it the
            time point is refused: a closure can grow quadratically with the input).
        shown: the predicates whose atoms the answers report (all if ``None``); a translated
            query shows only its answer predicate, not the thousands of ``triple`` atoms a
            C-SPARQL translation derives at each time point.
        inputs: the signatures the input slices can hold, if the caller knows them; then copy
            rules over hidden predicates are unfolded (:mod:`solver.incremental.unfold`), and an
            input atom of another signature is refused.
    """

    def __init__(self, program: Program, timeline: Timeline, background: frozenset[Atom],
                 residual: str = "python", shown: frozenset[str] | None = None,
                 inputs: frozenset[Signature] | None = None,
                 max_models: int = DEFAULT_MAX_MODELS, max_derived: int = DEFAULT_MAX_DERIVED):
        self.start(EnginePlan(program, background, residual, shown, inputs), timeline,
                   max_models, max_derived)

    @classmethod
    def planned(cls, plan: EnginePlan, timeline: Timeline, max_models: int = DEFAULT_MAX_MODELS,
                max_derived: int = DEFAULT_MAX_DERIVED) -> Engine:
        """An engine of a program already checked and planned (:class:`EnginePlan`): what
        ``Engine(program, timeline, ...)`` makes, without analysing the program again (many
        short evaluations of one program, such as ``lars agree``'s witness checks)."""
        engine = cls.__new__(cls)
        engine.start(plan, timeline, max_models, max_derived)
        return engine

    def start(self, plan: EnginePlan, timeline: Timeline, max_models: int, max_derived: int) -> None:
        """The state of a fresh evaluation of ``plan`` over ``timeline``."""
        self.max_models = max_models
        self.max_derived = max_derived
        self.inputs = plan.inputs
        self.folds = plan.folds
        program = plan.program
        self.program, self.timeline, self.shown = program, timeline, plan.shown
        self.background = plan.background
        self.history = InputHistory(plan.derived)
        self.filter_additions = plan.filter_additions
        self.atoms = plan.atoms
        self.domain = domain_tracker(program, self.atoms, timeline, self.background - {Atom(TRUE_PREDICATE)})
        self._make_states(plan.fed)
        plans = plan.plans
        self.counted: list[CountedRule] = []
        residual_rules = []
        for r, rule in enumerate(program):
            if r in plan.counted:
                states = {j: self.state_of[r, j] for j, _ in plans[r].positives + plans[r].negatives}
                self.counted.append(CountedRule(plans[r], states, Head(rule, plans[r].variables, timeline)))
            else:
                residual_rules.append(r)
        self.keeps_history = plan.keeps_history
        self.skips = plan.at_free and self.domain is None
        self.previous: tuple[int, tuple, TimePointAnswer] | None = None  # (t, fingerprint, answer)
        self.skipped = 0
        self.residual_atoms = plan.residual_atoms
        if not residual_rules:
            self.residual = None
        else:
            self.residual = RESIDUALS[plan.residual](self, plans, residual_rules)

    def _make_states(self, fed: list[tuple[BodyAtom, tuple, Pattern]]) -> None:
        self.buffers: dict = {}
        shared: dict[tuple, object] = {}
        self.state_of: dict[tuple[int, int], object] = {}
        for atom, key, pattern in fed:
            if key not in shared:
                shared[key] = make_state(atom, self.timeline, self.background, self.domain,
                                         self.buffers, pattern)
            self.state_of[atom.rule, atom.index] = shared[key]
        self.states = list(shared.values())
        self.by_signature: dict[Signature, list[TimeState]] = {}
        self.tuple_counters: dict[TupleWindow, list[TupleState]] = {}
        for state in self.states:
            if isinstance(state, TupleState):
                if state.modality == "diamond":
                    self.tuple_counters.setdefault(state.buffer.window, []).append(state)
            else:
                self.by_signature.setdefault(state.pattern.atom.signature, []).append(state)

    def ingest(self, t: int, atoms: list[Atom]) -> None:
        """Take in the input slice at ``t`` (arrival order)."""
        if self.domain is not None:
            self.domain.ingest(t, atoms)
        if not atoms:
            return
        if type(atoms) is KeyedSlice:  # one signature, keyed by the reader
            groups = {atoms.signature: atoms}
        else:
            groups = {}
            for atom in atoms:  # the signature, without a property call per input atom
                groups.setdefault((atom.predicate, len(atom.args)), []).append(atom)
        if self.inputs is not None and not self.inputs.issuperset(groups):
            raise ValueError(f"input atoms of {sorted(set(groups) - self.inputs)} at {t}, "
                             f"which the caller said the input cannot hold")
        for signature, group in groups.items():
            states = self.by_signature.get(signature, ())
            if states:
                keyed = group if type(group) is KeyedSlice else KeyedSlice(group)
                for state in states:
                    state.ingest(t, keyed)
        self.history.ingest(t, groups)
        if self.buffers:
            atoms = distinct(atoms)  # v(t) is a set: a repeated atom is no new tuple (SPEC section 2)
        for window, buffer in self.buffers.items():
            taken, dropped = buffer.ingest(t, atoms)
            for state in self.tuple_counters.get(window, ()):
                state.entered(t, taken, dropped)

    def step(self, t: int, atoms: list[Atom]) -> TimePointAnswer:
        """The answer at ``t``, after taking in the slice at ``t``.

        Skipping: when the program has no ``@`` at all and no ``□`` needs the active domain, the
        answer at ``t`` depends on the time point only through the fed relations, the ranges of
        the residual's body atoms and the input of derived predicates in them: time points occur
        nowhere else, so shifting them all by one maps the answer at ``t - 1`` onto the one at
        ``t``. If no fed relation changed (no deltas) and the rest is the same relative to ``t``
        (:meth:`fingerprint`), the previous answer is reused, shifted. Tumbling windows make this
        the common case: their content changes once per step.
        """
        self.ingest(t, atoms)
        deltas = {id(state): state.advance(t) for state in self.states}
        if not self.keeps_history:
            lows = [a.range(t, self.timeline)[0] for a in self.residual_atoms if a.scope != "tuple"]
            self.history.prune(min(lows + [t]))
        fingerprint = self.fingerprint(t) if self.skips else None
        previous, self.previous = self.previous, None
        if (previous is not None and previous[0] == t - 1 and previous[1] == fingerprint
                and all(delta == ([], []) for delta in deltas.values())):
            self.skipped += 1
            answer = shifted(previous[2], t)
        else:
            answer = self.solve(t, deltas)
        if fingerprint is not None:
            self.previous = (t, fingerprint, answer)
        return answer

    def quiet_until(self, t: int, end: int) -> int:
        """The last time point in ``[t, end]`` whose answer, if no input arrives after ``t``, is
        the answer at ``t`` shifted (``t`` when unsure); the caller then need not step through
        the points in between, so a long stretch without input costs a few binary searches
        over the window ranges, not one step per point.

        It holds when :meth:`step` could skip every point in between: no fed relation changes
        (each state's :meth:`~solver.incremental.windowstate.TimeState.stable_until`) and the
        :meth:`fingerprint` stays the same relative to the time point, which needs sliding
        windows (step 1) fully inside the timeline for the residual's body atoms and no input
        of derived predicates around.
        """
        if not self.skips or self.previous is None or self.previous[0] != t or self.history.by_time:
            return t
        for atom in self.residual_atoms:
            if atom.scope == "time":
                window = atom.window
                if window.step != 1 or window.length is None or t - window.length < self.timeline.start:
                    return t
                end = min(end, self.timeline.end - window.ahead)
        for state in self.states:
            end = state.stable_until(t, end)
            if end <= t:
                return t
        return end

    def fingerprint(self, t: int) -> tuple:
        """What the answer at ``t`` reads besides the fed relations, relative to ``t``: the ranges
        of the residual's body atoms and the input of derived predicates within them."""
        ranges = tuple(a.range(t, self.timeline) for a in self.residual_atoms if a.scope != "tuple")
        earliest = min([lo for lo, hi in ranges if lo <= hi] + [t])
        inputs = frozenset((a, time - t) for time, groups in self.history.by_time.items()
                           if earliest <= time <= t for atoms in groups.values() for a in atoms)
        return tuple((lo - t, hi - t) for lo, hi in ranges), inputs

    def solve(self, t: int, deltas: dict) -> TimePointAnswer:
        """The answer at ``t`` from the fed states' deltas: counted rules, then the residual."""
        for rule in self.counted:
            rule.apply(deltas)
        counted: list[Pair] = []
        for rule in self.counted:
            pairs = rule.derive(t)
            if not rule.head.plain and OFF_TIMELINE in pairs:
                return TimePointAnswer(t, ())
            counted.extend(pairs)
        if self.residual is None:
            return TimePointAnswer(t, (self.additions(counted, t),))
        derived: Derived = {}
        for atom, time in counted:
            derived.setdefault(atom.signature, {}).setdefault(time, set()).add(atom)
        found = self.residual.solve(t, derived, deltas)
        everything = [(atom, time) for by_time in derived.values() for time, atoms in by_time.items()
                      for atom in atoms]
        streams = [self.additions(everything + list(extra), t) for extra in found]
        return TimePointAnswer(t, tuple(streams) if len(streams) <= 1 else canonical(streams))

    def additions(self, pairs: list[Pair], t: int) -> AnswerStream:
        """The derived pairs reported (as :meth:`Problem.additions`), of the shown predicates."""
        if self.shown is not None:
            pairs = [pair for pair in pairs if pair[0].predicate in self.shown]
        if self.filter_additions or self.history.by_time:
            background, inputs = self.background, {}
            for time in {time for _, time in pairs if time <= t}:
                inputs[time] = self.history.atoms_at(time)
            return frozenset((atom, time) for atom, time in pairs if atom not in background
                             and atom not in inputs.get(time, ()))
        return frozenset(pairs)


def shifted(answer: TimePointAnswer, t: int) -> TimePointAnswer:
    """An earlier answer moved to ``t`` (every pair ``t - answer.time`` time points later)."""
    by = t - answer.time
    streams = [frozenset((atom, time + by) for atom, time in stream) for stream in answer.streams]
    return TimePointAnswer(t, tuple(streams) if len(streams) <= 1 else canonical(streams))


RESIDUALS = {"python": PythonResidual, "clingo": ClingoResidual}
"""How the rules over derived predicates are evaluated: bottom-up in Python, or by clingo."""
