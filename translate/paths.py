"""SPARQL 1.1 property paths (section 9, evaluation 18.4) as LARS rules.

A path is a value of this module (:class:`Link`, :class:`Inverse`, :class:`Sequence`,
:class:`Alternative`, :class:`Repeat`, :class:`NegatedSet`); it stands in the predicate position
of a :class:`~translate.rsp.TriplePattern`. :class:`PathRules` turns the triple ``s path o``
read in graph ``G`` into body atoms of the BGP's rule, and emits the rules of the predicates
``path_k(S, O, G)`` that the atoms use:

* a link ``:p`` is ``triple(S, :p, O, G)``, an inverse ``^e`` swaps the ends, a sequence
  ``e1/e2`` chains the ends through fresh variables: these three are written into the body;
* an alternative ``e1|e2`` gets one rule per branch;
* ``e+`` is transitive closure, two rules, one of them recursive (positive recursion, so the
  program stays stratified); ``e*`` and ``e?`` add the zero-length pairs ``(X, X)`` for every
  subject and object ``X`` of the active graph and for every constant at an end of the triple
  pattern (SPARQL: ``<a> :p* ?o`` has ``?o = <a>`` even when ``<a>`` is not in the graph);
* a negated property set ``!(:p|^:q)`` reads triples whose predicate is none of the forward
  IRIs, and reversed triples whose predicate is none of the inverse IRIs.

The pairs of ``path_k`` form a set, which is SPARQL's semantics for ``*``, ``+`` and ``?``
(18.4: "ALP" collects distinct nodes); the translation is set-based everywhere else too.

A constant gets zero-length pairs only where SPARQL evaluates a path from it (:class:`Ends`):
a sequence ``e1/e2`` is the join ``s e1 ?v . ?v e2 o`` (18.2.2.4), whose inner steps have a
variable at ``?v``, and ``Path(?v, e*, ?w)`` with two variables ranges over the nodes of the
graph only (18.5). So in ``?x (:p*/:p*) :b`` the constant ``:b`` is an end of the second ``:p*``
alone: when ``:b`` is not in the graph, the first ``:p*`` cannot reach it and there is no
answer (rdflib, which substitutes ``:b`` into both steps, answers ``?x = :b``).

>>> str(Sequence((Link(URIRef("http://e/p")), Repeat(Inverse(Link(URIRef("http://e/q"))), "*"))))
'<http://e/p>/(^<http://e/q>)*'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Union as TypingUnion

from rdflib import URIRef
from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, Path, SequencePath

from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.rules import Literal, Rule
from lars.terms import Term, Variable
from translate.names import RDF_GRAPH, path_predicate
from translate.rdf import TRIPLE


@dataclass(frozen=True)
class Link:
    """An IRI used as a path of length one."""

    iri: URIRef

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        return iri(str(self.iri))


@dataclass(frozen=True)
class Inverse:
    """``^path``."""

    path: PathExpr

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        return "^" + _wrapped(self.path, iri)


@dataclass(frozen=True)
class Sequence:
    """``p1/p2/...``."""

    parts: tuple[PathExpr, ...]

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        return "/".join(f"({p.text(iri)})" if isinstance(p, Alternative) else p.text(iri)
                        for p in self.parts)


@dataclass(frozen=True)
class Alternative:
    """``p1|p2|...``."""

    parts: tuple[PathExpr, ...]

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        return "|".join(p.text(iri) for p in self.parts)


@dataclass(frozen=True)
class Repeat:
    """``path*``, ``path+`` or ``path?`` (``modifier``)."""

    path: PathExpr
    modifier: str

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        return _wrapped(self.path, iri) + self.modifier


@dataclass(frozen=True)
class NegatedSet:
    """``!(p1|...|^q1|...)``: ``forward`` holds the ``p``, ``backward`` the ``q``."""

    forward: tuple[URIRef, ...]
    backward: tuple[URIRef, ...]

    def text(self, iri: Callable[[str], str] = lambda i: f"<{i}>") -> str:
        items = [iri(str(p)) for p in self.forward] + ["^" + iri(str(q)) for q in self.backward]
        return "!" + (items[0] if len(items) == 1 else "(" + "|".join(items) + ")")


PathExpr = TypingUnion[Link, Inverse, Sequence, Alternative, Repeat, NegatedSet]
PATH_TYPES = (Link, Inverse, Sequence, Alternative, Repeat, NegatedSet)


def _wrapped(path: PathExpr, iri) -> str:
    """The text of an operand, in parentheses unless it is an IRI or a negated set."""
    text = path.text(iri)
    return text if isinstance(path, (Link, NegatedSet)) else f"({text})"


for _kind in PATH_TYPES:  # printing and sorting (canonical BGPs) use the text
    _kind.__str__ = lambda self: self.text()
    _kind.n3 = lambda self: self.text()


def from_rdflib(path: Path | URIRef) -> PathExpr:
    """Our value of one of rdflib's path objects."""
    if isinstance(path, URIRef):
        return Link(path)
    if isinstance(path, InvPath):
        return Inverse(from_rdflib(path.arg))
    if isinstance(path, SequencePath):
        return Sequence(tuple(from_rdflib(p) for p in path.args))
    if isinstance(path, AlternativePath):
        return Alternative(tuple(from_rdflib(p) for p in path.args))
    if isinstance(path, MulPath):
        return Repeat(from_rdflib(path.path), path.mod)
    if isinstance(path, NegatedPath):
        forward, backward, inverse = [], [], False
        for member in path.args:
            if member == INVERSE_MARK:
                inverse = True
                continue
            if not isinstance(member, URIRef):
                raise UnsupportedError("negated property set with an inverse member !(^:p ...) "
                                       "(rdflib's parser drops the IRI after ^)")
            (backward if inverse else forward).append(member)
            inverse = False
        return NegatedSet(tuple(forward), tuple(backward))
    raise UnsupportedError(f"property path {path!r}")


