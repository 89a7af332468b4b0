"""The agreement check under engine profiles, interval by interval over a stream read once.

``lars agree --profiles PULL,PUSH`` (SPEC section 12) compares what two engine profiles report:
the pulling side's relation at each ``(k+1)·U`` against the other side's reports in
``(k·U, (k+1)·U]`` (or ``[k·U, (k+1)·U)`` when the pulling side's windows are right-open). It
runs as the paper's check does (:class:`agreement.agree.streaming.ComputedCheck`: both programs side
by side over one reading and one encoding of the stream, only what the windows and three
intervals need held), with each side reporting where its profile's ``report`` atom holds.

Explanations are those :func:`agreement.agree.modes.check_profiles` gives (answers one side gave in
another interval), found among the neighbouring intervals. A profile with Istream or Dstream
needs :func:`translate.reports.report_reach` of the stream before its program exists
(:func:`input_reach` reads the stream once more for its time points).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from agreement.answers import values_text
from agreement.agree.modes import half_open, profile_notes
from agreement.compare import AnswerSeries, IntervalVerdict
from agreement.agree.explain import Explanation, shifted_answers
from agreement.agree.history import StreamHistory
from agreement.agree.streaming import ComputedCheck
from ingest.lazy import RdfSlice
from solver.answers import TimePointAnswer
from translate.api import Translation
from translate.profiles import Profile
from translate.reports import compile_profile, report_reach
from translate.rsp import RspQuery


def input_reach(query: RspQuery, profiles: tuple[Profile, Profile], period: int,
                read: Callable[[], Iterator[RdfSlice]]) -> int | None:
    """:func:`translate.reports.report_reach` over the time points with input, read from
    ``read()`` only when a profile reports Istream or Dstream (its program looks back that far)."""
    if all(p.r2s == "rstream" for p in profiles):
        return None
    return report_reach(query, [t for t, elements in read() if elements], period)


@dataclass
class ProfileCheck(ComputedCheck):
    """:class:`ComputedCheck` with each side compiled under its profile (the pulling side first).

    Args (besides those of :class:`ComputedCheck`; ``csparql_query`` and ``window_bounds`` are
    not used: the profiles say how each side reads its windows):
        profiles: the two profiles, the pulling side first; a profile admitting any t0 takes 0.
        reach: :func:`input_reach` of the stream.
    """

    profiles: tuple[Profile, Profile] | None = None
    reach: int | None = None

    def __post_init__(self) -> None:
        self.csparql, self.cqels = (
            compile_profile(self.query, p, p.t0 or 0, self.period, self.variant, self.reach)
            for p in self.profiles)
        self.prepare()
        self.half_open = half_open(self.profiles[0])

    def notes(self) -> list[str]:
        return profile_notes(*self.profiles) + self.cap_note()

    def shown(self, side: Translation) -> set[str]:
        return {side.answer.predicate, side.report}

    def pulls(self, answer: TimePointAnswer) -> bool:
        return self.reports(self.csparql, answer)

    def pushes(self, answer: TimePointAnswer, inputs: bool) -> bool:
        return self.reports(self.cqels, answer)

    @staticmethod
    def reports(side: Translation, answer: TimePointAnswer) -> bool:
        """Whether ``side``'s report atom holds at the answer's time point."""
        return any(atom.predicate == side.report and time == answer.time
                   for stream in answer.streams for atom, time in stream)

    def observed(self, elements) -> None:
        """Nothing to look at: profiles are explained by the answers alone."""

    def explain(self, verdict: IntervalVerdict, history: Callable[[], StreamHistory], pulled: dict,
                pushed: dict, found: list[Explanation] | None = None) -> list[Explanation]:
        return shifted_answers(verdict, AnswerSeries(self.variables, pulled),
                               AnswerSeries(self.variables, pushed), self.period, values_text)
