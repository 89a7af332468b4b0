"""The relation stream an engine profile reports for a query and a stream (SPEC section 12).

The profile's LARS program (:func:`translate.reports.compile_profile`) is solved over the stream;
at each time point where its ``report`` predicate holds, the answer atoms at that point form the
reported relation (an empty one where the profile emits empty relations). For a profile that
admits any t0, one run per admissible t0.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice

from rdflib import Literal as RdfLiteral
from rdflib import URIRef

from agreement.compare import Row
from agreement.runplan import Partitioning, solve
from ingest.eager import QueryData
from ingest.policy import ReadReport
from lars.errors import SolverError
from lars.streams import Timeline
from solver.answers import TimePointAnswer
from solver.strategies import evaluate, slices_of
from translate.api import Translation
from translate.profiles import Profile
from translate.rdf import numeric_value
from translate.reports import compile_profile, report_reach
from translate.rsp import RangeWindow, RspQuery


@dataclass(frozen=True)
class Report:
    """One reported relation: the time point of the evaluation and its rows (SELECT order).

    ``lower`` and ``upper``, when set, are the relations of the same evaluation with the input
    items stamped exactly at the window's two boundaries left out and taken in
    (:func:`boundary_tolerant`): a recording with jitter may hold anything between them. For a
    query whose answers do not grow with its windows (:func:`translate.monotone.grows_with_windows`)
    they are no bounds, and ``choices`` holds them instead: a recording may hold one of them.
    ``counts``, when set, says how many times a bag engine gives each row (:mod:`agreement.check.bags`).
    ``sides`` and ``choice_sides`` say on which side of its window's boundary each group of
    boundary items falls in ``rows`` and in each of ``choices`` (:data:`Sides`): an item falls
    on one side for every relation, which :func:`agreement.check.judge.boundary_conflict` checks.
    """

    time: int
    rows: frozenset[Row]
    lower: frozenset[Row] | None = None
    upper: frozenset[Row] | None = None
    counts: frozenset[tuple[Row, int]] | None = None
    choices: tuple[frozenset[Row], ...] = ()
    sides: Sides = ()
    choice_sides: tuple[Sides, ...] = ()


Sides = tuple[tuple[tuple[URIRef, int], bool], ...]
"""For each group of input items stamped at one time on one stream, ``((stream, time), early)``:
whether they fell in the window closing at their time (``early``: they came before the engine's
timer, so a window starting at that time holds them not) or after it (the window starting at
their time holds them)."""


def boundary_tolerant(profile: Profile) -> bool:
    """Whether items at a window boundary may fall on either side: a window-close policy, a
    positive jitter and a half-open window."""
    return (profile.jitter_ms > 0 and "window-close" in profile.report
            and profile.bounds in ("left-open", "right-open"))


def at_times(run: Iterable[Report], other: Iterable[Report]) -> Iterator[tuple[Report, Report | None]]:
    """Each report of ``run`` with the report of ``other`` at the same time point (or ``None``),
    both read in time order and only as far as ``run`` is read."""
    others = iter(other)
    pending = next(others, None)
    for report in run:
        while pending is not None and pending.time < report.time:
            pending = next(others, None)
        yield report, pending if pending is not None and pending.time == report.time else None


def with_boundaries(run: Iterable[Report], lower: Iterable[Report], upper: Iterable[Report],
                    grows: bool = True, windows: Sequence[tuple[URIRef, int | None]] = (),
                    reading: str = "right-open", mirrored: Iterable[Report] = ()) -> Iterator[Report]:
    """``run`` with each report's ``lower`` and ``upper`` taken from the runs with open and
    closed bounds at the same time point (empty where those did not report), as it is read;
    for a query that does not ``grow`` with its windows, those relations as ``choices`` (where
    those runs reported) and no bounds, with the relation of the ``mirrored`` run (the other
    half-open reading: a sliding window's first items early and its last ones too), each with
    the :data:`Sides` of the boundary items it assumes, from the query's ``windows`` (stream,
    length in ticks or ``None`` for a window without one) and the profile's ``reading`` of
    their bounds (``right-open``, ``left-open``)."""
    mirror = at_times(run, mirrored)
    for (report, low), (_, high) in zip(at_times(run, lower), at_times(run, upper)):
        _, other = next(mirror, (None, None))
        if grows:
            yield Report(report.time, report.rows, low.rows if low else frozenset(),
                         high.rows if high else report.rows)
            continue
        t = report.time

        def sides(first_early: bool, last_early: bool) -> Sides:
            """The window's first time point's items early or not, its last's."""
            return (tuple(((stream, t - length), first_early) for stream, length in windows
                          if length is not None)
                    + tuple(((stream, t), last_early) for stream, _ in windows))
        left = reading == "left-open"
        found = [(alternative.rows, sides(*flags)) for alternative, flags in (
                     (low, (True, False)), (high, (False, True)), (other, (not left, not left)))
                 if alternative is not None]
        yield Report(t, report.rows, choices=tuple(rows for rows, _ in found),
                     sides=sides(left, left),
                     choice_sides=tuple(side for _, side in found))


