"""What differs between the abstract queries of two spellings of a query (SPEC section 4).

``lars agree`` compares a CQELS query with a C-SPARQL one given apart (``--csparql FILE``)
only as far as they describe the same abstract query ``cs(Q) = (V, P, D, S)``; where they do
not, it warns, and :func:`differences` says where, part by part, in the words of the queries:
result variables, stream windows, dataset, triple patterns, filters, how the patterns are
combined, solution modifiers. It names something exactly when ``cs(first) != cs(second)``.

>>> from translate.api import parse_query
>>> csparql = parse_query("PREFIX : <http://e/> SELECT ?s FROM STREAM :s [RANGE 10s STEP 5s] "
...                       "WHERE { ?s :p ?o FILTER (?o > 3) }")
>>> cqels = parse_query("PREFIX : <http://e/> SELECT ?s WHERE { STREAM :s [RANGE 5s SLIDE 5s] "
...                     "{ ?s :p ?o . ?s :q ?x } }")
>>> for part in differences(csparql, cqels):
...     print(part)
window of :s: [RANGE 10s STEP 5s] in C-SPARQL, [RANGE 5s SLIDE 5s] in CQELS
triple patterns only in CQELS: ?s :q ?x
filters only in C-SPARQL: ?o > 3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from typing import get_args

from translate.cqelstext import window_text
from translate.rsp import BGP, Exists, Filter, Optional, Pattern, RspQuery, TriplePattern
from translate.scope import children, conditions, subexpressions
from translate.sparqltext import Names, expr_text, pattern_text, term_text, triple_text
from translate.variants import cs

SIDES = ("C-SPARQL", "CQELS")
_PATTERNS = get_args(Pattern)


def differences(first: RspQuery, second: RspQuery, sides: tuple[str, str] = SIDES) -> list[str]:
    """Each part in which the abstract queries ``cs(first)`` and ``cs(second)`` differ, as one
    phrase naming what each side has (``sides``: their names); empty when they are equal."""
    a, b = cs(first), cs(second)
    if a == b:
        return []
    names = Names(first.prefixes + second.prefixes)
    found = [*_variables(a, b, sides), *_streams(a, b, sides, names), *_dataset(a, b, sides, names),
             *_patterns(a, b, sides, names), *_modifiers(a, b, sides, names)]
    return found or [f"the queries differ: {a} and {b}"]  # a part of RspQuery not named above


def _variables(a: RspQuery, b: RspQuery, sides: tuple[str, str]) -> list[str]:
    if a.variables == b.variables:
        return []
    text = [" ".join(f"?{v.name}" for v in q.variables) or "none" for q in (a, b)]
    what = "result variables in another order" if set(a.variables) == set(b.variables) else "result variables"
    return [f"{what}: {text[0]} in {sides[0]}, {text[1]} in {sides[1]}"]


def _streams(a: RspQuery, b: RspQuery, sides: tuple[str, str], names: Names) -> list[str]:
    """Streams read by one side only, windows that differ, FROM NAMED STREAM on one side."""
    if a.streams == b.streams:
        return []
    found = []
    windows = [{} for _ in (a, b)]
    for side, query in zip(windows, (a, b)):
        for spec in query.streams:
            side.setdefault(spec.stream, []).append((spec.window, spec.named))
    for stream in dict.fromkeys([*windows[0], *windows[1]]):
        name = term_text(stream, names)
        there = [side.get(stream) for side in windows]
        if there[0] is None or there[1] is None:
            found.append(f"stream {name} only in {sides[0] if there[1] is None else sides[1]}")
        elif [w for w, _ in there[0]] != [w for w, _ in there[1]]:
            shown = [", ".join(_window(w, q) for w, _ in given) for given, q in zip(there, (a, b))]
            found.append(f"window of {name}: {shown[0]} in {sides[0]}, {shown[1]} in {sides[1]}")
        elif there[0] != there[1]:
            found.append(f"stream {name} is a named stream (FROM NAMED STREAM) in "
                         f"{sides[0] if there[0][0][1] else sides[1]} only")
    return found or [f"the same streams in another order: "
                     f"{' '.join(term_text(s.stream, names) for s in a.streams)} in {sides[0]}, "
                     f"{' '.join(term_text(s.stream, names) for s in b.streams)} in {sides[1]}"]


def _window(window, query: RspQuery) -> str:
    """A window as the query's language writes it (C-SPARQL's STEP, CQELS's SLIDE), with units."""
    return window_text(window, query.unit_ms, query.engine)


