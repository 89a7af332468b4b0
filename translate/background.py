"""Which background atoms a program can read: the patterns of its ``triple/4`` atoms (issue 29).

Static data may hold millions of triples of which a query reads a few: ``?s :locatedIn ?room``
reads the ``:locatedIn`` triples only. A background atom ``triple(s, p, o, G)`` that no
``triple/4`` atom of a rule body unifies with cannot change what a rule derives: no body can
match it (nor its absence, under ``not``). What it can change is which atoms are *reported* as
derived (an atom equal to a background atom is not, SPEC section 6), so the patterns serve
programs whose reported predicates are not ``triple``: a translation reports its answer
predicate ``ans_i`` (:class:`translate.api.AnswerSpec`); C-SPARQL's window rules, whose head
``triple(S,P,O,default)`` merges the window into the default graph, are read through the
bodies that read ``triple``. The exception is the active domain: ``□`` over variables on an
empty window holds for every constant of the program, the background and the visible input
(:mod:`solver.encode`), so such a program keeps its whole background
(:func:`background_patterns` answers ``None``).

A pattern is the four arguments of a ``triple`` atom, each a constant or ``None`` (a variable
or an arithmetic term: anything). ``G`` of the background is ``default`` or a graph's IRI.

>>> from lars.parser import parse_program
>>> p = parse_program("a(X) :- triple(X, <http://ex.org/p>, Y, default), [3] <> s(Y).")
>>> wanted = background_patterns([p])
>>> sorted(wanted.predicates(Name("default")))
['http://ex.org/p']
>>> wanted.admits(Atom("triple", (Iri("http://ex.org/a"), Iri("http://ex.org/q"), Number(1), Name("default"))))
False
>>> background_patterns([parse_program("a(X) :- [3] [] triple(X, X, X, default).")]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lars.atoms import Atom
from lars.formulas import AtAtom, Box, WindowAtom
from lars.rules import Program
from lars.terms import Constant, Iri, Name, Number, String
from translate.rdf import TRIPLE

Pattern = tuple[Constant | None, Constant | None, Constant | None, Constant | None]
_CONSTANTS = (Iri, Name, Number, String)


def _pattern(atom: Atom) -> Pattern:
    return tuple(arg if isinstance(arg, _CONSTANTS) else None for arg in atom.args)  # type: ignore[return-value]


def _matches(pattern: Pattern, args: tuple) -> bool:
    return all(want is None or want == arg for want, arg in zip(pattern, args))


@dataclass(frozen=True)
class BackgroundPatterns:
    """The ``triple/4`` patterns of some programs: which background atoms they can read."""

    patterns: frozenset[Pattern]

    def admits(self, atom: Atom) -> bool:
        """Whether some pattern unifies with the background atom ``atom``."""
        _, p, _, g = atom.args
        patterns = self.patterns
        if (None, p, None, g) in patterns or (None, p, None, None) in patterns:
            return True  # the common shapes first: a constant predicate
        return any(_matches(pattern, atom.args) for pattern in patterns)

    def reads_graph(self, graph: Constant) -> bool:
        """Whether some pattern can read graph ``graph`` (``default`` or an IRI)."""
        return any(pattern[3] is None or pattern[3] == graph for pattern in self.patterns)

    def predicates(self, graph: Constant | None = None) -> frozenset[str] | None:
        """The predicate IRIs the patterns reading ``graph`` (any graph for ``None``) can match;
        ``None`` for any (a pattern with a variable predicate). A cheap first test for a reader of RDF files,
        which compares a triple's predicate IRI before it encodes the triple."""
        found: set[str] = set()
        for pattern in self.patterns:
            if graph is not None and pattern[3] is not None and pattern[3] != graph:
                continue
            if not isinstance(pattern[1], Iri):
                if pattern[1] is None:
                    return None
                continue  # a literal or a name as predicate: no RDF triple has it
            found.add(pattern[1].value)
        return frozenset(found)


def _needs_domain(formula: object) -> bool:
    """``□`` over variables: over an empty window it holds for every constant of the domain."""
    return isinstance(formula, WindowAtom) and isinstance(formula.modality, Box) \
        and bool(formula.atom.variables())


def _body_atoms(program: Program) -> Iterable[Atom | None]:
    """Every ordinary atom of ``program``'s rule bodies; ``None`` marks a ``□`` over variables
    (the active domain is read)."""
    for rule in program:
        for literal in rule.body:
            formula = literal.formula
            if _needs_domain(formula):
                yield None
            elif isinstance(formula, (AtAtom, WindowAtom)):
                yield formula.atom
            elif isinstance(formula, Atom):
                yield formula


def background_patterns(programs: Iterable[Program]) -> BackgroundPatterns | None:
    """The ``triple/4`` patterns of ``programs``' rule bodies, or ``None`` when one of them reads
    the active domain and so needs the whole background. For programs that do not report
    ``triple`` atoms (see the module)."""
    patterns: set[Pattern] = set()
    for program in programs:
        for atom in _body_atoms(program):
            if atom is None:
                return None
            if atom.predicate == TRIPLE and len(atom.args) == 4:
                patterns.add(_pattern(atom))
    return BackgroundPatterns(frozenset(patterns))
