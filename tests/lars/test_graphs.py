"""Strongly connected components (lars/graphs.py) against networkx, the oracle: the same
components, in an order every edge respects, on any graph, and no recursion limit on a long one."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.graphs import components

NODES = st.integers(0, 12)
GRAPHS = st.dictionaries(NODES, st.lists(NODES, max_size=4), max_size=13)


def oracle(graph: dict[int, list[int]]) -> nx.DiGraph:
    digraph = nx.DiGraph()
    digraph.add_nodes_from(graph)
    digraph.add_edges_from((node, successor) for node, successors in graph.items()
                           for successor in successors)
    return digraph


@given(GRAPHS)
def test_the_components_of_networkx(graph):
    found = components(graph)
    assert sorted(map(sorted, found)) == sorted(map(sorted, nx.strongly_connected_components(oracle(graph))))
    assert sum(map(len, found)) == len(oracle(graph))  # each node once


@given(GRAPHS)
def test_every_edge_goes_forward(graph):
    place = {node: index for index, component in enumerate(components(graph)) for node in component}
    assert all(place[node] <= place[successor] for node, successors in graph.items()
               for successor in successors)


@pytest.mark.parametrize("graph, expected", [
    pytest.param({}, [], id="empty"),
    pytest.param({1: [1]}, [[1]], id="self-loop"),
    pytest.param({1: [2]}, [[1], [2]], id="successor-not-a-key"),
    pytest.param({2: [1], 1: []}, [[2], [1]], id="against-the-key-order"),
    pytest.param({1: [2], 2: [3], 3: [1], 4: [1]}, [[4], [3, 2, 1]], id="cycle-entered-from-outside"),
])
def test_small_graphs(graph, expected):
    assert components(graph) == expected


def test_a_long_chain_needs_no_recursion():
    n = 20_000
    chain = {k: [k + 1] for k in range(n)}
    assert components(chain) == [[k] for k in range(n + 1)]
    cycle = {k: [(k + 1) % n] for k in range(n)}
    assert sorted(components(cycle)[0]) == list(range(n))
