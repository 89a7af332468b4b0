"""The agreement check as one call per mode: recorded engine answers, or our translations.

``check_recorded`` compares answer files of real engines; ``check_query`` (added with the
translation) computes both sides from a query and a stream.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from operator import attrgetter
from pathlib import Path

from agreement.compare import AnswerSeries, Row, compare, uncompared
from agreement.defaults import pulling_timeline
from agreement.agree.explain import shifted_answers
from agreement.agree.report import AgreementReport
from agreement.agree.streaming import ComputedCheck, Remote, Solve
from ingest.eager import query_data
from ingest.lazy import RdfSlice
from ingest.rdffiles import StreamTriple
from lars.streams import Timeline
from translate.durations import unit_text
from translate.profiles import Profile
from translate.rsp import RspQuery

RECORDED_NOTE = ("time points are floor(timestamp / unit); CQELS answers at wall-clock times "
                 "just after the arrival that caused them, so flooring puts each answer at that "
                 "arrival's time point (exact while the engine answers within one tick)")


def check_recorded(csparql_file: str | Path, cqels_file: str | Path, period: int, unit_ms: int,
                   timeline: tuple[int | None, int | None] = (None, None),
                   profiles: tuple[Profile, Profile] | None = None,
                   max_time_points: int | None = None) -> AgreementReport:
    """Compare answers recorded from C-SPARQL and CQELS (CSRBench JSON files).

    Args:
        period: the pulling period in ticks.
        unit_ms: the length of one tick in milliseconds.
        timeline: ``(from, to)``; by default from 0 to the end of the pulling interval holding
            the last recorded answer (:func:`agreement.defaults.pulling_timeline`).
        profiles: the engines' profiles (pulling side first): labels are mapped back to report
            times with each profile's label offset, and the pulling intervals follow the pulling
            side's window bounds (SPEC section 12). ``None``: the paper's reading.
        max_time_points: the longest timeline accepted (:mod:`ingest.limits`).

    Raises:
        LimitError: the timeline is longer.
    """
    from agreement.recorded import read_recorded  # the recordings' reader (issue 29)
    pull, push = profiles or (None, None)
    csparql = read_recorded(csparql_file, unit_ms, pull.label_ms if pull else 0)
    cqels = read_recorded(cqels_file, unit_ms, push.label_ms if push else 0).reordered(
        csparql.variables)
    times = [*csparql.answers, *cqels.answers]
    right_open = pull is not None and half_open(pull)
    line, extended = pulling_timeline(
        Timeline(0 if timeline[0] is None else timeline[0],
                 max(times, default=0) if timeline[1] is None else timeline[1]),
        period, end_given=timeline[1] is not None, last_input=max(times, default=None),
        what="the recorded answers end", half_open=right_open, limit=max_time_points,
        unit_ms=unit_ms)
    span = (line.start, line.end)
    verdicts = compare(csparql, cqels, period, span, half_open=right_open)
    left_out = uncompared(csparql, cqels, period, span, right_open)
    notes = [RECORDED_NOTE, *([extended] if extended else []), *([left_out] if left_out else [])] + (
        profile_notes(pull, push) if profiles else [])
    report = AgreementReport("recorded", period, unit_text(unit_ms), span, csparql.variables,
                             verdicts, notes=notes, csparql=csparql, cqels=cqels)
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = shifted_answers(
            verdict, csparql, cqels, period, report.row_text)
    return report


def half_open(pull: Profile) -> bool:
    """Whether the pulling side's windows are right-open, so its intervals are ``[k·U, (k+1)·U)``."""
    return pull.bounds in ("right-open", "open")


def profile_notes(pull: Profile, push: Profile) -> list[str]:
    """What the report says about the two profiles and how their answers are compared."""
    reading = "[k·U, (k+1)·U)" if half_open(pull) else "(k·U, (k+1)·U]"
    any_t0 = [p.name for p in (pull, push) if p.t0 is None]
    return [f"profiles: {pull.name} (pulling side: its report at (k+1)·U against the other side's "
            f"answers in {reading}) and {push.name}"
            + (f"; computed answers take t0 = 0 for {', '.join(any_t0)}" if any_t0 else "")]


