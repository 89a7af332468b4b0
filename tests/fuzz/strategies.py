"""Hypothesis strategies for the fuzzer: abstract RSP queries, small streams, static data.

The vocabulary keeps each predicate on one side, so that every spelling of a query reads the
same data (C-SPARQL cannot say which stream a pattern reads; ``lars agree`` derives it from the
data, :func:`agreement.defaults.derive_cqels`):

* stream ``:s1``: ``?a :p ?v`` (integers and decimals), ``?a :q ?n`` (strings, some with a
  language tag), ``?a :d ?t`` (``xsd:date``);
* stream ``:s2``: ``?a :r ?w`` (numbers);
* static: ``?a :zone ?z``, ``?a :label ?l`` (language-tagged), ``?z :limit ?m``;
* subjects ``:a``, ``:b`` and an IRI with dot segments, percent-encoding and an upper-case
  scheme, which must be compared as written (:data:`ODD_IRI`).

Streams mix the shapes that break engines: sparse and dense, several items at one time point,
items exactly on window boundaries (multiples of the STEP, ``t - L``).
"""

from __future__ import annotations

from hypothesis import strategies as st
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from tests.fuzz.cases import Case
from tests.fuzz.model import (
    EX, Bind, Block, Element, Filter, Optional_, Query, Static, Union_, Window,
)
from tests.fuzz.oracle import Item

ODD_IRI = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d#xyz"
"""An IRI to be kept as written (W3C i18n normalization-02; SPARQL compares IRIs as strings)."""
SUBJECTS = [URIRef(EX + "a"), URIRef(EX + "b"), URIRef(ODD_IRI)]
ZONES = [URIRef(EX + n) for n in ("north", "south")]
NUMBERS = [Literal(1), Literal(2), Literal(3), Literal("1.5", datatype=XSD.decimal),
           Literal("2.25", datatype=XSD.decimal), Literal(-1)]
STRINGS = [Literal("x"), Literal("y", lang="en"), Literal("y", lang="de"), Literal("zz")]
DATES = [Literal(f"2020-01-0{d}", datatype=XSD.date) for d in (1, 3, 5)]
P, Q, D, R = (URIRef(EX + n) for n in ("p", "q", "d", "r"))
ZONE, LABEL, LIMIT = (URIRef(EX + n) for n in ("zone", "label", "limit"))

NUMBER_FILTERS = ["?v > 2", "?v >= 1.5", "?v != 3", "?v + 1 < 3.5", "?v * 2 <= 4.5"]
STRING_FILTERS = ['LANG(?n) = "en"', 'STR(?n) = "y"', 'STRSTARTS(STR(?n), "z")', '?n = "x"']
DATE_FILTERS = ['?t >= "2020-01-03"^^xsd:date', '?t < "2020-01-05"^^xsd:date']
W_FILTERS = ["?w > 1", "?w < 2.5"]


time_windows = st.builds(lambda length, step: Window(length, min(step, length)),
                         st.integers(1, 5), st.integers(1, 4))
tuple_windows = st.builds(lambda n: Window(1, 1, n), st.integers(1, 3))


@st.composite
def windows(draw) -> Window:
    return draw(tuple_windows if draw(st.integers(0, 3)) == 0 else time_windows)

"""Mostly time windows; one in four a tuple window ``[TRIPLES n]`` (its length and step,
unused by it, make the period and the boundary times of the stream)."""


@st.composite
def queries(draw, max_streams: int = 2, tuples: bool = True) -> Query:
    """An abstract query over one or two streams (see the module docstring for its parts);
    ``tuples``: tuple windows allowed."""
    count = draw(st.sampled_from([1, 1, 2][:max_streams + 1]))
    chosen = tuple(draw(windows() if tuples else time_windows) for _ in range(count))
    first = draw(st.sampled_from(["p", "q", "d"]))
    var = {"p": "v", "q": "n", "d": "t"}
    triples = [("?a", f":{first}", f"?{var[first]}")]
    bound = {"a", var[first]}
    if draw(st.booleans()):
        second = draw(st.sampled_from([k for k in var if k != first]))
        triples.append(("?a", f":{second}", f"?{var[second]}"))
        bound.add(var[second])
    filters = (NUMBER_FILTERS if "v" in bound else []) \
        + (STRING_FILTERS if "n" in bound else []) + (DATE_FILTERS if "t" in bound else [])
    inner = draw(st.sampled_from(filters)) if draw(st.integers(0, 7)) == 0 else None  # refused today
    core: Element = Block(0, tuple(triples), inner)
    where: list[Element] = [core]
    if first == "p" and len(triples) == 1 and draw(st.integers(0, 4)) == 0:
        where = [Union_((Block(0, (("?a", ":p", "?v"),)),), (Block(0, (("?a", ":r2", "?v"),)),))]
    optional_vars: set[str] = set()
    if count == 2:
        second_block = Block(1, (("?a", ":r", "?w"),),
                             draw(st.sampled_from([None, None, *W_FILTERS])))
        if draw(st.booleans()):
            where.append(second_block)
            bound.add("w")
        else:
            where.append(Optional_((second_block,)))
            optional_vars.add("w")
    if draw(st.booleans()):
        where.append(Static((("?a", ":zone", "?z"),)))
        bound.add("z")
        if draw(st.booleans()):
            where.append(Static((("?z", ":limit", "?m"),)))
            bound.add("m")
    if draw(st.integers(0, 3)) == 0:
        where.append(Optional_((Static((("?a", ":label", "?l"),)),)))
        optional_vars.add("l")
    if draw(st.booleans()):
        where.append(Filter(draw(st.sampled_from([*filters, f"?a != <{ODD_IRI}>", f"?a = <{ODD_IRI}>"]))))
    if "v" in bound and draw(st.integers(0, 3)) == 0:
        where.append(Bind(draw(st.sampled_from(["?v * 2", "?v + 0.5"])), "v2"))
        bound.add("v2")
    if "w" in bound and "m" in bound and draw(st.booleans()):
        where.append(Filter("?w <= ?m"))
    if draw(st.integers(0, 2)) == 0:
        return _aggregate(draw, chosen, tuple(where), bound)
    names = sorted(bound | optional_vars)
    select = tuple(draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)))
    return Query(chosen, select, tuple(where), distinct=draw(st.booleans()))