INVERSE_MARK = URIRef("urn:lars:inverse")
"""Marks the next member of a negated property set as inverse (see
:func:`translate.sparql.negated_inverse_edits`)."""


def path_iris(path: PathExpr) -> frozenset[URIRef] | None:
    """The IRIs whose triples ``path`` reads; ``None`` when it may read any predicate (a
    negated property set reads all but a few)."""
    if isinstance(path, Link):
        return frozenset({path.iri})
    if isinstance(path, NegatedSet):
        return None
    parts = path.parts if isinstance(path, (Sequence, Alternative)) else (path.path,)
    found: frozenset[URIRef] = frozenset()
    for part in parts:
        inner = path_iris(part)
        if inner is None:
            return None
        found |= inner
    return found


# --- rules ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ends:
    """The constants a path is evaluated from, at its start and at its end (for the pairs of
    zero length at a constant that is not in the graph, SPARQL 18.5).

    A sequence hands its start to its first step and its end to its last (the steps between
    meet at fresh variables); an inverse swaps the sides; an alternative and a repeated path
    hand both sides to their operands, whose steps may start at the constant (ALP from a term).
    """

    start: tuple[Term, ...] = ()
    end: tuple[Term, ...] = ()

    def inverse(self) -> Ends:
        return Ends(self.end, self.start)

    def constants(self) -> tuple[Term, ...]:
        return tuple(dict.fromkeys(self.start + self.end))

    def step(self, k: int, count: int) -> Ends:
        """The ends of step ``k`` of a sequence of ``count`` steps."""
        return Ends(self.start if k == 0 else (), self.end if k == count - 1 else ())



Emit = Callable[[Rule, str], None]


@dataclass(frozen=True)
class Named:
    """A path already given by the predicate ``path_k`` (internal to :class:`PathRules`)."""

    predicate: str