def check_profiles(query: RspQuery, elements: Sequence[StreamTriple], graphs: dict, period: int,
                   profiles: tuple[Profile, Profile], timeline: Timeline,
                   variant: str = "brave") -> AgreementReport:
    """Both sides computed under engine profiles (pulling side first), each side's relations
    at its report times, compared on the pulling side's intervals (SPEC section 12)."""
    from agreement.check.expected import reports  # with the solver (issue 29: not the paper pair's)
    from translate.reports import compile_profile, report_reach
    reach = report_reach(query, [e.time for e in elements], period)
    pull_side, push_side = (compile_profile(query, p, p.t0 or 0, period, variant, reach)
                            for p in profiles)
    data = query_data([pull_side, push_side], elements, graphs, timeline)
    series = []
    for translation in (pull_side, push_side):
        found = reports(translation, data)
        series.append(AnswerSeries(translation.answer.select_order,
                                   {r.time: r.rows for r in found}))
    span = (timeline.start, timeline.end)
    report = AgreementReport("computed", period, unit_text(query.unit_ms), span,
                             series[0].variables,
                             compare(series[0], series[1], period, span, half_open(profiles[0])),
                             notes=profile_notes(*profiles), csparql=series[0], cqels=series[1])
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = shifted_answers(
            verdict, series[0], series[1], period, report.row_text)
    return report


def collect_check(check: ComputedCheck, slices: Iterator[RdfSlice] | None,
                  solve: Solve | None = None, remote: Remote | None = None
                  ) -> tuple[AgreementReport, dict[int, int]]:
    """Both sides computed from a query over a stream, collected into one report, and the
    number of triples at each time point with input (SPEC section 9).

    C-SPARQL: ``℘(τ1(cs(Q)), U)`` at the multiples of ``U``; CQELS: ``℘(τ2(Q'))`` for the
    variant of ``cq(Q)`` at every time point with input. The stream is read once, interval by
    interval (:mod:`agreement.agree.streaming`); what is collected here is the answers and verdicts.
    """
    pulled: dict[int, frozenset[Row]] = {}
    pushed: dict[int, frozenset[Row]] = {}
    counts: dict[int, int] = {}

    def observe(t: int, triples: int, csparql: frozenset[Row] | None, cqels: frozenset[Row] | None) -> None:
        if triples:
            counts[t] = triples
        if csparql is not None:
            pulled[t] = csparql
        if cqels is not None:
            pushed[t] = cqels

    verdicts, explanations = [], {}
    for result in check.intervals(slices, observe, solve, remote):
        verdicts.append(result.verdict)
        if result.explanations is not None:
            explanations[(result.verdict.start, result.verdict.end)] = result.explanations
    line = check.timeline
    report = AgreementReport("computed", check.period, unit_text(check.query.unit_ms),
                             (line.start, line.end), check.variables, verdicts, explanations,
                             check.notes(), csparql=AnswerSeries(check.variables, pulled),
                             cqels=AnswerSeries(check.variables, pushed))
    return report, counts


def check_query(query: RspQuery, elements: Sequence[StreamTriple], graphs: dict, period: int,
                variant: str = "brave", window_bounds: str = "closed",
                timeline: Timeline = Timeline(0, 0),
                csparql_query: RspQuery | None = None) -> AgreementReport:
    """:func:`collect_check` over stream triples held in memory (a witness, a test), every
    disagreeing interval explained.

    Args:
        query: the abstract query, normally read from CQELS syntax (its stream patterns give ``S``).
        elements: the stream triples inside ``timeline``.
        graphs: static graphs by IRI (see :mod:`ingest.eager`).
        period: ``U`` in ticks.
        csparql_query: a separately written C-SPARQL query for the C-SPARQL side, if any.
    """
    check = ComputedCheck(query, graphs, period, variant, window_bounds, timeline, csparql_query)
    ordered = sorted(elements, key=attrgetter("time"))
    slices = ((t, tuple(group)) for t, group in itertools.groupby(ordered, key=attrgetter("time")))
    return collect_check(check, slices)[0]
