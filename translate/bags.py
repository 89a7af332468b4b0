"""SPARQL's multisets with set-based rules: witness variables (SPARQL 1.1 section 18.5).

τ is Datalog, so each node's answers form a set; SPARQL counts solutions. Two solutions of a
query that SPARQL counts apart differ somewhere: in a variable the projection drops, in a blank
node or a path's intermediate node, in the branch of a UNION or of an alternative path that gave
it, in the row of VALUES it came from, or in the predicate a negated property set matched.
:func:`with_witnesses` rewrites the pattern so that each of these becomes a variable (a *witness*,
named ``_lars_w<k>``) that ``ans_1`` keeps: then distinct solutions of the original are distinct
tuples of ``ans_1``, and projecting the tuples onto the SELECT variables without merging equal
rows gives SPARQL's multiset. ``*``, ``+`` and ``?`` paths have set semantics in SPARQL already
and keep their path predicates.

The rewrite, node by node (``k`` fresh each time):

* a blank node ``_:b`` of a BGP becomes the variable ``?_lars_wk``;
* a path triple ``s e1/e2 o`` becomes ``s e1 ?_lars_wk . ?_lars_wk e2 o``; ``s ^e o`` becomes
  ``o e s``; ``s e1|e2 o`` becomes ``{ s e1 o . VALUES ?_lars_wk { 1 } } UNION { s e2 o .
  VALUES ?_lars_wk { 2 } }``; ``s !(:p|:q) o`` becomes ``s ?_lars_wk o FILTER (?_lars_wk != :p
  && ?_lars_wk != :q)`` (and the reversed triple for inverse members, as a UNION branch);
* ``P1 UNION P2`` tags each branch with ``VALUES ?_lars_wk { 1 }`` and ``{ 2 }``;
* ``VALUES`` gets a column ``?_lars_wk`` numbering its rows;
* a subquery ``SELECT W { P }`` also selects the witnesses and the other variables of ``P``,
  renamed to fresh witnesses (they are local to it).

DISTINCT and REDUCED queries need none of this (:func:`needs_witnesses`).

>>> from rdflib import URIRef
>>> from translate.rsp import TriplePattern
>>> p = URIRef("http://e/p")
>>> pattern, names = with_witnesses(BGP((TriplePattern(Var("x"), p, BlankVar("b1")),)))
>>> pattern.triples[0].object, names
(Var(name='_lars_w1'), ('_lars_w1',))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import reduce

from rdflib import Literal

from lars.errors import UnsupportedError
from translate.paths import Alternative, Inverse, Link, NegatedSet, Sequence
from translate.rsp import (
    BGP, Aggregate, And, BlankVar, Compare, Extend, Filter, Graph, Group, Join, Minus, Optional,
    Pattern, RspQuery, StreamPattern, SubSelect, TriplePattern, Union, Values, Var,
)
from translate.scope import in_scope

PREFIX = "_lars_w"
GROUP_PREFIX = "_lars_g"
"""The witnesses inside a GROUP (apart from the query's, which may sample the group's keys)."""
SLICE_PREFIX = "_lars_s"
"""The witnesses inside a sliced subquery (hidden by its projection)."""


def needs_witnesses(query: RspQuery) -> bool:
    """Whether the answers may hold a row more than once (not for DISTINCT, REDUCED, ASK)."""
    return not query.distinct and query.form == "select"


@dataclass
class _Rewriter:
    count: int = 0
    names: list[str] = field(default_factory=list)
    prefix: str = PREFIX

    def fresh(self) -> Var:
        self.count += 1
        name = f"{self.prefix}{self.count}"
        self.names.append(name)
        return Var(name)

    def tagged(self, pattern: Pattern, number: int, tag: Var) -> Pattern:
        return Join(pattern, Values((tag.name,), ((Literal(number),),)))

    def union(self, branches: list[Pattern]) -> Pattern:
        tag = self.fresh()
        tagged = [self.tagged(b, k, tag) for k, b in enumerate(branches, start=1)]
        return reduce(Union, tagged)

    # --- patterns -----------------------------------------------------------------------------

    def pattern(self, pattern: Pattern) -> Pattern:
        if isinstance(pattern, BGP):
            return self.bgp(pattern)
        if isinstance(pattern, Union):
            return self.union([self.pattern(pattern.left), self.pattern(pattern.right)])
        if isinstance(pattern, (Join, Optional, Minus)):
            return replace(pattern, left=self.pattern(pattern.left),
                           right=self.pattern(pattern.right))
        if isinstance(pattern, (Filter, Graph)):
            return replace(pattern, pattern=self.pattern(pattern.pattern))
        if isinstance(pattern, Values):
            row = self.fresh()
            return Values(pattern.variables + (row.name,),
                          tuple(r + (Literal(k),) for k, r in enumerate(pattern.rows, start=1)))
        if isinstance(pattern, SubSelect):
            return self.subselect(pattern)
        if isinstance(pattern, StreamPattern):
            return replace(pattern, pattern=self.pattern(pattern.pattern))
        if isinstance(pattern, Extend):
            return replace(pattern, pattern=self.pattern(pattern.pattern))
        if isinstance(pattern, Group):  # its pattern has witnesses already (grouped_witnesses)
            return self.grouped(pattern)
        raise UnsupportedError(f"SPARQL's repeated rows (multisets) through "
                               f"{type(pattern).__name__}: ask for DISTINCT rows")

    def grouped(self, pattern: Group) -> Group:
        """One row per group: two groups with equal results are two rows, told apart by a
        witness that samples each grouping key."""
        samples = tuple((self.fresh(), Aggregate("sample", key)) for key in pattern.keys)
        return replace(pattern, aggregates=pattern.aggregates + samples)

    def subselect(self, pattern: SubSelect) -> SubSelect:
        """Repeated rows of the subquery told apart by what it hides; a DISTINCT one has none
        (its witnesses, if its slice needed them, stay hidden)."""
        if pattern.distinct:
            return pattern
        before = len(self.names)
        # a sliced one has its witnesses (translate.slices): rewriting again could reuse a name
        inner = pattern.pattern if pattern.sliced else self.pattern(pattern.pattern)
        selected = {v.name for v in pattern.variables}
        hidden = sorted(in_scope(inner) - selected - set(self.names[before:]))
        renaming = {name: self.fresh().name for name in hidden}
        inner = _rename(inner, renaming)
        kept = tuple(Var(n) for n in self.names[before:])
        order = tuple(replace(key, variable=Var(renaming.get(key.variable.name,
                                                             key.variable.name)))
                      for key in pattern.order)
        return replace(pattern, variables=pattern.variables + kept, pattern=inner, order=order)

    def bgp(self, pattern: BGP) -> Pattern:
        blanks: dict[str, Var] = {}

        def term(t):
            if isinstance(t, BlankVar):
                return blanks.setdefault(t.label, self.fresh())
            return t
        plain: list[TriplePattern] = []
        others: list[Pattern] = []
        for triple in pattern.triples:
            s, p, o = (term(t) for t in triple.terms())
            found = self.path(s, p, o)
            plain += found[0]
            others += found[1]
        return _joined(plain, others)

    def path(self, s, p, o) -> tuple[list[TriplePattern], list[Pattern]]:
        """Triples and other patterns for ``s p o`` (``p`` a term or a path)."""
        if isinstance(p, Link):
            return [TriplePattern(s, p.iri, o)], []
        if isinstance(p, Inverse):
            return self.path(o, p.path, s)
        if isinstance(p, Sequence):
            triples, others, start = [], [], s
            for k, part in enumerate(p.parts):
                end = o if k == len(p.parts) - 1 else self.fresh()
                more = self.path(start, part, end)
                triples += more[0]
                others += more[1]
                start = end
            return triples, others
        if isinstance(p, Alternative):
            return [], [self.union([self.group(s, part, o) for part in p.parts])]
        if isinstance(p, NegatedSet):
            return [], [self.negated(s, p, o)]
        return [TriplePattern(s, p, o)], []  # a term, or a * + ? path (sets already)

    def group(self, s, p, o) -> Pattern:
        return _joined(*self.path(s, p, o))

    def negated(self, s, p: NegatedSet, o) -> Pattern:
        branches = []
        for iris, reverse in ((p.forward, False), (p.backward, True)):
            if not iris and (reverse or p.backward):
                continue
            predicate = self.fresh()
            triple = TriplePattern(o, predicate, s) if reverse else TriplePattern(s, predicate, o)
            tests = [Compare("!=", predicate, iri) for iri in iris]
            branch = BGP((triple,))
            branches.append(Filter(reduce(And, tests), branch) if tests else branch)
        return branches[0] if len(branches) == 1 else self.union(branches)


def _joined(triples: list[TriplePattern], others: list[Pattern]) -> Pattern:
    """The BGP of ``triples`` joined with ``others`` (no empty BGP when there are others)."""
    parts = ([BGP(tuple(triples))] if triples or not others else []) + others
    return reduce(Join, parts)


def _rename(pattern, renaming: dict[str, str]):
    """``pattern`` with the variables of ``renaming`` renamed (in triples, VALUES, filters,
    GRAPH names and subquery heads)."""
    if not renaming:
        return pattern
    def term(t):
        return Var(renaming[t.name]) if isinstance(t, Var) and t.name in renaming else t
    if isinstance(pattern, BGP):
        return BGP(tuple(TriplePattern(*(term(t) for t in tr.terms())) for tr in pattern.triples))
    if isinstance(pattern, Values):
        return Values(tuple(renaming.get(v, v) for v in pattern.variables), pattern.rows)
    if isinstance(pattern, (Join, Union, Optional, Minus)):
        condition = getattr(pattern, "condition", None)
        renamed = replace(pattern, left=_rename(pattern.left, renaming),
                          right=_rename(pattern.right, renaming))
        return replace(renamed, condition=_rename_expr(condition, term)) \
            if condition is not None else renamed
    if isinstance(pattern, Filter):
        return Filter(_rename_expr(pattern.condition, term), _rename(pattern.pattern, renaming))
    if isinstance(pattern, Graph):
        return Graph(term(pattern.name), _rename(pattern.pattern, renaming))
    if isinstance(pattern, SubSelect):  # what it hides is renamed already: the rest is its head
        return replace(pattern, variables=tuple(term(v) for v in pattern.variables),
                       pattern=_rename(pattern.pattern, renaming),
                       order=tuple(replace(k, variable=term(k.variable)) for k in pattern.order))
    if isinstance(pattern, Extend):
        return Extend(_rename(pattern.pattern, renaming), term(pattern.var),
                      _rename_expr(pattern.expr, term))
    if isinstance(pattern, Group):  # only its results are visible outside
        return replace(pattern, aggregates=tuple((term(v), a) for v, a in pattern.aggregates))
    return pattern


def _rename_expr(expr, term):
    if isinstance(expr, Var):
        return term(expr)
    if isinstance(expr, tuple):
        return tuple(_rename_expr(part, term) for part in expr)
    if hasattr(expr, "__dataclass_fields__"):
        return replace(expr, **{name: _rename_expr(getattr(expr, name), term)
                                for name in expr.__dataclass_fields__
                                if not isinstance(getattr(expr, name), str)})
    return expr


def witnessed(query: RspQuery) -> RspQuery:
    """``query`` with witnesses, ``ans_1`` keeping every variable of the pattern (the SELECT
    variables first); the query itself when its answers are sets anyway."""
    if not needs_witnesses(query):
        return query
    pattern, _ = with_witnesses(query.pattern)
    selected = {v.name for v in query.variables}
    return replace(query, pattern=pattern, kept=tuple(sorted(in_scope(pattern) - selected)))


def grouped_witnesses(pattern: Pattern) -> Pattern:
    """The pattern of a GROUP with witnesses, so that its aggregates count SPARQL's multiset of
    solutions (the witnesses stay inside the group)."""
    return _Rewriter(prefix=GROUP_PREFIX).pattern(pattern)


def sliced_witnesses(pattern: Pattern) -> Pattern:
    """The pattern of a subquery with LIMIT or OFFSET and without DISTINCT, with witnesses, so
    that its slice counts SPARQL's multiset of solutions (:mod:`translate.slices`)."""
    return _Rewriter(prefix=SLICE_PREFIX).pattern(pattern)


def with_witnesses(pattern: Pattern) -> tuple[Pattern, tuple[str, ...]]:
    """The rewritten pattern and the names of its witness variables (see the module doc)."""
    rewriter = _Rewriter()
    return rewriter.pattern(pattern), tuple(rewriter.names)
