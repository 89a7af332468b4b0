"""``lars witness``: the smallest stream on which two engines disagree (SPEC section 13).

:func:`agreement.facade.search_witness` reads the query and static data, :func:`find_witness`
builds the two sides
from engine profiles, the vocabulary (:mod:`agreement.witness.vocabulary`) and the search program
(:mod:`agreement.witness.search`), solves it and re-checks the stream found with ``lars agree``'s
own check (:func:`agreement.agree.modes.check_query`), which also explains it.

Profiles plug in through :data:`PROFILES`: each makes a :class:`~agreement.witness.search.Side`,
a LARS program with its answer predicate and role. Today there are the paper's two
(``paper-pull``: ℘(τ1(cs(Q)), U), ``paper-push``: ℘(τ2(Q')) for a variant ``Q'`` of cq(Q)).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from agreement.agree.modes import check_query
from agreement.compare import IntervalVerdict
from agreement.agree.report import AgreementReport
from agreement.witness.child import Watch
from agreement.witness.vocabulary import Vocabulary, build_vocabulary
from agreement.optiondefaults import PAPER_PAIR
from ingest.eager import query_data
from ingest.rdffiles import StreamTriple
from agreement.witness.search import (
    Bounds, Found, Progress, Side, check_sides, deepen, last_pull, search_program, stop_reason,
)
from lars.errors import InputError, LimitError, Position
from lars.streams import Timeline
from translate.api import translate
from translate.rdf import stream_atom
from translate.rsp import RspQuery


@dataclass
class SearchResult:
    """What a search found: the stream (or ``None``), the bounds, notes on the sides."""

    found: Found | None
    bounds: Bounds
    vocabulary: Vocabulary
    candidates: int
    notes: list[str] = field(default_factory=list)


# --- the paper's two profiles -------------------------------------------------------------------

def paper_pull(query: RspQuery, csparql: RspQuery | None, period: int, variant: str,
               window_bounds: str) -> Side:
    """C-SPARQL as the paper reads it: ℘(τ1(cs(Q)), U), answers at the multiples of ``U``."""
    return Side("paper-pull", "C-SPARQL", translate(csparql or query, "csparql", mode="pull",
                                                    period_ticks=period, window_bounds=window_bounds),
                "pull")


def paper_push(query: RspQuery, csparql: RspQuery | None, period: int, variant: str,
               window_bounds: str) -> Side:
    """CQELS as the paper reads it: ℘(τ2(Q')) for the variant ``Q'`` of cq(Q), at every input."""
    return Side("paper-push", "CQELS", translate(query, "cqels", variant=variant, mode="push",
                                                 window_bounds=window_bounds), "push")


PROFILES: dict[str, Callable[..., Side]] = {"paper-pull": paper_pull, "paper-push": paper_push}
"""Profile name → a function making its :class:`Side`; the engine profiles of SPEC section 12
plug in here, each supplying its LARS program and role."""


def profile_pair(names: Sequence[str]) -> tuple[str, str]:
    """The two profile names in the order the agreement check reads them (the pulling side
    first); today the paper's pair, which :func:`check_query` re-checks. (``csparql`` and
    ``cqels`` name the engines' own profiles of SPEC section 12, not the paper's.)"""
    resolved = [name.strip() for name in names]
    unknown = [name for name in resolved if name not in PROFILES]
    if unknown:
        raise InputError(f"unknown profile '{unknown[0]}'",
                         hint="use " + " and ".join(PROFILES))
    if sorted(resolved) != sorted(PAPER_PAIR):
        raise InputError("lars witness compares paper-pull with paper-push",
                         hint="give --profiles paper-pull,paper-push")
    return PAPER_PAIR


# --- the search, end to end ---------------------------------------------------------------------

@dataclass
class Witness:
    """A stream on which the sides disagree, as RDF, and the agreement report on it."""

    elements: list[StreamTriple]
    found: Found
    report: AgreementReport

    @property
    def verdict(self) -> IntervalVerdict:
        """The first interval on which the sides disagree."""
        return self.report.disagreeing[0]

    @property
    def last(self) -> int:
        return max((e.time for e in self.elements), default=0)

    def rests_on_start(self, bounds: Bounds) -> bool:
        """Whether every triple arrives at 0, the timeline's start, with later time points
        searchable: CQELS's answers at 0 fall in no pulling interval ``(i·U, (i+1)·U]``, so such a
        witness exists for almost every query whose C-SPARQL window reaches back to 0, and the
        next one (``--earliest 1``) is usually the one worth reading (docs/witness.md)."""
        return (bool(self.elements) and self.last == 0 and bounds.earliest == 0
                and bounds.horizon > 0)


def vocabulary_steps(fresh: int) -> list[int]:
    """The fresh IRIs of each step of the vocabulary's growth: none first (the query's and the
    static data's constants: a small grounding, so a witness that needs no new IRI is found in
    the time a small search takes), then all ``fresh`` (the whole space: only its search rules
    sizes out, so only it can say "none" or prove a witness minimal)."""
    return [0, fresh] if fresh > 0 else [0]


def minimal_without_growth(found: Found, bounds: Bounds) -> bool:
    """Whether a witness minimal over the first step's vocabulary is minimal over every larger
    one: the empty stream, or one triple at the earliest time point (the empty stream, the only
    smaller one, is the same stream in every vocabulary, and no triple can come earlier)."""
    return found.optimal and (not found.stream or (len(found.stream) == 1
                                                    and found.last == bounds.earliest))


@dataclass
class Search:
    """One witness search, its vocabulary grown step by step (:func:`find_witness`)."""

    query: RspQuery
    graphs: dict
    period: int
    bounds: Bounds
    csparql: RspQuery | None
    variant: str
    window_bounds: str
    sides: list[Side]
    on_progress: Progress | None
    watch: Watch | None
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.notes = check_sides(self.sides)
        self.data = query_data([side.translation for side in self.sides], [], self.graphs, Timeline(0, 0))

    def space(self, fresh: int) -> tuple[Vocabulary, list, str]:
        """The vocabulary with ``fresh`` new IRIs, its candidate atoms and the search program
        (refused past ``--max-ground`` before anything is ground)."""
        bounds = self.bounds
        queries = [self.query] + ([self.csparql] if self.csparql is not None else [])
        vocabulary = build_vocabulary(queries, self.graphs, fresh, self.data.encoder,
                                      bounds.own_streams, bounds.max_ground)
        candidates = [stream_atom(triple, stream, self.data.encoder)
                      for triple, stream in vocabulary.candidates]
        return vocabulary, candidates, search_program(self.sides, candidates, self.data.background,
                                                      self.period, bounds, self.query.unit_ms)

    def step(self, space: tuple[Vocabulary, list, str], whole: bool) -> tuple[SearchResult, Found | None]:
        """The deepening over one step's ``space`` (:meth:`space`)."""
        vocabulary, candidates, program = space
        index = {atom: i for i, atom in enumerate(candidates)}
        found = deepen(program, self.bounds, last_pull(self.period, self.bounds), self.on_progress,
                       order=index.__getitem__, time_limit=self.bounds.time_limit, watch=self.watch,
                       started=self.started, whole=whole)
        return SearchResult(found, self.bounds, vocabulary, len(candidates), self.notes), found

    def recheck(self, found: Found) -> Witness:
        """The stream found as RDF, re-checked with ``lars agree``'s own check."""
        if self.watch is not None:
            self.watch.stage("checking")
        encoder = self.data.encoder
        elements = [StreamTriple(t, encoder.decode(atom.args[3]),
                                 tuple(encoder.decode(c) for c in atom.args[:3]),
                                 Position("witness", line)) for line, (atom, t) in enumerate(found.stream, 1)]
        report = check_query(self.query, elements, self.graphs, self.period, self.variant,
                             self.window_bounds, Timeline(0, self.bounds.horizon), self.csparql)
        checked = [v.end for v in report.disagreeing]
        if checked != found.differ:
            raise AssertionError(f"the search found disagreements at {found.differ}, lars agree at {checked}")
        return Witness(elements, found, report)

    def stopping(self) -> bool:
        return stop_reason(self.started, self.bounds.time_limit, self.watch) is not None


