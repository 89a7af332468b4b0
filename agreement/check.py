"""The agreement check as one call per mode: recorded engine answers, or our translations.

``check_recorded`` compares answer files of real engines; ``check_query`` (added with the
translation) computes both sides from a query and a stream.
"""

from __future__ import annotations

from pathlib import Path

from agreement.compare import compare
from agreement.explain import shifted_answers
from agreement.recorded import read_recorded
from agreement.report import AgreementReport
from translate.durations import unit_text

RECORDED_NOTE = ("time points are floor(timestamp / unit); CQELS answers at wall-clock times "
                 "just after the arrival that caused them, so flooring puts each answer at that "
                 "arrival's time point (exact while the engine answers within one tick)")


def check_recorded(csparql_file: str | Path, cqels_file: str | Path, period: int, unit_ms: int,
                   timeline: tuple[int | None, int | None] = (None, None)) -> AgreementReport:
    """Compare answers recorded from C-SPARQL and CQELS (CSRBench JSON files).

    Args:
        period: the pulling period in ticks.
        unit_ms: the length of one tick in milliseconds.
        timeline: ``(from, to)``; by default from 0 to the last recorded answer.
    """
    csparql = read_recorded(csparql_file, unit_ms)
    cqels = read_recorded(cqels_file, unit_ms).reordered(csparql.variables)
    times = [*csparql.answers, *cqels.answers]
    span = (0 if timeline[0] is None else timeline[0],
            max(times, default=0) if timeline[1] is None else timeline[1])
    verdicts = compare(csparql, cqels, period, span)
    report = AgreementReport("recorded", period, unit_text(unit_ms), span, csparql.variables,
                             verdicts, notes=[RECORDED_NOTE])
    for verdict in report.disagreeing:
        report.explanations[(verdict.start, verdict.end)] = shifted_answers(
            verdict, csparql, cqels, period, report.row_text)
    return report
