"""Unfolding copy rules: ``q(X̄) ← ⊞ M a(X̄)`` replaced in the bodies that read ``q`` (SPEC 3, 12).

C-SPARQL's translation τ1 first copies the window into the default graph,

    triple(S,P,O,default) ← ⊞^{10,0,10} ◇ striple(S,P,O,<s>).

and its basic graph pattern then reads ``triple``. The incremental engine builds every copied
atom at each pull and keys it again for the rule that reads it (CSRBench Q1 replayed to 10^5
triples: a third of the run). When nothing else can make ``q`` hold, ``q(t̄)`` holds at ``t``
exactly when the copy rule's body does under the substitution ``X̄ ↦ t̄``, so a body atom
``q(t̄)`` can be replaced by ``⊞ M a(X̄)[X̄ ↦ t̄]`` without changing the answer at any time point
on the other predicates (unfolding a non-recursive predicate defined by one rule), and the
rule that read ``triple`` becomes a rule over fed window atoms, as CQELS's translation τ2 has.

Unfolded only when all of this holds for ``q`` (otherwise the program is left as it is):

* ``q`` is not shown (its atoms are not reported) and is neither input nor background: the
  caller says which predicates the stream can hold (``inputs``); with ``inputs=None`` nothing
  is unfolded;
* exactly one rule has head ``q``: a plain atom whose arguments are distinct variables or
  constants, a body of one positive window atom with ``◇`` or ``□`` (or a plain atom) over
  another predicate, and the same variables in head and body;
* every other occurrence of ``q`` is a positive plain body atom whose argument is the head's
  constant wherever the head has a constant.

>>> from lars.parser import parse_program
>>> program = parse_program('t(S,O,d) :- [10] <> s(S,O). a(X) :- t(X,c,d), t(c,X,d).')
>>> print(unfold_copies(program, frozenset({"a"}), frozenset(), frozenset({("s", 2)})).rules[0].body[1])
Literal(formula=WindowAtom(window=TimeWindow(length=10, ahead=0, step=1), modality=Diamond(), atom=Atom(predicate='s', args=(Name(value='c'), Variable(name='X')))), negated=False)
"""

from __future__ import annotations

from lars.analysis import Signature, derived_predicates
from lars.atoms import Atom, Comparison
from lars.formulas import At, AtAtom, Box, Diamond, WindowAtom, base_atom
from lars.rules import Literal, Program, Rule
from lars.terms import CONSTANT_TYPES, BinaryOp, Function, Number, Term, Variable


def unfold_copies(program: Program, shown: frozenset[str] | None, background: frozenset[Signature],
                  inputs: frozenset[Signature] | None) -> Program:
    """``program`` with the copy rules of the module docstring unfolded (and dropped).

    Each pass unfolds together the copy rules that do not read one another's heads (their
    unfoldings are then independent: each leaves the others' occurrences as they were), and
    the scan starts again (an unfolding can make another rule a copy rule). Each check looks
    only at the occurrences of its predicate (:func:`occurrences`): checking every rule against
    every other made a UNION of 150 branches take a minute, and one pass per copy rule made
    500 OPTIONALs take 40 s (issue 28).
    """
    if shown is None or inputs is None:
        return program
    while True:
        uses = occurrences(program)
        copies: dict[Signature, Rule] = {}
        read: set[Signature] = set()
        for rule in program:
            signature = rule.head.signature if isinstance(rule.head, Atom) else None
            if (signature is not None and signature[0] not in shown and signature not in inputs
                    and signature not in background and signature not in read
                    and unfoldable(program, rule, uses)):
                body = base_atom(rule.body[0].formula).signature
                if body not in copies:
                    copies[signature] = rule
                    read.add(body)
        if not copies:
            return program
        program = unfolded(program, copies)


Occurrence = tuple[Rule, Literal | None]
"""A rule and the body literal where a predicate occurs (``None``: in its head)."""


def occurrences(program: Program) -> dict[Signature, list[Occurrence]]:
    """Where each predicate occurs: in heads (also under ``@``), and in body literals, plain or
    inside a window or ``@``."""
    found: dict[Signature, list[Occurrence]] = {}
    for rule in program:
        head = rule.head if isinstance(rule.head, Atom) else rule.head.atom
        found.setdefault(head.signature, []).append((rule, None))
        for literal in rule.body:
            formula = literal.formula
            if isinstance(formula, Atom):
                found.setdefault(formula.signature, []).append((rule, literal))
            elif hasattr(formula, "atom"):
                found.setdefault(formula.atom.signature, []).append((rule, literal))
    return found


