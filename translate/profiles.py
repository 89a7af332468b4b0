"""Engine profiles: how a real RSP engine reports, as frozen data (SPEC section 12).

A profile fixes every operational parameter that decides what an engine outputs; the paper's two
idealized engines are two profiles among others. :mod:`translate.reports` compiles a profile and
a query into one LARS program; :mod:`translate.profilefile` reads user profiles from TOML.

| profile | translation | bounds | t0 | report policy | R2S | empty relation | answers | label | empty group |
|---|---|---|---|---|---|---|---|---|---|
| ``paper-pull`` | τ1(cs(Q)) | closed | 0 | periodic (``T % U = 0``) | Rstream | emitted | set | t | row |
| ``paper-push`` | τ2(cq(Q)) | closed | 0 | input (℘(P)) | Rstream | emitted | set | t | row |
| ``csparql`` | τ1(cs(Q)) | right-open | any | window close ∧ non-empty | Rstream | emitted | bag | c | row |
| ``sparqlstream`` | τ1(cs(Q)) | right-open | any | window close ∧ non-empty | Rstream | dropped | set | c | null |
| ``cqels`` | τ2(cq(Q)) | right-open | any | content change ∧ non-empty | Istream | dropped | set | τ | none |
| ``rsp4j`` | τ2 (WINDOW blocks) | right-open | 0 | window close | Rstream | emitted | set | c | row |
| ``yasper``, ``rdfox`` | τ2 (WINDOW blocks) | right-open | any | window close ∧ non-empty | Rstream | dropped | set | c | row |
| ``csparql2`` | τ2 (WINDOW blocks) | right-open | any | window close ∧ non-empty | Rstream (Q1: Istream) | dropped | set | c | row |

The last three are the engines of the 2023 CSRBench study, read ``by-time`` (:data:`RELATIONS`);
the constant :data:`STUDY_2023` below says where each of their parameters comes from, and
docs/profiles.md has the table.

*Empty group*: what aggregates without GROUP BY give over a window with no solution
(:mod:`translate.aggregates`): ``row`` — one row, ``COUNT``, ``SUM`` and ``AVG`` 0 (SPARQL 1.1;
C-SPARQL's recorded CSRBench Q4 has ``0`` for windows without a hot reading; RSP4J counts 0);
``null`` — one row, ``COUNT`` 0 and the others unbound (SPARQLstream's recorded Q4 has ``null``
there); ``none`` — no row (CQELS's recorded Q4 never has a row for such a window). The paper's
profiles follow SPARQL 1.1.

Sources of the facts: the CSRBench oracle's properties files (``csparql.properties``,
``cqels.properties``, ``sparqlstream.properties``: window close / non-empty content / content
change / empty-relation output / R2S) and its ``WindowOperator`` (windows ``[t0 + kβ, t0 + kβ + L)``,
no partial start-up window, t0 tried from 0 to L in steps of one time unit; content-change scope
``[max(t0, t0+aβ), τ+1)``, which the oracle labels ``τ + 1 s``; the CQELS answers CSRBench
recorded carry ``τ`` plus 40–250 ms of wall clock instead, so the profile's label is ``τ``
with 500 ms of jitter); RSP4J's ``CSPARQLStreamToRelationOp`` (an element at ``t`` belongs to
``[o, c)`` when ``o ≤ t < c``; windows open with negative ``o``) and ``OnWindowClose`` (a window is
reported when an element arrives with ``t > c``); C-SPARQL's bag answers and the time
labels as observed in CSRBench's recorded answers (C-SPARQL repeats rows in Q7).

>>> profile("cqels").r2s, sorted(profile("csparql").report)
('istream', ['non-empty', 'window-close'])
>>> profile("cqles")
Traceback (most recent call last):
...
lars.errors.InputError: error: unknown profile 'cqles' (did you mean 'cqels'?)
"""

from __future__ import annotations

import re

import difflib
from dataclasses import dataclass, field

from lars.errors import InputError