class LazyReports(Sequence[Report]):
    """A run's reports, computed as far as they are read (the solver steps only then) and kept.

    ``lars check`` reads a run until the recording is matched or can no longer be
    (:func:`agreement.check.judge.match`): iteration computes reports one at a time, while
    ``len`` and indexing compute the whole run. ``end`` (the timeline's last time point) and
    ``gap`` (the least distance between two reports) bound how many reports can still come
    (:meth:`most_after`).

    >>> run = LazyReports(Report(t, frozenset()) for t in (2, 4, 6))
    >>> next(iter(run)).time, run.computed, run[1].time, run.computed, len(run), run.computed
    (2, 1, 4, 2, 3, 3)
    """

    def __init__(self, source: Iterable[Report], end: int | None = None, gap: int = 1):
        self._source: Iterator[Report] | None = iter(source)
        self._done: list[Report] = []
        self.end, self.gap = end, gap

    @property
    def computed(self) -> int:
        """How many reports are computed so far."""
        return len(self._done)

    def __iter__(self) -> Iterator[Report]:
        index = 0
        while True:
            if index == len(self._done):
                found = next(self._source, None) if self._source is not None else None
                if found is None:
                    self._source = None
                    return
                self._done.append(found)
            yield self._done[index]
            index += 1

    def _all(self) -> list[Report]:
        if self._source is not None:
            for _ in self:
                pass
        return self._done

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def __getitem__(self, index):
        if isinstance(index, int) and index >= 0:
            for _ in islice(self, index + 1):  # computes up to ``index`` only
                pass
            if index < len(self._done):
                return self._done[index]
        return self._all()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def most_after(self, time: int) -> int | None:
        """At most how many reports come after ``time`` (``None``: no bound known)."""
        return None if self.end is None else max(self.end - time, 0) // self.gap


@dataclass(frozen=True)
class ExpectedRun:
    """The relations a profile reports with windows starting at ``t0``.

    ``widened``, for :func:`boundary_tolerant` profiles, computes the same run with each report's
    ``lower`` and ``upper`` set (two more LARS runs, so only on demand); ``counted``, for bag
    profiles, the same run with ``counts`` set (one more run).
    """

    t0: int
    translation: Translation
    reports: Sequence[Report]
    widened: Callable[[], ExpectedRun] | None = field(default=None, compare=False, repr=False)
    counted: Callable[[], ExpectedRun] | None = field(default=None, compare=False, repr=False)


def value_key(value: object) -> Hashable:
    """A row value compared by value if it is a numeric literal, else as an RDF term."""
    if isinstance(value, RdfLiteral):
        number: Fraction | None = numeric_value(value)
        if number is not None:
            return ("number", number)
    return value


def row_key(row: Row) -> Row:
    """A row with numeric literals compared by value (``--strict``)."""
    return tuple(value_key(value) for value in row)


def binding_key(row: Row) -> Row:
    """A row as the default comparison (``--compare bindings``) reads it: numeric literals by
    value as ``xsd:double`` (SPARQL compares a double and a decimal after promoting the decimal,
    and engines compute an AVG in one or the other: C-SPARQL's recorded Q4 has the decimal
    ``87.666666666666666666666666`` where the profile's program gives the double ``8.766666666666667E1``),
    every other value (IRIs, strings, group keys) as an RDF term.

    >>> from rdflib import URIRef, Literal
    >>> a = (URIRef("http://ex.org/north"), Literal("22.0", datatype=URIRef("http://www.w3.org/2001/XMLSchema#decimal")))
    >>> b = (URIRef("http://ex.org/south"), Literal("22", datatype=URIRef("http://www.w3.org/2001/XMLSchema#integer")))
    >>> binding_key(a) == binding_key(b), binding_key(a) == binding_key((a[0], b[1]))
    (False, True)
    """
    return tuple(_number_key(value) for value in row)


def _number_key(value: object) -> Hashable:
    if isinstance(value, RdfLiteral):
        number = numeric_value(value)
        if number is not None:
            return ("number", float(number))
    return value


def _double(value: object) -> float | None:
    if not isinstance(value, RdfLiteral):
        return None
    try:
        return float(str(value))
    except ValueError:
        return None


