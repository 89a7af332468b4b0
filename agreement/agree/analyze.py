"""``lars agree --analyze``: which of the paper's sufficient conditions a query meets, without a stream.

Paper section 5: C-SPARQL and CQELS can be expected to agree when (ii) no stream graph pattern
can match static data (else C-SPARQL answers from static triples without stream input), and
(iii) the push snapshots over a pulling interval equal the pull snapshot at its end. (iii) can
only be refuted, never guaranteed, without the stream, so the analysis reports per window what
can make the snapshots differ, and a verdict:

* ``guaranteed`` — every condition is met, so the engines agree on every stream;
* ``not guaranteed`` — a condition fails; the conditions are sufficient, not necessary, so the
  engines may still agree (only the check with a stream decides);
* ``depends on the data`` — the remaining risks need data to show (reported as such).

The analysis never proves a disagreement, so ``lars agree --analyze`` exits 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from agreement.agree.conditions import (
    pattern_text, shared_patterns, static_patterns, stream_windows, window_name,
)
from translate.durations import unit_text
from translate.paths import PATH_TYPES, path_iris
from translate.rsp import RangeWindow, RspQuery, StreamSpec, TriplePattern, Var
from translate.scope import block_triples


@dataclass(frozen=True)
class Finding:
    """One condition: ``status`` is ``met``, ``not met`` or ``unknown``, with the reason."""

    condition: str
    status: str
    reason: str


def predicate_clash(stream_pattern: TriplePattern, static: list[TriplePattern]) -> str | None:
    """Why a stream pattern might match static data, judged from the query alone."""
    if isinstance(stream_pattern.predicate, Var):
        return f"its predicate ?{stream_pattern.predicate.name} is a variable"
    for other in static:
        if isinstance(other.predicate, Var):
            return f"the static part of the query reads any predicate (?{other.predicate.name})"
        if isinstance(other.predicate, PATH_TYPES):
            iris = path_iris(other.predicate)
            if iris is None:
                return "the static part of the query reads any predicate (a negated property set)"
            if stream_pattern.predicate in iris:
                return (f"the static part of the query also reads {stream_pattern.predicate.n3()} "
                        "(in a property path)")
        elif other.predicate == stream_pattern.predicate:
            return f"the static part of the query also reads {other.predicate.n3()}"
    return None


def condition_ii(query: RspQuery, graphs: dict | None) -> Finding:
    """(ii) static data and streams share no pattern."""
    if graphs:
        shared = shared_patterns(query, graphs)
        if shared:
            return Finding("(ii) no shared patterns", "not met", "; ".join(w for e in shared for w in e.witnesses))
        return Finding("(ii) no shared patterns", "met", "no stream pattern matches the given static data")
    static = static_patterns(query.pattern)
    clashes = [f"{pattern_text(p)}: {why}" for spec in query.streams for p in block_triples(spec.pattern)
               for why in [predicate_clash(p, static)] if why]
    if clashes:
        return Finding("(ii) no shared patterns", "unknown", "; ".join(clashes) + " (give --static to check)")
    return Finding("(ii) no shared patterns", "met", "no stream pattern's predicate appears in the "
                   "static part of the query (assuming static data only holds what the query reads)")


def window_finding(spec: StreamSpec, period: int | None, unit_ms: int) -> Finding:
    """(iii) for one stream: what can make push snapshots differ from the pull snapshot
    (durations in the query's unit, ``unit_ms`` ms a tick)."""
    name = f"(iii) window {window_name(spec, unit_ms)} of <{spec.stream}>"
    window = spec.window
    if not isinstance(window, RangeWindow):
        return Finding(name, "not met", "not a plain time window: its snapshots depend on arrival "
                       "(tuple windows) or on the whole history (ALL, NOW)")
    duration = lambda ticks: unit_text(ticks * unit_ms)  # noqa: E731
    if window.step > 1:
        return Finding(name, "not met", f"a hopping window (step {duration(window.step)}): pushes "
                       "between hops repeat the last hop's window, which the next pull no longer holds")
    if period is None:
        return Finding(name, "unknown", "give --period to compare the window with the pulling period")
    if window.length < period:
        return Finding(name, "not met", f"shorter than the period ({duration(window.length)} < "
                       f"{duration(period)}): data arriving early in an interval expires before the pull")
    return Finding(name, "unknown", f"at least as long as the period ({duration(window.length)} ≥ "
                   f"{duration(period)}): the pull sees all data of its interval, but pushes early in "
                   "an interval also see older data that expires before the pull; whether that "
                   "changes answers depends on the data")


def stream_finding(query: RspQuery) -> list[Finding]:
    """A query that reads no stream: the pushing side never evaluates (no input ever arrives),
    while the pulling side answers from static data at every pull (found by ``lars witness``:
    the empty stream disagrees whenever the static data gives an answer)."""
    if query.streams:
        return []
    return [Finding("a stream to push on", "unknown", "the query reads no stream: CQELS never "
                    "evaluates, C-SPARQL answers from static data at every pull; they agree only "
                    "if the static data gives no answer")]


def analyze(query: RspQuery, period: int | None, graphs: dict | None = None) -> tuple[list[Finding], str]:
    """The findings and the verdict for a CQELS query (its STREAM blocks give ``S``)."""
    findings = ([condition_ii(query, graphs)] + stream_finding(query)
                + [window_finding(spec, period, query.unit_ms) for spec in stream_windows(query)])
    statuses = {f.status for f in findings}
    verdict = ("not guaranteed" if "not met" in statuses else
               "depends on the data" if "unknown" in statuses else "guaranteed")
    return findings, verdict


SUFFICIENT_NOTE = ("these conditions are sufficient, not necessary: when one is not met the "
                   "engines may still agree; run lars agree with a stream to decide")


def render_analysis(findings: list[Finding], verdict: str) -> str:
    """The findings for a person: the verdict, one line per condition, and what they mean."""
    lines = [f"agreement {verdict.upper()}: {sum(f.status == 'met' for f in findings)} of "
             f"{len(findings)} sufficient conditions met"]
    lines += [f"  {f.status:<8} {f.condition}: {f.reason}" for f in findings]
    lines.append(f"note: {SUFFICIENT_NOTE}")
    return "\n".join(lines) + "\n"
