"""Is a recorded answer stream correct for a query, a stream and an engine profile? (``lars check``)

The expected relations come from the profile's LARS program (:mod:`agreement.check.expected`). The
recorded relations, in file order, must be a contiguous run of the expected ones for some
admissible t0 (the alignment of CSRBench's oracle, ``StreamProcessorOutput.contains`` in
``dellaglio/csrbench-oracle``), each relation compared as a set of bindings under one of three
comparisons (:data:`COMPARISONS`, ``lars check --compare``):

* ``bindings`` (the default) compares whole bindings: IRIs, strings and group keys as RDF terms,
  numeric literals by value as doubles (:func:`agreement.check.expected.binding_key`); time labels are not
  compared (the alignment places each relation), and the boundary tolerance below applies;
* ``csrbench`` tells bindings apart as the oracle does (:func:`agreement.check.expected.oracle_key`:
  once a binding has a numeric value, only its numeric values count — so ``(sensor A, 45)``
  passes for ``(sensor B, 45)``, and two groups' averages swapped pass); the published CSRBench
  verdicts are those of this reading. When the default rejects a recording this reading accepts,
  the mismatch names the recorded bindings the oracle's reading let through (``let_through``);
* ``strict`` (``--strict``): below.

Jitter at window closes: under a window-close policy with a positive jitter, an input item
stamped exactly at a window boundary may fall on either side of it (the engine's timer races
the arrival: C-SPARQL's recorded Q3 puts the item at 20 s in the window closing at 20 s, the one
at 28 s in the window closing at 32 s). A recorded relation then passes if it lies between the
relations computed with both boundaries open and both closed. This is exact for monotone
queries (BGP, FILTER, UNION); each boundary item is not forced into exactly one window. For a
query whose answers do not grow with its windows (an aggregate, OPTIONAL, NOT EXISTS, Istream:
:func:`translate.monotone.grows_with_windows`) the relations with the boundaries open and closed
bound nothing; a recorded relation passes there only if it is one of them. A relation that
passes only by this tolerance must be labelled at its own time (within the jitter), even when
labels are otherwise not compared: else each relation, read against another window, could take
a boundary item in or leave it out on its own, and a run missing a relation would pass shifted.

* ``strict`` compares whole bindings (as ``bindings``, no boundary tolerance), the time labels
  (within the profile's jitter: expected label = report time × unit + the profile's label
  offset) and duplicates: none for profiles with set answers; for bag profiles (Rstream, no
  DISTINCT) each row as many times as SPARQL's bag semantics gives it (:mod:`agreement.check.bags`).
* ``merge_same_time`` first merges consecutive recorded relations whose labels fall in the same
  tick (CQELS reports one relation per binding).

When the recording is incorrect, :class:`Judgement` explains it by time: for the t0 whose run
agrees with the recording at the most time points (each recorded relation read against the
expected relation at its tick, label offset taken off), the first recorded relation that
differs: the expected and recorded relations, the bindings missing and extra, the window scope
and the stream triples behind those bindings; and which single change of the profile would
accept the recording.
"""

from __future__ import annotations

import os
import time

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from rdflib import URIRef

from agreement.compare import Row
from agreement.check.expected import (ExpectedRun, Report, Sides, admissible_t0, binding_key, oracle_key,
                                      row_key)
from agreement.recorded import RecordedRelation, RecordedStream, reorder
from ingest.rdffiles import StreamTriple
from lars.errors import InputError, LarsError, UnsupportedError
from translate.profiles import BOUNDS, EMPTY, EMPTY_GROUP_READINGS, R2S, STARTUP, Profile
from translate.rsp import Group, Pattern, RangeWindow, RspQuery
from translate.scope import children

COMPARISONS = ("bindings", "csrbench", "strict")
"""How recorded bindings are compared with expected ones (see the module doc); the first is the
default."""

LOOSER = {"strict": ("bindings", "csrbench"), "bindings": ("csrbench",), "csrbench": ()}
"""The comparisons that accept more than each one, tried in order when a recording fails."""

LOOSER_TEXT = {"bindings": "the default comparison of whole bindings (without --strict)",
               "csrbench": "CSRBench's comparison, which tells bindings apart by their numeric "
                           "values alone (--compare csrbench)"}

RunSource = Callable[[Profile, Sequence[int]], Iterable[ExpectedRun]]
"""``(profile, t0s) → expected runs``, computed lazily (one LARS run each)."""


