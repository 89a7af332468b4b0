"""The notebook views of event queries: the translated program, and the matched events (a table
in Jupyter, a DataFrame, bars on the timeline).

:class:`EventAnswersView` is :class:`agreement.events.pipeline.EventAnswers` with the notebook parts; the
plot is :func:`agreement.notebook.eventplots.event_bars`, which takes plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from agreement.events.pipeline import EventAnswers
from agreement.notebook.display import escape, html_table
from agreement.notebook.views import ProgramText
from translate.eventrules import EventTranslation
from translate.events import pattern_text


@dataclass(frozen=True)
class EventProgramView(ProgramText):
    """The LARS program of an event query (``translation``), with the provenance comment of each
    rule."""

    translation: EventTranslation

    def header(self) -> str:
        """One line: the pattern, the profile, the evaluation times, the unit, the answer atom."""
        t = self.translation
        answer = f"{t.predicate}({', '.join('?' + v for v in t.variables)}, T1, T2)"
        return (f"RSEP-QL MATCH {{ {pattern_text(t.query.pattern)} }}; profile {t.profile.name} "
                f"({t.profile.description}); evaluated {t.evaluation.describe()}; unit {self.unit}; "
                f"answers: {answer}")

    def to_json(self) -> dict:
        """The document ``lars translate --syntax json`` prints for an event query."""
        t = self.translation
        return {"profile": t.profile.name, "evaluation": t.evaluation.describe(), "unit": self.unit,
                "pattern": pattern_text(t.query.pattern), "answer_predicate": t.predicate,
                "select": list(t.variables), "rules": self.rules_json()}


@dataclass(frozen=True)
class EventAnswersView(EventAnswers):
    """Matched events with ``to_pandas()``, ``plot()`` and an HTML table."""

    @classmethod
    def of(cls, answers: EventAnswers) -> EventAnswersView:
        return cls(**{f.name: getattr(answers, f.name) for f in fields(answers)})

    def to_pandas(self):
        """One row per event: evaluation time, the SELECT variables, ``t1``, ``t2``."""
        import pandas  # optional dependency, only for notebooks
        return pandas.DataFrame([{"time": e.time, **{v: str(x) for v, x in zip(self.variables, e.values)},
                                  "t1": e.start, "t2": e.end} for e in self.intervals()])

    def plot(self, ax=None, title: str | None = None):
        """The events as bars ``[t1, t2]`` on the timeline, one row per event, marked at the
        evaluation time that reported them."""
        from agreement.notebook.eventplots import event_bars  # matplotlib is optional
        return event_bars([(self.label(e), e.time, e.start, e.end) for e in self.intervals()],
                          self.timeline, self.unit, ax=ax, title=title or self.title)

    def _repr_html_(self) -> str:
        return f"<p>{escape(self.title)}</p>" + html_table(("time", "interval", "event"),
                                                          [(t, i, l) for t, l, i in self.rows()])