TRANSLATIONS = ("csparql", "cqels")
"""Which translation a profile runs: τ1(cs(Q)) (``csparql``) or τ2 of a cq(Q) variant (``cqels``)."""
BOUNDS = ("closed", "left-open", "right-open", "open")
"""Window bounds: ``[t-L, t]``, ``(t-L, t]``, ``[t-L, t)`` and ``(t-L, t)``; the last is the
scope without both boundary points, which ``lars check`` uses for jitter at window closes."""
REPORTS = ("periodic", "input", "window-close", "content-change", "non-empty")
"""Report policies (a profile's report policy is a conjunction of them): ``periodic`` — at
``t % U = 0`` (the paper's pull); ``input`` — at every time point with input (the paper's push);
``window-close`` — when a window instance closes; ``content-change`` — when an input item enters
the window (CQELS, as the CSRBench oracle models it); ``non-empty`` — only if the window holds input."""
TICKS = ("time", "tuple", "batch")
R2S = ("rstream", "istream", "dstream")
EMPTY = ("emit", "drop")
ANSWERS = ("set", "bag")
STARTUP = ("partial", "full")
"""``partial``: windows are clipped at the timeline's start (the paper) or opened with negative
``o`` (RSP4J); ``full``: no window before ``t0 + L`` (the CSRBench oracle)."""
PAPER_POLICIES = (frozenset({"periodic"}), frozenset({"input"}))
EMPTY_GROUP_READINGS = ("row", "null", "none")
"""Aggregates without GROUP BY over no solution (:mod:`translate.aggregates`)."""
RELATIONS = ("as-recorded", "by-time")
"""How ``lars check`` reads a recording: each relation as the engine wrote it, or the relations
whose labels fall in one tick merged (the 2023 oracle groups a recording's bindings by their
timestamps before comparing, ``StreamProcessorOutput.groupIt``; the study's wrappers write one
relation per binding)."""