@dataclass(frozen=True)
class Mismatch:
    """The first relation where the best alignment of recorded and expected relations fails.

    Attributes:
        index: the recorded relation's number (0-based, after merging).
        reason: ``rows``, ``label``, ``duplicates``, ``unexpected`` (no relation expected at
            that tick) or ``skipped`` (an expected relation between two recorded ones is missing;
            ``expected`` is it and ``index`` the recorded relation after it).
        t0, expected, recorded: the alignment's t0 and the two relations.
        missing, extra: rows expected but not recorded, and recorded but not expected.
        scope: the window scope of the expected report, ``(first, last)`` time points.
        content: stream triples behind the missing and extra rows: ``(time, triple text)``.
        let_through: ``(recorded, expected)`` pairs of an extra and a missing row that CSRBench's
            reading takes for the same binding (their numeric values agree): what
            ``--compare csrbench`` would let through here.
        by_position: the recorded relations were read against the expected ones in order from
            one expected relation on (labels not compared, as the verdict reads them), since
            that explains more of the recording than reading each against its tick.
    """

    index: int
    reason: str
    t0: int
    expected: Report | None
    recorded: RecordedRelation
    missing: tuple[Row, ...] = ()
    extra: tuple[Row, ...] = ()
    scope: tuple[int, int] | None = None
    content: tuple[tuple[int, str], ...] = ()
    let_through: tuple[tuple[Row, Row], ...] = ()
    by_position: bool = False


@dataclass
class Judgement:
    """The verdict of ``lars check``.

    Attributes:
        correct: whether the recording passes.
        t0, start: the alignment that passed (t0 and the index of the first matched expected
            relation); when incorrect, the t0 of the explanation.
        expected: the expected relations of the passing run.
        recorded: the recorded relations as compared (merged if asked).
        accepted_with: single profile changes under which the recording passes.
        all_tried: whether every such change was tried (not cut by the time budget,
            :func:`suggestion_seconds`).
        runs: the expected runs tried, by t0.
        notes: what reading the stream noted (e.g. triples read after ``--to``, not evaluated).
        comparison: one of :data:`COMPARISONS`.
    """

    profile: Profile
    comparison: str
    merged: bool
    correct: bool
    t0: int | None
    start: int | None
    expected: tuple[Report, ...]
    recorded: tuple[RecordedRelation, ...]
    mismatch: Mismatch | None = None
    accepted_with: list[str] = field(default_factory=list)
    all_tried: bool = True
    unit_ms: int = 1000
    variables: tuple[str, ...] = ()
    runs: dict[int, ExpectedRun] = field(default_factory=dict, repr=False)
    notes: tuple[str, ...] = ()

    @property
    def strict(self) -> bool:
        return self.comparison == "strict"


def merge_same_time(relations: Sequence[RecordedRelation], profile: Profile,
                    unit_ms: int) -> tuple[RecordedRelation, ...]:
    """Consecutive relations whose labels fall in one tick, merged (rows concatenated)."""
    merged: list[RecordedRelation] = []
    for relation in relations:
        tick = (relation.timestamp - profile.label_ms) // unit_ms
        if merged and (merged[-1].timestamp - profile.label_ms) // unit_ms == tick:
            merged[-1] = RecordedRelation(merged[-1].timestamp, merged[-1].rows + relation.rows)
        else:
            merged.append(relation)
    return tuple(merged)


KEYS = {"bindings": binding_key, "csrbench": oracle_key, "strict": row_key}
"""How each comparison tells bindings apart (:mod:`agreement.check.expected`)."""


def _keys(rows: Iterable[Row], comparison: str) -> dict[Row, Row]:
    key = KEYS[comparison]
    return {key(row): row for row in rows}


def _bounds(expected: Report, comparison: str) -> tuple[frozenset[Row], frozenset[Row]]:
    """The least and the most a recorded relation may hold for ``expected``: the relation itself,
    or (not strict, :func:`~agreement.check.expected.boundary_tolerant` profiles) anything
    between the relations without and with the items at the window's boundaries."""
    if comparison == "strict" or expected.lower is None or expected.upper is None:
        return expected.rows, expected.rows
    return expected.lower, expected.upper


