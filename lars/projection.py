"""Projection push-down: drop the arguments of derived predicates that no rule reads.

A translated query keeps every variable of a pattern node in that node's ``ans_i``, also the
ones its parents never look at: in the paper's coupons query ``ans_4`` joins the coupons with
the users near the shop, and ``ans_1`` then projects both away, so a grounder builds one atom
per coupon × user × shop × time point that nothing reads. :func:`project` rewrites the program
so that each derived predicate keeps only the positions some rule reads.

A position ``i`` of a derived predicate ``p`` is *read* (:func:`read_positions`) when ``p`` is
one of the ``keep`` predicates (the answer predicate, and any predicate also given from outside
the program: static data, input), or some body occurrence of ``p`` has at ``i``

* a constant, or a variable that occurs anywhere else in the rule (another literal, a
  comparison, a fold, a time variable, another position of the same atom, or a read position
  of the head), or
* any term, when the occurrence is negated, under ``□``, in a tuple window or in a fold.

Every other occurrence binds a variable that only this position mentions (``_`` included), an
existential quantifier that commutes with the ones the occurrence stands under: with plain
atoms, ``@_t`` and time windows with ``◇`` (``⊞◇ ∃Y p(X,Y)`` is ``∃Y ⊞◇ p(X,Y)``), not with
``□`` (all points of the window need not share one ``Y``), negation (``not ∃Y`` is no rule),
a fold (its groups are told apart by the atom's variables) or a tuple window (conservatively).
So at every time point the rewritten ``p`` holds exactly the projections of the original ``p``
onto its read positions, and the ``keep`` predicates hold the same atoms as before; negated
atoms keep all their arguments, so the answer streams correspond one to one (a non-stratified
program's too). This is a property of set semantics: a query answered with SPARQL's multisets
keeps its witness variables in ``ans_1`` (:mod:`translate.bags`), where they are read.

>>> from lars.parser import parse_program
>>> from lars.printer import print_program
>>> program = parse_program('a(X) :- b(X,Y,C), C > 1. b(X,Y,C) :- [3] <> s(X,Y,C,U), r(U).')
>>> print(print_program(project(program, {("a", 1)}), "ascii"))
a(X) :- b(X,C), C > 1.
b(X,C) :- [3] <> s(X,Y,C,U), r(U).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from lars.atoms import Atom
from lars.formulas import At, AtAtom, Box, Fold, WindowAtom
from lars.rules import BodyFormula, Literal, Program, Rule
from lars.terms import Variable
from lars.windows import TupleWindow

Signature = tuple[str, int]
WILDCARD = "_"
"""The anonymous variable: each of its occurrences is a variable of its own."""


def _atom_of(formula: BodyFormula) -> Atom | None:
    """The atom of a body formula whose arguments may be dropped, ``None`` for a comparison."""
    if isinstance(formula, Atom):
        return formula
    if isinstance(formula, (AtAtom, WindowAtom, Fold)):
        return formula.atom
    return None


def _droppable(literal: Literal) -> bool:
    """Whether an unread argument of this literal's atom may be dropped (module docstring)."""
    formula = literal.formula
    if literal.negated or isinstance(formula, Fold):
        return False
    if isinstance(formula, WindowAtom):
        return not isinstance(formula.modality, Box) and not isinstance(formula.window, TupleWindow)
    return isinstance(formula, (Atom, AtAtom))


def _mentions(literal: Literal) -> Counter:
    """The variables of a body literal, counted once per occurrence."""
    formula = literal.formula
    atom = _atom_of(formula)
    if atom is None:
        return Counter(formula.variables())
    found = Counter(a.name for a in atom.args if isinstance(a, Variable))
    if isinstance(formula, AtAtom):
        found.update(formula.time.variables())
    elif isinstance(formula, WindowAtom) and isinstance(formula.modality, At):
        found.update(formula.modality.variables())
    elif isinstance(formula, Fold):
        found.update(formula.result.variables())
    return found


