"""``lars check`` as one call: read the query, the stream and the recorded answers, judge them.

The stream is read once and encoded as it is read (:func:`read_encoded`; past
:data:`HELD_TRIPLES` triples each run reads it again, so memory stays flat); the expected runs of every profile and t0 the judge
asks for are computed on demand, as far as the judge reads them, and kept, so trying a
profile's variations or merged relations costs at most one LARS run per new (profile, t0)
(fewer where one run serves several t0: under a window-close profile one run of the query's
window sliding by one tick serves every t0, :meth:`RunCache._windowed`; under content change
one such run per scope length, :meth:`RunCache._changes`; else the run of ``t0 mod β``,
:meth:`RunCache._slide`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain, groupby, takewhile
from operator import attrgetter

from agreement.check.bags import multiplicities, unprojected
from agreement.check.expected import (
    ExpectedRun, LazyReports, Report, admissible_t0, at_times, boundary_tolerant, report_stream,
    reports_over, with_boundaries,
)
from agreement.check.judge import Judgement, judge
from agreement.check.labels import label_warning
from agreement.check.sliding import read_off, sliding_relations, window_reading
from agreement.check.sliding import arrival_times, change_reading, read_off_changes
from agreement.optiondefaults import DEFAULT_MAX_T0
from agreement.recorded import read_relations
from agreement.defaults import default_period, named_stream_slices, read_named_stream
from agreement.runplan import Partitioning
from ingest.eager import QueryData, encoded_data, query_data, static_graphs
from ingest.limits import check_timeline_length, max_time_points as limit_in_force
from ingest.options import ReadOptions
from ingest.policy import ReadReport, read_text, within_timeline
from ingest.reach import count_reach
from ingest.rdffiles import StreamTriple
from lars.errors import InputError, LarsError, LimitError, Position
from lars.streams import Stream, Timeline
from translate.api import Translation, parse_query, slice_atoms
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.profilefile import resolve_profile
from translate.profiles import Profile
from translate.rdf import RdfTermEncoder
from solver.strategies import slices_of
from translate.monotone import grows_with_windows
from translate.reports import compile_profile, refuse_unread_streams, report_reach
from translate.rsp import RangeWindow, RspQuery


MIRRORED = {"right-open": "left-open", "left-open": "right-open"}
"""The other half-open reading of a window (:func:`~agreement.check.expected.boundary_tolerant`
profiles have one): a sliding window's first and last boundary items both early (or both late),
a race the open and closed readings do not cover (a newcomer's RANGE 4s STEP 2s COUNT)."""
HELD_TRIPLES = 100_000
"""The most stream triples ``lars check`` holds as atoms for its runs (29 MB for 10^5 CSRBench
triples); a longer stream is read again by each run (:class:`EncodedStream`), so that memory
stays flat in the stream as ``lars run``'s does, at the cost of one more reading per run."""


@dataclass(frozen=True)
class EncodedStream:
    """A checked stream read once, holding no triple: its ``striple`` atoms (the stream every
    run reads; ``None`` for a stream past :data:`HELD_TRIPLES`, whose runs read ``again``
    and encode each slice as it comes), their encoder, and the time points with input,
    ascending."""

    stream: Stream | None
    encoder: RdfTermEncoder
    times: tuple[int, ...]
    again: Iterable[StreamTriple] = ()

    def slices(self) -> Iterator[tuple[int, list]]:
        """The atoms ``(t, striple atoms)`` of every time point with input, in time order."""
        if self.stream is not None:
            return iter(slices_of(self.stream))
        return ((t, slice_atoms(list(elements), self.encoder))
                for t, elements in groupby(self.again, key=attrgetter("time")))


@dataclass
class RunCache:
    """Expected runs of ``query`` over one stream, computed on demand by (profile, t0).

    Runs are :class:`~agreement.check.expected.LazyReports`: the solver steps only as far as
    the judge reads them (it stops reading a t0 once the recording can no longer match), and a
    later reader continues where the last one stopped. Where a run follows from another's
    (:meth:`_slide`), it reads that one.
    """

    query: RspQuery
    elements: Sequence[StreamTriple]
    graphs: dict
    timeline: Timeline
    period: int | None = None
    variant: str = "brave"
    cut: Partitioning = Partitioning()
    """How each expected run is solved (``lars check --partitions``: range by range)."""
    encoded: EncodedStream | None = None
    """``elements`` already encoded (:func:`read_encoded`): the runs read these atoms, and
    ``elements`` is read only for explanations."""

    reads_windows = True
    """Whether runs may be read off a run of the window sliding by one tick (:meth:`_windowed`)."""

    change_program_runs = 1
    """How many runs of a content-change profile (per translation and empty-group reading) are
    solved by the profile's own program before the sliding runs take over (:meth:`_changes`):
    a recording that passes at its first t0 costs one program run, where the sliding runs read
    for one t0 of a tumbling window are up to L; from the second run on, the L + 1 sliding runs
    serve every t0, bounds and start-up."""

    def __post_init__(self) -> None:
        self._runs: dict[tuple[Profile, int], ExpectedRun] = {}
        self._widened_runs: dict[tuple[Profile, int], ExpectedRun] = {}
        self._counted_runs: dict[tuple[Profile, int], ExpectedRun] = {}
        self._sliding: dict[tuple, LazyReports | None] = {}
        self._data: QueryData | None = None
        self._translations: dict[tuple[Profile, int], Translation] = {}
        self._arrivals: list[int] | None = None
        self._change_runs: dict[tuple[str, str], int] = {}
        self._times = (self.encoded.times if self.encoded is not None
                       else [e.time for e in self.elements])
        self._reach = report_reach(self.query, self._times, self.period)

    def _compiled(self, profile: Profile, t0: int) -> Translation:
        """The program of ``profile`` at ``t0`` (:func:`translate.reports.compile_profile`),
        compiled once: a run read off another still has its own (its errors are raised as a
        computed run's), and a profile change or t0 is asked for several times (CQELS's Q4
        compiled 57 programs for 12 distinct ones, 0.3 s of CPU)."""
        key = (profile, t0)
        if key not in self._translations:
            self._translations[key] = compile_profile(self.query, profile, t0, self.period,
                                                      self.variant, self._reach)
        return self._translations[key]

    def _data_for(self, translation) -> QueryData:
        if self._data is None:
            self._data = (query_data([translation], self.elements, self.graphs, self.timeline)
                          if self.encoded is None else
                          encoded_data([translation], self.encoded.stream or Stream(self.timeline),
                                       self.encoded.encoder, self.graphs))
        return self._data

    def _reports(self, translation) -> Iterator[Report]:
        """The reports of one compiled profile over the stream (``lars check --follow``: over
        the live stream, :class:`agreement.check.live.LiveRuns`)."""
        data = self._data_for(translation)
        if self.encoded is not None and self.encoded.stream is None:
            return reports_over(translation, self.encoded.slices(), self.timeline,
                                data.background, data.encoder)
        return report_stream(translation, data, self.cut)

    def _run(self, profile: Profile, t0: int) -> ExpectedRun:
        key = (profile, t0)
        if key not in self._runs:
            derived = self._derived(profile, t0)
            if derived is not None:
                self._runs[key] = derived
        return self._computed(profile, t0)

    def _derived(self, profile: Profile, t0: int) -> ExpectedRun | None:
        """The run of ``profile`` read off another run that holds it, ``None`` if none does.

        * The R2S operator the profile applies to this query (:meth:`Profile.r2s_for`) decides,
          not how the profile spells it: a variation ``r2s = "istream"`` of a profile whose
          query declares RSTREAM is the profile's own run.
        * Empty relations dropped: the run that emits them, without its empty relations (the
          program differs only in ``report ← out(X̄)`` for ``report ← trigger``, and every
          answer rule needs ``trigger``, :func:`translate.triggers.with_trigger`).
        * Istream and Dstream (emitting empty relations): the Rstream run emitting them, each
          relation against the one before it; that run reports at every evaluation, and the
          previous relation is the previous evaluation's, reported or not (SPEC section 12,
          :func:`translate.reports.compile_profile`). Its own program recomputes the previous
          relation with a second copy of the query at every time point (CQELS's Q4 on the
          CSRBench stream: 1.2 s of CPU a run against 0.5 s for the Rstream run). Before the
          first evaluation the previous relation is empty, in the program too (its copy waits
          for ``prev_report``, :func:`translate.reports._gated`). Aggregates too: the copy's
          folds read the copy's elements (:func:`translate.reports._rename`).
        * Window bounds ``(t-L, t]``: the run with ``[t-L, t)`` at ``t0 + 1``, one tick earlier
          (:meth:`_shifts`); every t0 of that run is a t0 the verdict reads.

        The requested profile's program is compiled all the same: its errors (Istream with the
        C-SPARQL translation) are raised as a computed run would raise them.
        """
        if profile.paper:
            return None
        name = self.query.name or ""
        r2s = profile.r2s_for(self.query.name, self.query.r2s)
        plain = replace(profile, r2s=r2s, r2s_by_query=((name, r2s),))
        source: Profile | None = None
        source_t0 = t0
        if plain != profile:
            source, shown = plain, None
        elif profile.empty == "drop":
            source, shown = replace(profile, empty="emit"), _non_empty
        elif r2s in ("istream", "dstream") and profile.translation == "cqels":
            source = replace(profile, r2s="rstream", r2s_by_query=((name, "rstream"),))
            shown = partial(_against_previous, r2s)
        if source is None and self._shifts(profile):
            source, source_t0 = replace(profile, bounds="right-open"), t0 + 1
            shown = _earlier
        if source is None:
            return None
        translation = self._compiled(profile, t0)
        run = self._run(source, source_t0)
        if shown is None:
            return replace(run, t0=t0, translation=translation)
        return replace(run, t0=t0, translation=translation, reports=_like(run.reports,
                                                                          shown(run.reports)))

    def _shifts(self, profile: Profile) -> bool:
        """Whether the run with bounds ``(t-L, t]`` at t0 is the run with ``[t-L, t)`` at
        ``t0 + 1``, each report one tick earlier: the same time points are in scope
        (``(R-L, R]`` is ``[R+1-L, R+1)``), and every condition of the program on the report
        time ``R`` and t0 (window closes ``R - t0 - L ≡ 0 mod β``, full start-up
        ``R ≥ t0 + L``, some input in scope) holds at ``R`` for one exactly when it holds at
        ``R + 1`` for the other. One range window closed by a window-close policy (optionally
        non-empty), and the timeline's last report time off the shifted run must report
        nothing: so a non-empty policy and no input after ``end - L``. At the timeline's start
        nothing is lost: a report of the shifted run at ``start`` would be one at ``start - 1``,
        but its scope holds no input, which starts at ``start``. (Partial start-up windows need a
        time point before ``R``, which the timeline's start breaks.)"""
        streams = self.query.streams
        last = max(self._times, default=None)
        return (profile.bounds == "left-open" and not profile.paper
                and profile.startup == "full" and len(streams) == 1
                and isinstance(streams[0].window, RangeWindow)
                and profile.report == frozenset({"window-close", "non-empty"})
                and (last is None or last <= self.timeline.end - streams[0].window.length))

    def _computed(self, profile: Profile, t0: int) -> ExpectedRun:
        key = (profile, t0)
        if key not in self._runs:
            windowed = self._windowed(profile, t0)
            if windowed is not None:
                self._runs[key] = windowed
        step = self._slide(profile)
        if key not in self._runs and step is not None and t0 >= step:
            base = self._run(profile, t0 % step)
            first = t0 + self.query.streams[0].window.length
            self._runs[key] = replace(base, t0=t0, reports=_like(
                base.reports, (r for r in base.reports if r.time >= first)))
        if key not in self._runs:
            translation = self._compiled(profile, t0)
            computed = LazyReports(self._reports(translation), self.timeline.end, step or 1)
            full = replace(profile, startup="full")
            if profile.startup == "partial" and self._slide(full) is not None:
                computed = self._started_up(computed, self._run(full, t0).reports, t0)
            self._runs[key] = ExpectedRun(t0, translation, computed)
        return self._runs[key]

    def _windowed(self, profile: Profile, t0: int) -> ExpectedRun | None:
        """The run read off the run of the query's window sliding by one tick, which holds the
        run of every t0 (:mod:`agreement.check.sliding`), ``None`` where it does not. Not
        under ``--partitions``, whose runs are solved range by range as ``lars run`` solves
        them, nor for a live stream (:attr:`reads_windows`)."""
        if not self.reads_windows or self.cut.partitions:
            return None
        if change_reading(self.query, profile):
            return self._changes(profile, t0)
        reading = window_reading(self.query, profile)
        if reading is None:
            return None
        length, shift = reading
        relations = self._window_relations(profile, length)
        if relations is None:
            return None
        translation = self._compiled(profile, t0)  # its errors, as a computed run raises them
        window = self.query.streams[0].window
        return ExpectedRun(t0, translation, LazyReports(
            read_off(relations, t0, window, shift, self.timeline.end), self.timeline.end,
            window.step))

    def _changes(self, profile: Profile, t0: int) -> ExpectedRun | None:
        """The run of a content-change profile read off the sliding runs of every window length
        from 0 to ``L`` (:func:`~agreement.check.sliding.change_reading`), ``None`` where the
        profile's own program decides (:func:`~agreement.check.sliding.sliding_relations`, and
        for the first :attr:`change_program_runs` runs)."""
        key = (profile.translation, profile.empty_group)
        self._change_runs[key] = self._change_runs.get(key, 0) + 1
        window = self.query.streams[0].window
        if (self._change_runs[key] <= self.change_program_runs
                or self._window_relations(profile, window.length) is None):
            return None
        translation = self._compiled(profile, t0)  # its errors, as a computed run raises them
        if self._arrivals is None:
            data = self._data_for(translation)
            self._arrivals = arrival_times(self._slices(data),
                                           data.encoder.encode(self.query.streams[0].stream))
        return ExpectedRun(t0, translation, LazyReports(read_off_changes(
            partial(self._window_relations, profile), self._arrivals, t0, window, profile),
            self.timeline.end))

    def _slices(self, data: QueryData) -> Iterable:
        """The stream's slices ``(t, atoms)`` in ``data``, read anew (from the file past
        :data:`HELD_TRIPLES`)."""
        if self.encoded is not None and self.encoded.stream is None:
            return self.encoded.slices()
        return slices_of(data.stream)

    def _window_relations(self, profile: Profile, length: int) -> LazyReports | None:
        """The relations of the windows ``[t - length, t]`` holding input, computed as read
        and kept for every t0 (:func:`~agreement.check.sliding.sliding_relations`; ``None``:
        the profile's own program decides)."""
        key = (profile.translation, profile.empty_group, length)
        if key not in self._sliding:
            self._sliding[key] = sliding_relations(
                self.query, profile, length, self.variant, self._data_for, self.timeline,
                self._slices)
        return self._sliding[key]

    def _started_up(self, partial: LazyReports, full: Sequence[Report], t0: int) -> LazyReports:
        """The run with partial start-up windows: its own reports before the first window
        closes at ``t0 + L``, then those of the run with full start-up (:meth:`_slide` holds
        for it), which reports the same windows from there on: a window closing at
        ``R ≥ t0 + L`` starts at ``R - L ≥ t0``, whole either way. The partial program is
        stepped only up to ``t0 + L``."""
        first = t0 + self.query.streams[0].window.length
        return LazyReports(chain(takewhile(lambda r: r.time < first, partial),
                                 (r for r in full if r.time >= first)), self.timeline.end)

    def _slide(self, profile: Profile) -> int | None:
        """β, when a run's reports follow from the run of ``t0 mod β``: one range window, full
        start-up, window-close reports, Rstream. Windows are then ``[t0 + kβ, t0 + kβ + L)``
        for k ≥ 0, so the run of t0 is the run of ``t0 mod β`` from its report at ``t0 + L``
        on (the oracle tries every t0 in [0, L]: with β = 1 s, one LARS run instead of L + 1),
        and two reports are β apart. Istream and Dstream are left out: a run's first report
        has no previous relation. (One run with windows sliding by one tick would serve every
        t0, but it evaluates the query at every tick: β times the work of a run.)"""
        streams = self.query.streams
        if (len(streams) != 1 or not isinstance(streams[0].window, RangeWindow)
                or profile.startup != "full" or profile.t0 is not None or profile.paper
                or "window-close" not in profile.report or "content-change" in profile.report
                or profile.r2s_for(self.query.name, self.query.r2s) != "rstream"):
            return None
        return streams[0].window.step

    def _widened(self, profile: Profile, t0: int) -> ExpectedRun:
        if (profile, t0) not in self._widened_runs:
            run = self._run(profile, t0)
            lower = self._run(replace(profile, bounds="open"), t0).reports
            upper = self._run(replace(profile, bounds="closed"), t0).reports
            grows = grows_with_windows(self.query, profile.r2s_for(self.query.name, self.query.r2s))
            windows = list(dict.fromkeys(
                (spec.stream, spec.window.length if isinstance(spec.window, RangeWindow) else None)
                for spec in self.query.streams))
            mirrored = () if grows else self._run(replace(profile, bounds=MIRRORED[profile.bounds]), t0).reports
            self._widened_runs[profile, t0] = replace(run, reports=_like(
                run.reports, with_boundaries(run.reports, lower, upper, grows, windows, profile.bounds,
                                             mirrored)))
        return self._widened_runs[profile, t0]

    def _counted(self, profile: Profile, t0: int) -> ExpectedRun:
        if (profile, t0) not in self._counted_runs:
            self._counted_runs[profile, t0] = self._count(profile, t0)
        return self._counted_runs[profile, t0]

    def _count(self, profile: Profile, t0: int) -> ExpectedRun:
        run = self._run(profile, t0)
        full = unprojected(self.query)
        translation = compile_profile(full, profile, t0, self.period, self.variant, self._reach)
        names = translation.answer.select_order
        select = tuple(v.name for v in self.query.variables)
        counted = self._reports(translation)
        return replace(run, reports=_like(run.reports, (
            replace(r, counts=frozenset(multiplicities(other.rows, names, select).items())
                    if other else frozenset()) for r, other in at_times(run.reports, counted))))

    def __call__(self, profile: Profile, t0s: Sequence[int]) -> Iterator[ExpectedRun]:
        """The runs of ``profile`` for ``t0s``; for a :func:`boundary_tolerant` profile, each
        can be widened to carry the relations with both boundaries open and closed."""
        for t0 in t0s:
            run = self._run(profile, t0)
            if boundary_tolerant(profile):
                run = replace(run, widened=partial(self._widened, profile, t0))
            if profile.answers == "bag" and profile.r2s == "rstream" and not self.query.distinct:
                run = replace(run, counted=partial(self._counted, profile, t0))
            yield run


def _non_empty(reports: Iterable[Report]) -> Iterator[Report]:
    return (report for report in reports if report.rows)


def _against_previous(r2s: str, reports: Iterable[Report]) -> Iterator[Report]:
    """Istream (rows not in the previous relation) or Dstream (rows of the previous relation no
    longer there) of Rstream ``reports`` given at every evaluation; before the first, the
    previous relation is empty (SPEC section 12)."""
    previous: frozenset = frozenset()
    for report in reports:
        rows = report.rows - previous if r2s == "istream" else previous - report.rows
        previous = report.rows
        yield Report(report.time, rows)


def _earlier(reports: Iterable[Report]) -> Iterator[Report]:
    """``reports`` one tick earlier."""
    return (replace(report, time=report.time - 1) for report in reports)


def _like(reports: Sequence[Report], source: Iterable[Report]) -> LazyReports:
    """``source`` read lazily, with the bound on later reports of ``reports``."""
    if isinstance(reports, LazyReports):
        return LazyReports(source, reports.end, reports.gap)
    return LazyReports(source)


def read_encoded(query: RspQuery, path: str | os.PathLike, streams: set, options: ReadOptions,
                 report: ReadReport, bounds: tuple[int | None, int | None],
                 max_time_points: int | None, held: int = HELD_TRIPLES
                 ) -> tuple[EncodedStream, Timeline] | None:
    """The stream of ``lars check`` read in one pass and encoded as it is read, and the check's
    timeline (:func:`check_timeline`): the triples are not held, only their atoms, which
    every run reads (10^5 CSRBench triples: 41 MB as triples, 29 MB as atoms), and past
    ``held`` triples not those either (each run reads the file again). The explanation of an
    INCORRECT verdict reads the file again (:class:`ReadAgain`). ``report`` gets the notes
    the whole reading gives. ``None`` when a triple cannot be encoded: the caller reads the
    stream whole, and the error comes where it did (the first run), with its position."""
    slices, line = named_stream_slices(path, streams, options, report, bounds, max_time_points)
    encoder = RdfTermEncoder()
    kept: list[tuple[int, list | None, list]] = []
    count = 0
    for t, elements in slices:
        try:
            atoms: list | None = slice_atoms(elements, encoder)
        except LarsError:
            return None
        count += len(elements)
        if count > held:  # past the bound: encoded to find a term that cannot be, then let go
            atoms = None
        kept.append((t, atoms, [e.stream for e in elements]))
    timeline = check_timeline(query, max((t for t, _, _ in kept), default=0), *bounds,
                              max_time_points)
    inside = {t for t, _ in count_reach(within_timeline(((t, names) for t, _, names in kept),
                                                        timeline.start, timeline.end, report,
                                                        "triple"), streams, report,
                                        stream_of=lambda name: name)}
    contents = {t: atoms for t, atoms, _ in kept if t in inside}
    again = ReadAgain(path, streams, options, line, timeline)
    if count > held:
        return EncodedStream(None, encoder, tuple(contents), again), timeline
    return EncodedStream(Stream.from_mapping(timeline, contents), encoder, tuple(contents),
                         again), timeline


@dataclass(frozen=True)
class ReadAgain:
    """The triples of a checked stream inside the check's timeline, read from the file anew
    each time they are iterated (for explanations: :func:`read_encoded` holds none)."""

    path: str | os.PathLike
    streams: set
    options: ReadOptions
    line: Timeline
    """The timeline the first reading read in (:func:`agreement.defaults.named_stream_slices`)."""
    timeline: Timeline

    def __iter__(self) -> Iterator[StreamTriple]:
        quiet = ReadReport()  # the first reading noted all there is to note
        slices, _ = named_stream_slices(self.path, self.streams, self.options, quiet,
                                        line=self.line)
        for _, elements in within_timeline(slices, self.timeline.start, self.timeline.end, quiet,
                                           "triple"):
            yield from elements


def check_timeline(query: RspQuery, last: int, start: int | None, end: int | None,
                   limit: int | None = None) -> Timeline:
    """From 0 (or ``start``) to the last input plus the widest window and slide (or ``end``), so
    that every window holding input closes inside the timeline.

    Raises:
        LimitError: the timeline is longer than ``limit`` (:func:`ingest.limits.max_time_points`).
    """
    windows = [s.window for s in query.streams if isinstance(s.window, RangeWindow)]
    reach = max((w.length + w.step for w in windows), default=0)
    line = Timeline(0 if start is None else start, last + reach if end is None else end)
    if line.start > line.end:
        raise InputError(f"empty timeline [{line.start},{line.end}]: --from is after --to")
    check_timeline_length(line.start, line.end, limit_in_force(limit))
    return line


def projected(query: RspQuery, select: Sequence[str] | None, recorded: Sequence[str],
              answers: str) -> RspQuery:
    """``query`` with its results projected on ``select`` (``lars check --select``), checked
    against the variables the recording carries.

    A recording judged against a query must carry the query's result variables. A ``SELECT *``
    query selects every in-scope variable, while an engine (or a benchmark's harness) may have
    written only some of them (the 2023 CSRBench study's Q2 and Q3): ``--select`` names the
    variables to judge, each one the query selects; their projection is SPARQL's projection of
    the query's solutions.

    Raises:
        InputError: a ``select`` name the query does not select; a recording whose variables are
            not the (projected) query's, naming both and the ``--select`` that would judge it.
    """
    names = [v.name for v in query.variables]
    if select:
        wanted = [name.lstrip("?$") for name in select]
        unknown = [name for name in wanted if name not in names]
        if unknown:
            raise InputError(f"--select names ?{', ?'.join(unknown)}, which the query does not "
                             f"select (it selects ?{' ?'.join(names)})")
        query = replace(query, variables=tuple(v for name in dict.fromkeys(wanted)
                                               for v in query.variables if v.name == name))
        names = [v.name for v in query.variables]
    if recorded and set(recorded) != set(names):
        hint = (f"; to judge the query's results on the recorded variables, add --select "
                f"{','.join(recorded)}" if set(recorded) < set(names) else "")
        raise InputError(f"the recording carries ?{' ?'.join(recorded)}, the query selects "
                         f"?{' ?'.join(names)}{hint}", Position(answers))
    return query


def check_t0_count(query: RspQuery, profile: Profile, limit: int) -> None:
    """Refuse a profile whose t0 is any when the query's widest window holds more than ``limit``
    t0 values (:func:`agreement.expected.admissible_t0`; each is a whole run).

    Raises:
        LimitError: too many t0 values; the hint says how to raise the bound or fix t0.
    """
    if profile.t0 is not None:
        return
    count = len(admissible_t0(query, profile))
    if count > limit:
        raise LimitError(f"the profile {profile.name} takes any t0 in [0,{count - 1}]: {count} t0 "
                         f"values, each a whole run, more than the limit of {limit}",
                         hint="raise it with --max-t0 N, or fix t0 in a profile file, or take a "
                              "coarser --unit")


def judge_files(query_path: str | os.PathLike, stream: str | os.PathLike, answers: str | os.PathLike,
                profile: str | Profile, static: Sequence[str] = (), unit: str = "1s",
                engine: str | None = None, stream_iri: str | None = None, comparison: str = "bindings",
                merge: bool = False, period: str | None = None, variant: str = "brave",
                start: int | None = None, end: int | None = None,
                suggest: bool = True, select: Sequence[str] | None = None,
                max_t0: int = DEFAULT_MAX_T0, max_time_points: int | None = None,
                cut: Partitioning = Partitioning()) -> Judgement:
    """Judge the answers recorded in ``answers`` (CSRBench JSON, or ``lars run --format
    sparql-json`` lines) for a query file and a stream.

    Args:
        profile: a built-in profile's name, a TOML file, or a :class:`Profile`.
        period: for periodic report policies, a duration such as ``10s`` (default: the query's
            COMPUTED EVERY, else its windows' STEP, :func:`agreement.defaults.default_period`).
        stream_iri: the stream of triples whose line names none (default: the query's stream,
            when it reads only one).
        comparison: ``bindings`` (the default), ``csrbench`` or ``strict``
            (:data:`agreement.check.judge.COMPARISONS`).
        select: judge the query's results projected on these variables (``--select``).
        max_t0: the most t0 values tried for a profile whose t0 is any (:func:`check_t0_count`).
        max_time_points: the longest timeline accepted (:mod:`ingest.limits`).
        cut: each expected run (every t0 tried, every variation a suggestion tries) solved
            range by range (``--partitions``), each range shipped its slices: the same
            judgement, with a note saying how.
    """
    chosen = resolve_profile(profile) if isinstance(profile, str) else profile
    unit_ms = parse_unit(unit)
    text = read_text(query_path)
    query = parse_query(text, str(query_path), engine, unit)
    refuse_unread_streams(query, chosen, str(query_path))
    check_t0_count(query, chosen, max_t0)
    period_ticks = to_ticks(parse_duration(period), unit_ms) if period else default_period(query)
    recorded = read_relations(answers, unit_ms)
    report = ReadReport()
    streams = {s.stream for s in query.streams}
    options = ReadOptions(stream_iri)
    encoded = None if cut.partitions or "://" in os.fspath(stream) else read_encoded(
        query, stream, streams, options, report, (start, end), max_time_points)
    if encoded is None:  # held whole: read once (Spark), solved range by range, or not encodable
        report = ReadReport()
        elements, line = read_named_stream(stream, streams, options, report, (start, end),
                                           max_time_points)
        last = max((e.time for e in elements), default=0)
        timeline = check_timeline(query, last, start, end, max_time_points)
        slices = ((t, list(group)) for t, group in groupby(elements, key=lambda e: e.time))
        inside: Iterable[StreamTriple] = [
            e for _, group in count_reach(within_timeline(slices, timeline.start, timeline.end,
                                                          report, "triple"), streams, report)
            for e in group]
    else:
        encoded, timeline = encoded
        inside = encoded.again
    query = projected(query, select, recorded.variables, str(answers))
    cache = RunCache(query, inside, static_graphs(list(static), query), timeline, period_ticks,
                     variant, cut, encoded)
    judgement = judge(query, chosen, recorded, cache, inside, unit_ms, comparison, merge, suggest)
    inputs = encoded.times if encoded is not None else {e.time for e in inside}
    labels = label_warning(recorded.relations, unit_ms, chosen.label_ms, timeline, inputs)
    every = "" if period_ticks is None else f", period {period_ticks} × {unit}"
    split = [cut.note(cut.partitions, "each shipped its slices (every expected run: each t0 "
                      "and each variation tried; the stream read by the driver)")] if cut.partitions else []
    return replace(judgement, notes=(*([labels] if labels else []), *judgement.notes,
                                     *report.summary(), *split,
                                     f"note: timeline [{timeline.start},{timeline.end}] (unit {unit}){every}"))