def find_witness(query: RspQuery, graphs: dict, period: int, bounds: Bounds,
                 csparql: RspQuery | None = None, variant: str = "brave",
                 window_bounds: str = "closed", profiles: Sequence[str] = PAPER_PAIR,
                 on_progress: Progress | None = None,
                 watch: Watch | None = None) -> tuple[SearchResult, Witness | None]:
    """Search a witness for ``query`` (CQELS syntax; both sides come from it unless ``csparql``
    is given) and re-check the one found with ``lars agree``'s own check (:func:`check_query`);
    ``watch``: a search run from a parent process (:mod:`agreement.witness.child`).

    The vocabulary grows (:func:`vocabulary_steps`): a witness over the first step is kept,
    re-checked, as the best so far (and offered to the ``watch``'s parent, which shows it if the
    search is stopped later); the whole space is then searched unless that witness is minimal
    everywhere (:func:`minimal_without_growth`). "None" and "minimal" come from the whole
    space only.
    """
    names = profile_pair(profiles)
    search = Search(query, graphs, period, bounds, csparql, variant, window_bounds,
                    [PROFILES[name](query, csparql, period, variant, window_bounds) for name in names],
                    on_progress, watch)
    steps = vocabulary_steps(bounds.fresh)
    whole = search.space(bounds.fresh)  # the whole space is refused past --max-ground first
    best: tuple[SearchResult, Witness] | None = None
    for fresh in steps:
        if best is not None and search.stopping():
            return best
        try:
            result, found = search.step(whole if fresh == bounds.fresh else search.space(fresh),
                                        fresh == bounds.fresh)
        except (LimitError, KeyboardInterrupt) as stopped:  # in this step, before any witness
            if best is None or type(stopped) not in (LimitError, KeyboardInterrupt):
                raise  # SIGTERM and SIGHUP are subclasses of KeyboardInterrupt: they end it
            return best
        if found is None:
            if fresh == bounds.fresh:
                return best or (result, None)
            continue
        witness = search.recheck(found)
        if fresh == bounds.fresh or minimal_without_growth(found, bounds) or found.interrupted:
            return result, witness
        best = result, Witness(witness.elements, replace(found, optimal=False, interrupted=True),
                               witness.report)
        if watch is not None and watch.found is not None:
            watch.found(*best)
    raise AssertionError("the last step searches the whole space")