def read_positions(program: Program, keep: Iterable[Signature]) -> dict[Signature, frozenset[int]]:
    """For each derived predicate of ``program`` not in ``keep``, the positions some rule reads
    (module docstring); the least such sets, found by iterating to a fixpoint."""
    kept = set(keep)
    free = {_head(rule).signature for rule in program} - kept
    read: dict[Signature, set[int]] = {sig: set() for sig in free}
    changed = True
    while changed:
        changed = False
        for rule in program:
            head = _head(rule)
            head_reads = Counter(
                a.name for i, a in enumerate(head.args)
                if isinstance(a, Variable) and (head.signature not in free or i in read[head.signature]))
            if isinstance(rule.head, AtAtom):
                head_reads.update(rule.head.time.variables())  # @_T a: T is read
            body = [_mentions(literal) for literal in rule.body]
            for k, literal in enumerate(rule.body):
                atom = _atom_of(literal.formula)
                if atom is None or atom.signature not in free:
                    continue
                elsewhere = head_reads + sum((c for j, c in enumerate(body) if j != k), Counter())
                within = body[k]
                for i, arg in enumerate(atom.args):
                    if i in read[atom.signature]:
                        continue
                    unread = (_droppable(literal) and isinstance(arg, Variable) and (
                        arg.name == WILDCARD or (within[arg.name] == 1 and not elsewhere[arg.name])))
                    if not unread:
                        read[atom.signature].add(i)
                        changed = True
    return {sig: frozenset(positions) for sig, positions in read.items()}


def _head(rule: Rule) -> Atom:
    """The atom of a rule's head (``@_t a`` or ``a``)."""
    return rule.head.atom if isinstance(rule.head, AtAtom) else rule.head


def _cut(atom: Atom, read: dict[Signature, frozenset[int]]) -> Atom:
    """``atom`` with only the read positions of its predicate, if it is cut."""
    positions = read.get(atom.signature)
    if positions is None:
        return atom
    return Atom(atom.predicate, tuple(a for i, a in enumerate(atom.args) if i in positions))


def _cut_formula(formula: BodyFormula, read: dict[Signature, frozenset[int]]) -> BodyFormula:
    """A body formula with its atom cut (:func:`_cut`)."""
    if isinstance(formula, Atom):
        return _cut(formula, read)
    if isinstance(formula, (AtAtom, WindowAtom)):
        return replace(formula, atom=_cut(formula.atom, read))
    return formula  # a comparison, or a fold (its atom's positions are all read)


def project(program: Program, keep: Iterable[Signature]) -> Program:
    """``program`` with every derived predicate outside ``keep`` cut down to the positions some
    rule reads (:func:`read_positions`); the ``keep`` predicates hold the same atoms at every
    time point (module docstring). A predicate keeps its name: with fewer arguments it is
    another predicate, and no ``keep`` predicate can share its signature."""
    read = {sig: positions for sig, positions in read_positions(program, keep).items()
            if len(positions) < sig[1]}
    cut = [(name, len(positions)) for (name, _), positions in read.items()]
    others = set(keep) | {sig for sig in signatures(program) if sig not in read}
    if not read or len(set(cut)) < len(cut) or others & set(cut):
        return program  # nothing to cut, or a cut predicate would merge with another: left whole
    rules = []
    for rule in program:
        head = rule.head
        head = (AtAtom(head.time, _cut(head.atom, read)) if isinstance(head, AtAtom)
                else _cut(head, read))
        body = tuple(Literal(_cut_formula(lit.formula, read), lit.negated) for lit in rule.body)
        rules.append(Rule(head, body, rule.position))
    return Program(tuple(rules))


def signatures(program: Program) -> set[Signature]:
    """The signatures of every atom of ``program``, heads and bodies."""
    found = {_head(rule).signature for rule in program}
    for rule in program:
        found |= {atom.signature for lit in rule.body if (atom := _atom_of(lit.formula)) is not None}
    return found