def _aggregate(draw, chosen: tuple[Window, ...], where: tuple[Element, ...], bound: set[str]) -> Query:
    keys = sorted(bound & {"a", "z", "n"})
    numeric = sorted(bound & {"v", "w", "m", "v2"})
    functions = ["COUNT(?a)", "COUNT(*)", "COUNT(DISTINCT ?a)"] + [
        f"{f}(?{v})" for v in numeric for f in ("SUM", "AVG", "MIN", "MAX")]
    function = draw(st.sampled_from(functions))
    group = tuple(draw(st.lists(st.sampled_from(keys), max_size=1))) if keys else ()
    having = draw(st.sampled_from(["COUNT(*) > 1", f"{function} > 1"])) if draw(st.booleans()) else None
    loose = sorted(bound - set(group))
    if loose and draw(st.integers(0, 7)) == 0:  # SPARQL 1.1's grouping rule broken: must be refused
        group = (*group, draw(st.sampled_from(loose)))
        return Query(chosen, (*group, f"({function} AS ?agg)"), where, group_by=group[:-1], having=having)
    return Query(chosen, (*group, f"({function} AS ?agg)"), where, group_by=group, having=having)


def objects(predicate: URIRef):
    return st.sampled_from({P: NUMBERS, Q: STRINGS, D: DATES, R: NUMBERS}[predicate])


@st.composite
def streams(draw, query: Query) -> list[Item]:
    """A small stream for ``query``: items on its streams, times biased to window boundaries."""
    boundaries = sorted({k * w.step for w in query.windows for k in range(0, 6)}
                        | {k * w.step - w.length for w in query.windows for k in range(1, 6)})
    times = st.one_of(st.integers(0, 12), st.sampled_from([b for b in boundaries if 0 <= b <= 12]))
    shape = draw(st.sampled_from(["sparse", "dense", "equal"]))
    size = draw(st.integers(1, 4 if shape == "sparse" else 8))
    found = []
    fixed = draw(times)
    for _ in range(size):
        stream = draw(st.integers(0, len(query.windows) - 1))
        predicate = R if stream == 1 else draw(st.sampled_from([P, Q, D, URIRef(EX + "r2")]))
        value = draw(objects(P if predicate == URIRef(EX + "r2") else predicate))
        time = fixed if shape == "equal" else draw(times)
        found.append(Item(time, stream, (draw(st.sampled_from(SUBJECTS)), predicate, value)))
    return sorted(found, key=lambda i: i.time)


statics = st.builds(
    lambda zones, labels, limits: [(s, ZONE, z) for s, z in zones.items()]
    + [(s, LABEL, l) for s, l in labels.items()] + [(z, LIMIT, m) for z, m in limits.items()],
    st.dictionaries(st.sampled_from(SUBJECTS), st.sampled_from(ZONES), max_size=3),
    st.dictionaries(st.sampled_from(SUBJECTS), st.sampled_from(
        [Literal("A", lang="en"), Literal("B")]), max_size=2),
    st.dictionaries(st.sampled_from(ZONES), st.sampled_from(NUMBERS), max_size=2))
"""Static data: zones of the subjects, some labels, limits of the zones."""



@st.composite
def cases(draw, routes=("hand", "derived", "rspql")):
    """A whole case: query, route, stream, static data, a period of one or two STEPs of the
    first window, and sometimes a timeline that runs one period past the last input."""
    query = draw(queries())
    return Case(query, draw(st.sampled_from(routes)), tuple(draw(streams(query))),
                tuple(draw(statics)), query.windows[0].step * draw(st.sampled_from([1, 1, 2])),
                draw(st.sampled_from([0, 0, 1])))
