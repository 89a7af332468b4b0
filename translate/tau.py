"""τ: Polleres' SPARQL-to-rules translation with a stream parameter (SPEC section 5, paper Fig. 1).

Node ``i`` of the pattern tree (root 1, children ``2i`` and ``2i+1``; a FILTER's or GRAPH's one
child is ``2i``) yields rules for ``ans_i(V̄, D, S)``: ``V̄`` the node's variables in
lexicographic order (at the root: the SELECT variables), ``D`` the active graph (``default`` at
the root, the IRI or variable inside GRAPH) and ``S`` the stream-set constant ``streams``.
Unbound variables are ``null``.

SPARQL joins unbound variables with anything, Datalog equality does not. Where a shared variable
may be unbound (:func:`translate.scope.certain`), a join is split into cases: both sides carry it
(equal values, or both ``null``), or one side is ``null`` and the other gives the value. The
OPTIONAL and MINUS helpers ``ans_2i_prime`` test compatibility in the same way. So the answers
are SPARQL's, also for patterns that are not well designed; when no variable may be unbound the
rules are exactly the paper's.

>>> from translate.rsp import BGP, TriplePattern, Var
>>> from rdflib import URIRef
>>> bgp = BGP((TriplePattern(Var("s"), URIRef("http://ex.org/p"), Var("o")),))
>>> out = Tau(RdfTermEncoder())
>>> shape = out.translate(bgp, ("s",))
>>> out.comments[0]
'node 1: BGP {?s <http://ex.org/p> ?o}'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatchmethod
from itertools import product

from lars.analysis import bound_variables
from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.rules import Literal, Rule
from lars.terms import Function, Term, Variable
from translate.aggregates import group_rules
from translate.slices import slice_rules
from translate import expressions
from translate.names import (
    NAMED_GRAPH, RDF_GRAPH, WINDOW_TRIPLE, answer_predicate, helper_predicate, internal_variable,
    lars_variable, role_predicate, window_graph,
)
from translate.rdf import (
    DEFAULT_GRAPH, FALSE, NULL, STREAMS, STRIPLE, TRIPLE, TRUE, RdfTermEncoder,
)
from translate.paths import PATH_TYPES, Ends, PathRules
from translate.profiles import EMPTY_GROUP_READINGS
from translate.rsp import (
    BGP, BlankVar, Exists, Extend, Filter, Graph, Group, Join, Minus, Optional, Pattern,
    StreamPattern, SubSelect, TriplePattern, Union, Values, Var,
)
from translate.scope import certain, children, in_scope, subexpressions
from translate.sparqltext import Names, expr_text, node_summary, term_text, window_text

MAX_EXISTS = 4
"""At most this many EXISTS in one FILTER (the rules cover each combination of outcomes)."""
MAX_CASES = 243
"""At most this many rules per join: 3^5, five shared variables that may be unbound."""


@dataclass(frozen=True)
class Shape:
    """The predicate ``ans_index(variables..., D, S)`` of a translated node."""

    index: int
    variables: tuple[str, ...]
    maybe: frozenset[str]


StreamBody = Callable[[StreamPattern, list[Atom]], Sequence[Literal]]
"""How a strategy reads ``STREAM s ω g``: ``striple`` atoms of a BGP of ``g`` → body literals
saying that each is in the window."""


def var(name: str) -> Variable:
    return lars_variable(name)


def join_cases(left: Shape, right: Shape) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The ways two solutions can be compatible: which shared variables each side leaves ``null``.

    >>> join_cases(Shape(2, ("x",), frozenset({"x"})), Shape(3, ("x",), frozenset()))
    [(frozenset(), frozenset()), (frozenset({'x'}), frozenset())]
    """
    options = []
    for name in sorted(set(left.variables) & set(right.variables)):
        choices = ["eq"] + ["left"] * (name in left.maybe) + ["right"] * (name in right.maybe)
        options.append([(name, choice) for choice in choices])
    cases = []
    for combination in product(*options):
        cases.append((frozenset(n for n, c in combination if c == "left"),
                      frozenset(n for n, c in combination if c == "right")))
        if len(cases) > MAX_CASES:
            raise UnsupportedError("join over more than 5 variables that may be unbound")
    return cases


