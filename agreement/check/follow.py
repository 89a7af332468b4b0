"""``lars check --follow`` as one object: read the query, then the recording and the stream as
they arrive, and give each event of the check (:mod:`agreement.check.live` says how it judges).

:class:`FollowedCheck` is set up from the same arguments as batch
:func:`agreement.check.pipeline.judge_files`, with the two live sources' lines instead of
files; :meth:`FollowedCheck.events` gives, in order, the verdict on each recorded relation
(:class:`~agreement.check.live.Verdict`), the late lines (:class:`~agreement.check.live.
LateRelation`, :class:`~agreement.check.live.LateTriples`) and last the :class:`Outcome`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rdflib import URIRef

from agreement.check.expected import admissible_t0
from agreement.check.live import (LateLedger, LateRelation, LateTriples, LiveJudge, LiveRecording,
                                  LiveRuns, Verdict, readings)
from agreement.check.judge import COMPARISONS
from agreement.check.pipeline import check_t0_count, check_timeline, projected
from agreement.defaults import default_period
from agreement.optiondefaults import DEFAULT_MAX_T0
from ingest.eager import static_graphs
from ingest.limits import max_time_points as limit_in_force
from ingest.liveslices import LiveSlices
from ingest.policy import read_text
from ingest.watermark import Reorder, Timed
from lars.errors import InputError
from lars.streams import Timeline
from translate.api import parse_query
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.profilefile import resolve_profile
from translate.reports import refuse_unread_streams, window_reach


@dataclass(frozen=True)
class Outcome:
    """How the check ended: ``correct`` (``None``: no recorded relation was judged), the t0s
    left (the first is the one batch reports) or, when incorrect, the verdict that dropped the
    last."""

    correct: bool | None
    left: tuple[int, ...] = ()
    last: Verdict | None = None


class FollowedCheck:
    """One live check (see the module docstring); its counters are read for the summary, also
    when it is interrupted.

    Args:
        stream_lines, answer_lines: ``(line number, text)`` of each source as they arrive.
        max_delay: ``D`` in ticks, for both sources.
        The others: as :func:`agreement.check.pipeline.judge_files`.

    Raises:
        InputError: an unknown comparison; the errors of batch ``lars check`` on its options.
    """

    def __init__(self, query_path: str, stream: str, answers: str, profile: str,
                 stream_lines: Iterator[tuple[int, str]], answer_lines: Iterator[tuple[int, str]],
                 max_delay: int = 0, static: Sequence[str] = (), unit: str = "1s",
                 engine: str | None = None, stream_iri: str | None = None,
                 comparison: str = "bindings", merge: bool = False, period: str | None = None,
                 variant: str = "brave", start: int | None = None, end: int | None = None,
                 select: Sequence[str] | None = None, max_t0: int = DEFAULT_MAX_T0,
                 max_time_points: int | None = None) -> None:
        if comparison not in COMPARISONS:
            raise InputError(f"unknown comparison {comparison!r} (expected one of {', '.join(COMPARISONS)})")
        self.profile = resolve_profile(profile)
        self.unit_ms = parse_unit(unit)
        query = parse_query(read_text(query_path), str(query_path), engine, unit)
        refuse_unread_streams(query, self.profile, str(query_path))
        check_t0_count(query, self.profile, max_t0)
        self.query = query = projected(query, select, (), answers)
        self.period = to_ticks(parse_duration(period), self.unit_ms) if period else default_period(query)
        self.start, self.end = start or 0, end
        self.timeline = Timeline(self.start, end if end is not None
                                 else self.start + limit_in_force(max_time_points) - 1)
        self.ledger = LateLedger(window_reach([query]))
        self.late_triples = self.uncompared = 0
        self.pending: list[LateRelation | LateTriples] = []
        streams = {spec.stream for spec in query.streams}
        default = URIRef(stream_iri) if stream_iri else (next(iter(streams)) if len(streams) == 1 else None)
        self.feed = LiveSlices(stream_lines, stream, default, self.unit_ms, Reorder(max_delay), self.triple)
        runs = LiveRuns(query, (), static_graphs(list(static), query), self.timeline, self.period,
                        variant, feed=self.inside(), past_end=self.past_end)
        self.judge = LiveJudge(readings(runs, self.profile, admissible_t0(query, self.profile), comparison),
                               self.profile, comparison, self.unit_ms)
        runs.started()
        variables = tuple(v.name for v in query.variables)
        self.recording = LiveRecording(
            answer_lines, answers, variables, self.judge.tick, self.unit_ms,
            merge or self.profile.relations == "by-time", Reorder(max_delay), self.late_relation,
            lambda found, where: projected(query, None, found, where))

    def inside(self) -> Iterator:
        """The stream's slices inside the timeline; the others counted as not compared."""
        for t, triples in self.feed:
            if self.start <= t <= self.timeline.end:
                yield t, triples
            else:
                self.uncompared += len(triples)

    def past_end(self, time: int) -> bool:
        """Whether a report at ``time`` lies after the timeline batch ``lars check`` would give
        the stream read so far, once it has ended (the last triple plus the widest window)."""
        if not self.feed.ended or self.end is not None:
            return False
        last = self.feed.last if self.feed.last is not None else self.start
        return time > check_timeline(self.query, last, self.start, None, None).end

    def triple(self, item: Timed) -> None:
        """A late stream triple: left out, counted, noted with the verdicts it reaches."""
        if not self.start <= item.time:
            self.uncompared += 1
            return
        self.late_triples += 1
        self.pending += self.ledger.triple(item.time)

    def late_relation(self, relation, tick: int) -> None:
        self.pending.append(self.ledger.relation(relation, tick, self.judge.judged))

    def events(self) -> Iterator[Verdict | LateRelation | LateTriples | Outcome]:
        """Every event of the check as it happens, the :class:`Outcome` last."""
        for relation in self.recording:
            verdict = self.judge.judge(relation)
            yield from self.drained()
            yield verdict
            yield from self.ledger.verdict(verdict)
            if not verdict.left:
                yield Outcome(False, (), verdict)
                return
        yield from self.drained()
        if not self.judge.judged:
            yield Outcome(None)
            return
        yield Outcome(True, tuple(self.judge.left()))

    def drained(self) -> Iterator[LateRelation | LateTriples]:
        while self.pending:
            yield self.pending.pop(0)
