"""``lars check --follow``: one engine's answers judged as they arrive (issue 31).

One line per recorded relation, written and flushed once it is judged (text, or one JSON
object per line with ``--format jsonl``), a line for each late line, and a summary: CORRECT
(exit 0) when the recording ended with a candidate t0 left, INCORRECT (exit 1) as soon as none
is left, NOTHING JUDGED when no relation was judged (exit 2 at the end of the inputs, 130 on
Ctrl-C, after the summary). The check is :class:`agreement.check.follow.FollowedCheck`; the
sources are read by :mod:`ingest.live`, as ``lars agree --follow`` reads them.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from agreement.check.follow import FollowedCheck, Outcome
from agreement.check.live import Dropped, LateRelation, LateTriples, Verdict
from agreement.check.report import COMPARISON_TEXT, REASONS
from agreement.cli.live import LiveWriter, delay_ticks, followed
from ingest.live import PerSource
from lars.errors import InputError

ENDED = "the run ended before this relation"
"""Why a t0 is dropped when its expected relations ended first."""


def command_check_follow(args: argparse.Namespace, out: TextIO) -> int:
    """``lars check --follow``: 0 correct, 1 incorrect, 2 nothing judged (130 on Ctrl-C)."""
    if args.format == "json":
        raise InputError("--follow writes each relation's verdict as it is judged: --format "
                         "text or jsonl")
    if args.stream == "-" == args.answers:
        raise InputError("only one input can be the standard input ('-')")
    sources = PerSource(followed({"stream": args.stream, "answers": args.answers}, args))
    check = FollowedCheck(
        args.query, args.stream, args.answers, args.profile, sources.lines("stream"),
        sources.lines("answers"), delay_ticks(args.max_delay, args.unit), args.static,
        args.unit, args.engine, args.stream_iri, args.compare, args.merge_same_time, args.period,
        args.variant, args.start, args.end, args.select, args.max_t0, args.max_time_points)
    writer = LiveWriter(out, args.format)
    try:
        for event in check.events():
            if isinstance(event, Outcome):
                return finish(writer, check, event, interrupted=False)
            write(writer, event)
    except KeyboardInterrupt:
        finish(writer, check, None, interrupted=True)
        raise
    raise AssertionError("the check ended without an outcome")


def write(writer: LiveWriter, event: Verdict | LateRelation | LateTriples) -> None:
    """One event, at once."""
    if isinstance(event, Verdict):
        writer.emit(verdict_json(event), verdict_text(event))
    elif isinstance(event, LateRelation):
        where = (f"it belongs before relation {event.before + 1}" if event.before is not None
                 else "the relations it belongs among are no longer kept")
        writer.emit({"kind": "late", "what": "relation", "timestamp": event.relation.timestamp,
                     "time": event.tick, "rows": len(event.relation.rows),
                     "before": None if event.before is None else event.before + 1},
                    f"late relation at {event.relation.timestamp} ms (time {event.tick}, "
                    f"{len(event.relation.rows)} binding(s)): left out of the alignment; {where}")
    else:
        what = "a late triple" if len(event.times) == 1 else f"{len(event.times)} late triples"
        writer.emit({"kind": "late", "what": "triples", "relation": event.index + 1,
                     "times": list(event.times)},
                    f"relation {event.index + 1}: its expected relations leave out {what} at "
                    f"{', '.join(map(str, event.times))}, which the solver had passed; whether "
                    "that would change its verdict is not known")


def verdict_text(verdict: Verdict) -> str:
    left = (", ".join(f"{t0} (expected at {time})" for t0, time in verdict.left.items())
            if verdict.left else "none")
    dropped = "".join(f"; t0 = {t0s} dropped: {text}" for text, t0s in grouped(verdict.dropped))
    status = "matches" if verdict.left else "MISMATCH"
    return (f"relation {verdict.index + 1} at {verdict.relation.timestamp} ms (time "
            f"{verdict.tick}, {len(verdict.relation.rows)} binding(s)): {status}{dropped}; "
            f"t0 left: {left}")


def grouped(dropped: tuple[Dropped, ...]) -> list[tuple[str, str]]:
    """``(why, t0s)`` of the candidates dropped, those dropped for the same reason together,
    runs of t0 written ``1–10``."""
    by_text: dict[str, list[int]] = {}
    for item in dropped:
        by_text.setdefault(dropped_text(item), []).append(item.t0)
    found = []
    for text, t0s in by_text.items():
        runs: list[list[int]] = []
        for t0 in t0s:
            if runs and t0 == runs[-1][-1] + 1:
                runs[-1].append(t0)
            else:
                runs.append([t0])
        found.append((text, ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r))
                                      for r in runs)))
    return found


def dropped_text(dropped: Dropped) -> str:
    if dropped.reason == "ended":
        return ENDED
    if dropped.expected is None:
        return "no relation is expected up to its time"
    counts = f": {dropped.missing} missing, {dropped.extra} extra" if dropped.reason == "rows" else ""
    return f"{REASONS[dropped.reason]} (expected at {dropped.expected.time}{counts})"


def verdict_json(verdict: Verdict) -> dict:
    return {"kind": "relation", "index": verdict.index + 1, "timestamp": verdict.relation.timestamp,
            "time": verdict.tick, "rows": len(verdict.relation.rows),
            "left": [{"t0": t0, "expected_time": time} for t0, time in verdict.left.items()],
            "dropped": [{"t0": d.t0, "reason": d.reason,
                         "expected_time": d.expected.time if d.expected else None,
                         "missing": d.missing, "extra": d.extra} for d in verdict.dropped]}


def finish(writer: LiveWriter, check: FollowedCheck, outcome: Outcome | None,
           interrupted: bool) -> int:
    """The summary line; the exit status (2 and UNDECIDED when the judged relations fit but late
    lines were left out of the judgement).

    Raises:
        InputError: the inputs ended before any relation was judged (nothing to check).
    """
    left = tuple(check.judge.left())
    judged = check.judge.judged
    correct = outcome.correct if outcome is not None else (bool(left) if judged else None)
    late = check.ledger.relations + check.late_triples
    # (newcomer) at the end of the inputs, a late line left out of the judgement withholds the
    # verdict: with it the verdict may be the other one (batch judged such a recording
    # INCORRECT; a late triple missing from an expected relation can make a right recording
    # look wrong); and nothing judged is no verdict either.
    withheld = not interrupted and (correct is None or bool(late))
    verdict = None if withheld else correct
    summary = summary_text(check, correct, left, interrupted, withheld)
    ending = ("interrupted" if interrupted else "the recording ended" if correct
              else "no later relation can change that")
    # the summary first, so a jsonl reader gets one when nothing was judged too
    writer.emit({"kind": "summary", "correct": verdict, "t0": left[0] if verdict else None,
                 "left": list(left), "relations": judged, "late_relations": check.ledger.relations,
                 "late_triples": check.late_triples, "uncompared": check.uncompared,
                 "summary": summary, "interrupted": interrupted},
                summary if withheld else f"{summary}; {late_text(check)}; {ending}")
    if withheld and correct is None:
        raise InputError("the inputs ended before any recorded relation was judged: nothing to check")
    return 2 if withheld else 0 if correct else 1


def summary_text(check: FollowedCheck, correct: bool | None, left: tuple[int, ...],
                 interrupted: bool, withheld: bool) -> str:
    """The summary's verdict and why: CORRECT, INCORRECT, NOTHING JUDGED, or UNDECIDED (the
    verdict ``correct`` of the relations judged, ``withheld`` for the late lines left out)."""
    judged, name = check.judge.judged, check.profile.name
    comparison = COMPARISON_TEXT[check.judge.comparison]
    if correct is None:
        return "NOTHING JUDGED: no recorded relation was judged"
    if withheld:
        found = (f"the {judged} recorded relation(s) judged are a contiguous run of the relations "
                 f"profile {name} expects (t0 = {left[0]}; {comparison})" if correct else
                 f"after relation {judged} no admissible t0 fits the recorded relations ({comparison})")
        return (f"UNDECIDED: {found}, but {check.ledger.relations} late relation(s) and "
                f"{check.late_triples} late triple(s) were left out of the judgement, and with "
                "them the verdict may differ: judge the whole files with lars check, or give a "
                "larger --max-delay")
    if correct:
        also = f"; also t0 = {', '.join(map(str, left[1:]))}" if len(left) > 1 else ""
        return (f"CORRECT{' so far' if interrupted else ''}: the {judged} recorded "
                f"relation(s) are a contiguous run of the relations profile {name} expects "
                f"(t0 = {left[0]}{also}; {comparison})")
    return (f"INCORRECT: after relation {judged}, no admissible t0 is left: the recorded "
            f"relations are no contiguous run of the relations profile {name} expects "
            f"({comparison})")


def late_text(check: FollowedCheck) -> str:
    """What the summary says of the lines left out: late ones, and those outside the timeline."""
    late = check.ledger.relations + check.late_triples
    notes = (f"{check.ledger.relations} late relation(s), {check.late_triples} late triple(s)"
             if late else "no late lines")
    if check.uncompared:
        notes += f"; {check.uncompared} triple(s) outside the timeline, not read"
    return notes