class Tau:
    """Collects the rules of τ, each with a provenance comment.

    Args:
        encoder: encodes the constants of the patterns (and remembers them for answers).
        stream_body: how STREAM patterns are read (τ2); ``None`` refuses them (τ, τ1).
        names: prefixes for the comments.
        empty_group: the aggregates of a query without GROUP BY over no solution give one row
            (``row``: SPARQL 1.1, C-SPARQL) or none (``none``); see :mod:`translate.aggregates`.
    """

    def __init__(self, encoder: RdfTermEncoder, stream_body: StreamBody | None = None,
                 names: Names = Names(), empty_group: str = "row"):
        if empty_group not in EMPTY_GROUP_READINGS:
            raise ValueError(f"empty_group must be one of {EMPTY_GROUP_READINGS}")
        self.encoder = encoder
        self.stream_body = stream_body
        self.names = names
        self.empty_group = empty_group
        self._emitted: list[tuple[tuple[int, int], Rule, str]] = []
        self._named_graph_rule = False
        self._graph_rules = False
        self._windows: dict[Term, StreamPattern] = {}
        """The window graphs ``window_i`` of the STREAM blocks met so far, and their blocks."""
        self._window_content: set[Term] = set()
        self.paths = PathRules(encoder.encode, self._add_path_rule, self._need_graphs,
                               lambda path: path.text(names.iri))

    @property
    def rules(self) -> list[Rule]:
        """The rules so far, root first (node order), helpers last."""
        return [rule for _, rule, _ in sorted(self._emitted, key=lambda e: e[0])]

    @property
    def comments(self) -> list[str]:
        return [comment for _, _, comment in sorted(self._emitted, key=lambda e: e[0])]

    def translate(self, pattern: Pattern, head: Sequence[str]) -> Shape:
        """Translate the query pattern as node 1 with the result variables ``head``."""
        return self.node(pattern, 1, DEFAULT_GRAPH, tuple(sorted(set(head))))

    # --- helpers ------------------------------------------------------------------------------

    def shape(self, pattern: Pattern, index: int, head: tuple[str, ...] | None) -> Shape:
        own = in_scope(pattern)
        variables = tuple(sorted(own)) if head is None else head
        maybe = (own - certain(pattern)) | (frozenset(variables) - own)
        return Shape(index, variables, maybe & frozenset(variables))

    def atom(self, shape: Shape, graph: Term, nulls: frozenset[str] = frozenset(),
             helper: bool = False) -> Atom:
        """``ans_i(...)`` of a shape, with the variables in ``nulls`` set to ``null``."""
        args = [NULL if v in nulls else var(v) for v in shape.variables]
        name = helper_predicate(shape.index) if helper else answer_predicate(shape.index)
        return Atom(name, tuple(args) + (graph, STREAMS))

    def head(self, shape: Shape, graph: Term, present: frozenset[str]) -> Atom:
        """The head of a node's rule: variables the body does not give are ``null``."""
        return self.atom(shape, graph, frozenset(shape.variables) - present)

    def emit(self, head: Atom, body: Sequence, comment: str) -> None:
        """Add ``head ← body``; a graph variable nothing binds ranges over the named graphs."""
        literals = [b if isinstance(b, Literal) else Literal(b) for b in body]
        rule = Rule(head, tuple(literals))
        unbound = rule.variables() - bound_variables(rule)
        graph = head.args[-2]
        if unbound:
            if unbound != {getattr(graph, "name", None)}:
                raise AssertionError(f"unsafe generated rule {rule} ({comment})")
            self._need_named_graphs()
            rule = Rule(head, tuple(literals) + (Literal(Atom(NAMED_GRAPH, (graph,))),))
        self._emitted.append((self._index_of(head), rule, comment))

    @staticmethod
    def _index_of(head: Atom) -> tuple[int, int]:
        """Sort key: node ``i``'s rules, then the helper ``ans_2i_prime`` it uses."""
        index = int(head.predicate.split("_")[1])
        return (index // 2, 1) if head.predicate.endswith("_prime") else (index, 0)

    def _need_named_graphs(self) -> None:
        if self._named_graph_rule:
            return
        self._named_graph_rule = True
        g = internal_variable("G")
        body = (Literal(Atom(TRIPLE, (internal_variable("S"), internal_variable("P"),
                                      internal_variable("O"), g))),
                Literal(Comparison("!=", g, DEFAULT_GRAPH)))
        self._emitted.append(((1 << 62, 0), Rule(Atom(NAMED_GRAPH, (g,)), body),
                              "the named graphs of the data (for GRAPH ?g)"))

    def _add_path_rule(self, rule: Rule, comment: str) -> None:
        """A rule of ``path_k``: after the node rules, by ``k``, in the order made."""
        k = int(rule.head.predicate.split("_")[1])
        self._emitted.append((((1 << 61) + k, len(self._emitted)), rule, comment))

    def _need_graphs(self) -> None:
        """``rdf_graph(G)``: the default graph and the named graphs (for paths of length 0)."""
        if self._graph_rules:
            return
        self._graph_rules = True
        self._need_named_graphs()
        g = internal_variable("G")
        self._emitted.append(((1 << 62, 1), Rule(Atom(RDF_GRAPH, (DEFAULT_GRAPH,))),
                              "the default graph is a graph of the dataset"))
        self._emitted.append(((1 << 62, 2), Rule(Atom(RDF_GRAPH, (g,)),
                                                 (Literal(Atom(NAMED_GRAPH, (g,))),)),
                              "the named graphs are graphs of the dataset"))

    def add(self, rule: Rule, comment: str) -> None:
        """Add a rule that belongs after all node rules (e.g. τ1's import rules)."""
        self._emitted.append(((1 << 63, 0), rule, comment))

    def describe(self, pattern: Pattern, index: int, role: str = "") -> str:
        text = f"node {index}: {node_summary(pattern, index, self.names)}"
        return f"{text} — {role}" if role else text

    def term(self, term, blanks: dict[str, Variable]) -> Term:
        if isinstance(term, Var):
            return var(term.name)
        if isinstance(term, BlankVar):
            return blanks.setdefault(term.label, internal_variable("B", len(blanks) + 1))
        return self.encoder.encode(term)

    def bgp_body(self, pattern: BGP, graph: Term) -> list:
        """The body literals of a BGP read in ``graph``.

        In a graph of the dataset a triple pattern is ``triple(S, P, O, graph)``. In the window
        graph of a STREAM block (τ2) it is ``striple(S, P, O, s)`` read through the window by
        the strategy's :data:`StreamBody`; a property path there reads ``window_triple``, the
        window's content imported by :meth:`_window_content_rules`.
        """
        block = self._windows.get(graph)
        blanks: dict[str, Variable] = {}
        plain, paths = [], []
        for triple in pattern.triples:
            if not isinstance(triple.predicate, PATH_TYPES):
                terms = tuple(self.term(t, blanks) for t in triple.terms())
                plain.append(Atom(TRIPLE, terms + (graph,)) if block is None else
                             Atom(STRIPLE, terms + (self.encoder.encode(block.stream),)))
                continue
            s, o = self.term(triple.subject, blanks), self.term(triple.object, blanks)
            ends = Ends(*(() if isinstance(t, Variable) else (t,) for t in (s, o)))
            source = TRIPLE if block is None else self._window_content_rules(graph)
            paths += self.paths.body(triple.predicate, s, o, graph, ends, source)
        if block is None:
            return plain + paths
        return [*self.stream_body(block, plain), *paths]

    def _window_content_rules(self, graph: Term) -> str:
        """``window_triple(S, P, O, window_i) ← (S, P, O) in the window of block i`` and
        ``rdf_graph(window_i)`` (a zero-length path from a constant holds in every graph, the
        window's too), once per block; returns ``window_triple``."""
        if graph not in self._window_content:
            self._window_content.add(graph)
            block = self._windows[graph]
            s, p, o = (internal_variable(n) for n in ("WS", "WP", "WO"))  # not _P: a report time
            source = Atom(STRIPLE, (s, p, o, self.encoder.encode(block.stream)))
            where = f"{term_text(block.stream, self.names)} {window_text(block.window)}"
            self._add_window_rule(Rule(Atom(WINDOW_TRIPLE, (s, p, o, graph)),
                                       tuple(self.stream_body(block, [source]))),
                                  f"the content of window {where} as graph {graph.value} "
                                  "(for property paths inside the block)")
            self._add_window_rule(Rule(Atom(RDF_GRAPH, (graph,))),
                                  f"the window {where} is a graph (for zero-length paths)")
        return WINDOW_TRIPLE

    def _add_window_rule(self, rule: Rule, comment: str) -> None:
        """A rule of ``window_triple`` or ``rdf_graph``: after the node rules, before paths."""
        self._emitted.append(((1 << 60, len(self._emitted)), rule, comment))

    # --- one method per node type ---------------------------------------------------------

    @singledispatchmethod
    def node(self, pattern, index: int, graph: Term, head: tuple[str, ...] | None) -> Shape:
        raise TypeError(f"not a pattern: {pattern!r}")

    @node.register
    def _(self, pattern: BGP, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        body = self.bgp_body(pattern, graph)
        self.emit(self.head(shape, graph, in_scope(pattern)), body, self.describe(pattern, index))
        return shape

    @node.register
    def _(self, pattern: StreamPattern, index: int, graph: Term, head=None) -> Shape:
        """τ2 of ``STREAM s ω {g}``: for a BGP ``g``, one rule with a window atom per triple
        pattern (the paper's); for any other ``g``, ``ans_i ← ans_2i(..., window_i)`` and τ of
        ``g`` as node ``2i`` in the window graph ``window_i``, whose BGPs read the window."""
        if self.stream_body is None:
            raise UnsupportedError("STREAM pattern outside a CQELS translation (τ2)")
        if graph in self._windows:
            raise UnsupportedError("a STREAM/WINDOW block inside another (in an EXISTS)")
        shape = self.shape(pattern, index, head)
        window = window_graph(index)
        self._windows[window] = pattern
        if isinstance(pattern.pattern, BGP):
            body = self.bgp_body(pattern.pattern, window)
        else:
            body = [self.atom(self.node(pattern.pattern, 2 * index, window, None), window)]
        self.emit(self.head(shape, graph, in_scope(pattern)), body, self.describe(pattern, index))
        return shape

    @node.register
    def _(self, pattern: Join, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        left = self.node(pattern.left, 2 * index, graph, None)
        right = self.node(pattern.right, 2 * index + 1, graph, None)
        cases = join_cases(left, right)
        for k, (lnull, rnull) in enumerate(cases, start=1):
            role = _case_role(k, len(cases), lnull, rnull)
            self.emit(self.head(shape, graph, in_scope(pattern)),
                      [self.atom(left, graph, lnull), self.atom(right, graph, rnull)],
                      self.describe(pattern, index, role))
        return shape

    @node.register
    def _(self, pattern: Union, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        for k, child in enumerate((pattern.left, pattern.right)):
            sub = self.node(child, 2 * index + k, graph, None)
            self.emit(self.head(shape, graph, frozenset(sub.variables)), [self.atom(sub, graph)],
                      self.describe(pattern, index, "left branch" if k == 0 else "right branch"))
        return shape

    @node.register
    def _(self, pattern: Filter, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        child = self.node(pattern.pattern, 2 * index, graph, None)
        terms: dict = {v: var(v) for v in child.variables}
        tests = list(dict.fromkeys(e for e in subexpressions(pattern.condition)
                                   if isinstance(e, Exists)))
        if len(tests) > MAX_EXISTS:
            raise UnsupportedError(f"FILTER with more than {MAX_EXISTS} EXISTS")
        helpers = [self._exists(test, k, index, child, graph) for k, test in enumerate(tests)]
        for outcome in product((True, False), repeat=len(tests)):
            terms.update((test, TRUE if holds else FALSE) for test, holds in zip(tests, outcome))
            decided = [Literal(helper, negated=not holds) for helper, holds in zip(helpers, outcome)]
            role = ", ".join(f"EXISTS {k + 1} {'holds' if holds else 'fails'}"
                             for k, holds in enumerate(outcome))
            self.emit(self.head(shape, graph, in_scope(pattern)),
                      [self.atom(child, graph), *decided,
                       expressions.condition(pattern.condition, terms)],
                      self.describe(pattern, index, role))
        return shape

    def _exists(self, test: Exists, k: int, index: int, child: Shape, graph: Term) -> Atom:
        """``ans_i_ex<k>(C̄)``: the child's solutions for which ``EXISTS`` test ``k`` holds.

        The test's pattern is node ``2v`` of a spine of free indices ``v = 2i+1, 2v+1, ...``;
        a solution μ passes when the pattern has a solution compatible with μ, which is
        SPARQL's ``substitute(P, μ)`` for patterns that :func:`_check_exists` accepts.
        """
        _check_exists(test.pattern)
        spine = 2 * index + 1
        for _ in range(k):
            spine = 2 * spine + 1
        sub = self.node(test.pattern, 2 * spine, graph, None)
        name = role_predicate(index, f"ex{k}")

        def atom(nulls: frozenset[str]) -> Atom:
            args = [NULL if v in nulls else var(v) for v in child.variables]
            return Atom(name, tuple(args) + (graph, STREAMS))
        for lnull, rnull in join_cases(child, sub):
            self.emit(atom(lnull), [self.atom(child, graph, lnull), self.atom(sub, graph, rnull)],
                      self.describe(test.pattern, index, f"EXISTS {k + 1}: a compatible solution "
                                    f"of node {sub.index}"))
        return atom(frozenset())

    @node.register
    def _(self, pattern: Extend, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        child = self.node(pattern.pattern, 2 * index, graph, None)
        if pattern.var.name in child.variables:
            raise UnsupportedError(f"BIND to ?{pattern.var.name}, which is already in scope")
        terms: dict = {v: var(v) for v in child.variables}
        computed = set()  # SELECT (e1 AS ?a) (e2 AS ?b): ?a is not part of e2's solution
        inner = pattern.pattern
        while isinstance(inner, Extend):
            computed.add(inner.var.name)
            inner = inner.pattern
        terms[expressions.SOLUTION] = Function("pack", tuple(
            var(v) for v in child.variables if v not in computed))
        self.emit(self.head(shape, graph, in_scope(pattern)),
                  [self.atom(child, graph),
                   Comparison("=", var(pattern.var.name), expressions.value(pattern.expr, terms))],
                  self.describe(pattern, index))
        return shape

    @node.register
    def _(self, pattern: Group, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        child = self.node(pattern.pattern, 2 * index, graph, None)
        terms = {v: var(v) for v in child.variables}

        def helper(role: str, args) -> Atom:
            return Atom(role_predicate(index, role), tuple(args) + (graph, STREAMS))
        rules, body = group_rules(pattern, self.atom(child, graph), terms, helper,
                                  self.empty_group)
        for rule_head, rule_body, role in rules:
            self.emit(rule_head, rule_body, self.describe(pattern, index, role))
        results = {v.name: internal_variable("R", j)
                   for j, (v, _) in enumerate(pattern.aggregates, start=1)}
        args = [results[v] if v in results else NULL for v in shape.variables]
        self.emit(Atom(answer_predicate(index), tuple(args) + (graph, STREAMS)), body,
                  self.describe(pattern, index, "one row per group"))
        return shape

    @node.register
    def _(self, pattern: Graph, index: int, graph: Term, head=None) -> Shape:
        if graph in self._windows:
            raise UnsupportedError("GRAPH inside a STREAM/WINDOW block (in an EXISTS)")
        shape = self.shape(pattern, index, head)
        if not isinstance(pattern.name, Var):
            named = self.encoder.encode(pattern.name)
            child = self.node(pattern.pattern, 2 * index, named, None)
            exists = [] if reads_graph(pattern.pattern) else [Atom(NAMED_GRAPH, (named,))]
            if exists:
                self._need_named_graphs()
            self.emit(self.head(shape, graph, in_scope(pattern)),
                      [self.atom(child, named), *exists],
                      self.describe(pattern, index, "the graph must exist" if exists else ""))
            return shape
        # the child reads graph _G<i>; ?g meets it only here, as a join would (SPARQL 18.6)
        name = var(pattern.name.name)
        child = self.node(pattern.pattern, 2 * index, internal_variable("G", index), None)
        cases = [frozenset()]
        if pattern.name.name in child.maybe:
            cases.append(frozenset({pattern.name.name}))
        for nulls in cases:
            role = f"?{pattern.name.name} unbound inside" if nulls else ""
            self.emit(self.head(shape, graph, in_scope(pattern)),
                      [self.atom(child, name, nulls), Comparison("!=", name, DEFAULT_GRAPH)],
                      self.describe(pattern, index, role))
        return shape

    @node.register
    def _(self, pattern: Optional, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        left = self.node(pattern.left, 2 * index, graph, None)
        right = self.node(pattern.right, 2 * index + 1, graph, None)
        present = in_scope(pattern)
        for lnull, rnull, extra, note in self._matches(pattern.condition, left, right):
            self.emit(self.head(shape, graph, present),
                      [self.atom(left, graph, lnull), self.atom(right, graph, rnull), *extra],
                      self.describe(pattern, index, "with a match" + _parenthesized(note)))
        self._difference(pattern, shape, left, right, graph)
        return shape

    @node.register
    def _(self, pattern: Minus, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        left = self.node(pattern.left, 2 * index, graph, None)
        right = self.node(pattern.right, 2 * index + 1, graph, None)
        self._difference(pattern, shape, left, right, graph)
        return shape

    @node.register
    def _(self, pattern: Values, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        described = self.describe(pattern, index)  # once: the rows × rows text took minutes
        for k, row in enumerate(pattern.rows, start=1):
            given = {v: self.encoder.encode(t) for v, t in zip(pattern.variables, row)
                     if t is not None}
            args = tuple(given.get(v, NULL) for v in shape.variables)
            self.emit(Atom(answer_predicate(index), args + (graph, STREAMS)), [],
                      f"{described} — row {k} of {len(pattern.rows)}")
        return shape

    @node.register
    def _(self, pattern: SubSelect, index: int, graph: Term, head=None) -> Shape:
        shape = self.shape(pattern, index, head)
        child = self.node(pattern.pattern, 2 * index, graph, None)
        present = frozenset(child.variables) & in_scope(pattern)
        if not pattern.sliced:
            self.emit(self.head(shape, graph, present), [self.atom(child, graph)],
                      self.describe(pattern, index))
            return shape
        terms = {v: var(v) for v in child.variables}
        keys = {k.variable.name for k in pattern.order} & set(child.variables)
        names = sorted(present | keys) if pattern.distinct else list(child.variables)

        def helper(role: str, args) -> Atom:
            return Atom(role_predicate(index, role), tuple(args) + (graph, STREAMS))
        rules, body = slice_rules(self.atom(child, graph), names, terms, pattern.order,
                                  pattern.limit, pattern.offset, helper)
        for rule_head, rule_body, role in rules:
            self.emit(rule_head, rule_body, self.describe(pattern, index, role))
        if body is not None:  # LIMIT 0 keeps no row
            self.emit(self.head(shape, graph, present), body,
                      self.describe(pattern, index, "the rows the slice keeps"))
        return shape

    # --- OPTIONAL and MINUS -----------------------------------------------------------------

    def _matches(self, condition, left: Shape, right: Shape):
        """``(left nulls, right nulls, filter literals, note)`` for each way to be compatible."""
        cases = join_cases(left, right)
        values = {v: var(v) for v in set(left.variables) | set(right.variables)}
        for k, (lnull, rnull) in enumerate(cases, start=1):
            note = _case_role(k, len(cases), lnull, rnull)
            if condition is None:
                yield lnull, rnull, (), note
                continue
            note = ", ".join(filter(None, [note, "FILTER " + expr_text(condition, self.names)]))
            yield lnull, rnull, (expressions.condition(condition, values),), note

    def _difference(self, pattern, shape: Shape, left: Shape, right: Shape, graph: Term) -> None:
        """``ans_i ← ans_2i, not ans_2i_prime(key)``; the helper says a compatible match exists.

        OPTIONAL keys the helper by the shared variables (by all of the left's when a FILTER
        looks at both sides); SPARQL 1.1 MINUS also needs a shared variable bound on both sides.
        """
        minus = isinstance(pattern, Minus)
        condition = None if minus else pattern.condition
        shared = sorted(set(left.variables) & set(right.variables))
        head = self.head(shape, graph, frozenset(left.variables))
        if minus and not shared:
            self.emit(head, [self.atom(left, graph)], self.describe(
                pattern, shape.index, "no shared variable: MINUS removes nothing"))
            return
        helper = Shape(2 * shape.index, tuple(shared) if condition is None else left.variables,
                       frozenset())
        made = self._helper_rules(pattern, left, right, graph, helper, condition)
        negated = [Literal(self.atom(helper, graph, helper=True), negated=True)] if made else []
        kind = f"kept when node {right.index} has no compatible solution" + (
            " sharing a bound variable" if minus else
            " passing the FILTER" if condition is not None else "")
        self.emit(head, [self.atom(left, graph), *negated],
                  self.describe(pattern, shape.index, kind))

    def _helper_rules(self, pattern, left: Shape, right: Shape, graph: Term, helper: Shape,
                      condition) -> bool:
        """The rules of ``ans_2i_prime``; Polleres' projection when nothing may be unbound."""
        shared = set(left.variables) & set(right.variables)
        describe = self.describe(pattern, helper.index // 2, f"helper ans'_{helper.index}")
        if condition is None and not shared & (left.maybe | right.maybe):
            self.emit(self.atom(helper, graph, helper=True), [self.atom(right, graph)], describe)
            return True
        made = False
        for lnull, rnull, extra, note in self._matches(condition, left, right):
            extras = [list(extra)]
            if isinstance(pattern, Minus):  # some shared variable bound on both sides
                extras = [[Comparison("!=", var(v), NULL)] for v in sorted(shared - lnull - rnull)]
            key_nulls = lnull & frozenset(helper.variables)
            for more in extras:
                self.emit(self.atom(helper, graph, key_nulls, helper=True),
                          [self.atom(left, graph, lnull), self.atom(right, graph, rnull), *more],
                          describe + _parenthesized(note))
                made = True
        return made


def reads_graph(pattern: Pattern) -> bool:
    """Whether every solution of ``pattern`` matches a triple of the active graph (so the
    graph exists); ``GRAPH <g> {}`` must check that ``<g>`` is a graph of the dataset."""
    if isinstance(pattern, BGP):
        return bool(pattern.triples)
    if isinstance(pattern, Join):
        return reads_graph(pattern.left) or reads_graph(pattern.right)
    if isinstance(pattern, Union):
        return reads_graph(pattern.left) and reads_graph(pattern.right)
    if isinstance(pattern, (Optional, Minus)):
        return reads_graph(pattern.left)
    if isinstance(pattern, (Filter, SubSelect, Extend)):
        return reads_graph(pattern.pattern)
    return False


def _check_exists(pattern: Pattern) -> None:
    """Refuse EXISTS patterns where compatibility is not substitution (SPARQL 18.6): OPTIONAL,
    MINUS, aggregates, and FILTER or BIND over variables the pattern does not bind itself."""
    if isinstance(pattern, (Optional, Minus, Group)):
        raise UnsupportedError("OPTIONAL, MINUS or an aggregate inside EXISTS")
    if isinstance(pattern, (Filter, Extend)):
        expr = pattern.condition if isinstance(pattern, Filter) else pattern.expr
        used = {e.name for e in subexpressions(expr) if isinstance(e, Var)}
        if not used <= certain(pattern.pattern):
            raise UnsupportedError("FILTER or BIND inside EXISTS over a variable the pattern "
                                   "does not always bind")
    for child in children(pattern):
        _check_exists(child)


def _parenthesized(note: str) -> str:
    return f" ({note})" if note else ""


def _case_role(k: int, total: int, lnull: frozenset[str], rnull: frozenset[str]) -> str:
    if total == 1:
        return ""
    unbound = [f"?{v} unbound on the left" for v in sorted(lnull)]
    unbound += [f"?{v} unbound on the right" for v in sorted(rnull)]
    return f"case {k} of {total}" + (": " + ", ".join(unbound) if unbound else "")

