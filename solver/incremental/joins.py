"""Rule bodies as join plans over the relations of their body atoms, with clingo's built-ins.

Each body atom of a rule has a *relation*: the tuples of its variables (alphabetical columns)
for which it holds at the reference time. A rule instance is a binding of the rule's variables
that every positive relation contains, every comparison accepts and no negated relation
contains, which is what clingo computes from the encoding of :mod:`solver.encode`. A
:class:`RulePlan` orders the work: starting from one tuple of one positive body atom (the
*seed*), it joins the other positive atoms through hash indexes, computes ``X = term``
assignments as soon as their right side is bound and applies comparisons as early as possible.

Values in tuples and bindings are the keys of :func:`solver.keys.key_of`. Built-ins
follow clingo, not Python: arithmetic wraps at 32 bits, ``/`` and ``\\`` truncate
toward zero, an undefined term (arithmetic on a non-number, division by zero) makes the
literal false, and comparisons use clingo's order of symbols (:func:`lars.terms.order_key`).

>>> from lars.parser import parse_program
>>> rule = parse_program("q(X,Z) :- [3] <> p(X,Y), [3] <> p(Y,Z), X != Z.").rules[0]
>>> plan = RulePlan(rule)
>>> [step[0] for step in plan.steps[0]]
['join', 'filter']
>>> a, b = Table([(1, 2), (2, 3)]), Table([(2, 3), (3, 1)])
>>> sorted(plan.instances(0, a.tuples, {0: a, 1: b}))
[(1, 2, 3), (2, 3, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import compress
from operator import itemgetter

from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.formulas import At, AtAtom, WindowAtom, base_atom
from lars.rules import Rule
from lars.streams import Timeline
from lars.terms import (MAX_INTEGER, MIN_INTEGER, BinaryOp, Constant, Number, Term, Variable,
                        evaluate, in_range, order_key)
from solver.keys import LONG_KEY, Key, key_constant, key_of

Tuple = tuple[Key, ...]
Binding = dict[str, Key]
Pair = tuple[Atom, int]
OFF_TIMELINE = None
"""What an instance derives when its head ``@_s a`` has ``s`` off the timeline (or not a number):
the encoding's constraint, so the time point has no answer stream."""

def value_of(term: Term, binding: Binding) -> Constant | None:
    """The value clingo gives ``term`` under ``binding`` (of keys); ``None`` when it is undefined."""
    values = {}
    for name in term.variables():
        key = binding.get(name)
        if key is None:
            return None
        values[name] = key_constant(key)
    return evaluate(term, values)


def holds(comparison: Comparison, binding: Binding) -> bool:
    """Whether clingo accepts the comparison under ``binding`` (false when a side is undefined)."""
    left, right = value_of(comparison.left, binding), value_of(comparison.right, binding)
    if left is None or right is None:
        return False
    a, b = order_key(left), order_key(right)
    op = comparison.op
    if op == "=":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def literal_columns(formula: Atom | AtAtom | WindowAtom) -> tuple[str, ...]:
    """The relation's columns: the body atom's variables, ``T`` of ``@_T`` included, sorted."""
    return tuple(sorted(formula.variables()))


def time_variable(formula: Atom | AtAtom | WindowAtom) -> str | None:
    """The variable ``T`` of ``@_T a`` or ``⊞@_T a``, if any."""
    time = formula.time if isinstance(formula, AtAtom) else (
        formula.modality.time if isinstance(formula, WindowAtom) and isinstance(formula.modality, At)
        else None)
    return time.name if isinstance(time, Variable) else None


def key_getter(positions) -> Callable:
    """Reads an index key from a tuple (or a binding, given names): the value itself for one
    position, a tuple for several (:func:`operator.itemgetter`)."""
    return itemgetter(*positions)


SMALL_BUCKET = 8
"""Index buckets up to this size are tuples: the garbage collector does not track tuples of
keys, so a large long-lived index does not make every full collection slower. Larger buckets
are sets."""


