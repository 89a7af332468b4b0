"""Hypothesis strategies for random SPARQL queries (as text) and random small RDF datasets.

Vocabulary: IRIs ``ex:a ex:b``, predicates ``ex:p ex:q``, literals ``1 2 3`` (xsd:integer) and
``"x"``, named graphs ``ex:g1 ex:g2``, variables ``?x ?y ?z ?w``, blank nodes ``[]`` in patterns and
``_:n`` in data. A pattern is generated as a small tree, then rendered three ways: plain SPARQL,
C-SPARQL (with a ``FROM STREAM`` clause) and CQELS (one BGP outside GRAPH wrapped in ``STREAM``).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from rdflib import BNode, Dataset, Literal, Namespace

EX = Namespace("http://ex.org/")
PREFIX = "PREFIX ex: <http://ex.org/>\n"
STREAM = "http://ex.org/s1"
VARIABLES = ("x", "y", "z", "w")
GRAPHS = (EX.g1, EX.g2)
SUBJECTS = (EX.a, EX.b, BNode("n1"))
OBJECTS = (EX.a, EX.b, Literal(1), Literal(2), Literal(3), Literal("x"), BNode("n1"))
PREDICATES = (EX.p, EX.q)


# --- data --------------------------------------------------------------------------------------

triples = st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(PREDICATES), st.sampled_from(OBJECTS))


@st.composite
def datasets(draw) -> Dataset:
    """A Dataset with a default graph and one or two non-empty named graphs."""
    data = Dataset()
    for triple in draw(st.lists(triples, min_size=4, max_size=18)):
        data.default_graph.add(triple)
    for graph in GRAPHS[: draw(st.integers(1, 2))]:
        named = data.graph(graph)
        for triple in draw(st.lists(triples, min_size=1, max_size=8)):
            named.add(triple)
    return data


# --- patterns ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Node:
    """A pattern tree node: ``kind`` and its parts (children, triples, filter text, graph)."""

    kind: str
    parts: tuple


_VARIABLE_TERMS = st.sampled_from(["?x", "?y", "?z"])
pattern_terms = {
    "s": st.one_of(_VARIABLE_TERMS, _VARIABLE_TERMS, _VARIABLE_TERMS, st.sampled_from(["ex:a", "[]"])),
    "p": st.sampled_from(["ex:p", "ex:p", "ex:q", "ex:q", "?w"]),
    "o": st.one_of(_VARIABLE_TERMS, _VARIABLE_TERMS, _VARIABLE_TERMS,
                   st.sampled_from(["ex:a", "ex:b", "1", "2", '"x"', "?g"])),
}
triple_patterns = st.tuples(pattern_terms["s"], pattern_terms["p"], pattern_terms["o"])


def variables_of(node: Node) -> set[str]:
    """The in-scope variables of a generated pattern."""
    if node.kind == "bgp":
        return {t[1:] for triple in node.parts for t in triple if t.startswith("?")}
    if node.kind == "minus":
        return variables_of(node.parts[0])
    if node.kind == "graph":
        graph = node.parts[0]
        return variables_of(node.parts[1]) | ({graph[1:]} if graph.startswith("?") else set())
    children = [p for p in node.parts if isinstance(p, Node)]
    return set().union(*(variables_of(c) for c in children))


def _oracle_comparison(left: str, op: str, right: str) -> str:
    """The same comparison, written for rdflib. With ``DAWG_LITERAL_COLLATION`` rdflib answers
    ``1 < "x"`` with false and ``2 >= "x"`` with true, where SPARQL has an error (its
    ``Literal.__lt__`` and ``__ge__`` mistake ``NotImplemented`` for a truth value); ``>`` and
    ``<=`` are right, so the oracle swaps the operands of ``<`` and ``>=``."""
    if op == "<":
        return f"{right} > {left}"
    if op == ">=":
        return f"{right} <= {left}"
    return f"{left} {op} {right}"


@st.composite
def expressions(draw, names: tuple[str, ...], depth: int = 2) -> tuple[str, str]:
    """A FILTER condition over ``names`` (plus, rarely, a variable out of scope), as the text we
    translate and the equivalent text rdflib evaluates (see :func:`_oracle_comparison`)."""
    pool = list(names) or ["x"]
    rare = draw(st.integers(0, 5)) == 0
    v = draw(st.sampled_from(pool + ["w"] if rare else pool))
    u = draw(st.sampled_from(pool))
    op = draw(st.sampled_from(["=", "!=", "<", "<=", ">", ">="]))
    const = draw(st.sampled_from(["1", "2", '"x"', "ex:a", "1.5", "3"]))
    tests = [f"bound(?{v})", f"isIRI(?{v})", f"isLiteral(?{v})", f"isBlank(?{v})", "true", "false"]
    comparisons = [(f"?{v}", const), (f"?{v}", f"?{u}"), (f"(?{v} + 1)", const),
                   (f"(?{v} * ?{u})", const), (f"(?{v} / 2)", const), (f"-?{v}", "-2")]
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        if draw(st.integers(0, 2)) == 0:
            text = draw(st.sampled_from(tests))  # rdflib drops FILTER (false)
            return text, "!(!false)" if text == "false" else text
        left, right = draw(st.sampled_from(comparisons))
        return f"{left} {op} {right}", _oracle_comparison(left, op, right)
    kind = draw(st.sampled_from(["not", "and", "or"]))
    left = draw(expressions(names, depth - 1))
    if kind == "not":
        return f"!({left[0]})", f"!({left[1]})"
    right = draw(expressions(names, depth - 1))
    if kind == "or":
        return f"({left[0]} || {right[0]})", f"({left[1]} || {right[1]})"
    # rdflib's && is Python's all(): an error before a false is an error, where SPARQL says
    # false; its || is right, so the oracle asks !(!a || !b)
    return f"({left[0]} && {right[0]})", f"!(!({left[1]}) || !({right[1]}))"


@st.composite
def patterns(draw, depth: int = 3) -> Node:
    """A random pattern tree of at most ``depth`` levels of operators."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        size = draw(st.sampled_from([1, 1, 2]))
        return Node("bgp", tuple(draw(st.lists(triple_patterns, min_size=size, max_size=size))))
    kind = draw(st.sampled_from(["join", "union", "optional", "minus", "filter", "graph"]))
    left = draw(patterns(depth - 1))
    if kind == "filter":
        return Node("filter", (left, draw(expressions(tuple(sorted(variables_of(left)))))))
    if kind == "graph":
        graph = draw(st.sampled_from(["?g", "ex:g1", "ex:g2"]))
        return Node("graph", (graph, left))
    right = draw(patterns(depth - 1))
    if kind == "optional" and draw(st.booleans()):
        names = tuple(sorted(variables_of(left) | variables_of(right)))
        return Node("optional", (left, right, draw(expressions(names, 1))))
    return Node(kind, (left, right))