def differences(expected: Report | None, recorded: RecordedRelation, comparison: str
                ) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """The rows missing from ``recorded`` and the rows it has in excess."""
    low, high = _bounds(expected, comparison) if expected else (frozenset(), frozenset())
    want, allowed = _keys(low, comparison), _keys(high, comparison)
    got = _keys(recorded.rows, comparison)
    return (tuple(sorted((want[k] for k in want.keys() - got.keys()), key=str)),
            tuple(sorted((got[k] for k in got.keys() - allowed.keys()), key=str)))


def _tolerated(expected: Report, recorded: RecordedRelation, comparison: str) -> bool:
    """Whether ``recorded`` passes for ``expected`` only by the boundary tolerance (it is not the
    exact relation)."""
    if expected.lower is None and not expected.choices:
        return False
    return _keys(recorded.rows, comparison).keys() != _keys(expected.rows, comparison).keys()


def _at_its_time(expected: Report, recorded: RecordedRelation, profile: Profile,
                 unit_ms: int) -> bool:
    """Whether ``recorded``'s time label is ``expected``'s within the profile's jitter. The
    boundary tolerance models an item and a window close racing in time, so a relation may use
    it only at its own time: read against another window, one slide away, the tolerance would
    let each relation take a boundary item in or leave it out on its own, and a run with a
    relation missing could pass shifted by one slide (found by a newcomer: the relation at 30 s
    removed from a csparql recording of a stream with items on the slide's multiples was CORRECT)."""
    return abs(recorded.timestamp - (expected.time * unit_ms + profile.label_ms)) <= profile.jitter_ms


def _one_of(choices: Sequence[frozenset[Row]], recorded: RecordedRelation, comparison: str) -> bool:
    """Whether ``recorded`` is one of the relations an engine may report instead of the exact
    one (:attr:`~agreement.check.expected.Report.choices`; not ``strict``)."""
    got = _keys(recorded.rows, comparison).keys()
    return comparison != "strict" and any(_keys(choice, comparison).keys() == got
                                          for choice in choices)


MAX_SIDE_STATES = 1 << 12
"""The most ways of placing the boundary items still open that :func:`boundary_conflict` keeps;
a recording needing more is refused (exit 2), neither accepted nor rejected."""


def _side_options(expected: Report, recorded: RecordedRelation, comparison: str) -> list[Sides] | None:
    """The :data:`~agreement.check.expected.Sides` under which ``expected``'s evaluation gives
    ``recorded`` (the exact relation's, each choice's it equals); ``None`` when the report
    models no boundary items (nothing to keep consistent)."""
    if not expected.sides or comparison == "strict":
        return None
    got = _keys(recorded.rows, comparison).keys()
    options = zip((expected.rows, *expected.choices), (expected.sides, *expected.choice_sides))
    return [sides for rows, sides in options if _keys(rows, comparison).keys() == got]


Placements = list[dict]
"""The ways of placing the boundary items met so far that every relation read allows, each a
map ``(stream, time) → early`` (:data:`~agreement.check.expected.Sides`)."""


def placed(placements: Placements, expected: Report, recorded: RecordedRelation,
           comparison: str) -> Placements | None:
    """``placements`` narrowed to those under which ``expected``'s evaluation gives ``recorded``
    (``None``: none is left), forgetting the items no later window reads.

    An item stamped exactly at a window boundary may fall on either side of it (the engine's
    timer races its arrival), but on one side for every window: early, it is in the window
    closing at its time and not in the one starting there; late, the other way round. For a
    query that does not grow with its windows each relation is accepted as the exact relation
    or as one of the two with the boundary items all out or all in (``choices``); read one by
    one, the relation at 12 could leave out the item at 6 that the relation at 6 had left out
    too (a newcomer's COUNT over OPTIONAL lost a group so and was CORRECT), so the placements
    each relation allows are intersected, in time order.

    Raises:
        UnsupportedError: more than :data:`MAX_SIDE_STATES` placements stay open.
    """
    options = _side_options(expected, recorded, comparison)
    if options is None:
        return placements
    reach = max((expected.time - time for (_, time), _ in expected.sides), default=0)
    found, seen = [], set()
    for placement in placements:
        for sides in options:
            if all(placement.get(item, early) == early for item, early in sides):
                merged = {item: early for item, early in {**placement, **dict(sides)}.items()
                          if item[1] >= expected.time - reach}
                key = frozenset(merged.items())
                if key not in seen:
                    seen.add(key)
                    found.append(merged)
    if len(found) > MAX_SIDE_STATES:
        raise UnsupportedError(f"the recording leaves more than {MAX_SIDE_STATES} ways to place "
                               "the items at window boundaries open: too many to judge")
    return found or None


