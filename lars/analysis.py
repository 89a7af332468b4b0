"""Static analysis of programs: safety, input and derived predicates, stratification.

* **Safety** — every variable of a rule must get its value from the positive body: from an
  ordinary atom, an ``@`` atom or a window atom (``◇``, ``□`` and ``@`` all bind the variables
  of their atom, ``@_T`` also binds ``T``), or from an equation ``X = term`` whose other side
  is bound. Unsafe rules are refused, since their meaning would depend on an infinite domain.
* **Predicates** — derived (intensional) predicates are those of rule heads; input
  (extensional) predicates are the other ones that bodies use.
* **Stratification** — the predicate dependency graph (edges ``body → head``, marked negative
  when the body literal is negated; its components by :mod:`lars.graphs`) is stratified when no
  cycle goes through a negative edge. A stratified program has at most one answer stream at each time
  point; it has exactly one unless a head ``@_T a`` points outside the timeline.
"""

from __future__ import annotations

from collections.abc import Callable

from lars.atoms import Atom, Comparison
from lars.errors import InputError
from lars.formulas import At, AtAtom, Box, Fold, WindowAtom, base_atom
from lars.folds import ALL, RESULT, START, STEP
from lars.graphs import components
from lars.rules import Program, Rule
from lars.terms import BinaryOp, Constant, Function, Term, Variable, is_constant
from lars.windows import TupleWindow

Signature = tuple[str, int]
FOLD_FUNCTIONS = (START, STEP, RESULT, ALL)


def bound_variables(rule: Rule) -> frozenset[str]:
    """The variables the positive body of ``rule`` gives values to."""
    bound: set[str] = set()
    equations = []
    for literal in rule.positive_body:
        if isinstance(literal.formula, Comparison):
            if literal.formula.op == "=":
                equations.append(literal.formula)
        else:
            bound |= literal.formula.variables()
    changed = True
    while changed:
        changed = False
        for eq in equations:
            for target, source in ((eq.left, eq.right), (eq.right, eq.left)):
                if isinstance(target, Variable) and target.name not in bound \
                        and source.variables() <= bound:
                    bound.add(target.name)
                    changed = True
    return frozenset(bound)


def check_safety(program: Program) -> None:
    """Raise :class:`InputError` naming the first unsafe rule and its unbound variables."""
    for rule in program:
        unbound = rule.variables() - bound_variables(rule)
        if unbound:
            names = ", ".join(sorted(unbound))
            raise InputError(
                f"unsafe rule: variable(s) {names} do not occur in a positive body atom",
                rule.position,
                hint="bind each variable in a positive atom, window atom or an equation X = ...",
            )


def term_constants(term: Term) -> set[Constant]:
    """The constants inside a term (arithmetic included)."""
    if isinstance(term, BinaryOp):
        return term_constants(term.left) | term_constants(term.right)
    if isinstance(term, Function):
        return set().union(*(term_constants(arg) for arg in term.args))
    return {term} if is_constant(term) else set()


def term_functions(term: Term) -> set[str]:
    """The names of the external functions a term calls."""
    if isinstance(term, BinaryOp):
        return term_functions(term.left) | term_functions(term.right)
    if isinstance(term, Function):
        return {term.name}.union(*(term_functions(arg) for arg in term.args))
    return set()


def program_functions(program: Program) -> frozenset[str]:
    """The names of the external functions the program's comparisons call."""
    names = {name for rule in program for literal in rule.body
             if isinstance(literal.formula, Comparison)
             for side in (literal.formula.left, literal.formula.right)
             for name in term_functions(side)}
    if any(isinstance(literal.formula, Fold) for rule in program for literal in rule.body):
        names |= set(FOLD_FUNCTIONS)
    return frozenset(names)


def program_constants(program: Program) -> set[Constant]:
    """Every constant written in the program: atom arguments, ``@`` times, comparison operands."""
    found: set[Constant] = set()
    for rule in program:
        for formula in [rule.head, *(literal.formula for literal in rule.body)]:
            if isinstance(formula, Comparison):
                found |= term_constants(formula.left) | term_constants(formula.right)
                continue
            if isinstance(formula, Fold):
                found.add(formula.function)
            for arg in base_atom(formula).args:
                found |= term_constants(arg)
            if isinstance(formula, AtAtom):
                found |= term_constants(formula.time)
            if isinstance(formula, WindowAtom) and isinstance(formula.modality, At):
                found |= term_constants(formula.modality.time)
    return found


def derived_predicates(program: Program) -> frozenset[Signature]:
    """Signatures of the predicates that rule heads derive."""
    return frozenset(base_atom(rule.head).signature for rule in program)


def body_atoms(rule: Rule) -> list[tuple[Atom, bool]]:
    """The ordinary atoms inside the body's extended atoms and folds, each with whether it is
    negated; a fold's atom counts as negated: a fold needs its whole group, so its atom must be
    complete (in a lower stratum) before it is read, as a negated atom's must."""
    return [(base_atom(lit.formula), lit.negated or isinstance(lit.formula, Fold)) for lit in rule.body
            if not isinstance(lit.formula, Comparison)]


