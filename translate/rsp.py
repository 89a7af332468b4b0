"""The abstract RSP query ``Q = (V, P, D, S)`` (SPEC section 4, paper section 3).

Everything here is a frozen value; the readers build it, :mod:`translate.variants` rewrites it
and :mod:`translate.tau` reads it. Nothing here parses.

* ``V`` — :attr:`RspQuery.variables`, in SELECT order, and the DISTINCT flag;
* ``P`` — a pattern tree: :class:`BGP`, :class:`Join` (AND), :class:`Union`, :class:`Optional`
  (with an optional filter condition), :class:`Filter`, :class:`Graph`, :class:`Minus`,
  :class:`Extend` (BIND and SELECT expressions), :class:`Group` (GROUP BY with aggregates) and
  :class:`StreamPattern` for CQELS ``STREAM <s> [ω] { g }``;
* ``D`` — :class:`Dataset`, the FROM and FROM NAMED IRIs;
* ``S`` — :attr:`RspQuery.streams`, :class:`StreamSpec` triples ``(s, ω, g)``.

Pattern terms are :class:`Var`, :class:`BlankVar` (a blank node in a pattern: an existential,
never projected) or rdflib's ``URIRef`` and ``Literal``. Windows are :class:`RangeWindow`,
:class:`TriplesWindow`, :class:`NowWindow` and :class:`AllWindow`, durations already in ticks.
Expressions are :class:`And`, :class:`Or`, :class:`Not`, :class:`Compare`, :class:`Arith`,
:class:`Neg`, :class:`Call` (every other SPARQL operator and function) and :class:`Exists`
over variables and constants; :class:`Aggregate` appears only in a :class:`Group`.

Variables in scope and the other walks over the tree are in :mod:`translate.scope`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union as TypingUnion

from rdflib import Literal, URIRef


@dataclass(frozen=True, order=True)
class Var:
    """A SPARQL variable ``?name``."""

    name: str


@dataclass(frozen=True, order=True)
class BlankVar:
    """A blank node ``_:label`` or ``[ ... ]`` in a pattern: a variable that is never projected."""

    label: str


PatternTerm = TypingUnion[Var, BlankVar, URIRef, Literal]


@dataclass(frozen=True)
class TriplePattern:
    subject: PatternTerm
    predicate: PatternTerm
    object: PatternTerm

    def terms(self) -> tuple[PatternTerm, PatternTerm, PatternTerm]:
        return (self.subject, self.predicate, self.object)


# --- windows -------------------------------------------------------------------------------

@dataclass(frozen=True)
class RangeWindow:
    """``[RANGE L]`` (``step=1``), ``[RANGE L STEP D]`` or ``[RANGE L SLIDE D]``,
    ``[RANGE L TUMBLING]`` (``step=L``); ``length`` and ``step`` in ticks."""

    length: int
    step: int = 1


@dataclass(frozen=True)
class TriplesWindow:
    """``[TRIPLES N]``, ``[RANGE TRIPLES N]`` or ``[ROWS N]``: the latest ``count`` triples."""

    count: int


@dataclass(frozen=True)
class NowWindow:
    """``[NOW]``: the current time point."""


@dataclass(frozen=True)
class AllWindow:
    """``[ALL]`` or ``[RANGE UNBOUNDED]``: everything so far."""


RspWindow = TypingUnion[RangeWindow, TriplesWindow, NowWindow, AllWindow]


# --- filter expressions ---------------------------------------------------------------------

@dataclass(frozen=True)
class And:
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Or:
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not:
    operand: Expr


@dataclass(frozen=True)
class Compare:
    """``left op right`` with ``op`` one of ``= != < <= > >=``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Arith:
    """``left op right`` with ``op`` one of ``+ - * /``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg:
    """Unary minus."""

    operand: Expr


@dataclass(frozen=True)
class Call:
    """``function(args)``: a SPARQL function or operator other than the ones above, named by
    its external function (:mod:`translate.sparqlfunctions`), e.g. ``strlen``, ``in``, ``cast``."""

    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Exists:
    """``EXISTS { pattern }`` (``NOT EXISTS`` is ``Not(Exists(...))``), in FILTER conditions."""

    pattern: Pattern


Expr = TypingUnion[And, Or, Not, Compare, Arith, Neg, Call, Exists, Var, URIRef, Literal]


@dataclass(frozen=True)
class Aggregate:
    """``function([DISTINCT] argument [; SEPARATOR=separator])``; ``argument`` ``None`` is ``*``.

    ``function`` is one of :data:`AGGREGATES`."""

    function: str
    argument: Expr | None
    distinct: bool = False
    separator: str = " "


AGGREGATES = ("count", "sum", "avg", "min", "max", "sample", "group_concat")


# --- graph patterns -------------------------------------------------------------------------

@dataclass(frozen=True)
class BGP:
    """A basic graph pattern; the empty BGP ``{}`` has one solution, the empty mapping."""

    triples: tuple[TriplePattern, ...] = ()


@dataclass(frozen=True)
class Join:
    """``left AND right``."""

    left: Pattern
    right: Pattern


@dataclass(frozen=True)
class Union:
    left: Pattern
    right: Pattern


@dataclass(frozen=True)
class Optional:
    """``left OPTIONAL { right FILTER(condition) }``; ``condition`` ``None`` means no filter."""

    left: Pattern
    right: Pattern
    condition: Expr | None = None


@dataclass(frozen=True)
class Filter:
    condition: Expr
    pattern: Pattern


@dataclass(frozen=True)
class Graph:
    """``GRAPH name { pattern }`` with ``name`` an IRI or a variable."""

    name: TypingUnion[URIRef, Var]
    pattern: Pattern


@dataclass(frozen=True)
class Minus:
    """SPARQL 1.1 ``left MINUS { right }``."""

    left: Pattern
    right: Pattern


@dataclass(frozen=True)
class Extend:
    """``pattern BIND (expr AS ?var)``: ``var`` is unbound where ``expr`` is an error."""

    pattern: Pattern
    var: Var
    expr: Expr


@dataclass(frozen=True)
class Group:
    """``pattern GROUP BY keys`` with ``aggregates``: ``(?result, aggregate)`` pairs.

    A solution per group, binding the results only (SPARQL's AggregateJoin; the keys come back
    through ``SAMPLE``). Without keys there is one group, empty when the pattern has no
    solution."""

    pattern: Pattern
    keys: tuple[Var, ...]
    aggregates: tuple[tuple[Var, Aggregate], ...]


@dataclass(frozen=True)
class StreamPattern:
    """CQELS ``STREAM <stream> [window] { pattern }`` (RSP-QL ``WINDOW <w> { pattern }``).

    ``pattern`` is any graph pattern without GRAPH or another STREAM; its active graph is the
    window's content (every triple pattern in it reads the window's triples of ``stream``)."""

    stream: URIRef
    window: RspWindow
    pattern: Pattern


@dataclass(frozen=True)
class Values:
    """``VALUES (?v1 ...) { (t1 ...) ... }``: inline solutions; ``None`` is ``UNDEF``."""

    variables: tuple[str, ...]
    rows: tuple[tuple[TypingUnion[URIRef, Literal, None], ...], ...]


@dataclass(frozen=True)
class SubSelect:
    """A subquery ``{ SELECT variables WHERE { pattern } }`` with its solution modifiers.

    DISTINCT alone is moot (τ's answers are sets), but it decides what a slice counts and keeps
    repeated rows apart under SPARQL's multisets (:mod:`translate.bags`). ``order``, ``limit``
    and ``offset`` slice the solutions (:mod:`translate.slices`); ORDER BY without a slice is
    moot and dropped.
    """

    variables: tuple[Var, ...]
    pattern: Pattern
    distinct: bool = False
    order: tuple[OrderKey, ...] = ()
    limit: int | None = None
    offset: int = 0

    @property
    def sliced(self) -> bool:
        return self.limit is not None or self.offset > 0


Pattern = TypingUnion[BGP, Join, Union, Optional, Filter, Graph, Minus, Extend, Group,
                      StreamPattern, Values, SubSelect]


# --- the query -------------------------------------------------------------------------------

@dataclass(frozen=True)
class OrderKey:
    """One ``ORDER BY`` condition: a variable, ascending unless ``descending``."""

    variable: Var
    descending: bool = False


@dataclass(frozen=True)
class Dataset:
    """``D``: the IRIs of ``FROM`` (merged into the default graph) and ``FROM NAMED``."""

    default: tuple[URIRef, ...] = ()
    named: tuple[URIRef, ...] = ()


@dataclass(frozen=True)
class StreamSpec:
    """One element ``(s, ω, g)`` of ``S``; ``g`` is the empty BGP for C-SPARQL streams and the
    block's graph pattern (a BGP or any other pattern) for CQELS and RSP-QL."""

    stream: URIRef
    window: RspWindow
    pattern: Pattern = BGP()
    named: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class RspQuery:
    """``Q = (V, P, D, S)`` plus what the printer and the execution modes need.

    Attributes:
        variables: the result variables in SELECT order (for ``SELECT *``: sorted in-scope ones).
        pattern: ``P``.
        dataset: ``D``.
        streams: ``S`` in order of appearance in the text.
        distinct: the DISTINCT (or REDUCED) flag; answers are sets either way.
        engine: the syntax it was read from: ``csparql``, ``cqels``, ``rspql`` or ``sparql``.
        name: the C-SPARQL ``REGISTER QUERY name``, if any.
        every: the C-SPARQL ``COMPUTED EVERY`` period in ticks, if any.
        unit_ms: the length of one tick in milliseconds.
        prefixes: ``(prefix, namespace)`` pairs, for printing.
        form: ``select``, ``ask`` (true when ``ans_1`` holds) or ``construct`` (the triples of
            ``template`` for each row, :func:`translate.results.construct_triples`).
        order, limit, offset: the solution modifiers ORDER BY, LIMIT and OFFSET, applied to
            the answer relation at each time point (:mod:`translate.modifiers`).
        kept: variables ``ans_1`` keeps besides the SELECT ones, projected away from its rows
            without merging equal ones (the witnesses of :mod:`translate.bags`).
        r2s: the relation-to-stream operator the query registers (RSP-QL's ``REGISTER
            RSTREAM|ISTREAM|DSTREAM``), if any; it overrides the engine profile's.
    """

    variables: tuple[Var, ...]
    pattern: Pattern
    dataset: Dataset = Dataset()
    streams: tuple[StreamSpec, ...] = ()
    distinct: bool = False
    engine: str = field(default="sparql", compare=False)
    name: str | None = field(default=None, compare=False)
    every: int | None = field(default=None, compare=False)
    unit_ms: int = field(default=1000, compare=False)
    prefixes: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    form: str = "select"
    order: tuple[OrderKey, ...] = ()
    limit: int | None = None
    offset: int = 0
    kept: tuple[str, ...] = ()
    template: tuple[TriplePattern, ...] = ()
    r2s: str | None = field(default=None, compare=False)


# --- canonical basic graph patterns ---------------------------------------------------------

def _term_key(term: PatternTerm) -> tuple[int, str]:
    if isinstance(term, Var):
        return (0, term.name)
    if isinstance(term, BlankVar):
        return (1, "")
    return (2, term.n3())


def canonical_bgp(triples) -> BGP:
    """A BGP with its triples in a canonical order and blank nodes renamed ``b1, b2, ...``.

    rdflib reorders the triples of a BGP and names blank nodes at random; the canonical form
    makes equal patterns equal values.

    >>> t = lambda s, o: TriplePattern(s, URIRef("http://e/p"), o)
    >>> canonical_bgp([t(BlankVar("x9"), Var("a")), t(Var("a"), BlankVar("x9"))]).triples[0]
    TriplePattern(subject=Var(name='a'), predicate=rdflib.term.URIRef('http://e/p'), object=BlankVar(label='b1'))
    """
    ordered = sorted(triples, key=lambda t: [_term_key(x) for x in t.terms()])
    labels: dict[str, str] = {}
    for triple in ordered:
        for term in triple.terms():
            if isinstance(term, BlankVar) and term.label not in labels:
                labels[term.label] = f"b{len(labels) + 1}"

    def rename(term):
        return BlankVar(labels[term.label]) if isinstance(term, BlankVar) else term
    renamed = {TriplePattern(*(rename(x) for x in t.terms())) for t in ordered}
    return BGP(tuple(sorted(renamed, key=lambda t: [
        (1, x.label) if isinstance(x, BlankVar) else _term_key(x) for x in t.terms()])))


def merge_bgps(left: BGP, right: BGP) -> BGP:
    """``left AND right`` as one BGP, blank nodes of the two kept apart."""
    def apart(term):
        return BlankVar("r" + term.label) if isinstance(term, BlankVar) else term
    moved = [TriplePattern(*(apart(x) for x in t.terms())) for t in right.triples]
    return canonical_bgp(list(left.triples) + moved)