def boundary_conflict(pairs: Sequence[tuple[Report, RecordedRelation]], comparison: str) -> int | None:
    """The index of the first pair (in time order) whose recorded relation places a boundary
    item on another side than the relations before it did (:func:`placed`), or ``None`` when
    one placement fits them all."""
    placements: Placements | None = [{}]
    for index, (expected, recorded) in enumerate(pairs):
        placements = placed(placements, expected, recorded, comparison)
        if placements is None:
            return index
    return None


def let_through(missing: Sequence[Row], extra: Sequence[Row]) -> tuple[tuple[Row, Row], ...]:
    """The extra rows CSRBench's reading takes for a missing one, each with that row."""
    wanted = {oracle_key(row): row for row in missing}
    return tuple((row, wanted[oracle_key(row)]) for row in extra if oracle_key(row) in wanted)


def compare_relation(expected: Report, recorded: RecordedRelation, profile: Profile,
                     comparison: str, unit_ms: int) -> str | None:
    """Why ``recorded`` is not ``expected`` (``rows``, ``label``, ``duplicates``), or ``None``."""
    missing, extra = differences(expected, recorded, comparison)
    if (missing or extra) and not _one_of(expected.choices, recorded, comparison):
        return "rows"
    if _tolerated(expected, recorded, comparison) and not _at_its_time(expected, recorded,
                                                                       profile, unit_ms):
        return "label"
    if comparison == "strict":
        if not _at_its_time(expected, recorded, profile, unit_ms):
            return "label"
        found = Counter(map(row_key, recorded.rows))
        if expected.counts is not None:
            if found != Counter({row_key(row): n for row, n in expected.counts}):
                return "multiplicity"
        elif profile.answers == "set" and max(found.values(), default=1) > 1:
            return "duplicates"
    return None


def _passes(run: ExpectedRun, recorded: Sequence[RecordedRelation], profile: Profile,
            comparison: str, unit_ms: int) -> int | None:
    """The index of the first expected relation from which ``recorded`` runs contiguously, if
    any (``recorded`` not empty).

    The run is read one report at a time, each report compared with the recorded relation of
    every start still possible; reading stops at the first start whose run is complete (starts
    complete in their order) or once no start can complete in the reports the rest of the
    timeline can hold (:meth:`~agreement.check.expected.LazyReports.most_after`).
    """
    reports = run.reports
    bound = getattr(reports, "most_after", None)
    alive: list[int] = []
    for index, report in enumerate(reports):
        alive = [start for start in alive + [index]
                 if compare_relation(report, recorded[index - start], profile, comparison,
                                     unit_ms) is None]
        while alive and index - alive[0] + 1 == len(recorded):
            start = alive.pop(0)
            if boundary_conflict([(reports[i], recorded[i - start]) for i in range(start, index + 1)],
                                 comparison) is None:
                return start
        most = bound(report.time) if bound is not None else None
        if most is not None:
            alive = [start for start in alive if len(recorded) - (index - start + 1) <= most]
            if not alive and most < len(recorded):
                return None
    return None


def match(runs: Iterable[ExpectedRun], recorded: Sequence[RecordedRelation], profile: Profile,
          comparison: str, unit_ms: int) -> tuple[ExpectedRun | None, int | None, list[ExpectedRun]]:
    """The first run holding ``recorded`` as a contiguous run and where it starts (the oracle's
    ``contains``; an empty recording passes), and every run tried. A run is widened (boundary
    items on either side) only when it does not hold the recording exactly; both readings are
    then among those tried, since the explanation of an INCORRECT verdict looks for the one
    closest to the recording, and for a query that is not monotone in its window (an
    aggregate, say) the widened reading can be further from it than the exact one."""
    tried = []
    for run in runs:
        if not recorded:
            return run, 0, tried + [run]
        strict = comparison == "strict"
        if strict and run.counted is not None:
            run = run.counted()
        start = _passes(run, recorded, profile, comparison, unit_ms)
        if start is None and not strict and run.widened is not None:
            tried.append(run)  # the exact reading too: an explanation may find it closer
            run = run.widened()
            start = _passes(run, recorded, profile, comparison, unit_ms)
        tried.append(run)
        if start is not None:
            return run, start, tried
    return None, None, tried


def _tick(relation: RecordedRelation, profile: Profile, unit_ms: int) -> int:
    return (relation.timestamp - profile.label_ms) // unit_ms