def _dataset(a: RspQuery, b: RspQuery, sides: tuple[str, str], names: Names) -> list[str]:
    found = []
    for keyword, field in (("FROM", "default"), ("FROM NAMED", "named")):
        graphs = [getattr(q.dataset, field) for q in (a, b)]
        found += _only(f"{keyword} graphs", set(graphs[0]), set(graphs[1]), sides,
                       lambda iri: term_text(iri, names))
    return found


def _patterns(a: RspQuery, b: RspQuery, sides: tuple[str, str], names: Names) -> list[str]:
    """Triple patterns and filters one side has and the other not (with repetitions); with the
    same triple patterns, how they are combined (OPTIONAL, UNION, …) when that differs, else,
    with the same filters too, where the filters are."""
    if a.pattern == b.pattern:
        return []
    triples = _only("triple patterns", Counter(_triples(a.pattern)), Counter(_triples(b.pattern)),
                    sides, lambda t: triple_text(t, names))
    filters = _only("filters", Counter(conditions(a.pattern)), Counter(conditions(b.pattern)),
                    sides, lambda e: expr_text(e, names))
    if triples:
        return triples + filters
    shown = f"{pattern_text(a.pattern, names)} in {sides[0]}, {pattern_text(b.pattern, names)} in {sides[1]}"
    if _unfiltered(a.pattern) != _unfiltered(b.pattern):
        return [f"the same triple patterns, combined differently: {shown}"] + filters
    return filters or [f"the same filters, placed differently: {shown}"]


def _modifiers(a: RspQuery, b: RspQuery, sides: tuple[str, str], names: Names) -> list[str]:
    """DISTINCT, the query form, ORDER BY, LIMIT, OFFSET, and what the answers keep."""
    found = []
    if a.distinct != b.distinct:
        found.append(f"DISTINCT in {sides[0] if a.distinct else sides[1]} only")
    shown = {
        "query form": lambda q: q.form.upper(),
        "ORDER BY": lambda q: " ".join(f"DESC(?{k.variable.name})" if k.descending
                                       else f"?{k.variable.name}" for k in q.order) or "none",
        "LIMIT": lambda q: "none" if q.limit is None else str(q.limit),
        "OFFSET": lambda q: str(q.offset),
        "CONSTRUCT template": lambda q: " . ".join(triple_text(t, names) for t in q.template) or "none",
        "witness variables": lambda q: " ".join(f"?{name}" for name in q.kept) or "none",
    }
    for part, text in shown.items():
        if text(a) != text(b):
            found.append(f"{part}: {text(a)} in {sides[0]}, {text(b)} in {sides[1]}")
    return found


def _only(what: str, first: Counter | set, second: Counter | set, sides: tuple[str, str],
          text: Callable) -> list[str]:
    """``what only in SIDE: …`` for the items of one collection missing from the other."""
    found = []
    for side, mine, theirs in ((sides[0], first, second), (sides[1], second, first)):
        extra = mine - theirs
        if extra:
            items = sorted(extra.elements() if isinstance(extra, Counter) else extra, key=text)
            found.append(f"{what} only in {side}: {', '.join(map(text, items))}")
    return found


def _unfiltered(pattern):
    """``pattern`` without its filters (FILTER, OPTIONAL's condition): how it combines its
    triple patterns."""
    if isinstance(pattern, Filter):
        return _unfiltered(pattern.pattern)
    if isinstance(pattern, Optional):
        pattern = replace(pattern, condition=None)
    changes = {f.name: _unfiltered(getattr(pattern, f.name)) for f in fields(pattern)
               if isinstance(getattr(pattern, f.name), _PATTERNS)}
    return replace(pattern, **changes) if changes else pattern


def _triples(pattern) -> Iterator[TriplePattern]:
    """Every triple pattern of ``pattern``, those of ``EXISTS`` in its filters included."""
    if isinstance(pattern, BGP):
        yield from pattern.triples
    own = [pattern.condition] if isinstance(pattern, (Filter, Optional)) and pattern.condition else []
    for condition in own:
        for expr in subexpressions(condition):
            if isinstance(expr, Exists):
                yield from _triples(expr.pattern)
    for child in children(pattern):
        yield from _triples(child)