class Table:
    """A set of tuples with hash indexes on column positions, built on demand and kept up to date."""

    __slots__ = ("tuples", "indexes")

    def __init__(self, tuples: Iterable[Tuple] = (), shared: bool = False):
        """A table of ``tuples`` (copied), or over the container itself when ``shared`` (then
        read only: its indexes are built once and not maintained)."""
        self.tuples = tuples if shared else set(tuples)
        self.indexes: dict[tuple[int, ...], tuple[Callable, dict]] = {}

    def index(self, positions: tuple[int, ...]) -> dict:
        """The index on ``positions``: key (a value, or a tuple for several) → tuples with it."""
        found = self.indexes.get(positions)
        if found is None:
            get, index = key_getter(positions), {}
            self.indexes[positions] = found = (get, index)
            _index_add(get, index, self.tuples)
        return found[1]

    def add(self, values: Tuple) -> None:
        self.add_all((values,))

    def discard(self, values: Tuple) -> None:
        self.discard_all((values,))

    def add_all(self, tuples: Iterable[Tuple]) -> None:
        """Add tuples that are not in the table (each once), one loop per index."""
        self.tuples.update(tuples)
        for get, index in self.indexes.values():
            _index_add(get, index, tuples)

    def discard_all(self, tuples: Iterable[Tuple]) -> None:
        """Discard tuples that are in the table (each once), one loop per index."""
        self.tuples.difference_update(tuples)
        for get, index in self.indexes.values():
            for values in tuples:
                key = get(values)
                bucket = index[key]
                if type(bucket) is tuple:
                    if len(bucket) == 1:
                        del index[key]
                        continue
                    bucket = tuple([other for other in bucket if other != values])
                    if bucket:
                        index[key] = bucket
                    else:
                        del index[key]
                else:
                    bucket.discard(values)
                    if not bucket:
                        del index[key]


def _index_add(get: Callable, index: dict, tuples: Iterable[Tuple]) -> None:
    """Put ``tuples`` in the buckets of ``index`` (small buckets tuples, larger ones sets)."""
    find = index.get
    for values in tuples:
        key = get(values)
        bucket = find(key)
        if bucket is None:
            index[key] = (values,)
        elif type(bucket) is tuple:
            index[key] = bucket + (values,) if len(bucket) < SMALL_BUCKET else {*bucket, values}
        else:
            bucket.add(values)


JOIN, ASSIGN, FILTER = "join", "assign", "filter"


class RulePlan:
    """How to enumerate the instances of one rule's body (see the module docstring).

    Attributes:
        variables: the rule's variables, sorted; an instance is a tuple of keys in this order.
        positives / negatives: ``(literal index, columns)`` of the positive / negated body atoms.
        steps: for each seed (a literal index, or ``None`` for a body without positive atoms),
            the join, assignment and filter steps that extend a seed tuple to instances.
    """

    def __init__(self, rule: Rule):
        self.rule = rule
        self.variables = tuple(sorted(rule.variables()))
        self.positives: list[tuple[int, tuple[str, ...]]] = []
        self.negatives: list[tuple[int, tuple[str, ...]]] = []
        self.conditions: list[Comparison] = []
        for index, literal in enumerate(rule.body):
            if isinstance(literal.formula, Comparison):
                if literal.negated:
                    raise UnsupportedError("negated comparison: write the complementary comparison",
                                           rule.position)
                self.conditions.append(literal.formula)
            else:
                entry = (index, literal_columns(literal.formula))
                (self.negatives if literal.negated else self.positives).append(entry)
        seeds = [index for index, _ in self.positives] or [None]
        self.steps = {seed: self._plan(seed) for seed in seeds}
        self.compiled = {seed: CompiledPlan(steps, dict(self.positives).get(seed, ()), self.variables)
                         for seed, steps in self.steps.items()}
        self.negation_getters = [(index, itemgetter(*columns) if len(columns) > 1 else None, columns)
                                 for index, columns in self.negatives]
        self.instance_getter = itemgetter(*self.variables) if len(self.variables) > 1 else None

    def _plan(self, seed: int | None) -> list[tuple]:
        columns = dict(self.positives)
        bound = set(columns[seed]) if seed is not None else set()
        remaining = [index for index, _ in self.positives if index != seed]
        pending = list(self.conditions)
        steps: list[tuple] = []
        while True:
            self._take_conditions(pending, bound, steps)
            if not remaining:
                break
            # a 0-ary atom first (push/pull's ``trigger``): a yes/no test that cuts every
            # instance at a time point where it is false, before any join is built
            best = max(remaining, key=lambda i: (not columns[i], len(set(columns[i]) & bound),
                                                 -len(columns[i])))
            remaining.remove(best)
            cols = columns[best]
            key = tuple(i for i, name in enumerate(cols) if name in bound)
            new = tuple((i, name) for i, name in enumerate(cols) if name not in bound)
            steps.append((JOIN, best, key, tuple(cols[i] for i in key), new))
            bound.update(cols)
        if pending:  # only for unsafe rules, which check_safety refuses first
            raise UnsupportedError("a comparison uses a variable no body atom binds", self.rule.position)
        return steps

    @staticmethod
    def _take_conditions(pending: list[Comparison], bound: set[str], steps: list[tuple]) -> None:
        progress = True
        while progress:
            progress = False
            for condition in list(pending):
                target = _assignment_target(condition, bound)
                if target is not None:
                    variable, term = target
                    steps.append((ASSIGN, variable, term))
                    bound.add(variable)
                elif condition.variables() <= bound:
                    steps.append((FILTER, condition))
                else:
                    continue
                pending.remove(condition)
                progress = True

    def instances(self, seed: int | None, seed_tuples: Iterable[Tuple], relations) -> list[Tuple]:
        """Rule instances (tuples over :attr:`variables`) that extend the seed tuples.

        ``relations[i]`` is the :class:`Table` of positive body atom ``i``; negated body atoms
        are *not* checked here (see :meth:`negation_holds`). The seed tuples go through the
        steps together, a batch per step (:class:`CompiledPlan`).
        """
        return self.compiled[seed].run(seed_tuples, relations)

    def negation_holds(self, instance: Tuple, relations) -> bool:
        """True when no negated body atom holds for the instance (``relations[i].tuples``)."""
        if not self.negatives:
            return True
        binding = dict(zip(self.variables, instance))
        for index, getter, columns in self.negation_getters:
            key = getter(binding) if getter else tuple(binding[name] for name in columns)
            if key in relations[index].tuples:
                return False
        return True