def is_copy_rule(rule: Rule) -> bool:
    """``q(X̄) ← ⊞ M a(X̄)`` (``M`` is ``◇`` or ``□``) or ``q(X̄) ← a(X̄)``, with distinct head
    variables, the same variables on both sides, and ``a`` other than ``q``."""
    head = rule.head
    if not isinstance(head, Atom) or len(rule.body) != 1 or rule.body[0].negated:
        return False
    formula = rule.body[0].formula
    if isinstance(formula, WindowAtom):
        if not isinstance(formula.modality, (Diamond, Box)):
            return False
    elif not isinstance(formula, Atom):
        return False
    names = [arg.name for arg in head.args if isinstance(arg, Variable)]
    return (len(names) == len(set(names)) and set(names) == formula.variables()
            and base_atom(formula).signature != head.signature)


def unfoldable(program: Program, copy: Rule, uses: dict[Signature, list[Occurrence]] | None = None) -> bool:
    """Whether ``copy`` is a copy rule, the only rule for its head predicate, and every other
    occurrence of that predicate can take its body (see the module docstring); ``uses`` are the
    program's :func:`occurrences`, if known."""
    if not is_copy_rule(copy):
        return False
    signature = copy.head.signature
    for rule, literal in (occurrences(program) if uses is None else uses).get(signature, ()):
        if rule is copy:
            continue
        if literal is None:
            return False  # another rule for the same head
        formula = literal.formula
        if not isinstance(formula, Atom):
            return False  # q inside a window or under @
        if literal.negated or any(not isinstance(h, Variable) and h != u
                                  for h, u in zip(copy.head.args, formula.args)):
            return False
    return True


def unfolded(program: Program, copies: dict[Signature, Rule]) -> Program:
    """``program`` without the ``copies`` (by head), each body atom over one of their heads
    replaced by its body (no copy reads another's head: see :func:`unfold_copies`)."""
    dropped = {id(copy) for copy in copies.values()}
    rules = []
    for rule in program:
        if id(rule) in dropped:
            continue
        literals = []
        for literal in rule.body:
            formula = literal.formula
            copy = copies.get(formula.signature) if isinstance(formula, Atom) else None
            if copy is not None:
                binding = {h.name: u for h, u in zip(copy.head.args, formula.args)
                           if isinstance(h, Variable)}
                literal = Literal(substituted(copy.body[0].formula, binding))
            literals.append(literal)
        rules.append(Rule(rule.head, tuple(literals), rule.position))
    return Program(tuple(rules))


def substituted(formula: Atom | WindowAtom, binding: dict) -> Atom | WindowAtom:
    """A plain or window atom with its variables replaced by ``binding``'s terms."""
    if isinstance(formula, Atom):
        return formula.substitute(binding)
    return WindowAtom(formula.window, formula.modality, formula.atom.substitute(binding))


def inline_single_uses(program: Program, shown: frozenset[str] | None, background: frozenset[Signature],
                       inputs: frozenset[Signature] | None) -> Program:
    """``program`` with each hidden predicate read once inlined: ``q(X̄) ← β`` replaced in the
    one body that reads ``q`` by ``β`` (its other variables renamed apart), and dropped.

    A query's FILTER is ``ans_1(X̄) ← ans_2(Ȳ), cond`` over the rule of its basic graph pattern
    ``ans_2(Ȳ) ← ⊞◇a_1, …, ⊞◇a_n``: ``ans_1`` reads a derived predicate, so the engine
    recomputed it over the whole ``ans_2`` relation at every time point (CSRBench Q1 at 10^6:
    a third of ``lars agree``); inlined, ``ans_1 ← ⊞◇a_1, …, ⊞◇a_n, cond`` reads only the
    window atoms and is maintained by deltas. ``q(t̄)`` holds at ``t`` exactly when ``β`` does
    at ``t`` under ``X̄ ↦ t̄`` for some values of ``β``'s other variables, so when nothing else
    makes ``q`` hold and nothing else reads it, the answers on the other predicates stay the
    same (unfolding a non-recursive predicate defined by one rule).

    Inlined only when all of this holds for ``q`` (as for :func:`unfold_copies`, with
    ``inputs=None`` nothing is):

    * ``q`` is not shown and is neither input nor background;
    * exactly one rule has head ``q``: a plain atom whose arguments are distinct variables or
      constants, a body of plain, ``@`` and window atoms and comparisons, possibly negated, whose
      predicates no rule derives (so no recursion runs through ``q``);
    * ``q`` occurs once elsewhere: a positive plain body atom whose arguments are variables or
      constants, the head's constant wherever the head has one, and a variable or a number where
      the head has a variable that a window's ``@`` binds.
    """
    if shown is None or inputs is None:
        return program
    while True:
        derived = derived_predicates(program)
        uses = occurrences(program)
        inlined: dict[Signature, Rule] = {}
        for rule in program:
            signature = rule.head.signature if isinstance(rule.head, Atom) else None
            if (signature is not None and signature[0] not in shown and signature not in inputs
                    and signature not in background and inlinable(rule, uses[signature], derived)):
                inlined[signature] = rule
        if not inlined:
            return program
        program = _inlined(program, inlined)


