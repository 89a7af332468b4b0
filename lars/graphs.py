"""Strongly connected components of a small directed graph, in topological order.

Stratification (:mod:`lars.analysis`) and the bottom-up strata of the incremental engine
(:mod:`solver.incremental.bottomup`) need only this of a graph library; networkx cost ~0.1 s of
every command's start-up for it (issue 17), so it is Tarjan's algorithm here, without
recursion (a program of 10^4 chained rules must not exhaust Python's stack), tested against
networkx in ``tests/lars/test_graphs.py``.

A graph is a mapping ``node → successors``; a node that is only a successor need not be a key.
Iteration follows the mapping's order, so the result is the same from one run to the next.

>>> components({"a": ["b"], "b": ["a", "c"], "c": [], "d": ["c"]})
[['d'], ['b', 'a'], ['c']]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import TypeVar

Node = TypeVar("Node", bound=Hashable)


def components(successors: Mapping[Node, Iterable[Node]]) -> list[list[Node]]:
    """The strongly connected components of the graph, in topological order: every edge goes
    from a component to itself or to a later one (Tarjan 1972, "Depth-first search and linear
    graph algorithms"; it finds each component after every component reachable from it, so its
    order is reversed)."""
    number: dict[Node, int] = {}  # depth-first visiting order
    low: dict[Node, int] = {}  # the least number reachable through the node's subtree
    stack: list[Node] = []
    on_stack: set[Node] = set()
    found: list[list[Node]] = []
    path: list[tuple[Node, Iterator[Node]]] = []  # the depth-first path, each node's successors left

    def visit(node: Node) -> None:
        number[node] = low[node] = len(number)
        stack.append(node)
        on_stack.add(node)
        path.append((node, iter(successors.get(node, ()))))

    for root in successors:
        if root in number:
            continue
        visit(root)
        while path:
            node, children = path[-1]
            for child in children:
                if child not in number:
                    visit(child)
                    break
                if child in on_stack:
                    low[node] = min(low[node], number[child])
            else:
                path.pop()
                if path:
                    parent = path[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == number[node]:
                    component = []
                    while not component or component[-1] != node:
                        component.append(stack.pop())
                        on_stack.discard(component[-1])
                    found.append(component)
    found.reverse()
    return found