def _assignment_target(condition: Comparison, bound: set[str]) -> tuple[str, Term] | None:
    """``(X, term)`` when ``condition`` is ``X = term`` (either side) with ``X`` unbound, ``term`` bound."""
    if condition.op != "=":
        return None
    for target, source in ((condition.left, condition.right), (condition.right, condition.left)):
        if isinstance(target, Variable) and target.name not in bound and source.variables() <= bound:
            return target.name, source
    return None


class CompiledPlan:
    """The steps of one seed as functions over batches of *bindings*: tuples of keys, one slot
    per variable bound so far (the seed atom's columns, then the variables each step binds).
    A join step extends every binding with the matching tuples of an index in one list
    comprehension, so a batch of seed tuples costs a few Python calls per step, not per tuple;
    bindings are made into instances (keys in the order of :attr:`RulePlan.variables`) at the end.

    >>> plan = CompiledPlan([(JOIN, 1, (0,), ("Y",), ((1, "Z"),))], ("X", "Y"), ("X", "Y", "Z"))
    >>> plan.run([(1, 2), (5, 6)], {1: Table([(2, 3), (2, 4)])})
    [(1, 2, 3), (1, 2, 4)]
    """

    def __init__(self, steps: list[tuple], columns: tuple[str, ...], variables: tuple[str, ...]):
        slots = list(columns)
        self.needs: list[tuple[int, tuple[int, ...]]] = []
        """``(body atom, index positions)`` of each join step: its index (or its tuples, for no
        positions), looked up once per :meth:`run`."""
        self.steps: list[Callable[[list, list], list]] = []
        for step in steps:
            if step[0] == JOIN:
                self.steps.append(_compile_join(step, slots, len(self.needs)))
                self.needs.append((step[1], step[2]))
            else:
                self.steps.append(_STEP_COMPILERS[step[0]](step, tuple(slots)))
                if step[0] == ASSIGN:
                    slots.append(step[1])
        order = [slots.index(name) for name in variables]
        self.finish = None if order == list(range(len(slots))) else itemgetter(*order)

    def run(self, seeds: Iterable[Tuple], relations) -> list[Tuple]:
        """The instances extending ``seeds`` (tuples over the seed atom's columns)."""
        found = [relations[index].index(key) if key else relations[index].tuples
                 for index, key in self.needs]
        bindings = seeds if type(seeds) is list else list(seeds)
        for step in self.steps:
            if not bindings:
                return []
            bindings = step(bindings, found)
        return bindings if self.finish is None else list(map(self.finish, bindings))