@dataclass(frozen=True)
class _Alignment:
    """A run read against the recording: by time (each recorded relation against the expected
    relation of its tick) or by position; ``matched`` counts the relations that agree."""

    run: ExpectedRun
    matched: int
    present: int
    failure: tuple[int, str, Report | None] | None
    by_position: bool = False


def _align(run: ExpectedRun, recorded: Sequence[RecordedRelation], profile: Profile,
           comparison: str, unit_ms: int) -> _Alignment:
    by_time = {report.time: report for report in run.reports}
    matched, present, failure = 0, 0, None
    for index, relation in enumerate(recorded):
        expected = by_time.get(_tick(relation, profile, unit_ms))
        present += expected is not None
        reason = "unexpected" if expected is None else compare_relation(
            expected, relation, profile, comparison, unit_ms)
        if reason is None:
            matched += 1
        elif failure is None:
            failure = (index, reason, expected)
    if failure is None:
        ticks = {_tick(relation, profile, unit_ms) for relation in recorded}
        first, last = min(ticks), max(ticks)
        skipped = [r for r in run.reports if first < r.time < last and r.time not in ticks]
        if skipped:
            index = sum(1 for t in sorted(ticks) if t < skipped[0].time)
            failure = (index, "skipped", skipped[0])
    if failure is None:
        conflict = boundary_conflict([(by_time[_tick(r, profile, unit_ms)], r) for r in recorded],
                                     comparison)
        if conflict is not None:  # each agrees alone; one cannot with those before it
            matched = len(recorded) - 1
            failure = (conflict, "boundary", by_time[_tick(recorded[conflict], profile, unit_ms)])
    return _Alignment(run, matched, present, failure)


def _align_by_position(run: ExpectedRun, recorded: Sequence[RecordedRelation], profile: Profile,
                       comparison: str, unit_ms: int) -> _Alignment | None:
    """The run read as the verdict reads it, labels aside: the recorded relations in order from
    the expected relation after which the most of them agree in a row (the first such start);
    ``None`` when none agrees from any start. A recording whose labels the profile does not
    model (the 2023 study's engines label a window at its close plus the slide) is explained
    where it first leaves the run, not at a relation its label pairs with the wrong window.
    When the first recorded relation agrees with none, the run is read from the expected
    relation closest to it (:func:`_distance`)."""
    reports = list(run.reports)
    if not reports:
        return None
    best: tuple[int, int] | None = None
    for start in range(len(reports)):
        agreeing = 0
        for relation, report in zip(recorded, reports[start:]):
            if compare_relation(report, relation, profile, comparison, unit_ms) is not None:
                break
            agreeing += 1
        if agreeing and (best is None or agreeing > best[1]):
            best = (start, agreeing)
    if best is None:
        best = (min(range(len(reports)), key=lambda start: _distance(reports[start], recorded[0])),
                0)
    if best[1] == len(recorded):
        return None
    start, agreeing = best
    at = start + agreeing
    if at < len(reports):
        expected = reports[at]
        failure = (agreeing, compare_relation(expected, recorded[agreeing], profile, comparison,
                                              unit_ms), expected)
    else:
        failure = (agreeing, "unexpected", None)
    return _Alignment(run, agreeing, agreeing, failure, by_position=True)


def _distance(expected: Report, relation: RecordedRelation) -> tuple[int, int]:
    """How far a recorded relation is from an expected one: most bindings in common first,
    then fewest missing and extra (whole bindings compared: CSRBench's reading, which keeps only
    numeric values, would find a relation of other sensors close)."""
    missing, extra = differences(expected, relation, "bindings")
    return -(len(relation.rows) - len(extra)), len(missing) + len(extra)


