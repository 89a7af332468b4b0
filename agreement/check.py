"""The agreement check as one call per mode: recorded engine answers, or our translations.

``check_recorded`` compares answer files of real engines; ``check_query`` (added with the
translation) computes both sides from a query and a stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from agreement.compare import AnswerSeries, compare
from agreement.conditions import merged_triples, shared_patterns, snapshot_explanations, static_only
from agreement.defaults import pulling_timeline
from agreement.expected import reports
from ingest.limits import check_timeline_length, max_time_points as max_time_points_in_force
from agreement.explain import shifted_answers
from agreement.recorded import read_recorded
from agreement.report import AgreementReport
from ingest.eager import QueryData, query_data
from ingest.rdffiles import StreamTriple
from lars.errors import SolverError
from lars.streams import Timeline
from solver.strategies import evaluate, slices_of
from translate.api import Translation, translate
from translate.durations import unit_text
from translate.profiles import Profile
from translate.reports import compile_profile, report_reach
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
    pull, push = profiles or (None, None)
    csparql = read_recorded(csparql_file, unit_ms, pull.label_ms if pull else 0)
    cqels = read_recorded(cqels_file, unit_ms, push.label_ms if push else 0).reordered(
        csparql.variables)
    times = [*csparql.answers, *cqels.answers]
    line, extended = pulling_timeline(
        Timeline(0 if timeline[0] is None else timeline[0],
                 max(times, default=0) if timeline[1] is None else timeline[1]),
        period, end_given=timeline[1] is not None, last_input=max(times, default=None),
        what="the recorded answers end")
    span = (line.start, line.end)
    check_timeline_length(*span, max_time_points_in_force(max_time_points))
    verdicts = compare(csparql, cqels, period, span, half_open=pull is not None and _half_open(pull))
    notes = [RECORDED_NOTE, *([extended] if extended else [])] + (
        _profile_notes(pull, push) if profiles else [])
    report = AgreementReport("recorded", period, unit_text(unit_ms), span, csparql.variables,
                             verdicts, notes=notes, csparql=csparql, cqels=cqels)
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = shifted_answers(
            verdict, csparql, cqels, period, report.row_text)
    return report


def _half_open(pull: Profile) -> bool:
    return pull.bounds in ("right-open", "open")


def _profile_notes(pull: Profile, push: Profile) -> list[str]:
    reading = "[k·U, (k+1)·U)" if _half_open(pull) else "(k·U, (k+1)·U]"
    any_t0 = [p.name for p in (pull, push) if p.t0 is None]
    return [f"profiles: {pull.name} (pulling side: its report at (k+1)·U against the other side's "
            f"answers in {reading}) and {push.name}"
            + (f"; computed answers take t0 = 0 for {', '.join(any_t0)}" if any_t0 else "")]


def check_profiles(query: RspQuery, elements: Sequence[StreamTriple], graphs: dict, period: int,
                   profiles: tuple[Profile, Profile], timeline: Timeline,
                   variant: str = "brave") -> AgreementReport:
    """Both sides computed under engine profiles (pulling side first), each side's relations
    at its report times, compared on the pulling side's intervals (SPEC section 12)."""
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
                             compare(series[0], series[1], period, span, _half_open(profiles[0])),
                             notes=_profile_notes(*profiles), csparql=series[0], cqels=series[1])
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = shifted_answers(
            verdict, series[0], series[1], period, report.row_text)
    return report


def side_answers(translation: Translation, data: QueryData, time_points: Iterable[int]) -> AnswerSeries:
    """The chopped ``ans_1`` rows of one translated side at each of ``time_points``."""
    wanted = set(time_points)
    select = translation.answer.select_order
    answers = {}
    for answer in evaluate(translation.program, slices_of(data.stream), data.stream.timeline,
                           data.background, shown={translation.answer.predicate}):
        if answer.time not in wanted:
            continue
        if len(answer.streams) != 1:
            raise SolverError(f"the {translation.engine} translation has {len(answer.streams)} answer "
                              f"streams at {answer.time}; translated programs must have exactly one")
        atoms = [atom for atom, time in answer.streams[0] if time == answer.time]
        answers[answer.time] = frozenset(
            tuple(row[v] for v in select) for row in translation.rows(atoms, data.encoder))
    return AnswerSeries(select, answers)


def check_query(query: RspQuery, elements: Sequence[StreamTriple], graphs: dict, period: int,
                variant: str = "brave", window_bounds: str = "closed",
                timeline: Timeline = Timeline(0, 0),
                csparql_query: RspQuery | None = None) -> AgreementReport:
    """Compute both sides from a query and check them (SPEC section 9).

    C-SPARQL: ``℘(τ1(cs(Q)), U)`` at the multiples of ``U``; CQELS: ``℘(τ2(Q'))`` for the
    ``variant`` of ``cq(Q)`` at every time point with input.

    Args:
        query: the abstract query, normally read from CQELS syntax (its stream patterns give ``S``).
        elements: the stream triples inside ``timeline`` (:func:`ingest.eager.read_rdf_stream`).
        graphs: static graphs by IRI (see :mod:`ingest.eager`).
        period: ``U`` in ticks.
        csparql_query: a separately written C-SPARQL query for the C-SPARQL side, if any.
    """
    cs_side = translate(csparql_query or query, "csparql", mode="pull", period_ticks=period,
                        window_bounds=window_bounds)
    cq_side = translate(query, "cqels", variant=variant, mode="push", window_bounds=window_bounds)
    data = query_data([cs_side, cq_side], elements, graphs, timeline)
    line = data.stream.timeline
    pulls = [t for t in line if t % period == 0]
    pushes = data.stream.time_points()
    csparql = side_answers(cs_side, data, pulls)
    cqels = side_answers(cq_side, data, pushes)
    report = AgreementReport("computed", period, unit_text(query.unit_ms), (line.start, line.end),
                             csparql.variables, compare(csparql, cqels, period, (line.start, line.end)),
                             notes=[f"CQELS variant: {variant}", f"window bounds: {window_bounds}"],
                             csparql=csparql, cqels=cqels)
    shared = shared_patterns(query, graphs) + merged_triples(query, elements)
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = (
            shared + static_only(verdict, elements, report.row_text)
            + snapshot_explanations(verdict, query, csparql.variables, elements, pushes, line,
                                    window_bounds)
            + shifted_answers(verdict, csparql, cqels, period, report.row_text))
    return report