def _compile_join(step: tuple, slots: list[str], position: int) -> Callable[[list, list], list]:
    """A join step: each binding extended by the tuples of ``found[position]`` that agree with
    it (an index, or all the tuples when no variable is shared); adds the new variables to
    ``slots``."""
    _, _, key, key_names, new = step
    lookup = itemgetter(*[slots.index(name) for name in key_names]) if key else None
    slots.extend(name for _, name in new)
    picks = [i for i, _ in new]
    low, high = (picks[0], picks[-1] + 1) if picks else (0, 0)

    def probe(found: list, bindings: list) -> Iterator:
        """The index bucket of each binding (``None`` for none), looked up by ``map`` in C."""
        return map(found[position].get, map(lookup, bindings))

    if picks and picks != list(range(low, high)):
        pick = itemgetter(*picks)  # two or more positions, not side by side: a tuple
        if lookup is None:
            return lambda bindings, found: [b + pick(v) for b in bindings for v in found[position]]
        return lambda bindings, found: [b + pick(v) for b, bucket in zip(bindings, probe(found, bindings))
                                        if bucket for v in bucket]
    if lookup is None:
        if not picks:
            return lambda bindings, found: bindings if found[position] else []
        return lambda bindings, found: [b + v[low:high] for b in bindings for v in found[position]]
    if not picks:
        return lambda bindings, found: list(compress(bindings, map(found[position].__contains__,
                                                                    map(lookup, bindings))))
    return lambda bindings, found: [b + v[low:high] for b, bucket in zip(bindings, probe(found, bindings))
                                    if bucket for v in bucket]


def _compile_assign(step: tuple, names: tuple[str, ...]) -> Callable[[list, list], list]:
    """``X = term``: each binding extended by the key of the term's value (dropped if undefined)."""
    _, _, term = step

    def assign(bindings: list, found: list) -> list:
        out = []
        for binding in bindings:
            value = value_of(term, dict(zip(names, binding)))
            if value is not None:
                out.append(binding + (key_of(value),))
        return out
    return assign


def _compile_filter(step: tuple, names: tuple[str, ...]) -> Callable[[list, list], list]:
    """A comparison: the bindings it accepts (:func:`integer_test` where it applies, else
    :func:`_remembered_test`)."""
    condition = step[1]
    test = integer_test(condition, names)
    if test is not None:
        return lambda bindings, found: [b for b in bindings if test(b)]
    return _remembered_test(condition, names)


def _remembered_test(condition: Comparison, names: tuple[str, ...]) -> Callable[[list, list], list]:
    """The bindings a comparison that is not integer arithmetic accepts, each verdict remembered
    by the keys of the comparison's own variables: a residual rule such as
    ``ans_1 ← ans_2, @ebv(@gt(Value, 80)) = true`` is evaluated over the whole relation at
    every time point, and a sensor stream brings the same few values back all day (CSRBench Q1
    at 10^6: the comparisons were 5% of ``lars agree``). Functions are deterministic
    (:mod:`lars.externals`), so a verdict depends on those keys alone; the memory is emptied
    past :data:`VERDICTS_KEPT`."""
    positions = [names.index(name) for name in sorted(condition.variables())]
    verdicts: dict[Tuple, bool] = {}

    def accepts(binding: Tuple) -> bool:
        key = tuple([binding[i] for i in positions])
        verdict = verdicts.get(key)
        if verdict is None:
            if len(verdicts) >= VERDICTS_KEPT:
                verdicts.clear()
            verdict = verdicts[key] = holds(condition, dict(zip(names, binding)))
        return verdict
    return lambda bindings, found: [b for b in bindings if accepts(b)]


VERDICTS_KEPT = 1 << 14
"""Verdicts a comparison remembers (:func:`_remembered_test`)."""


_OTHER = object()
"""What an :func:`integer_term` function gives for a variable bound to a symbol: not an
integer, to be compared by :func:`holds`."""

_INTEGER_TESTS = {"=": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__,
                  ">": int.__gt__, ">=": int.__ge__}


def integer_term(term: Term, names: tuple[str, ...]) -> Callable[[Tuple], object] | None:
    """``term`` as a function of a binding (keys in the order of ``names``) when it is integer
    arithmetic over variables and numbers, ``None`` for any other term. The function gives the
    value as :func:`lars.terms.evaluate` does (``None`` where it is undefined: an operand
    that is no integer, division by zero; a result off clingo's integers raises), or
    :data:`_OTHER` for a variable bound to a symbol, which only :func:`holds` compares.

    >>> f = integer_term(BinaryOp("%", Variable("X"), Number(-4)), ("X",))
    >>> f((-7,)), f((7,)), f(("a",)), integer_term(Variable("X"), ("X",))(("a",)) is _OTHER
    (-3, 3, None, True)
    """
    if isinstance(term, Number):
        value = term.value
        return lambda binding: value
    if isinstance(term, Variable):
        if term.name not in names:
            return None
        slot = names.index(term.name)
        return lambda binding: binding[slot] if type(binding[slot]) is int else _OTHER
    if not isinstance(term, BinaryOp):
        return None
    left, right = integer_term(term.left, names), integer_term(term.right, names)
    if left is None or right is None:
        return None
    op = term.op

    def value(binding: Tuple) -> int | None:
        a, b = left(binding), right(binding)
        if type(a) is not int or type(b) is not int:
            return None
        if op == "+":
            found = a + b
        elif op == "-":
            found = a - b
        elif op == "*":
            found = a * b
        elif b == 0:
            return None
        else:
            quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            found = quotient if op == "/" else a - b * quotient
        return found if MIN_INTEGER <= found <= MAX_INTEGER else in_range(found, term)
    return value


