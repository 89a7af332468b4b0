"""The fuzzer's abstract RSP query and its four spellings (SPEC section 4: ``Q = (V, P, D, S)``).

A :class:`Query` is written once, as a tree of pattern elements whose stream parts are
:class:`Block` s (``(s, ω, g)`` of ``S``), and printed four ways:

* :func:`csparql` — C-SPARQL: ``FROM STREAM <s> [RANGE L STEP D]``, every block merged into the
  WHERE clause (``cs(Q)``);
* :func:`cqels` — CQELS: each block as ``STREAM <s> [RANGE L SLIDE D] { g }`` (brave ``cq(Q)``);
* :func:`rspql` — RSP-QL (RSP4J): ``FROM NAMED WINDOW <w> ON <s> [RANGE PTLS STEP PTDS]`` and
  ``WINDOW <w> { g }``;
* :func:`oracle_sparql` — plain SPARQL 1.1 for the oracle: a block becomes ``GRAPH <win:i> { g }``
  over a named graph that holds window ``i``'s content (``merged=False``), or its pattern is
  left in the default graph that holds every window's content (``merged=True``, τ1's reading).

Nothing here comes from ``translate/``: the spellings are written from SPEC section 4 and the
syntax the project documents (``docs/syntax.md``).

>>> q = Query(windows=(Window(3, 1),), select=("a",),
...           where=(Block(0, (("?a", ":p", "?v"),)),))
>>> print(cqels(q).splitlines()[-1])
SELECT ?a WHERE { STREAM :s1 [RANGE 3s SLIDE 1s] { ?a :p ?v . } }
>>> print(oracle_sparql(q, merged=False).splitlines()[-1])
SELECT ?a WHERE { GRAPH <urn:fuzz:window:0> { ?a :p ?v . } }
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

EX = "http://ex.org/"
PREFIXES = (f"PREFIX : <{EX}>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n")
Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Window:
    """``[RANGE length STEP step]`` in ticks of one second (``⊞^{length,0,step}``, SPEC Table 1),
    or with ``triples`` the tuple window ``[TRIPLES n]`` (``⊞^{#n}``; length and step unused)."""

    length: int
    step: int
    triples: int | None = None

    def spelled(self, language: str) -> str:
        """The window clause in ``language`` (``csparql``, ``cqels`` or ``rspql``)."""
        if self.triples is not None:
            return {"csparql": f"[RANGE TRIPLES {self.triples}]", "cqels": f"[TRIPLES {self.triples}]",
                    "rspql": f"[ELEMENTS {self.triples}]"}[language]
        return {"csparql": f"[RANGE {self.length}s STEP {self.step}s]",
                "cqels": f"[RANGE {self.length}s SLIDE {self.step}s]",
                "rspql": f"[RANGE PT{self.length}S STEP PT{self.step}S]"}[language]


@dataclass(frozen=True)
class Block:
    """A stream graph pattern ``(s_i, ω_i, g)``: triples read from window ``stream`` of the query;
    ``filter`` an optional FILTER expression written inside the block."""

    stream: int
    triples: tuple[Triple, ...]
    filter: str | None = None


@dataclass(frozen=True)
class Static:
    """Triples read from the static data (the default graph)."""

    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class Optional_:
    """``OPTIONAL { group }``."""

    group: tuple["Element", ...]


@dataclass(frozen=True)
class Union_:
    """``{ left } UNION { right }``."""

    left: tuple["Element", ...]
    right: tuple["Element", ...]


@dataclass(frozen=True)
class Filter:
    """``FILTER (expression)`` at group level."""

    expression: str


@dataclass(frozen=True)
class Bind:
    """``BIND (expression AS ?variable)``."""

    expression: str
    variable: str


Element = Union[Block, Static, Optional_, Union_, Filter, Bind]


@dataclass(frozen=True)
class Query:
    """The abstract query: one window per stream (stream ``i`` is ``:s{i+1}``), the pattern,
    and the solution modifiers. ``select`` lists projected variables (without ``?``) or
    aggregate projections ``"(COUNT(?a) AS ?n)"``."""

    windows: tuple[Window, ...]
    select: tuple[str, ...]
    where: tuple[Element, ...]
    distinct: bool = False
    group_by: tuple[str, ...] = ()
    having: str | None = None

    @property
    def streams(self) -> tuple[str, ...]:
        """The streams' IRIs, in window order."""
        return tuple(f"{EX}s{i + 1}" for i in range(len(self.windows)))


def _group(elements: tuple[Element, ...], block: Callable[[Block], str]) -> str:
    parts = []
    for element in elements:
        if isinstance(element, Block):
            parts.append(block(element))
        elif isinstance(element, Static):
            parts.append(_triples(element.triples))
        elif isinstance(element, Optional_):
            parts.append("OPTIONAL { " + _group(element.group, block) + " }")
        elif isinstance(element, Union_):
            parts.append("{ " + _group(element.left, block) + " } UNION { "
                         + _group(element.right, block) + " }")
        elif isinstance(element, Filter):
            parts.append(f"FILTER ({element.expression})")
        else:
            parts.append(f"BIND ({element.expression} AS ?{element.variable})")
    return " ".join(parts)


def _triples(triples: tuple[Triple, ...]) -> str:
    return " ".join(f"{s} {p} {o} ." for s, p, o in triples)


def _body(block: Block) -> str:
    return _triples(block.triples) + (f" FILTER ({block.filter})" if block.filter else "")


def _select(query: Query) -> str:
    names = " ".join(v if v.startswith("(") else f"?{v}" for v in query.select)
    return "SELECT " + ("DISTINCT " if query.distinct else "") + names


def _modifiers(query: Query) -> str:
    text = ""
    if query.group_by:
        text += " GROUP BY " + " ".join(f"?{v}" for v in query.group_by)
    if query.having:
        text += f" HAVING ({query.having})"
    return text


def csparql(query: Query, name: str = "fuzz") -> str:
    """The C-SPARQL query ``cs(Q)``: every block's triples in the WHERE clause."""
    streams = "".join(f"FROM STREAM <{s}> {w.spelled('csparql')}\n"
                      for s, w in zip(query.streams, query.windows))
    where = _group(query.where, lambda b: "{ " + _body(b) + " }")
    return (f"REGISTER QUERY {name} AS\n{PREFIXES}{_select(query)}\n{streams}"
            f"WHERE {{ {where} }}{_modifiers(query)}")


def cqels(query: Query) -> str:
    """The brave CQELS query of ``cq(Q)``: each block inside its STREAM clause."""
    def block(b: Block) -> str:
        w = query.windows[b.stream]
        return f"STREAM :s{b.stream + 1} {w.spelled('cqels')} {{ {_body(b)} }}"
    return f"{PREFIXES}{_select(query)} WHERE {{ {_group(query.where, block)} }}{_modifiers(query)}"


def rspql(query: Query) -> str:
    """The RSP-QL query (RSP4J's syntax): one named window per stream, Rstream."""
    windows = "".join(f"FROM NAMED WINDOW :w{i + 1} ON :s{i + 1} {w.spelled('rspql')}\n"
                      for i, w in enumerate(query.windows))
    where = _group(query.where, lambda b: f"WINDOW :w{b.stream + 1} {{ {_body(b)} }}")
    return (f"{PREFIXES}REGISTER RSTREAM <{EX}out> AS\n{_select(query)}\n{windows}"
            f"WHERE {{ {where} }}{_modifiers(query)}")


def window_graph(index: int) -> str:
    """The IRI of the oracle's named graph that holds window ``index``'s content."""
    return f"urn:fuzz:window:{index}"


def oracle_sparql(query: Query, merged: bool) -> str:
    """Plain SPARQL 1.1 for rdflib: with ``merged``, every block's triples in the default graph
    (C-SPARQL, τ1); otherwise each block reads the named graph of its window (CQELS, τ2)."""
    if merged:
        def block(b: Block) -> str:
            return "{ " + _body(b) + " }"
    else:
        def block(b: Block) -> str:
            return f"GRAPH <{window_graph(b.stream)}> {{ {_body(b)} }}"
    return f"{PREFIXES}{_select(query)} WHERE {{ {_group(query.where, block)} }}{_modifiers(query)}"

