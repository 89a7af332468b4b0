"""The event pattern as the translation sees it: a tree of :class:`Node` with contexts.

:func:`build` numbers the nodes like τ (root 1, children ``2i`` and ``2i+1``, a lone child
``2i``) and rewrites the selection policies into the few node kinds :mod:`translate.eventrules`
has rules for:

| pattern | node |
|---|---|
| ``E1 SEQ E2`` (7) | ``seq`` choosing ``all`` events of ``E2`` |
| ``E1 SEQ^n E2`` (9) | ``before(LAST E1, LAST E2)``: a join with ``t2 < t3``, no substitution |
| ``E1 SEQ^c E2`` (10) | ``seq(FIRST E1, E2)`` choosing the ``first`` candidate of ``E2`` |
| ``E1 SEQ^r E2`` (11) | ``seq(LAST E1, E2)`` choosing the ``last`` candidate of ``E2`` |

and computes each node's *context*: the variables a SEQ substitutes into it (``μ2(E1)``), or
``None`` where nothing is substituted and no bound applies. A node is *selective* if a FIRST,
LAST or choosing SEQ is in it; only selective nodes with a context are evaluated per context.

>>> from translate.events import Basic, Seq
>>> from translate.rsp import BGP, TriplePattern, Var
>>> from rdflib import URIRef
>>> e = lambda s, o: Basic(URIRef("w"), BGP((TriplePattern(Var(s), URIRef("p"), Var(o)),)))
>>> root = build(Seq(e("x", "y"), e("y", "z"), "chronological"))
>>> [(n.index, n.kind, n.context) for n in (root, *root.children, root.children[0].children[0])]
[(1, 'seq', None), (2, 'first', ('y',)), (3, 'basic', None), (4, 'basic', ('y',))]
"""

from __future__ import annotations

from dataclasses import dataclass

from translate.events import Basic, EventPattern, First, Last, pattern_text, pattern_variables


@dataclass(frozen=True)
class Node:
    """A node of the pattern as translated: ``basic``, ``first``, ``last``, ``seq`` (``choose``
    ``all``, ``first`` or ``last``) or ``before`` (the join of ``SEQ^n``).

    ``context`` is ``None`` where no substitution or bound applies, else the substituted
    variables; ``materialized`` nodes are evaluated per context (``ctx_i``)."""

    kind: str
    index: int
    children: tuple[Node, ...]
    variables: tuple[str, ...]
    selective: bool
    context: tuple[str, ...] | None
    origin: str
    basic: Basic | None = None
    choose: str = "all"

    @property
    def materialized(self) -> bool:
        return self.selective and self.context is not None


def _restrict(context: tuple[str, ...] | None, names: frozenset[str]) -> tuple[str, ...] | None:
    return None if context is None else tuple(sorted(set(context) & names))


def build(pattern: EventPattern, index: int = 1, context: tuple[str, ...] | None = None) -> Node:
    """The translated tree of ``pattern`` (SEQ^n, SEQ^c, SEQ^r rewritten as in the module doc)."""
    names = pattern_variables(pattern)
    variables = tuple(sorted(names))
    origin = pattern_text(pattern)
    if isinstance(pattern, Basic):
        return Node("basic", index, (), variables, False, context, origin, pattern)
    if isinstance(pattern, (First, Last)):
        child = build(pattern.operand, 2 * index, _restrict(context, pattern_variables(pattern.operand)))
        return Node(type(pattern).__name__.lower(), index, (child,), variables, True, context, origin)
    left_names, right_names = pattern_variables(pattern.left), pattern_variables(pattern.right)
    if pattern.selection == "naive":
        left = build(Last(pattern.left), 2 * index, _restrict(context, left_names))
        right = build(Last(pattern.right), 2 * index + 1, _restrict(context, right_names))
        return Node("before", index, (left, right), variables, True, context, origin)
    shared = left_names & right_names
    inner = {"unrestricted": pattern.left, "chronological": First(pattern.left),
             "recent": Last(pattern.left)}[pattern.selection]
    left = build(inner, 2 * index, tuple(sorted((set(context or ()) | shared) & left_names)))
    right = build(pattern.right, 2 * index + 1, _restrict(context, right_names))
    choose = {"unrestricted": "all", "chronological": "first", "recent": "last"}[pattern.selection]
    selective = choose != "all" or left.selective or right.selective
    return Node("seq", index, (left, right), variables, selective, context, origin, choose=choose)