def integer_test(condition: Comparison, names: tuple[str, ...]) -> Callable[[Tuple], bool] | None:
    """:func:`holds` of ``condition`` as a function of a binding (keys in the order of
    ``names``) when both sides are integer arithmetic (:func:`integer_term`): two integers are
    compared directly (clingo orders numbers by value), anything else goes to :func:`holds`.
    ``None`` when a side is another term.

    >>> test = integer_test(Comparison("<", Variable("T"), BinaryOp("-", Variable("N"), Number(2))), ("N", "T"))
    >>> test((5, 2)), test((5, 3)), test((5, "a"))
    (True, False, False)
    """
    left, right = integer_term(condition.left, names), integer_term(condition.right, names)
    if left is None or right is None:
        return None
    compare = _INTEGER_TESTS[condition.op]

    def test(binding: Tuple) -> bool:
        a, b = left(binding), right(binding)
        if type(a) is int and type(b) is int:
            return compare(a, b)
        if a is None or b is None:
            return False
        return holds(condition, dict(zip(names, binding)))
    return test


_STEP_COMPILERS = {ASSIGN: _compile_assign, FILTER: _compile_filter}
"""One compiler per step kind besides joins (which also take the position of their index)."""


class Head:
    """Builds what an instance derives: the head atom, at ``t`` or at the time of ``@_s``."""

    def __init__(self, rule: Rule, variables: tuple[str, ...], timeline: Timeline):
        atom = base_atom(rule.head)
        self.predicate = atom.predicate
        self.signature = atom.signature
        self.getters = [(variables.index(arg.name), None) if isinstance(arg, Variable) else (None, arg)
                        for arg in atom.args]
        time = rule.head.time if isinstance(rule.head, AtAtom) else None
        self.plain = time is None
        self.time_index = variables.index(time.name) if isinstance(time, Variable) else None
        self.time_constant = time.value if isinstance(time, Number) else None
        self.timeline = timeline
        self.positions = [i for i, _ in self.getters if i is not None]
        self.key: Callable[[Tuple], object] = (itemgetter(*self.positions) if self.positions
                                               else lambda instance: ())
        self.made: dict[object, Atom] = {}

    def atom(self, instance: Tuple) -> Atom:
        """The head atom of ``instance``, the same object while it is recent: a head derived
        again at the next time point (a copy rule derives each stream atom's value anew) then
        costs one lookup, and the writers' caches keyed by the atom find it by identity.

        A head with a text longer than :data:`~solver.keys.LONG_KEY` is not remembered (as
        :func:`~solver.keys.key_constant` does not remember its constant): such values are
        made anew at each time point (a GROUP_CONCAT over 10^4 literals of 1 KB is a 10 MB
        string, a new one at each), and remembering them kept every time point's, in each of
        the heads that copy it on (the aggregate's result, its row, the answer: 165 MB of
        the 450 MB of ``benchmarks/bench_aggregates.py``'s GROUP_CONCAT)."""
        key = self.key(instance)
        found = self.made.get(key)
        if found is None:
            found = Atom(self.predicate, tuple(
                key_constant(instance[i]) if i is not None else c for i, c in self.getters))
            if all(type(instance[i]) is not str or len(instance[i]) <= LONG_KEY for i in self.positions):
                if len(self.made) >= 1 << 16:
                    self.made.clear()
                self.made[key] = found
        return found

    def at(self, instance: Tuple) -> Pair | None:
        """For a head ``@_s a``: ``(a, s)``, or :data:`OFF_TIMELINE` (the encoding's constraint)."""
        time = instance[self.time_index] if self.time_index is not None else self.time_constant
        if type(time) is int and time in self.timeline:
            return self.atom(instance), time
        return OFF_TIMELINE

    def make(self, instance: Tuple, t: int) -> Pair | None:
        return (self.atom(instance), t) if self.plain else self.at(instance)
