"""τ1 (C-SPARQL, strategy T1) and τ2 (CQELS, strategy T2) (SPEC section 5, paper section 4.3).

* τ1 merges the stream triples into the default graph: one import rule per ``(s, ω) ∈ S``,
  ``triple(S, P, O, default) ← τ(ω) ◇ striple(S, P, O, s)``, and τ for the rest. (SPEC writes
  the import target as a separate graph ``S`` matched by a second base rule per triple pattern;
  importing into ``default`` itself gives the same matches with one rule per BGP.)
* τ2 reads ``STREAM s ω g`` with one rule whose body has one window atom per triple pattern:
  ``ans_i(V̄, D, S) ← ⋀_{(S,P,O) ∈ g} τ(ω) ◇ striple(S, P, O, s)``.
* τ itself (plain SPARQL) is τ1 without streams.

>>> from translate.rsp import RspQuery, BGP, StreamSpec, RangeWindow, Var
>>> from rdflib import URIRef
>>> q = RspQuery((), BGP(), streams=(StreamSpec(URIRef("http://ex.org/s1"), RangeWindow(30)),))
>>> result = tau1(q)
>>> result.comments[-1]
'import stream <http://ex.org/s1> [RANGE 30] into the default graph'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from lars.atoms import Atom
from lars.rules import Literal, Program, Rule
from lars.terms import Variable
from translate.names import answer_predicate
from translate.rdf import DEFAULT_GRAPH, STRIPLE, TRIPLE, RdfTermEncoder
from translate.rsp import RspQuery, RspWindow, StreamPattern
from translate.sparqltext import Names, term_text, window_text
from translate.tau import Shape, Tau
from translate.rspwindows import check_reading, window_literals


WindowReader = Callable[[RspWindow, Sequence[Atom]], tuple[Literal, ...]]
"""Body literals saying that each atom holds in a window: τ(ω) under a boundary reading
(:func:`translate.rspwindows.window_literals`), or an engine profile's scope
(:mod:`translate.reports`)."""


def _reader(reading: str, literals: WindowReader | None) -> WindowReader:
    check_reading(reading)
    return literals or partial(window_literals, reading=reading)


@dataclass(frozen=True)
class TauResult:
    """The rules of a translation, a comment per rule and the answer predicate's shape."""

    program: Program
    comments: tuple[str, ...]
    answer: Shape

    @property
    def answer_predicate(self) -> str:
        return answer_predicate(self.answer.index)


def _run(query: RspQuery, encoder: RdfTermEncoder | None, stream_body,
         empty_group: str = "row") -> tuple[Tau, Shape]:
    tau = Tau(encoder or RdfTermEncoder(), stream_body, Names(query.prefixes), empty_group)
    shape = tau.translate(query.pattern, answer_variables(query))
    return tau, shape


def answer_arguments(query: RspQuery) -> tuple[str, ...]:
    """The variables of the ``ans_1`` atom's arguments, in their order (sorted): the SELECT
    variables and those ORDER BY or the multiset witnesses keep (:func:`answer_variables`).
    Every reader of the answer atoms must name them so: naming the SELECT variables alone
    misses every atom of a query with ORDER BY on a variable it does not select."""
    return tuple(sorted(set(answer_variables(query))))


def answer_variables(query: RspQuery) -> list[str]:
    """The variables of ``ans_1``: the SELECT variables, and those ORDER BY reads that the query
    does not select (ORDER BY comes before the projection; the rows are projected after it)."""
    selected = [v.name for v in query.variables]
    extra = [k.variable.name for k in query.order] + list(query.kept)
    return selected + [name for name in dict.fromkeys(extra) if name not in selected]


def _result(tau: Tau, shape: Shape) -> TauResult:
    return TauResult(Program(tuple(tau.rules)), tuple(tau.comments), shape)


def tau(query: RspQuery, encoder: RdfTermEncoder | None = None,
        empty_group: str = "row") -> TauResult:
    """τ(Q) for a plain SPARQL query (``S`` is ignored; STREAM patterns are refused).
    ``empty_group``: see :class:`translate.tau.Tau`."""
    return _result(*_run(query, encoder, None, empty_group))


def import_rules(query: RspQuery, encoder: RdfTermEncoder, reading: str = "closed",
                 literals: WindowReader | None = None) -> list[tuple[Rule, str]]:
    """τ'(S): one rule per distinct ``(s, ω)`` importing the window into the default graph
    (``literals``, if given, reads the window instead of τ(ω) under ``reading``)."""
    read = _reader(reading, literals)
    s, p, o = Variable("S"), Variable("P"), Variable("O")
    rules, seen = [], set()
    for spec in query.streams:
        if (spec.stream, spec.window) in seen:
            continue
        seen.add((spec.stream, spec.window))
        source = Atom(STRIPLE, (s, p, o, encoder.encode(spec.stream)))
        rule = Rule(Atom(TRIPLE, (s, p, o, DEFAULT_GRAPH)),
                    read(spec.window, [source]))
        names = Names(query.prefixes)
        rules.append((rule, f"import stream {term_text(spec.stream, names)} "
                            f"{window_text(spec.window)} into the default graph"))
    return rules


def tau1(query: RspQuery, encoder: RdfTermEncoder | None = None,
         reading: str = "closed", literals: WindowReader | None = None,
         empty_group: str = "row") -> TauResult:
    """τ1(Q) = τ(Q) ∪ τ'(S); apply it to ``cs(Q)``."""
    check_reading(reading)
    runner, shape = _run(query, encoder, None, empty_group)
    for rule, comment in import_rules(query, runner.encoder, reading, literals):
        runner.add(rule, comment)
    return _result(runner, shape)


def tau2(query: RspQuery, encoder: RdfTermEncoder | None = None,
         reading: str = "closed", literals: WindowReader | None = None,
         empty_group: str = "row") -> TauResult:
    """τ2(Q): τ with STREAM patterns read through their windows; apply it to a ``cq(Q)`` query."""
    read = _reader(reading, literals)

    def stream_body(pattern: StreamPattern, atoms: list[Atom]) -> tuple[Literal, ...]:
        return read(pattern.window, atoms)
    return _result(*_run(query, encoder, stream_body, empty_group))
