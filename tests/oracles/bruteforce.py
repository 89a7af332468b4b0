"""A brute-force evaluator of LARS answer streams, written from the definitions (a test oracle).

It implements SPEC section 3 and Definition 3 of the paper (FLP reduct) for tiny programs, by
enumeration, and shares no code with the clingo solver: only the value types of :mod:`lars` and
the window functions of :mod:`lars.windows` (which the spec defines directly).

For a program ``P``, a data stream ``D = (T, v)``, background atoms ``B`` and a reference time
``t ∈ T``:

* **Streaming reading.** The input visible at ``t`` is ``D`` restricted to ``[t_min, t]``.
* **Interpretations.** ``I`` is the visible input plus derived pairs ``(atom, s)`` with ``s ∈ T``
  (``s`` may be after ``t``: heads ``@_s a``). An atom holds at ``s`` in ``I`` if it is in
  ``I`` at ``s``, or in ``B``, or is ``true``.
* **Body formulas** at ``t``: ``a`` holds at ``t``; ``@_s a``: ``s ∈ T`` and ``a`` holds at
  ``s``; a time window looks at the points ``time_window_range(w, t, T)`` of ``I`` (possibly
  empty, possibly after ``t``); a tuple window looks at ``tuple_window_selection(w, D|[t_min,t],
  t)`` only (input atoms; background atoms and ``true`` hold at every point of its timeline);
  ``◇`` = some point, ``□`` = every point (true on no points), ``@_s`` = ``s`` is one of the
  points and the atom holds there. Comparisons use :meth:`Comparison.holds`.
* **Heads.** ``a`` is satisfied if ``a`` holds at ``t``; ``@_s a`` if ``s ∈ T`` and ``a`` holds
  at ``s``; so a rule whose body holds and whose head is ``@_s a`` with ``s ∉ T`` is violated.
* **Answer streams.** ``I`` is one iff ``I ⊨ P`` at ``t`` and no ``I'`` with visible input ``⊆
  I' ⊊ I`` satisfies the reduct ``P^{I,t}`` (the ground rules whose body holds in ``I`` at
  ``t``).

Grounding is over the active domain, with two pruning steps, each justified where it happens:

1. Only *relevant* ground rules are kept: those whose positive body holds in ``MAX``, the least
   set of pairs containing the visible input and closed under the heads of ground rules whose
   positive body holds in it. Positive body formulas are monotone in ``I`` (more atoms never make
   ``a``, ``@``, ``◇``, ``□`` false; tuple windows and comparisons do not depend on ``I``), and
   every interpretation we look at is a subset of ``MAX``, so a dropped rule has a false body in
   all of them: it is satisfied and never in a reduct.
2. A variable that occurs in a positive atom ranges over the values that occur at its argument
   position in some atom of ``MAX ∪ B`` (for that atom to hold it must be one of them), except
   under ``□`` over a window with no points (vacuously true): such a variable, and any variable
   no atom restricts, ranges over the whole active domain (constants of the program, of ``B``
   and of the visible input, and every time point of ``T`` as a ``Number``; values that only
   derived atoms hold are not in it, so the domain does not depend on the interpretation). A time
   variable of ``@`` ranges over the time points. A variable bound by an equation ``X = term``
   takes the value of ``term`` (``X`` must equal it for the body to hold).

The derived candidates are ``MAX`` minus the visible input, ``B`` and ``true``: an answer stream
never holds a pair outside ``MAX`` (otherwise ``I ∩ MAX`` would be a smaller model of the reduct),
so enumerating subsets of the candidates finds every answer stream. :class:`TooLarge` is raised
past ``max_candidates`` so property tests can ``assume()`` such cases away.

>>> from lars.streams import Stream, Timeline
>>> from lars.rules import Literal, Program, Rule
>>> x, y = Atom("x"), Atom("y")
>>> choice = Program((Rule(x, (Literal(y, negated=True),)), Rule(y, (Literal(x, negated=True),))))
>>> format_answers(answer_streams(choice, Stream(Timeline(0, 3)), 2))
[['x@2'], ['y@2']]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lars.analysis import check_safety
from lars.atoms import TRUE_PREDICATE, Atom, Comparison
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom
from lars.rules import Program, Rule
from lars.streams import Stream, Timeline
from lars.terms import BinaryOp, Constant, Iri, Name, Number, String, Term, Variable, evaluate
from lars.windows import TimeWindow, time_window_range, tuple_window_selection

Pair = tuple[Atom, int]
"""An atom at a time point."""

AnswerStream = frozenset[Pair]
"""The pairs an answer stream adds to the data (derived atoms with their time points)."""

TRUE = Atom(TRUE_PREDICATE)

MAX_CANDIDATES = 14
"""Default limit on the number of derived candidate pairs (2^n interpretations are enumerated)."""

MAX_GROUND_RULES = 20_000
"""Limit on ground rule instances examined per grounding round."""


class TooLarge(AssertionError):
    """The case is beyond what brute force handles; property tests ``assume()`` it away."""


# --------------------------------------------------------------------------------------------
# What a ground formula looks at
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Look:
    """A ground formula as: ``atom`` must hold at ``any`` or ``all`` of ``points``.

    ``from_input`` is set for tuple windows: the points at which the atom is in the selected
    input substream (the interpretation is not consulted). Background atoms and ``true`` hold at
    every point either way.
    """

    atom: Atom
    points: tuple[int, ...]
    quantifier: str  # "any" or "all"
    from_input: frozenset[int] | None = None


@dataclass(frozen=True)
class _Context:
    timeline: Timeline          # T, the whole timeline (derived atoms may sit anywhere in it)
    t: int                      # the reference time
    visible: Stream             # D restricted to [t_min, t]
    background: frozenset[Atom]

    def always(self, atom: Atom) -> bool:
        """Background atoms and ``true`` hold at every time point."""
        return atom == TRUE or atom in self.background


def _time_point(term: Term, points: Iterable[int]) -> tuple[int, ...]:
    """``(s,)`` when the ground time term is a number among ``points``, else ``()``."""
    if isinstance(term, Number) and term.value in set(points):
        return (term.value,)
    return ()


def _window_points(formula: WindowAtom, ctx: _Context) -> tuple[tuple[int, ...], frozenset[int] | None]:
    """The time points a window looks at, and for tuple windows where its atom is selected."""
    if isinstance(formula.window, TimeWindow):
        lo, hi = time_window_range(formula.window, ctx.t, ctx.timeline)
        return tuple(range(lo, hi + 1)), None
    substream = tuple_window_selection(formula.window, ctx.visible, ctx.t)
    points = tuple(substream.timeline)
    return points, frozenset(s for s in points if formula.atom in substream.at(s))


def _look(formula: Atom | AtAtom | WindowAtom, ctx: _Context) -> _Look:
    """What the ground body formula (or head) ``formula`` checks at reference time ``ctx.t``."""
    if isinstance(formula, Atom):
        return _Look(formula, (ctx.t,), "all")
    if isinstance(formula, AtAtom):
        return _Look(formula.atom, _time_point(formula.time, ctx.timeline), "any")
    points, from_input = _window_points(formula, ctx)
    if isinstance(formula.modality, Diamond):
        return _Look(formula.atom, points, "any", from_input)
    if isinstance(formula.modality, Box):
        return _Look(formula.atom, points, "all", from_input)
    return _Look(formula.atom, _time_point(formula.modality.time, points), "any", from_input)


def _holds(look: _Look, ctx: _Context, member: Callable[[Atom, int], bool]) -> bool:
    """Whether ``look`` holds when ``member(atom, s)`` says which pairs the interpretation has."""
    def at(s: int) -> bool:
        if ctx.always(look.atom):
            return True
        if look.from_input is not None:
            return s in look.from_input
        return member(look.atom, s)
    if look.quantifier == "any":
        return any(at(s) for s in look.points)
    return all(at(s) for s in look.points)


# --------------------------------------------------------------------------------------------
# Grounding
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _GroundRule:
    """A relevant ground rule: head and body as looks; comparisons are already known true."""

    head: _Look
    positive: tuple[_Look, ...]
    negative: tuple[_Look, ...]


def _ground_time(term: Term, binding: dict[str, Constant]) -> Term:
    return binding[term.name] if isinstance(term, Variable) else term


def _substitute(formula, binding: dict[str, Constant]):
    if isinstance(formula, Atom):
        return formula.substitute(binding)
    if isinstance(formula, AtAtom):
        return AtAtom(_ground_time(formula.time, binding), formula.atom.substitute(binding))
    modality = formula.modality
    if isinstance(modality, At):
        modality = At(_ground_time(modality.time, binding))
    return WindowAtom(formula.window, modality, formula.atom.substitute(binding))


def _term_constants(term: Term) -> set[Constant]:
    if isinstance(term, BinaryOp):
        return _term_constants(term.left) | _term_constants(term.right)
    return set() if isinstance(term, Variable) else {term}


def _program_constants(program: Program) -> set[Constant]:
    found: set[Constant] = set()
    for rule in program:
        formulas = [rule.head] + [literal.formula for literal in rule.body]
        for formula in formulas:
            if isinstance(formula, Comparison):
                found |= _term_constants(formula.left) | _term_constants(formula.right)
                continue
            atom = formula if isinstance(formula, Atom) else formula.atom
            for arg in atom.args:
                found |= _term_constants(arg)
            if isinstance(formula, AtAtom):
                found |= _term_constants(formula.time)
            if isinstance(formula, WindowAtom) and isinstance(formula.modality, At):
                found |= _term_constants(formula.modality.time)
    return found


def _variable_domains(rule: Rule, ctx: _Context, known: set[Atom],
                      domain: set[Constant]) -> dict[str, set[Constant]]:
    """Values worth trying for the variables that positive atoms bind (pruning step 2)."""
    time_points = {Number(s) for s in ctx.timeline}
    restricted: dict[str, set[Constant]] = {}

    def restrict(name: str, values: set[Constant]) -> None:
        restricted[name] = restricted[name] & values if name in restricted else set(values)

    atom_bound: set[str] = set()
    for literal in rule.positive_body:
        formula = literal.formula
        if isinstance(formula, Comparison):
            continue
        atom_bound |= formula.variables()
        time = formula.time if isinstance(formula, AtAtom) else (
            formula.modality.time if isinstance(formula, WindowAtom)
            and isinstance(formula.modality, At) else None)
        if isinstance(time, Variable):
            restrict(time.name, time_points)
        vacuous = (isinstance(formula, WindowAtom) and isinstance(formula.modality, Box)
                   and not _window_points(formula, ctx)[0])
        if vacuous:
            continue
        atom = formula if isinstance(formula, Atom) else formula.atom
        same = [other for other in known if other.signature == atom.signature]
        for position, arg in enumerate(atom.args):
            if isinstance(arg, Variable):
                restrict(arg.name, {other.args[position] for other in same})
    return {name: restricted.get(name, domain) for name in sorted(atom_bound)}


def _bindings(rule: Rule, ctx: _Context, known: set[Atom], domain: set[Constant]):
    """Every binding of the rule's variables worth trying: positive atoms' variables from their
    domains, then equation-bound variables computed in the order safety analysis allows."""
    domains = _variable_domains(rule, ctx, known, domain)
    names = list(domains)
    equations = [lit.formula for lit in rule.positive_body
                 if isinstance(lit.formula, Comparison) and lit.formula.op == "="]
    ordered = [sorted(domains[name], key=repr) for name in names]
    for values in itertools.product(*ordered):
        binding = dict(zip(names, values))
        changed, defined = True, True
        while changed and defined:
            changed = False
            for eq in equations:
                for target, source in ((eq.left, eq.right), (eq.right, eq.left)):
                    if isinstance(target, Variable) and target.name not in binding \
                            and source.variables() <= binding.keys():
                        value = evaluate(source, binding)
                        if value is None:  # undefined: the equation is false
                            defined = False
                            break
                        binding[target.name] = value
                        changed = True
                if not defined:
                    break
        if defined and rule.variables() <= binding.keys():
            yield binding


def _ground(program: Program, ctx: _Context, member: Callable[[Atom, int], bool],
            known: set[Atom], domain: set[Constant]) -> list[_GroundRule]:
    """The ground rules whose comparisons hold and whose positive body holds in ``member``."""
    ground: list[_GroundRule] = []
    examined = 0
    for rule in program:
        for binding in _bindings(rule, ctx, known, domain):
            examined += 1
            if examined > MAX_GROUND_RULES:
                raise TooLarge(f"more than {MAX_GROUND_RULES} ground rule instances")
            positive, negative, comparisons_hold = [], [], True
            for literal in rule.body:
                formula = literal.formula
                if isinstance(formula, Comparison):
                    if formula.holds(binding) == literal.negated:
                        comparisons_hold = False
                        break
                    continue
                look = _look(_substitute(formula, binding), ctx)
                (negative if literal.negated else positive).append(look)
            if not comparisons_hold:
                continue
            if not all(_holds(look, ctx, member) for look in positive):
                continue
            head = _look(_substitute(rule.head, binding), ctx)
            ground.append(_GroundRule(head, tuple(positive), tuple(negative)))
    return ground


def _relevant_ground_rules(program: Program, ctx: _Context,
                           input_pairs: set[Pair]) -> tuple[list[_GroundRule], set[Pair]]:
    """The relevant ground rules and ``MAX`` (pruning step 1), by iterating to the fixpoint."""
    base_domain = _program_constants(program) | {Number(s) for s in ctx.timeline}
    for atom in set(ctx.background) | {atom for atom, _ in input_pairs}:
        base_domain |= set(atom.args)
    maximal = set(input_pairs)
    while True:
        known = {atom for atom, _ in maximal} | set(ctx.background) | {TRUE}
        ground = _ground(program, ctx, lambda atom, s: (atom, s) in maximal, known, base_domain)
        heads = {(rule.head.atom, rule.head.points[0]) for rule in ground if rule.head.points}
        if heads <= maximal:
            return ground, maximal
        maximal |= heads
        if len(maximal - input_pairs) > 10 * MAX_CANDIDATES:
            raise TooLarge("too many derivable atoms")


# --------------------------------------------------------------------------------------------
# Answer streams by enumeration
# --------------------------------------------------------------------------------------------

def _sort_key(pair: Pair) -> tuple[int, str]:
    atom, time = pair
    return (time, repr(atom))


def answer_streams(program: Program, stream: Stream, t: int,
                   background: frozenset[Atom] = frozenset(), *,
                   max_candidates: int = MAX_CANDIDATES) -> list[AnswerStream]:
    """All answer streams of ``program`` for ``stream`` and ``background`` at ``t``.

    Each is given as the pairs ``(atom, time)`` it adds to the visible input and the background;
    the list is sorted canonically, so results compare with ``==``. Raises :class:`TooLarge`
    when there are more than ``max_candidates`` derivable pairs.
    """
    check_safety(program)
    if t not in stream.timeline:
        raise ValueError(f"reference time {t} is outside the timeline {stream.timeline}")
    visible = stream.restrict(stream.timeline.start, t)
    ctx = _Context(stream.timeline, t, visible, frozenset(background))
    input_pairs = {(atom, s) for s, atoms in visible.items for atom in atoms}

    ground, maximal = _relevant_ground_rules(program, ctx, input_pairs)
    candidates = sorted((pair for pair in maximal - input_pairs if not ctx.always(pair[0])),
                        key=_sort_key)
    if len(candidates) > max_candidates:
        raise TooLarge(f"{len(candidates)} candidate derived atoms (limit {max_candidates})")

    def interpretation(chosen: frozenset[Pair]) -> Callable[[Atom, int], bool]:
        return lambda atom, s: (atom, s) in input_pairs or (atom, s) in chosen

    def body_holds(rule: _GroundRule, member) -> bool:
        return all(_holds(look, ctx, member) for look in rule.positive) and \
            not any(_holds(look, ctx, member) for look in rule.negative)

    def satisfies(rules: Iterable[_GroundRule], member) -> bool:
        return all(_holds(rule.head, ctx, member) for rule in rules if body_holds(rule, member))

    subsets = [frozenset(combo) for size in range(len(candidates) + 1)
               for combo in itertools.combinations(candidates, size)]
    minimal_models: list[frozenset[Pair]] = []  # ⊆-minimal models of P, found by size
    answers: list[AnswerStream] = []
    for chosen in subsets:
        member = interpretation(chosen)
        if not satisfies(ground, member):
            continue
        # A smaller model of P also satisfies the reduct (a subset of P's ground rules).
        if any(model < chosen for model in minimal_models):
            continue
        minimal_models.append(chosen)
        reduct = [rule for rule in ground if body_holds(rule, member)]
        smaller = (frozenset(combo) for size in range(len(chosen))
                   for combo in itertools.combinations(sorted(chosen, key=_sort_key), size))
        if not any(satisfies(reduct, interpretation(other)) for other in smaller):
            answers.append(chosen)
    return sorted(answers, key=lambda answer: sorted(map(_sort_key, answer)))


# --------------------------------------------------------------------------------------------
# Readable output for assertion messages
# --------------------------------------------------------------------------------------------

def _term_text(term: Term) -> str:
    if isinstance(term, Number):
        return str(term.value)
    if isinstance(term, String):
        escaped = term.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(term, Iri):
        return f"<{term.value}>"
    if isinstance(term, Name):
        return term.value
    if isinstance(term, Variable):
        return term.name
    return f"({_term_text(term.left)}{term.op}{_term_text(term.right)})"


def format_pair(pair: Pair) -> str:
    """``x(a,"s")@3``: an atom at a time point, for messages."""
    atom, time = pair
    args = f"({','.join(_term_text(arg) for arg in atom.args)})" if atom.args else ""
    return f"{atom.predicate}{args}@{time}"


def format_answers(answers: Iterable[AnswerStream]) -> list[list[str]]:
    """Answer streams as sorted lists of ``atom@time`` strings (keeps the given order)."""
    return [[format_pair(pair) for pair in sorted(answer, key=_sort_key)] for answer in answers]