@dataclass(frozen=True)
class Profile:
    """One engine's reporting behaviour.

    Attributes:
        name: the profile's name.
        translation: ``csparql`` (τ1(cs(Q))) or ``cqels`` (τ2 of a cq(Q) variant).
        bounds: window bounds: ``closed`` ``[t-L, t]``, ``left-open`` ``(t-L, t]``,
            ``right-open`` ``[t-L, t)``, ``open`` ``(t-L, t)`` (window-close policies only).
        t0: where windows start (``t0 + k·β``), in ticks; ``None``: any admissible t0, as
            CSRBench tries (``0 … L``).
        report: the report policy, a conjunction of :data:`REPORTS`.
        tick: what makes the engine evaluate: only ``time`` compiles to LARS.
        r2s: ``rstream``, ``istream`` or ``dstream``.
        empty: whether an evaluation with no answer is reported as an empty relation.
        answers: ``set`` or ``bag`` (duplicate rows).
        startup: ``partial`` or ``full`` start-up windows (:data:`STARTUP`).
        label_ms: the time label of a report minus its report time, in milliseconds (CQELS: 1000).
        jitter_ms: how far a recorded label may stray from the expected one (wall clock); under
            a window-close policy, a positive jitter also lets an input item stamped exactly at a
            window boundary fall on either side of it (the engine's timer races the arrival).
        empty_group: aggregates without GROUP BY over no solution: ``row``, ``null`` or ``none``
            (the table above).
        relations: how ``lars check`` reads recorded relations (:data:`RELATIONS`).
        r2s_by_query: ``(query name, r2s)`` pairs: the R2S operator the engine ran a query
            with, by the name it registers (RSP-QL ``REGISTER … <q1>``, C-SPARQL ``REGISTER
            QUERY q1``). It outranks both :attr:`r2s` and the query's own ``REGISTER RSTREAM``:
            it records how a benchmark ran that query (C-SPARQL 2.0's Q1 was run as Istream
            under a text saying RSTREAM). See :meth:`r2s_for`.
        description: one line for ``--help`` and reports.
    """

    name: str
    translation: str
    bounds: str
    t0: int | None
    report: frozenset[str]
    tick: str = "time"
    r2s: str = "rstream"
    empty: str = "emit"
    answers: str = "set"
    startup: str = "partial"
    label_ms: int = 0
    jitter_ms: int = 0
    empty_group: str = "row"
    relations: str = "as-recorded"
    r2s_by_query: tuple[tuple[str, str], ...] = ()
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        for value, allowed, what in ((self.translation, TRANSLATIONS, "translation"),
                                     (self.bounds, BOUNDS, "bounds"), (self.tick, TICKS, "tick"),
                                     (self.r2s, R2S, "r2s"), (self.empty, EMPTY, "empty"),
                                     (self.answers, ANSWERS, "answers"),
                                     (self.startup, STARTUP, "startup"),
                                     (self.empty_group, EMPTY_GROUP_READINGS, "empty-group"),
                                     (self.relations, RELATIONS, "relations"),
                                     *((r2s, R2S, f"r2s-by-query.{name}")
                                       for name, r2s in self.r2s_by_query)):
            if value not in allowed:
                raise InputError(f"profile {self.name}: {what} must be one of "
                                 f"{', '.join(allowed)}, not {value!r}")
        unknown = sorted(set(self.report) - set(REPORTS))
        if unknown or not self.report:
            raise InputError(f"profile {self.name}: report must be a non-empty list of "
                             f"{', '.join(REPORTS)}" + (f", not {unknown[0]!r}" if unknown else ""))
        if self.t0 is not None and self.t0 < 0:
            raise InputError(f"profile {self.name}: t0 must be at least 0, not {self.t0}")

    def r2s_for(self, name: str | None, declared: str | None = None) -> str:
        """The R2S operator this engine applies to the query registered as ``name`` that
        declares ``declared`` (``None``: none): the profile's entry for ``name``, or for its
        last segment (after the last ``/`` or ``#``: RSP-QL's ``REGISTER RSTREAM <q1>`` is
        resolved against the file's location, ``file:///…/q1``, and the entry is ``q1``),
        else the query's declaration, else :attr:`r2s`.

        >>> csparql2 = profile("csparql2")
        >>> csparql2.r2s_for("q1", "rstream"), csparql2.r2s_for("q2", None)
        ('istream', 'rstream')
        >>> csparql2.r2s_for("file:///data/queries/q1", "rstream"), csparql2.r2s_for("file:///q11")
        ('istream', 'rstream')
        """
        entry = self._r2s_entry(name)
        return entry[1] if entry is not None else declared or self.r2s

    def r2s_note(self, name: str | None, declared: str | None) -> str | None:
        """A note when this profile's entry for the query ``name`` overrides the R2S operator
        the query registers (``declared``), else ``None``: the output is then not the one the
        query's text asks for (the study's Q1 says RSTREAM; C-SPARQL 2.0 ran it as ISTREAM).

        >>> profile("csparql2").r2s_note("file:///q/q1", "rstream")
        'note: profile csparql2 runs the query registered as <file:///q/q1> with ISTREAM (its entry for q1), not the RSTREAM the query registers'
        >>> profile("csparql2").r2s_note("q2", "rstream") is None
        True
        """
        entry = self._r2s_entry(name)
        own = declared or "rstream"
        if entry is None or entry[1] == own:
            return None
        return (f"note: profile {self.name} runs the query registered as <{name}> with "
                f"{entry[1].upper()} (its entry for {entry[0]}), not the {own.upper()} the query "
                "registers")

    def _r2s_entry(self, name: str | None) -> tuple[str, str] | None:
        """``(key, r2s)``: the entry of :attr:`r2s_by_query` for ``name`` or its last segment."""
        table = dict(self.r2s_by_query)
        name = name or ""
        for key in (name, re.split(r"[/#]", name)[-1]):
            if key in table:
                return key, table[key]
        return None

    @property
    def paper(self) -> bool:
        """Whether this is one of the paper's execution modes (push ℘(P) or pull ℘(P,U))."""
        return self.report in PAPER_POLICIES

    @property
    def mode(self) -> str:
        """``pull`` or ``push`` for the paper's policies, ``engine`` otherwise."""
        if self.report == frozenset({"periodic"}):
            return "pull"
        if self.report == frozenset({"input"}):
            return "push"
        return "engine"

    @property
    def pulls(self) -> bool:
        """Whether the engine reports at window ends (periodic or window close): its reports
        delimit the pulling intervals of an agreement check."""
        return bool(self.report & {"periodic", "window-close"})


def _builtin(name: str, translation: str, bounds: str, t0: int | None, report: set[str],
             description: str, **options) -> Profile:
    return Profile(name, translation, bounds, t0, frozenset(report), description=description,
                   **options)


