"""The report of ``lars witness``: the stream as timestamped N-Triples, the interval, the
answers of each side, the reasons, in text or as one JSON document.

The stream text is what :func:`ingest.rdffiles.read_timestamped_ntriples` reads: one triple
per line, then its stream IRI and its time point, so ``lars agree`` takes it as it is.
"""

from __future__ import annotations

from agreement.agree.conditions import witness as stream_line
from agreement.agree.report import interval_name
from agreement.answers import binding_json
from agreement.witness.find import SearchResult, Witness
from ingest.rdffiles import StreamTriple

PAPER_CONDITION = {"static-shares-pattern": "(ii)", "stream-merged": "(ii)", "static-only": "(ii)",
                   "snapshot-differs": "(iii)", "window-boundary": "(iii)", "other-interval": "(iii)",
                   "window-not-evaluated": "(iii)", "window-differs": "(iii)",
                   "evaluation-differs": "(iii)"}
"""The paper's condition (section 5) each kind of explanation shows failing: (ii) the streams
and the static data share no pattern, so merging (C-SPARQL) and stream patterns (CQELS) build
the same datasets; (iii) the push snapshots over an interval equal the pull snapshot at its end."""

HEADER = "# a witness of disagreement found by lars witness; check it with:\n# {command}\n"


def stream_text(elements: list[StreamTriple], command: str | None = None) -> str:
    """The stream as timestamped N-Triples (with the check command as a comment on top)."""
    lines = [stream_line(e) for e in elements]
    return (HEADER.format(command=command) if command else "") + "\n".join(lines) + "\n"


def verdict_lines(witness: Witness) -> list[str]:
    """The first disagreeing interval: the answers only one side gave, and why."""
    report, verdict = witness.report, witness.verdict
    lines = [(f"disagreement on {interval_name(verdict)} ({len(report.disagreeing)} of "
              f"{len(report.verdicts)} intervals within the horizon disagree)")]
    for row, times in sorted(verdict.only_cqels.items(), key=lambda item: report.row_text(item[0])):
        lines.append(f"  only CQELS     {report.row_text(row)}  at {', '.join(map(str, times))}")
    for row in sorted(verdict.only_csparql, key=report.row_text):
        lines.append(f"  only C-SPARQL  {report.row_text(row)}  at {verdict.end}")
    for row in sorted(verdict.both, key=report.row_text):
        lines.append(f"  both           {report.row_text(row)}")
    explanations = report.explanations.get((verdict.start, verdict.end), [])
    failing = sorted({PAPER_CONDITION[why.condition] for why in explanations})
    lines.append(f"  paper condition failing: {' and '.join(failing)}" if failing else
                 "  paper condition failing: none named (no explanation found)")
    for why in explanations:
        lines.append(f"  why ({why.condition}, condition {PAPER_CONDITION[why.condition]}): {why.message}")
        lines += [f"      {w}" for w in why.witnesses]
    return lines


def quality(witness: Witness) -> str:
    found = witness.found
    if found.optimal:
        return "minimal within the bounds"
    return "the best found before the search was stopped, not proven minimal"


START_NOTE = ("this witness rests only on input at 0, the timeline's start: CQELS's answers at 0 "
              "fall in no pulling interval (i·U, (i+1)·U], so almost every query has one; the next "
              "one, from time 1 on:")
"""Said when :meth:`Witness.rests_on_start`, followed by the command that searches from 1."""


def render_text(result: SearchResult, witness: Witness | None, command: str,
                output: str | None = None, next_command: str | None = None) -> str:
    """The report for a person; the stream itself unless it was written to ``output``; with
    ``next_command`` (the search from time 1), the note of :data:`START_NOTE` when it applies."""
    timing = f" in {witness.found.seconds:.1f} s ({witness.found.steps} deepening step(s))" if witness else ""
    searched = (f"searched {result.candidates:,} candidate triples at time points "
                f"{result.bounds.earliest}..{result.bounds.horizon}{timing}")
    notes = [f"note: {note}" for note in result.notes]
    if witness is None:
        return "\n".join([result.bounds.statement(), searched, *notes]) + "\n"
    lines = [f"WITNESS: {len(witness.elements)} triple(s), last at {witness.last} ({quality(witness)})"]
    if output:
        lines.append(f"stream written to {output}")
    else:
        lines += ["stream (timestamped N-Triples):",
                  stream_text(witness.elements).rstrip("\n") or "(empty: no triple at all)"]
    lines += verdict_lines(witness)
    lines += [f"check: {command}", searched, *notes]
    if next_command is not None and witness.rests_on_start(result.bounds):
        lines += [f"note: {START_NOTE}", f"next: {next_command}"]
    return "\n".join(lines) + "\n"


def to_json(result: SearchResult, witness: Witness | None, command: str,
            next_command: str | None = None) -> dict:
    """The report as one JSON document (``docs/schemas/witness.schema.json``); answers are
    solution mappings as in ``lars agree``'s JSON (:func:`agreement.answers.binding_json`);
    ``next`` is the search from time 1 when the witness rests on the timeline's start."""
    bounds = result.bounds
    document = {"format": "lars-witness", "version": 1, "witness": witness is not None,
                "bounds": {"max_triples": bounds.max_triples, "horizon": bounds.horizon,
                           "fresh_constants": bounds.fresh, "own_streams": bounds.own_streams,
                           "earliest": bounds.earliest},
                "candidates": result.candidates, "notes": result.notes}
    if witness is None:
        document["summary"] = bounds.statement()
        return document
    report, verdict = witness.report, witness.verdict
    explanations = report.explanations.get((verdict.start, verdict.end), [])
    document.update({
        "summary": f"{len(witness.elements)} triple(s), last at {witness.last}",
        "minimal": witness.found.optimal, "interrupted": witness.found.interrupted,
        "stream": stream_text(witness.elements),
        "triples": [{"subject": e.triple[0].n3(), "predicate": e.triple[1].n3(),
                     "object": e.triple[2].n3(), "stream": str(e.stream), "time": e.time}
                    for e in witness.elements],
        "interval": {"start": verdict.start, "end": verdict.end},
        "variables": list(report.variables),
        "only_cqels": [{"binding": binding_json(report.variables, row), "times": list(times)}
                       for row, times in sorted(verdict.only_cqels.items(),
                                                key=lambda item: report.row_text(item[0]))],
        "only_csparql": [{"binding": binding_json(report.variables, row), "times": [verdict.end]}
                         for row in sorted(verdict.only_csparql, key=report.row_text)],
        "both": [binding_json(report.variables, row) for row in sorted(verdict.both, key=report.row_text)],
        "failing": sorted({PAPER_CONDITION[e.condition] for e in explanations}),
        "conditions": [{"condition": e.condition, "paper": PAPER_CONDITION[e.condition],
                        "message": e.message, "witnesses": list(e.witnesses)} for e in explanations],
        "check": command,
    })
    if next_command is not None and witness.rests_on_start(bounds):
        document["next"] = next_command
    return document
