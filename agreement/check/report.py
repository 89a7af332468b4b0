"""``lars check``'s verdict as text and as JSON (:class:`~agreement.check.judge.Judgement`)."""

from __future__ import annotations

from collections import Counter

from agreement.answers import term_text
from agreement.compare import Row
from agreement.check.expected import Report, row_key
from agreement.check.judge import Judgement, Mismatch

REASONS = {
    "rows": "the bindings differ",
    "label": "the time label is off by more than the profile's jitter",
    "duplicates": "the relation repeats a binding, and the profile has set answers",
    "multiplicity": "a binding is repeated another number of times than bag semantics gives",
    "unexpected": "no relation is expected at that time",
    "skipped": "an expected relation is missing from the recording",
    "boundary": "it leaves out or takes in an item stamped at a window boundary that an earlier "
                "relation placed on the other side (an item falls on one side for every window)",
}


def _row(row: Row) -> str:
    return "(" + ", ".join(term_text(value) for value in row) + ")"


COMPARISON_TEXT = {
    "bindings": "comparison: whole bindings; time labels and duplicates not compared",
    "csrbench": "comparison: csrbench, numeric values only once a binding has one; time labels "
                "and duplicates not compared",
    "strict": "comparison: strict, whole bindings, time labels and duplicates"}
"""The comparison each verdict line names (:data:`agreement.check.judge.COMPARISONS`), with what
it leaves out, so that a CORRECT verdict is never read as more than it checked."""


def _comparison(judgement: Judgement) -> str:
    return (COMPARISON_TEXT[judgement.comparison]
            + (", relations of one tick merged" if judgement.merged else ""))


def _expected_text(report: Report | None, judgement: Judgement, scope) -> str:
    where = f"window [{scope[0]},{scope[1]}]" if scope else ""
    if report is None:
        return "expected: no relation at that time point" + (f" ({where})" if where else "")
    label = report.time * judgement.unit_ms + judgement.profile.label_ms
    return (f"expected relation at {report.time} (label {label} ms{', ' + where if where else ''}): "
            f"{len(report.rows)} binding(s)")


def _repeated_lines(mismatch: Mismatch) -> list[str]:
    """For a ``duplicates`` or ``multiplicity`` mismatch (``--strict``), each binding recorded
    another number of times than expected (once under set answers, as bag semantics gives
    otherwise), with both counts."""
    if mismatch.reason not in ("duplicates", "multiplicity"):
        return []
    found, text = Counter(), {}
    for row in mismatch.recorded.rows:
        found[row_key(row)] += 1
        text.setdefault(row_key(row), row)
    counts = mismatch.expected.counts if mismatch.expected is not None else None
    wanted = {row_key(row): n for row, n in counts} if counts is not None else {}
    return [f"  repeated  {_row(text[key])}: recorded {n} time(s), expected {wanted.get(key, 1)}"
            for key, n in found.items() if n != wanted.get(key, 1)]


def mismatch_lines(judgement: Judgement, mismatch: Mismatch) -> list[str]:
    """The explanation of the first mismatch, one line per item."""
    reading = ("the recorded relations read in order against the expected ones from the start "
               "that fits them best; labels not compared" if mismatch.by_position else
               "each recorded relation read against the expected one of its time point")
    lines = [f"first mismatch (t0 = {mismatch.t0}, {reading}): {REASONS[mismatch.reason]}",
             f"  recorded relation {mismatch.index + 1} at {mismatch.recorded.timestamp} ms: "
             f"{len(mismatch.recorded.rows)} binding(s)",
             "  " + _expected_text(mismatch.expected, judgement, mismatch.scope)]
    lines += [f"  missing   {_row(row)}" for row in mismatch.missing]
    lines += [f"  extra     {_row(row)}" for row in mismatch.extra]
    lines += _repeated_lines(mismatch)
    lines += [f"  let through by CSRBench's comparison: recorded {_row(got)} for expected "
              f"{_row(want)} (the same numeric values)" for got, want in mismatch.let_through]
    if mismatch.content:
        lines.append("  stream triples behind them (inside the window first):")
        lines += [f"    at {time}: {text}" for time, text in mismatch.content]
    return lines


def render_text(judgement: Judgement) -> str:
    """The verdict, the alignment and, when incorrect, the explanation."""
    name, count = judgement.profile.name, len(judgement.recorded)
    if judgement.correct:
        first = judgement.expected[judgement.start].time if judgement.expected else None
        where = f", from its relation at {first}" if first is not None else ""
        lines = [f"CORRECT: the {count} recorded relation(s) are a contiguous run of the relations "
                 f"profile {name} expects (t0 = {judgement.t0}{where}; {_comparison(judgement)})"]
    else:
        lines = [f"INCORRECT: the {count} recorded relation(s) are no contiguous run of the "
                 f"relations profile {name} expects, for any admissible t0 ({_comparison(judgement)})"]
        if judgement.mismatch is not None:
            lines += mismatch_lines(judgement, judgement.mismatch)
        if judgement.accepted_with:
            lines += ["accepted with:"] + [f"  {text}" for text in judgement.accepted_with]
        elif judgement.all_tried:
            lines.append("accepted with: no single change of the profile tried "
                         "(bounds, r2s, empty, startup, empty-group, merging)")
        else:
            lines.append("accepted with: none of the profile changes tried within the time "
                         "budget (the note says how to give them longer)")
    return "\n".join(lines) + "\n"


def _rows_json(rows) -> list[list[str | None]]:
    return sorted([term_text(v) if v is not None else None for v in row] for row in rows)


def to_json(judgement: Judgement) -> dict:
    """A JSON document: verdict, alignment, mismatch, accepted_with."""
    document = {"verdict": "correct" if judgement.correct else "incorrect",
                "profile": judgement.profile.name,
                "comparison": judgement.comparison,
                "merged": judgement.merged, "variables": list(judgement.variables), "t0": judgement.t0,
                "recorded_relations": len(judgement.recorded),
                "expected": [{"time": r.time, "rows": len(r.rows)} for r in judgement.expected],
                "notes": list(judgement.notes)}
    mismatch = judgement.mismatch
    if mismatch is not None:
        document["mismatch"] = {
            "reason": mismatch.reason, "recorded_index": mismatch.index,
            "recorded_timestamp_ms": mismatch.recorded.timestamp,
            "recorded_rows": _rows_json(mismatch.recorded.rows),
            "expected_time": mismatch.expected.time if mismatch.expected else None,
            "expected_rows": _rows_json(mismatch.expected.rows) if mismatch.expected else None,
            "missing": _rows_json(mismatch.missing), "extra": _rows_json(mismatch.extra),
            "window": list(mismatch.scope) if mismatch.scope else None,
            "content": [{"time": t, "triple": text} for t, text in mismatch.content],
            "let_through": [{"recorded": _rows_json([got])[0], "expected": _rows_json([want])[0]}
                            for got, want in mismatch.let_through]}
        document["accepted_with"] = judgement.accepted_with
    return document
