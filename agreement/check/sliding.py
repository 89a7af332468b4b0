"""Expected runs of every t0 read off runs of the query's window sliding by one tick.

A window-close profile evaluates the query at each close ``R`` of its window instances
``[t0 + kβ, t0 + kβ + L)`` (SPEC section 12, :mod:`translate.reports`); ``lars check`` tries every
t0 in ``[0, L]`` and, for a profile with jitter, each with the window's bounds open and closed
(:func:`agreement.check.expected.boundary_tolerant`): up to ``3 (L + 1)`` runs of the profile's
program, each evaluating the query from scratch at its closes (CSRBench's SPARQLstream Q7 read
12 of them, 0.4 s CPU each).

Under such a profile a report is the query over the stream items in the scope read at ``R``,
the tick interval ``[R - L + a, R - b]`` (``a = 1`` when the lower bound is open, ``b = 1`` when
the upper one is), and nothing else depends on ``R`` or t0 when the query reads time only
through its window (:func:`translate.reports.compile_sliding` checks that the program does):

* the profile's program at ``R`` derives, once ``trigger`` holds, the query's rules over the
  items of that scope (τ1 imports them into the default graph, τ2 reads them in each STREAM
  block's body), every other literal being timeless;
* the sliding program, the same rules with the window read as ``⊞^l ◇`` for ``l = L - a - b``,
  derives at ``t = R - b`` the same rules over the items of ``[t - l, t]``, the same interval.

So the run of (profile, t0) is, at each close ``R ≥ t0 + L`` with ``(R - t0 - L) mod β = 0``
whose scope holds an item of the window's stream (the non-empty policy), the sliding program's
relation at ``R - b``; one sliding run per distinct ``l`` serves every t0 (the bounds ``[t-L, t)``
and ``(t-L, t]`` share one). Its window is maintained by deltas: the τ1 copy rule is unfolded
into the rules that read it (:mod:`solver.incremental.unfold`), so each tick costs what entered
and left the window, and a sliding run costs about one run of a single t0 (SPARQLstream Q7:
0.68 s against 0.81 s), where the profile's own program at every tick would cost β of them
(the approach tried and taken out in 426dd99).

Only for profiles whose report policy is exactly window close ∧ non-empty, with full start-up
windows, Rstream, empty relations emitted (dropped ones are read off this run by
:meth:`agreement.check.pipeline.RunCache._derived`) and one range window; any other profile,
and a query that reads time otherwise, keeps its own program. The content-change profile
(CQELS) is read off the same sliding runs, one per scope length (:func:`change_reading`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator

from agreement.check.expected import LazyReports, Report, atoms_now, relation
from ingest.eager import QueryData
from lars.analysis import derived_predicates
from lars.atoms import Atom
from lars.errors import SolverError
from lars.streams import Timeline
from solver.strategies import evaluate
from translate.api import Translation
from translate.profiles import Profile
from translate.reports import compile_sliding
from translate.rsp import RangeWindow, RspQuery

POLICY = frozenset({"window-close", "non-empty"})


def window_reading(query: RspQuery, profile: Profile) -> tuple[int, int] | None:
    """``(l, b)`` when the runs of ``profile`` are read off the sliding run of window length
    ``l`` (the scope at ``R`` is the window ``[t - l, t]`` at ``t = R - b``), ``None`` when
    they are not (see the module doc); ``l`` is negative when every scope is empty.

    >>> from dataclasses import replace
    >>> from translate.api import parse_query
    >>> from translate.profiles import profile
    >>> q = parse_query("SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 5s STEP 5s] "
    ...                 "{ ?s <http://ex.org/p> ?o } }", engine="cqels")
    >>> csparql = profile("csparql")
    >>> [window_reading(q, replace(csparql, bounds=b)) for b in ("right-open", "open", "closed")]
    [(4, 1), (3, 1), (5, 0)]
    >>> window_reading(q, profile("cqels")) is None  # content change
    True
    """
    windows = {(spec.stream, spec.window) for spec in query.streams}
    if (profile.paper or profile.tick != "time" or profile.report != POLICY
            or profile.startup != "full" or profile.empty != "emit"
            or profile.r2s_for(query.name, query.r2s) != "rstream" or len(windows) != 1):
        return None
    window = query.streams[0].window
    if not isinstance(window, RangeWindow) or window.length == 0:
        return None
    lower = profile.bounds in ("left-open", "open")
    upper = profile.bounds in ("right-open", "open")
    return window.length - lower - upper, int(upper)


def sliding_relations(query: RspQuery, profile: Profile, length: int, variant: str,
                      data_for: Callable[[Translation], QueryData], timeline: Timeline,
                      slices_of: Callable[[QueryData], Iterable]) -> LazyReports | None:
    """The relations of the windows ``[t - length, t]`` holding input (:func:`window_relations`)
    of the sliding program, read as far as asked (no window at all for a negative ``length``).
    ``None`` where the profile's own program decides: the query reads time otherwise, or static
    data holds a predicate the sliding program derives (τ1's ``triple``), which keeps its window
    in a copy rule evaluated anew at every tick (:mod:`solver.incremental.unfold`), β times the
    work of one run.

    Args:
        data_for: the encoded data for a translation (:func:`ingest.eager.encoded_data`).
        slices_of: the stream's slices ``(t, atoms)`` in that data, read anew.
    """
    if length < 0:
        return LazyReports(())
    translation = compile_sliding(query, profile, length, variant)
    if translation is None:
        return None
    data = data_for(translation)
    derived = derived_predicates(translation.program)
    if any(atom.signature in derived for atom in data.background):
        return None
    stream = data.encoder.encode(query.streams[0].stream)
    return LazyReports(window_relations(translation, length, slices_of(data), timeline,
                                        data.background, data.encoder, stream))


def arrival_times(slices: Iterable, stream: object) -> list[int]:
    """The time points of ``slices`` (``(t, striple atoms)``) where an item of ``stream`` (the
    encoded stream IRI) arrives."""
    return [t for t, atoms in slices if any(atom.args[3] == stream for atom in atoms)]


def window_relations(translation: Translation, length: int, slices: Iterable,
                     timeline: Timeline, background: Iterable[Atom], encoder,
                     stream: object) -> Iterator[Report]:
    """The relation of every window ``[t - length, t]`` of the sliding program ``translation``
    (:func:`translate.reports.compile_sliding`) that holds an item of ``stream`` (the encoded
    stream IRI), as ``Report(t, rows)``, one at a time: the others are never reported."""
    times: list[int] = []

    def noted(slices: Iterable) -> Iterator:
        for t, atoms in slices:
            if any(atom.args[3] == stream for atom in atoms):
                times.append(t)
            yield t, atoms

    answers = evaluate(translation.program, noted(slices), timeline, background,
                       shown={translation.answer.predicate}, inputs=translation.inputs)
    for answer in answers:  # the slice at t is read before the answer at t
        first = bisect_left(times, answer.time - length)
        if first < len(times) and times[first] <= answer.time:
            yield Report(answer.time, relation(translation, atoms_now(translation, answer),
                                               encoder))


def read_off(relations: Iterable[Report], t0: int, window: RangeWindow, shift: int,
             end: int) -> Iterator[Report]:
    """The reports of t0 among the window relations (:func:`window_relations`): at each close
    ``R = t + shift ≤ end`` with ``R ≥ t0 + L`` and ``(R - t0 - L) mod β = 0``.

    >>> relations = [Report(t, frozenset({(t,)})) for t in range(12)]
    >>> [r.time for r in read_off(relations, 1, RangeWindow(4, 3), 1, 10)]
    [5, 8]
    >>> [sorted(r.rows) for r in read_off(relations, 1, RangeWindow(4, 3), 1, 10)]
    [[(4,)], [(7,)]]
    """
    first = t0 + window.length
    for report in relations:
        close = report.time + shift
        if close > end:
            return
        if close >= first and (close - first) % window.step == 0:
            yield Report(close, report.rows)


CHANGE_POLICIES = (frozenset({"content-change"}), frozenset({"content-change", "non-empty"}))
"""Report policies read by :func:`change_reading` (non-empty is implied by content change: the
arriving item is in the scope)."""


def change_reading(query: RspQuery, profile: Profile) -> bool:
    """Whether the runs of a content-change profile (CQELS) are read off sliding runs.

    Under content change the profile evaluates at each time point ``R > t0`` where an item of
    the window's stream arrives, over the scope read at ``R``: the earliest window instance
    ``[t0 + kβ, t0 + kβ + L)`` still open at ``R``, cut at ``R`` (the CSRBench oracle's
    ``[max(t0, t0+aβ), τ]``; :func:`translate.reports._scope`, bounds and start-up as the
    profile says). That scope is the tick interval ``[s, R]`` (:func:`change_scope_start`),
    so the report is the sliding program's relation at ``R`` for the window length
    ``R - s``, between 0 and ``L``: ``L + 1`` sliding runs serve every t0, bounds and start-up
    (CSRBench's CQELS Q4: 5 t0s, the bounds and start-up changes, 8 runs of the profile's
    program). As for window closes, nothing else in the program may read time
    (:func:`translate.reports.compile_sliding` checks it).

    Only with a slide no longer than the window (``β ≤ L``): the scope at ``R`` then holds the
    item arriving at ``R``, so the sliding run reports there (it reports only windows holding
    input); with ``β > L`` an item arriving between two instances is in no scope, and the
    profile reports the query over nothing. Rstream with empty relations emitted, one range
    window, bounds other than ``(t-L, t)`` (refused under content change), as :func:`window_reading`.

    >>> from dataclasses import replace
    >>> from translate.api import parse_query
    >>> from translate.profiles import profile
    >>> q = parse_query("SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 4s SLIDE 4s] "
    ...                 "{ ?s <http://ex.org/p> ?o } }", engine="cqels")
    >>> change_reading(q, replace(profile("cqels"), empty="emit", r2s="rstream"))
    True
    >>> change_reading(q, profile("cqels")), change_reading(q, profile("csparql"))  # Istream; close
    (False, False)
    """
    windows = {(spec.stream, spec.window) for spec in query.streams}
    if (profile.paper or profile.tick != "time" or profile.report not in CHANGE_POLICIES
            or profile.empty != "emit" or profile.bounds == "open"
            or profile.r2s_for(query.name, query.r2s) != "rstream" or len(windows) != 1):
        return False
    window = query.streams[0].window
    return isinstance(window, RangeWindow) and 0 < window.step <= window.length


def change_scope_start(time: int, t0: int, window: RangeWindow, profile: Profile) -> int:
    """The first tick of the scope a content-change profile reads at ``time`` (an evaluation,
    ``time > t0``), for ``β ≤ L``: the least ``T`` in ``[time - L, time]`` in the scope of
    :func:`translate.reports._scope` (``T ≤ R``; ``T ≥ t0``, ``T > t0`` under ``(t-L, t]``,
    with full start-up; the instance start ``S = T' - (T' - t0) mod β`` of ``T' = T`` (``T - 1``
    under ``(t-L, t]``) with ``S > R - L``, ``S ≥ R - L`` unless right-open). Each condition
    holds from some ``T`` on (``S`` does not decrease with ``T``), and ``T = R`` meets them all
    (``S ≥ R - β + 1 > R - L`` once ``β ≤ L``), so the scope is ``[s, R]``; a ``T < R - L``
    has ``S ≤ T < R - L``. Found by bisection.

    >>> w = RangeWindow(4, 4)
    >>> from translate.profiles import profile
    >>> [change_scope_start(r, 1, w, profile("cqels")) for r in (2, 4, 5, 8, 9)]  # [1,5), [5,9)
    [1, 1, 5, 5, 9]
    """
    length, step, bounds = window.length, window.step, profile.bounds

    def inside(tick: int) -> bool:
        latest = tick - 1 if bounds == "left-open" else tick
        if profile.startup == "full" and (tick <= t0 if bounds == "left-open" else tick < t0):
            return False
        start = latest - (latest - t0) % step
        return start > time - length if bounds == "right-open" else start >= time - length

    low, high = time - length, time
    if not inside(high):
        raise SolverError(f"the content-change scope at {time} (t0 = {t0}) does not hold its "
                          f"own arrival: a slide longer than the window")
    while low < high:
        middle = (low + high) // 2
        if inside(middle):
            high = middle
        else:
            low = middle + 1
    return low


def read_off_changes(relations: Callable[[int], Iterable[Report]], arrivals: Iterable[int],
                     t0: int, window: RangeWindow, profile: Profile) -> Iterator[Report]:
    """The reports of a content-change profile at t0 (:func:`change_reading`): at each
    arrival ``R > t0`` of an item of the window's stream, the relation at ``R`` of the sliding
    run (:func:`window_relations`) of the length ``R - s``, ``s`` the scope's first tick
    (:func:`change_scope_start`); ``relations(l)`` gives that run, read as far as asked.

    >>> runs = {l: [Report(t, frozenset({(t - l,)})) for t in range(10)] for l in range(5)}
    >>> from translate.profiles import profile
    >>> [(r.time, sorted(r.rows)) for r in read_off_changes(runs.get, [1, 2, 6], 1, RangeWindow(4, 4),
    ...                                                     profile("cqels"))]
    [(2, [(1,)]), (6, [(5,)])]
    """
    readers: dict[int, Iterator[Report]] = {}
    for time in arrivals:
        if time <= t0:
            continue
        length = time - change_scope_start(time, t0, window, profile)
        reader = readers.setdefault(length, iter(relations(length)))
        found = next((report for report in reader if report.time >= time), None)
        if found is None or found.time != time:  # the arrival at ``time`` is in that window
            raise SolverError(f"the sliding run of length {length} has no relation at {time}, "
                              f"where an item arrives")
        yield Report(time, found.rows)