PROFILES: dict[str, Profile] = {p.name: p for p in (
    _builtin("paper-pull", "csparql", "closed", 0, {"periodic"},
             "the paper's C-SPARQL: ℘(τ1(cs(Q)), U), windows [t-L, t]"),
    _builtin("paper-push", "cqels", "closed", 0, {"input"},
             "the paper's CQELS: ℘(τ2(Q')), windows [t-L, t]"),
    _builtin("csparql", "csparql", "right-open", None, {"window-close", "non-empty"},
             "C-SPARQL 0.9 as CSRBench configures it", answers="bag", startup="full",
             jitter_ms=100),
    _builtin("sparqlstream", "csparql", "right-open", None, {"window-close", "non-empty"},
             "SPARQLstream 1.0.5 as CSRBench configures it", empty="drop", startup="full",
             jitter_ms=100, empty_group="null"),
    _builtin("cqels", "cqels", "right-open", None, {"content-change", "non-empty"},
             "CQELS (2011) as CSRBench configures it", r2s="istream", empty="drop",
             startup="full", jitter_ms=500, empty_group="none"),
    _builtin("rsp4j", "cqels", "right-open", 0, {"window-close"},
             "RSP-QL as RSP4J implements it (windows [o, o+L), o = k·β, k any integer)"),
    *(_builtin(name, "cqels", "right-open", None, {"window-close", "non-empty"}, description,
               empty="drop", startup="full", relations="by-time", r2s_by_query=by_query)
      for name, description, by_query in (
          ("yasper", "YASPER (RSP4J) as the 2023 CSRBench study configures it", ()),
          ("csparql2", "C-SPARQL 2.0 as the 2023 CSRBench study configures it (Q1 Istream)",
           (("q1", "istream"),)),
          ("rdfox", "RDFox as the 2023 CSRBench study configures it", ()))),
)}
STUDY_2023 = ("yasper", "csparql2", "rdfox")
"""The 2023 study's three engines (``yasper``, ``csparql2``, ``rdfox``) share every parameter
but one, each read from the study's oracle (repository
Comparative-Research-in-StreamReasoning/CSRBench-CSPARQL-RDFox-CSPARQL2.0-YASPER, commit
dd12632; docs/profiles.md has the table):

* report ``window-close ∧ non-empty``, empty relations dropped: ``system.policy.windowclose =
  true``, ``nonemptycontent = true``, ``contentchange = false``, ``system.output.emptyrelation =
  false`` in each of ``yasper.properties``, ``csparql2.properties``, ``rdfox.properties``;
* windows ``[t0 + kβ, t0 + kβ + L)``, no start-up window before ``t0 + L`` (``right-open``,
  ``startup = full``), any t0 from 0 to L (``t0 = None``): the oracle's ``WindowOperator`` and
  its t0 loop in ``Oracle.main`` (``firstt0`` to ``firstt0 + size`` in ``srbench-queries.properties``);
* R2S Rstream except C-SPARQL 2.0's Q1, Istream: ``srb.queryN.output`` in the properties files
  (the RSP-QL texts all say ``REGISTER RSTREAM``; the settings decide, as for the oracle);
* relations ``by-time``: ``StreamProcessorOutput.contains`` groups both sides' bindings by
  timestamp (``groupIt``) before comparing; the engines' wrappers write one relation per binding;
* set answers: the oracle's relations are ``HashSet`` s of bindings;
* the τ2 translation of the RSP-QL ``WINDOW`` blocks, as for ``rsp4j``;
* empty group ``row``: the oracle (Sesame) gives one row for ``AVG`` over a window without a
  hot reading (``outputCSPARQL2.html``, Q4: a row at every window close from 4000 ms).
"""


def profile(name: str) -> Profile:
    """The built-in profile called ``name``; an :class:`InputError` with a suggestion otherwise."""
    if name in PROFILES:
        return PROFILES[name]
    close = difflib.get_close_matches(name, list(PROFILES), n=1)
    suggestion = f" (did you mean '{close[0]}'?)" if close else ""
    raise InputError(f"unknown profile '{name}'{suggestion}",
                     hint=None if close else "use one of " + ", ".join(PROFILES) + " or a .toml file")