def scope_at(query: RspQuery, profile: Profile, t0: int, time: int) -> tuple[int, int] | None:
    """The window scope read at ``time`` (first and last time point), read directly from the
    profile's definition (SPEC section 12) for the first range window of ``query``."""
    windows = [s.window for s in query.streams if isinstance(s.window, RangeWindow)]
    if not windows:
        return None
    length, step = windows[0].length, windows[0].step
    if profile.paper:  # τ(ω) = ⊞^{L,0,β}: the window ending at the pivot floor(t/β)·β
        time = time // step * step
    if profile.paper or "content-change" not in profile.report:
        first = time - length + (profile.bounds == "left-open")
        last = time - (profile.bounds == "right-open")
        return max(first, 0), last
    start = t0 + ((time - length - t0) // step + 1) * step
    return (max(start, t0) if profile.startup == "full" else start), time


def _content(rows: Iterable[Row], elements: Sequence[StreamTriple], scope: tuple[int, int] | None,
             limit: int = 12) -> tuple[tuple[int, str], ...]:
    """Stream triples whose subject is an IRI of ``rows``, inside the scope first."""
    terms = {value for row in rows for value in row if isinstance(value, URIRef)}
    hits = [(e.time, " ".join(t.n3() for t in e.triple) + " .") for e in elements
            if e.triple[0] in terms]
    if scope is not None:
        hits.sort(key=lambda hit: (not scope[0] <= hit[0] <= scope[1], hit[0]))
    return tuple(hits[:limit])


def _mismatch(runs: Sequence[ExpectedRun], recorded: Sequence[RecordedRelation],
              query: RspQuery, profile: Profile, elements: Sequence[StreamTriple], comparison: str,
              unit_ms: int) -> Mismatch | None:
    """The first mismatch of the run (t0) that agrees with the recording at the most time
    points (then: that reports at the most of the recording's time points), each recorded
    relation read against the expected relation of its tick."""
    alignments = [_align(run, recorded, profile, comparison, unit_ms) for run in runs]
    best = max(alignments, key=lambda a: (a.matched, a.present,  # a boundary conflict: its own words
                                          a.failure is not None and a.failure[1] == "boundary"),
               default=None)
    if best is None or best.failure is None:
        return None
    if comparison != "strict" and best.failure[1] != "boundary":  # (a conflict of boundary items
        # is said as such) labels are not compared: reading the recording in order explains
        # more when more relations agree so than by their ticks (labels the profile does not model)
        in_order = [a for a in (_align_by_position(run, recorded, profile, comparison, unit_ms)
                                for run in runs) if a is not None]
        furthest = max(in_order, key=lambda a: a.failure[0], default=None)
        if furthest is not None and (furthest.matched, furthest.failure[2] is not None) > (
                best.matched, best.failure[2] is not None):
            best = furthest
    index, reason, expected = best.failure
    relation = recorded[min(index, len(recorded) - 1)]
    if reason == "skipped":
        missing, extra = tuple(sorted(expected.rows, key=str)), ()
    else:
        missing, extra = differences(expected, relation, comparison)
    time = expected.time if expected else _tick(relation, profile, unit_ms)
    scope = scope_at(query, profile, best.run.t0, time)
    passed = let_through(missing, extra) if comparison != "csrbench" else ()
    return Mismatch(index, reason, best.run.t0, expected, relation, missing, extra, scope,
                    _content(missing + extra, elements, scope), passed, best.by_position)


def variations(profile: Profile, query: RspQuery | None = None) -> list[tuple[str, Profile]]:
    """Profiles that differ from ``profile`` in one parameter, each with a description (the
    empty-group reading only for a query with aggregates over the whole solution set)."""
    described = {"closed": "[t-L, t]", "left-open": "(t-L, t]", "right-open": "[t-L, t)",
                 "open": "(t-L, t)"}
    found = [(f"window bounds {described[b]} (bounds = \"{b}\")", replace(profile, bounds=b))
             for b in BOUNDS if b != profile.bounds and b != "open"]
    found += [(f"r2s = \"{r}\"", replace(profile, r2s=r)) for r in R2S if r != profile.r2s
              and not (r != "rstream" and profile.translation == "csparql")]
    found += [(f"empty = \"{e}\"", replace(profile, empty=e)) for e in EMPTY if e != profile.empty]
    found += [(f"startup = \"{s}\"", replace(profile, startup=s)) for s in STARTUP
              if s != profile.startup]
    if query is not None and _groups_everything(query.pattern):
        found += [(f"empty-group = \"{g}\"", replace(profile, empty_group=g))
                  for g in EMPTY_GROUP_READINGS if g != profile.empty_group]
    return found


def _groups_everything(pattern: Pattern) -> bool:
    """Whether ``pattern`` has aggregates without GROUP BY (one group, also when empty)."""
    return (isinstance(pattern, Group) and not pattern.keys) or any(
        _groups_everything(child) for child in children(pattern))


def judge(query: RspQuery, profile: Profile, recorded: RecordedStream, runs: RunSource,
          elements: Sequence[StreamTriple], unit_ms: int, comparison: str = "bindings",
          merge: bool = False, suggest: bool = True) -> Judgement:
    """Judge ``recorded`` against ``profile``'s expected relations (see the module doc).

    Args:
        runs: computes the expected runs of a profile for given t0s (lazily: the search stops at
            the first t0 that passes).
        elements: the stream's triples, for explanations.
        comparison: one of :data:`COMPARISONS`.
        suggest: try single-parameter changes of the profile (and merging) when incorrect.
        merge: merge relations whose labels fall in one tick; a profile reading relations
            ``by-time`` always does.
    """
    merge = merge or profile.relations == "by-time"
    if recorded.relations:
        recorded = reorder(recorded, tuple(v.name for v in query.variables))
    relations = merge_same_time(recorded.relations, profile, unit_ms) if merge else recorded.relations
    if comparison not in COMPARISONS:
        raise InputError(f"unknown comparison {comparison!r} (expected one of {', '.join(COMPARISONS)})")
    passing, start, tried = match(runs(profile, admissible_t0(query, profile)), relations, profile,
                                  comparison, unit_ms)
    found = Judgement(profile, comparison, merge, passing is not None,
                      passing.t0 if passing else None, start,
                      passing.reports if passing else (), relations, unit_ms=unit_ms,
                      variables=recorded.variables, runs={run.t0: run for run in tried})
    if passing is not None:
        return found
    found.mismatch = _mismatch(tried, relations, query, profile, elements, comparison, unit_ms)
    if found.mismatch is not None:
        found.t0 = found.mismatch.t0
    if suggest:
        t0 = found.t0 if found.t0 is not None else admissible_t0(query, profile)[0]
        deadline = time.monotonic() + suggestion_seconds()
        found.accepted_with = _accepted_with(query, profile, recorded, runs, t0, unit_ms,
                                             comparison, merge, deadline)
        if time.monotonic() > deadline:
            found.all_tried = False
            found.notes = (*found.notes, f"note: the profile changes that would accept the "
                           f"recording were tried for {suggestion_seconds():g} s only; "
                           f"{SUGGEST_VARIABLE}=S gives them longer (--no-suggest: none)")
    return found


SUGGEST_VARIABLE = "LARS_SUGGEST_SECONDS"
"""How long an INCORRECT verdict may try the profile changes that would accept the recording
(each a whole run; the verdict itself comes first). Unset: every change is tried (15 s of CPU on
the 2023 study's incorrect recordings); a budget that cuts them is said, never silent."""


def suggestion_seconds() -> float:
    """The budget in force: ``$LARS_SUGGEST_SECONDS`` if set (a non-negative number), else no
    bound."""
    text = os.environ.get(SUGGEST_VARIABLE)
    try:
        seconds = float(text) if text else float("inf")
    except ValueError:
        raise InputError(f"{SUGGEST_VARIABLE} must be a number of seconds, not {text!r}") from None
    if not seconds >= 0:
        raise InputError(f"{SUGGEST_VARIABLE} must be a number of seconds from 0, not {text!r}")
    return seconds


def _accepted_with(query: RspQuery, profile: Profile, recorded: RecordedStream, runs: RunSource,
                   t0: int, unit_ms: int, comparison: str, merge: bool,
                   deadline: float = float("inf")) -> list[str]:
    """The single changes (at the failing alignment's t0) under which the recording passes,
    tried until ``deadline`` (:func:`time.monotonic`)."""
    accepted = []
    if not merge:
        merged = merge_same_time(recorded.relations, profile, unit_ms)
        if match(runs(profile, admissible_t0(query, profile)), merged, profile, comparison,
                 unit_ms)[0] is not None:
            accepted.append("merging the relations reported in one tick (--merge-same-time)")
    relations = merge_same_time(recorded.relations, profile, unit_ms) if merge else recorded.relations
    for other in LOOSER[comparison]:
        if time.monotonic() > deadline:
            break
        if match(runs(profile, admissible_t0(query, profile)), relations, profile, other,
                 unit_ms)[0] is not None:
            accepted.append(LOOSER_TEXT[other])
            break
    for text, changed in variations(profile, query):
        if time.monotonic() > deadline:
            break
        try:
            if match(runs(changed, [t0]), relations, changed, comparison, unit_ms)[0] is not None:
                accepted.append(f"{text} at t0 = {t0}")
        except LarsError:  # a variation that does not compile (e.g. Istream with τ1) accepts nothing
            continue
    return accepted