def oracle_key(row: Row) -> Row:
    """A row as CSRBench's oracle tells rows apart (``TimestampedRelationElement.equals``).

    The oracle calls a binding's keys *numeric* when their literal parses as a double; two
    bindings are equal when their maps are, or else when their numeric keys have the same double
    values, the other keys ignored. That is an equivalence whose classes are told apart by the
    numeric values alone (or by the whole row when no value is numeric), and relations are Java
    sets under it.

    >>> from rdflib import URIRef, Literal
    >>> a = (URIRef("http://ex.org/s1"), Literal("45.0", datatype=URIRef("http://www.w3.org/2001/XMLSchema#float")))
    >>> b = (URIRef("http://ex.org/s2"), Literal("45", datatype=URIRef("http://www.w3.org/2001/XMLSchema#double")))
    >>> oracle_key(a) == oracle_key(b), row_key(a) == row_key(b)
    (True, False)
    """
    numbers = tuple(_double(value) for value in row)
    if any(number is not None for number in numbers):
        return tuple(("number", n) for n in numbers if n is not None)
    return tuple(row)


def admissible_t0(query: RspQuery, profile: Profile) -> list[int]:
    """The t0 values to try: the profile's own, or every t0 in ``[0, L]`` (CSRBench's oracle,
    ``L`` the widest window of ``query``)."""
    if profile.t0 is not None:
        return [profile.t0]
    widths = [spec.window.length for spec in query.streams if isinstance(spec.window, RangeWindow)]
    return list(range(0, max(widths, default=0) + 1))


def reports(translation: Translation, data: QueryData) -> tuple[Report, ...]:
    """The relations ``translation`` reports over ``data``, in time order."""
    return tuple(report_stream(translation, data))


def report_stream(translation: Translation, data: QueryData,
                  cut: Partitioning = Partitioning()) -> Iterator[Report]:
    """:func:`reports` one at a time, the solver stepping as they are read; with ``cut``
    (``lars check --partitions``) the run is solved range by range as ``lars run --partitions``
    solves, each range shipped its slices (:func:`agreement.runplan.solve`): the same reports."""
    if cut.partitions:
        shown = frozenset({translation.answer.predicate, translation.report})
        answers = solve(translation.program, data.stream.timeline, data.background,
                        lambda: iter(slices_of(data.stream)), cut, ReadReport(), shown=shown)
        return _reports_of(translation, answers, data.encoder)
    return reports_over(translation, slices_of(data.stream), data.stream.timeline,
                        data.background, data.encoder)


def reports_over(translation: Translation, slices: Iterable, timeline: Timeline,
                 background: Iterable, encoder) -> Iterator[Report]:
    """The relations ``translation`` reports over ``slices`` (``(t, atoms)`` ascending, read as
    the reports are: a live stream's too), one at a time."""
    return _reports_of(translation, evaluate(translation.program, slices, timeline, background,
                                             shown={translation.answer.predicate, translation.report}),
                       encoder)


def _reports_of(translation: Translation, answers: Iterable, encoder) -> Iterator[Report]:
    """The reports among a compiled profile's answers, as relations in the SELECT order."""
    for answer in answers:
        atoms = atoms_now(translation, answer)
        if any(atom.predicate == translation.report for atom in atoms):
            yield Report(answer.time, relation(translation, atoms, encoder))


def atoms_now(translation: Translation, answer: TimePointAnswer) -> list:
    """The atoms a compiled profile's answer holds at its time point (it has one answer
    stream: :class:`~lars.errors.SolverError` otherwise)."""
    if len(answer.streams) != 1:
        raise SolverError(f"the {translation.profile} program has {len(answer.streams)} answer "
                          f"streams at {answer.time}; compiled profiles must have exactly one")
    return [atom for atom, time in answer.streams[0] if time == answer.time]


def relation(translation: Translation, atoms: Iterable, encoder) -> frozenset[Row]:
    """The relation of the answer atoms among ``atoms``, rows in the SELECT order."""
    select = translation.answer.select_order
    return frozenset(tuple(row[v] for v in select) for row in translation.rows(atoms, encoder))


def expected_runs(query: RspQuery, profile: Profile, input_times: Sequence[int], data_for,
                  period: int | None = None, variant: str = "brave",
                  t0s: Sequence[int] | None = None) -> list[ExpectedRun]:
    """One :class:`ExpectedRun` per admissible t0.

    Args:
        input_times: the time points with input (they bound how far back Istream looks,
            :func:`translate.reports.report_reach`).
        data_for: ``translations → QueryData``, encoding the data once for all of them
            (:func:`ingest.eager.query_data` with the stream bound).
    """
    t0s = list(t0s) if t0s is not None else admissible_t0(query, profile)
    reach = report_reach(query, input_times, period)
    translations = [compile_profile(query, profile, t0, period, variant, reach) for t0 in t0s]
    data = data_for(translations)
    return [ExpectedRun(t0, translation, reports(translation, data))
            for t0, translation in zip(t0s, translations)]
