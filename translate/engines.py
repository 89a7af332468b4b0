"""The engine profiles, as data (STYLE: front ends as data).

| engine | reader | translation | execution mode | variants |
|---|---|---|---|---|
| ``csparql`` | :func:`~translate.csparql.read_csparql` | τ1(cs(Q)) | pull | — |
| ``cqels`` | :func:`~translate.cqels.read_cqels` | τ2(Q') for Q' ∈ cq(Q) | push | brave … cautious |
| ``rspql`` | :func:`~translate.rspql.read_rspql` | τ2(Q') for Q' ∈ cq(Q) | push | brave … cautious |
| ``sparql`` | :func:`~translate.cqels.read_cqels` (no STREAM) | τ(Q) | none | — |

>>> guess_engine("REGISTER QUERY q AS SELECT * WHERE { ?s ?p ?o }")
'csparql'
>>> guess_engine("SELECT * WHERE { STREAM <http://s> [NOW] { ?s ?p ?o } }")
'cqels'
>>> guess_engine("REGISTER RSTREAM <o> AS SELECT * FROM NAMED WINDOW <w> ON <s> [RANGE PT1S] WHERE {}")
'rspql'
>>> engine("cqles")
Traceback (most recent call last):
...
lars.errors.InputError: error: unknown engine 'cqles' (did you mean 'cqels'?)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from lars.errors import InputError
from translate.cqels import read_cqels
from translate.csparql import read_csparql
from translate.rsp import RspQuery
from translate.rspql import read_rspql
from translate.scanner import tokenize
from translate.streamrules import TauResult, tau, tau1, tau2
from translate.variants import cq_variant, cs


def _no_variant(query: RspQuery, variant: str) -> RspQuery:
    return query


def _cq(query: RspQuery, variant: str) -> RspQuery:
    return cq_variant(query, variant)


def _cs(query: RspQuery, variant: str) -> RspQuery:
    return cs(query)


def _tau(query: RspQuery, reading: str, empty_group: str = "row") -> TauResult:
    return tau(query, empty_group=empty_group)


def _tau1(query: RspQuery, reading: str, empty_group: str = "row") -> TauResult:
    return tau1(query, reading=reading, empty_group=empty_group)


def _tau2(query: RspQuery, reading: str, empty_group: str = "row") -> TauResult:
    return tau2(query, reading=reading, empty_group=empty_group)


@dataclass(frozen=True)
class Engine:
    """An engine profile: how to read its syntax, which query of ``Q`` it runs (``prepare``:
    ``cs(Q)`` or a ``cq(Q)`` variant), how to translate it, its execution mode."""

    name: str
    read: Callable[..., RspQuery]
    prepare: Callable[[RspQuery, str], RspQuery]
    strategy: Callable[[RspQuery, str], TauResult]
    mode: str
    translation: str


ENGINES = {
    "csparql": Engine("csparql", read_csparql, _cs, _tau1, "pull", "τ1(cs(Q))"),
    "cqels": Engine("cqels", read_cqels, _cq, _tau2, "push", "τ2(cq(Q))"),
    "rspql": Engine("rspql", read_rspql, _cq, _tau2, "push", "τ2(cq(Q))"),
    "sparql": Engine("sparql", partial(read_cqels, engine="sparql"), _no_variant, _tau, "none",
                     "τ(Q)"),
}


def engine(name: str) -> Engine:
    """The profile called ``name``; an :class:`InputError` with a suggestion otherwise."""
    if name in ENGINES:
        return ENGINES[name]
    close = difflib.get_close_matches(name, list(ENGINES), n=1)
    suggestion = f" (did you mean '{close[0]}'?)" if close else ""
    raise InputError(f"unknown engine '{name}'{suggestion}",
                     hint=None if close else "use one of " + ", ".join(ENGINES))


def guess_engine(text: str) -> str:
    """``rspql`` for REGISTER RSTREAM|ISTREAM|DSTREAM or FROM NAMED WINDOW, ``csparql`` for
    REGISTER or FROM STREAM, ``cqels`` for STREAM <iri>, else ``sparql``."""
    tokens = tokenize(text)
    for k, token in enumerate(tokens):
        after = tokens[k + 1: k + 3]
        if token.is_keyword("REGISTER"):
            rspql = after and after[0].is_keyword("RSTREAM", "ISTREAM", "DSTREAM")
            return "rspql" if rspql else "csparql"
        if token.is_keyword("FROM") and len(after) == 2 and after[0].is_keyword("NAMED") \
                and after[1].is_keyword("WINDOW"):
            return "rspql"
        if token.is_keyword("FROM") and any(t.is_keyword("STREAM") for t in after):
            return "csparql"
        if token.is_keyword("STREAM") and after and after[0].kind in ("iri", "pname"):
            previous = tokens[k - 1] if k else None
            if previous is None or not previous.is_keyword("FROM", "NAMED"):
                return "cqels"
    return "sparql"
