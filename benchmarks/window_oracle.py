"""An independent agreement checker: every window snapshot evaluated with rdflib's SPARQL engine.

It shares no code with the solver, the translations or the readers of this project (it imports
only rdflib): it reads the stream itself, cuts the window snapshot of each evaluation, loads it
into a fresh rdflib ``Graph`` and runs the query's SPARQL part on it. Both engines are read the
way ``lars agree`` reads them (SPEC section 9, paper section 5, closed window bounds):

* a window ``[RANGE L STEP D]`` (``SLIDE D``; ``TUMBLING`` is ``STEP L``; no step is ``STEP 1``)
  at ``t`` holds the triples at ``[max(0, p - L), p]`` with ``p = floor(t / D) * D``;
* C-SPARQL pulls at each multiple ``e`` of the period ``U``, CQELS pushes at every time point
  with input;
* the engines agree on ``(e - U, e]`` when the union of the CQELS rows at the pushes inside it
  equals the C-SPARQL rows at ``e``; the last interval checked is the one holding the last input.

One stream, one window (the CSRBench queries: Q1). Run:

    .venv/bin/python benchmarks/window_oracle.py examples/csrbench/queries/q1-cqels.rq \\
        examples/csrbench/stream --period 10

prints one JSON line per interval: ``{"start", "end", "agree", "only_cqels", "only_csparql"}``
(rows as N-Triples terms, sorted).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from rdflib import Graph, Literal, URIRef
from rdflib.term import Node

_WINDOW = re.compile(r"\[\s*RANGE\s+(\d+)\s*s?\s*(?:(TUMBLING)|(?:SLIDE|STEP)\s+(\d+)\s*s?)?\s*\]",
                     re.IGNORECASE)
_STREAM_BLOCK = re.compile(r"STREAM\s*<[^>]*>\s*\[[^\]]*\]\s*\{", re.IGNORECASE)
_FROM_STREAM = re.compile(r"FROM\s+(?:NAMED\s+)?STREAM\s*<[^>]*>\s*\[[^\]]*\]", re.IGNORECASE)
_REGISTER = re.compile(r"REGISTER\s+QUERY\s+\S+\s+AS", re.IGNORECASE)
_TERM = re.compile(r'\s*(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?)')


def window_of(query: str) -> tuple[int, int]:
    """``(L, D)`` of the query's one window, in seconds."""
    found = _WINDOW.search(query)
    if found is None:
        raise SystemExit("no [RANGE L ...] window in the query")
    length = int(found.group(1))
    return length, length if found.group(2) else int(found.group(3) or 1)


def sparql_of(query: str) -> str:
    """The query's SPARQL over one snapshot graph: stream clauses and blocks removed."""
    text = _REGISTER.sub("", _FROM_STREAM.sub("", query))
    return _STREAM_BLOCK.sub("{", text)


def node(text: str) -> Node:
    """An N-Triples term (IRIs and literals, enough for the CSRBench streams)."""
    if text.startswith("<"):
        return URIRef(text[1:-1])
    value, _, rest = text[1:].rpartition('"')
    value = value.encode("utf-8").decode("unicode_escape") if "\\" in value else value
    if rest.startswith("^^"):
        return Literal(value, datatype=URIRef(rest[3:-1]))
    return Literal(value, lang=rest[1:]) if rest.startswith("@") else Literal(value)


def stream_slices(path: Path) -> Iterator[tuple[int, list[tuple[Node, Node, Node]]]]:
    """``(t, triples)`` ascending: lines ``<s> <p> <o> [<stream>] t`` of a file, or the Turtle
    files ``data_<t>.ttl`` of a folder."""
    if path.is_dir():
        for file in sorted(path.glob("*.ttl"), key=lambda f: int(re.findall(r"\d+", f.stem)[-1])):
            yield int(re.findall(r"\d+", file.stem)[-1]), list(Graph().parse(file, format="turtle"))
        return
    current, triples = None, []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip() or line.startswith("#"):
                continue
            body, _, time = line.rstrip().rpartition(" ")
            terms, position = [], 0
            while len(terms) < 3:
                found = _TERM.match(body, position)
                terms.append(node(found.group(1)))
                position = found.end()
            t = int(time)
            if t != current and current is not None:
                yield current, triples
                triples = []
            current = t
            triples.append(tuple(terms))
    if current is not None:
        yield current, triples


def rows(sparql, triples: list) -> frozenset[tuple[str, ...]]:
    """The query's rows on a graph of ``triples`` (terms as N-Triples text); ``sparql`` is the
    query's text (parsed at each call) or rdflib's prepared query."""
    graph = Graph()
    for triple in triples:
        graph.add(triple)
    result = graph.query(sparql)
    return frozenset(tuple(term.n3() if term is not None else "null" for term in row) for row in result)


def row_text(row: tuple[str, ...]) -> str:
    return "(" + ", ".join(row) + ")"


def verdicts(cqels_query: str, csparql_query: str, stream: Path, period: int,
             prepare: bool = False) -> Iterator[dict]:
    """The verdict of every pulling interval, in time order; with ``prepare``, each query is
    parsed once (rdflib's ``prepareQuery``) instead of at each evaluation."""
    cq_window, cs_window = window_of(cqels_query), window_of(csparql_query)
    cq_sparql, cs_sparql = sparql_of(cqels_query), sparql_of(csparql_query)
    if prepare:
        from rdflib.plugins.sparql import prepareQuery
        cq_sparql, cs_sparql = prepareQuery(cq_sparql), prepareQuery(cs_sparql)
    kept: list[tuple[int, list]] = []  # slices the windows may still select
    pushed: dict[tuple[str, ...], list[int]] = {}
    end = period

    def snapshot(t: int, window: tuple[int, int]) -> list:
        pivot = t // window[1] * window[1]
        return [triple for s, triples in kept if max(0, pivot - window[0]) <= s <= pivot
                for triple in triples]

    def close(e: int) -> dict:
        pulled = rows(cs_sparql, snapshot(e, cs_window))
        result = {"start": e - period, "end": e,
                  "only_cqels": sorted(row_text(r) for r in pushed if r not in pulled),
                  "only_csparql": sorted(row_text(r) for r in pulled if r not in pushed)}
        result["agree"] = not result["only_cqels"] and not result["only_csparql"]
        return result

    last = 0
    for t, triples in stream_slices(stream):
        while end < t:
            yield close(end)
            pushed, end = {}, end + period
        kept.append((t, triples))
        oldest = end - period - max(cq_window[0], cs_window[0]) - max(cq_window[1], cs_window[1])
        kept = [(s, ts) for s, ts in kept if s >= oldest]
        if t > end - period:
            for row in rows(cq_sparql, snapshot(t, cq_window)):
                pushed.setdefault(row, []).append(t)
        last = t
    while end - period < last:  # up to the end of the pulling interval holding the last input
        yield close(end)
        pushed, end = {}, end + period


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cqels", type=Path, help="the CQELS query")
    parser.add_argument("stream", type=Path, help="a timestamped N-Triples file or a Turtle folder")
    parser.add_argument("--csparql", type=Path, help="the C-SPARQL query (default: from the CQELS one)")
    parser.add_argument("--period", type=int, required=True, help="pulling period U in seconds")
    parser.add_argument("--prepare", action="store_true",
                        help="parse each query once, not at each evaluation")
    args = parser.parse_args(argv)
    cqels = args.cqels.read_text()
    csparql = args.csparql.read_text() if args.csparql else cqels
    for verdict in verdicts(cqels, csparql, args.stream, args.period, args.prepare):
        print(json.dumps(verdict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