def stream_candidates(node: Node, under_graph: bool = False, path: tuple = ()) -> list[tuple]:
    """Paths of the BGP leaves that are not inside GRAPH (where STREAM may replace them)."""
    if node.kind == "bgp":
        return [] if under_graph else [path]
    found = []
    for k, part in enumerate(node.parts):
        if isinstance(part, Node):
            found += stream_candidates(part, under_graph or node.kind == "graph", path + (k,))
    return found


def render(node: Node, stream_at: tuple | None = None, oracle: bool = False, path: tuple = ()) -> str:
    """The group-pattern text of ``node``; the BGP at ``stream_at`` becomes a STREAM block;
    ``oracle`` picks the filter texts meant for rdflib."""
    def sub(k: int) -> str:
        return render(node.parts[k], stream_at, oracle, path + (k,))

    def condition(text: tuple[str, str]) -> str:
        return text[1] if oracle else text[0]
    if node.kind == "bgp":
        text = " ".join(f"{s} {p} {o} ." for s, p, o in node.parts)
        return f"STREAM <{STREAM}> [RANGE 3s] {{ {text} }}" if path == stream_at else text
    if node.kind == "join":
        return f"{{ {sub(0)} }} {{ {sub(1)} }}"
    if node.kind in ("union", "minus"):
        return f"{{ {sub(0)} }} {node.kind.upper()} {{ {sub(1)} }}"
    if node.kind == "optional":
        extra = f" FILTER ({condition(node.parts[2])})" if len(node.parts) > 2 else ""
        return f"{{ {sub(0)} }} OPTIONAL {{ {sub(1)}{extra} }}"
    if node.kind == "filter":
        return f"{{ {sub(0)} }} FILTER ({condition(node.parts[1])})"
    return f"GRAPH {node.parts[0]} {{ {sub(1)} }}"


@dataclass(frozen=True)
class Case:
    """One generated query in its spellings: SPARQL, C-SPARQL, CQELS, and rdflib's SPARQL."""

    sparql: str
    csparql: str
    cqels: str | None
    oracle: str


@st.composite
def queries(draw) -> Case:
    """A SELECT query over a random pattern, in SPARQL, C-SPARQL and CQELS (if a BGP can stream)."""
    node = draw(patterns())
    scope = sorted(variables_of(node))
    if draw(st.integers(0, 4)) == 0 or not scope:
        head = "*"
    else:
        chosen = draw(st.lists(st.sampled_from(scope + ["w"]), min_size=1, max_size=3, unique=True))
        head = " ".join(f"?{v}" for v in chosen)
    select = f"{PREFIX}SELECT {draw(st.sampled_from(['', 'DISTINCT ']))}{head}"
    body = render(node)
    candidates = stream_candidates(node)
    cqels = None
    if candidates:
        cqels = f"{select} WHERE {{ {render(node, draw(st.sampled_from(candidates)))} }}"
    return Case(f"{select} WHERE {{ {body} }}",
                f"{select} FROM STREAM <{STREAM}> [RANGE 3s] WHERE {{ {body} }}", cqels,
                f"{select} WHERE {{ {render(node, oracle=True)} }}")