class PathRules:
    """Body atoms for path triples and the rules of the ``path_k`` predicates they use.

    Args:
        encode: the RDF term → constant function of the translation.
        emit: adds a rule with its comment to the program.
        need_graphs: called once a rule uses ``rdf_graph/1`` (the caller then defines it).
        describe: the text of a path for comments.
    """

    def __init__(self, encode: Callable, emit: Emit, need_graphs: Callable[[], None],
                 describe: Callable[[PathExpr], str] = str):
        self.encode = encode
        self.emit = emit
        self.need_graphs = need_graphs
        self.describe = describe
        self.count = 0
        self.fresh = 0

    def _variable(self) -> Variable:
        self.fresh += 1
        return Variable(f"_M{self.fresh}")

    def body(self, path: PathExpr, s: Term, o: Term, graph: Term,
             ends: Ends = Ends(), source: str = TRIPLE) -> list[Atom]:
        """The atoms saying that ``path`` connects ``s`` to ``o`` in ``graph``; ``ends`` are the
        constants it is evaluated from (for zero-length matches; at first those of ``s`` and
        ``o`` that are constants). The graph's triples are ``source(S, P, O, G)``: ``triple``,
        or a window's content inside a STREAM block (:mod:`translate.tau`)."""
        if isinstance(path, Link):
            return [Atom(source, (s, self.encode(path.iri), o, graph))]
        if isinstance(path, Inverse):
            return self.body(path.path, o, s, graph, ends.inverse(), source)
        if isinstance(path, Named):
            return [Atom(path.predicate, (s, o, graph))]
        if isinstance(path, Sequence):
            atoms, start = [], s
            for k, part in enumerate(path.parts):
                end = o if k == len(path.parts) - 1 else self._variable()
                atoms += self.body(part, start, end, graph, ends.step(k, len(path.parts)), source)
                start = end
            return atoms
        return [Atom(self.predicate(path, ends, source), (s, o, graph))]

    def predicate(self, path: PathExpr, ends: Ends, source: str = TRIPLE) -> str:
        """A new predicate ``path_k(S, O, G)`` holding the pairs ``path`` connects, with rules."""
        self.count += 1
        name = path_predicate(self.count)
        s, o, g = Variable("S"), Variable("O"), Variable("G")

        def head(x=s, y=o):
            return Atom(name, (x, y, g))

        comment = f"{name}: property path {self.describe(path)}"
        if isinstance(path, Alternative):
            for part in path.parts:
                self._rule(head(), self.body(part, s, o, g, ends, source), comment)
        elif isinstance(path, NegatedSet):
            for iris, reverse in ((path.forward, False), (path.backward, True)):
                if not iris and (reverse or path.backward):
                    continue
                p = Variable("P")
                triple = Atom(source, (o, p, s, g) if reverse else (s, p, o, g))
                tests = [Comparison("!=", p, self.encode(iri)) for iri in iris]
                side = "inverse" if reverse else "forward"
                self._rule(head(), [triple, *tests], f"{comment} ({side})")
        elif isinstance(path, Repeat):
            inner = path.path
            if isinstance(inner, (Alternative, Repeat, NegatedSet)):  # one relation, used twice
                inner = Named(self.predicate(inner, ends, source))
            self._rule(head(), self.body(inner, s, o, g, ends, source), f"{comment} (one step)")
            if path.modifier in ("*", "+"):
                middle = self._variable()
                self._rule(head(), [head(s, middle), *self.body(inner, middle, o, g, ends, source)],
                           f"{comment} (one more step)")
            if path.modifier in ("*", "?"):
                self._zero_length(head, comment, ends, source)
        else:
            raise UnsupportedError(f"property path {path!r}")
        return name

    def _zero_length(self, head, comment: str, ends: Ends, source: str) -> None:
        x, g = Variable("X"), Variable("G")
        other = (Variable("_Y"), Variable("_Z"))
        self._rule(head(x, x), [Atom(source, (x, *other, g))], f"{comment} (zero length: subjects)")
        self._rule(head(x, x), [Atom(source, (*other, x, g))], f"{comment} (zero length: objects)")
        for constant in ends.constants():
            self.need_graphs()
            self._rule(head(constant, constant), [Atom(RDF_GRAPH, (g,))],
                       f"{comment} (zero length at a constant of the pattern)")

    def _rule(self, head: Atom, body: list, comment: str) -> None:
        self.emit(Rule(head, tuple(b if isinstance(b, Literal) else Literal(b) for b in body)),
                  comment)