def inlinable(rule: Rule, uses: list[Occurrence], derived: frozenset[Signature]) -> bool:
    """Whether ``rule``, one of ``uses`` (the occurrences of its head's predicate), can be
    inlined into the other (:func:`inline_single_uses`)."""
    head = rule.head
    if len(uses) != 2 or not isinstance(head, Atom):
        return False
    names = [arg.name for arg in head.args if isinstance(arg, Variable)]
    if len(names) != len(set(names)) or not all(isinstance(arg, (Variable, *CONSTANT_TYPES))
                                                for arg in head.args):
        return False
    for literal in rule.body:
        formula = literal.formula
        if isinstance(formula, Comparison):
            continue
        if not isinstance(formula, (Atom, AtAtom, WindowAtom)) or base_atom(formula).signature in derived:
            return False
    [(reader, literal)] = [use for use in uses if use[0] is not rule]
    if literal is None or literal.negated or not isinstance(literal.formula, Atom):
        return False  # another rule for the head, or read negated, in a window, under @ or in a fold
    times = _time_variables(rule)
    return all(isinstance(u, (Variable, *CONSTANT_TYPES)) and (isinstance(h, Variable) or h == u)
               and (not isinstance(h, Variable) or h.name not in times or isinstance(u, (Variable, Number)))
               for h, u in zip(head.args, literal.formula.args))


def _time_variables(rule: Rule) -> set[str]:
    """The variables of ``rule``'s body that an ``@`` binds: only a variable or a number may take
    their place (``⊞ @_a true`` is no formula)."""
    times = set()
    for literal in rule.body:
        formula = literal.formula
        if isinstance(formula, AtAtom):
            times |= formula.time.variables()
        elif isinstance(formula, WindowAtom) and isinstance(formula.modality, At):
            times |= formula.modality.variables()
    return times


def _inlined(program: Program, inlined: dict[Signature, Rule]) -> Program:
    """``program`` without the ``inlined`` rules (by head), the body atom that reads each
    replaced by its body. No inlined rule reads another's head (their bodies read no derived
    predicate), so the bodies put in are final."""
    dropped = {id(rule) for rule in inlined.values()}
    rules = []
    for rule in program:
        if id(rule) in dropped:
            continue
        taken = set(rule.variables())
        literals: list[Literal] = []
        for literal in rule.body:
            formula = literal.formula
            definition = inlined.get(formula.signature) if isinstance(formula, Atom) else None
            if definition is None:
                literals.append(literal)
                continue
            binding: dict[str, Term] = {h.name: u for h, u in zip(definition.head.args, formula.args)
                                        if isinstance(h, Variable)}
            for name in sorted(definition.variables() - binding.keys()):
                binding[name] = Variable(_fresh(name, taken))
                taken.add(binding[name].name)
            literals.extend(Literal(_renamed_formula(lit.formula, binding), lit.negated)
                            for lit in definition.body)
        rules.append(Rule(rule.head, tuple(literals), rule.position))
    return Program(tuple(rules))


def _fresh(name: str, taken: set[str]) -> str:
    """``name`` with the first suffix ``_1``, ``_2``, ... that no variable in ``taken`` has."""
    n = 1
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


def _renamed_formula(formula, binding: dict[str, Term]):
    """A body formula (plain atom, ``@`` atom, window atom, comparison) with its variables
    replaced by ``binding``'s terms, also inside arithmetic, function calls and ``@``."""
    if isinstance(formula, AtAtom):
        return AtAtom(_renamed_term(formula.time, binding), _renamed_formula(formula.atom, binding))
    if isinstance(formula, Comparison):
        return Comparison(formula.op, _renamed_term(formula.left, binding),
                          _renamed_term(formula.right, binding))
    if isinstance(formula, WindowAtom):
        modality = formula.modality
        if isinstance(modality, At):
            modality = At(_renamed_term(modality.time, binding))
        return WindowAtom(formula.window, modality, _renamed_formula(formula.atom, binding))
    return Atom(formula.predicate, tuple(_renamed_term(arg, binding) for arg in formula.args))


def _renamed_term(term: Term, binding: dict[str, Term]) -> Term:
    if isinstance(term, Variable):
        return binding.get(term.name, term)
    if isinstance(term, BinaryOp):
        return BinaryOp(term.op, _renamed_term(term.left, binding), _renamed_term(term.right, binding))
    if isinstance(term, Function):
        return Function(term.name, tuple(_renamed_term(arg, binding) for arg in term.args))
    return term