def reads_atom(program: Program, signature: Signature, shown: frozenset[str] | set[str]
               ) -> Callable[[Atom], bool]:
    """``atom → bool``: whether an input atom of ``signature`` can change what ``program``
    derives of the ``shown`` predicates: it unifies with a body atom of some rule (positive or
    negated, inside a window or a fold) whose head, with the body's variables bound to the
    atom's arguments, is shown or is read so in turn (a copy rule such as C-SPARQL's
    ``triple(S,P,O,default) ← ⊞ ◇ striple(S,P,O,s)`` hands the atom's constants on; a head
    variable the atom does not bind matches anything). A rule met again on the way counts as
    reading it.

    An input atom that is not read is never matched by a rule that leads to a shown atom, so the
    shown atoms are the same with or without it, unless a ``□`` reads the active domain, whose
    constants every input atom adds to: callers that drop atoms by this test check the result
    by evaluating (:mod:`agreement.agree.derivation`).

    >>> from lars.parser import parse_program
    >>> from lars.terms import Name
    >>> program = parse_program("t(X, Y) :- p(X, Y). q(X) :- t(X, b), not p(c, X). r(X) :- p(X, d).")
    >>> reads = reads_atom(program, ("p", 2), {"q"})
    >>> [reads(Atom("p", (Name(x), Name(y)))) for x, y in ("ab", "ba", "ca", "ad")]
    [True, False, True, False]
    """
    uses: dict[Signature, list[tuple[Atom, Atom]]] = {}
    for rule in program:
        head = base_atom(rule.head)
        for atom, _ in body_atoms(rule):
            uses.setdefault(atom.signature, []).append((atom, head))

    def leads_to_shown(sig: Signature, args: tuple, visiting: frozenset) -> bool:
        for atom, head in uses.get(sig, ()):
            bound: dict[str, object] = {}
            if not all(_unifies(term, arg, bound) for term, arg in zip(atom.args, args)):
                continue
            if head.predicate in shown:
                return True
            handed = tuple(bound.get(term.name) if isinstance(term, Variable)
                           else term if is_constant(term) else None for term in head.args)
            key = (head.signature, handed)
            if key in visiting or leads_to_shown(head.signature, handed, visiting | {key}):
                return True
        return False

    def reads(atom: Atom) -> bool:
        return leads_to_shown(atom.signature, atom.args, frozenset())
    return reads


def read_constants(program: Program, signature: Signature, position: int) -> frozenset[Constant] | None:
    """The constants an input atom of ``signature`` must have at argument ``position`` to be
    read by ``program`` at all, or ``None`` when any atom of it may be: some body atom of
    ``signature`` has no constant there, a rule derives ``signature``, or the program counts
    or ranges over input atoms whatever they are (a tuple window counts them; a ``□`` may read
    the active domain, to which every input atom adds its constants).

    An input atom with another constant there unifies with no body atom, so leaving it out
    of the input changes nothing the program derives: ``lars agree`` encodes only the stream
    triples whose predicate a query reads.

    >>> from lars.parser import parse_program
    >>> program = parse_program("q(X) :- ⊞^3 ◇ p(X, a). r(X) :- p(X, b), not p(X, c).")
    >>> sorted(c.value for c in read_constants(program, ("p", 2), 1))
    ['a', 'b', 'c']
    >>> read_constants(parse_program("q(X) :- p(X, a). r(Y) :- p(a, Y)."), ("p", 2), 1) is None
    True
    """
    if signature in derived_predicates(program):
        return None
    found: set[Constant] = set()
    for rule in program:
        for literal in rule.body:
            formula = literal.formula
            if isinstance(formula, WindowAtom) and (isinstance(formula.window, TupleWindow)
                                                    or isinstance(formula.modality, Box)):
                return None
            if isinstance(formula, Comparison):
                continue
            atom = base_atom(formula)
            if atom.signature == signature:
                if not is_constant(atom.args[position]):
                    return None
                found.add(atom.args[position])
    return frozenset(found)


def _unifies(term: Term, arg: object, bound: dict[str, object]) -> bool:
    """Whether a body term can take the argument ``arg`` (a constant, or ``None`` for one not
    known), binding a variable in ``bound``; a term that is neither takes anything."""
    if arg is None:
        return True
    if isinstance(term, Variable):
        return bound.setdefault(term.name, arg) == arg
    return not is_constant(term) or term == arg


def input_predicates(program: Program) -> frozenset[Signature]:
    """Signatures that bodies use and no head derives: the extensional predicates."""
    used = {atom.signature for rule in program for atom, _ in body_atoms(rule)}
    return frozenset(used - derived_predicates(program))


def dependency_graph(program: Program) -> dict[Signature, dict[Signature, bool]]:
    """Edges ``body predicate → head predicate`` (``graph[body][head]``), each with whether any
    use is negated; every head is a node (a key)."""
    graph: dict[Signature, dict[Signature, bool]] = {}
    for rule in program:
        head = base_atom(rule.head).signature
        graph.setdefault(head, {})
        for atom, negated in body_atoms(rule):
            heads = graph.setdefault(atom.signature, {})
            heads[head] = heads.get(head, False) | negated
    return graph


def negative_cycles(program: Program) -> list[tuple[Signature, Signature]]:
    """The negative edges that lie on a cycle; empty exactly when the program is stratified."""
    graph = dependency_graph(program)
    component_of = {node: index for index, component in enumerate(components(graph))
                    for node in component}
    return sorted((source, target) for source, heads in graph.items()
                  for target, negative in heads.items()
                  if negative and component_of[source] == component_of[target])


def is_stratified(program: Program) -> bool:
    """True when no cycle of the dependency graph passes through negation."""
    return not negative_cycles(program)
