"""Two event profiles on one query and one stream: where their answers differ, and why.

Both profiles evaluate the same query; answers are compared at each evaluation time as whole
event mappings (every variable of MATCH, not only the selected ones) with their intervals. For
an event only one side reports, the other side's reasons are looked up in this order:

1. it does not evaluate at that time (its evaluation times differ);
2. it consumed input the event is made of at an earlier evaluation (``P^c``/``P^r``): the
   items its incremental evaluation removed ("consumed"), matched against the event's triples;
3. it reports only events completed after its previous evaluation, and it reported this one
   then (or the event ended before);
4. its selection policy chose other events: the events it reported at that time.

>>> from agreement.options import Options
>>> options = Options.of(stream="examples/events/figure1.nt", at="8,10",
...                      profiles=("epsparql-unrestricted", "epsparql-chronological"))
>>> report = compare_two_profiles("examples/events/figure1.rq", options)
>>> report.agree, len(report.differences)
(False, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agreement.events.incremental import evaluation_times
from agreement.events.pipeline import (
    EventAnswers, MatchedEvent, Source, answers_of, event_translation, read_events_stream,
    solve_events,
)
from agreement.options import Options
from lars.errors import InputError
from translate.eventrules import EventTranslation
from translate.events import SELECTIONS, Basic
from translate.rsp import Var
from translate.sparqltext import Names, term_text

EQUATIONS = dict(zip(SELECTIONS, ("(7)", "(9)", "(10)", "(11)")))
SPELLING = dict(zip(SELECTIONS, ("SEQ", "SEQ^n", "SEQ^c", "SEQ^r")))


@dataclass(frozen=True)
class Difference:
    """An event that ``side`` reported at ``time`` and the other profile did not, with reasons."""

    time: int
    side: str
    event: MatchedEvent
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class EventComparison:
    """The answers of two profiles and their differences (``lars agree`` on an event query)."""

    profiles: tuple[str, str]
    answers: tuple[EventAnswers, EventAnswers]
    differences: tuple[Difference, ...]
    title: str

    @property
    def agree(self) -> bool:
        return not self.differences

    def text(self) -> str:
        a, b = self.profiles
        verdict = "AGREE" if self.agree else "DISAGREE"
        lines = [f"# {self.title}: {a} vs {b}: {verdict}"]
        times = sorted({e.time for side in self.answers for e in side.events}
                       | {d.time for d in self.differences})
        for time in times:
            here = [d for d in self.differences if d.time == time]
            common = self.answers[0].at(time) & self.answers[1].at(time)
            lines.append(f"time {time}: {len(common)} event(s) in common"
                         + ("" if here else ", no difference"))
            for d in here:
                view = self.answers[0] if d.side == a else self.answers[1]
                lines.append(f"  only {d.side:<24} {view.label(d.event)}  [{d.event.start},{d.event.end}]")
                lines += [f"    why: {reason}" for reason in d.reasons]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {"profiles": list(self.profiles), "agree": self.agree,
                "differences": [{"time": d.time, "only": d.side, "start": d.event.start,
                                 "end": d.event.end, "values": [v.n3() for v in d.event.values],
                                 "why": list(d.reasons)} for d in self.differences]}


def compare_two_profiles(query: Source, options: Options) -> EventComparison:
    """Compare the two event profiles of ``options.profiles`` on ``query`` and ``stream`` (see
    the module doc; the other options as :func:`agreement.events.pipeline.compute_events`).

    Evaluation options (``at``, or ``mode`` and ``period``) apply to both; without them each
    profile evaluates at its own times.
    """
    profiles = options.evaluation.profile_names() or ()
    if len(profiles) != 2 or profiles[0] == profiles[1]:
        raise InputError("give two different profiles to compare",
                         hint="--profiles epsparql-chronological,epsparql-recent")
    translations = [event_translation(query, options, name, all_variables=True) for name in profiles]
    first = translations[0][0]
    elements, timeline, _ = read_events_stream(options.data.stream, first.query, options,
                                               first.evaluation)
    unit = options.query.unit
    sides = []
    for name, (translation, source) in zip(profiles, translations):
        run = solve_events(translation, elements, timeline)
        sides.append((translation, run, answers_of(translation, run, timeline, unit, name)))
    title = Path(source).name if source != "<string>" else "query"
    differences = []
    for k in (0, 1):
        mine, other = sides[k], sides[1 - k]
        for event in mine[2].intervals():
            if (event.values, event.start, event.end) not in other[2].at(event.time):
                differences.append(Difference(event.time, profiles[k], event, tuple(
                    reasons(event, other, elements, evaluation_times(other[0], elements, timeline)))))
    differences.sort(key=lambda d: (d.time, d.side != profiles[0], d.event.start, d.event.end))
    return EventComparison(tuple(profiles), (sides[0][2], sides[1][2]), tuple(differences), title)


def reasons(event: MatchedEvent, other, elements, times: list[int]) -> list[str]:
    """Why the ``other`` side (translation, run, view) lacks ``event``."""
    translation, run, view = other
    name = translation.profile.name
    names = Names(translation.query.prefixes)
    if event.time not in times:
        return [f"{name} does not evaluate at {event.time} (it evaluates "
                f"{translation.evaluation.describe()})"]
    found_reasons = []
    mapping = dict(zip(view.variables, event.values))
    for window, triple, tick in items(translation, mapping, event, elements):
        for w, consumed, t, at in run.consumed:
            if (w, consumed, t) == (window, triple, tick) and at < event.time:
                text = " ".join(term_text(x, names) for x in triple)
                found_reasons.append(f"{name} consumed {text} (at {tick}, window "
                                     f"{term_text(window, names)}) when it evaluated at {at}")
    previous = [t for t in times if t < event.time]
    if translation.profile.report == "new" and previous and event.end <= previous[-1]:
        earlier = [t for t in previous if (event.values, event.start, event.end) in view.at(t)]
        found_reasons.append(f"{name} reports only events completed after its previous evaluation "
                             f"at {previous[-1]}" + (f"; it reported this one at {earlier[0]}"
                                                     if earlier else ""))
    selection = translation.profile.selection
    if not found_reasons and selection is not None:
        chosen = sorted(view.at(event.time), key=lambda e: (e[1], e[2]))
        shown = ", ".join(f"[{a},{b}] " + " ".join(term_text(x, names) for x in values)
                          for values, a, b in chosen) or "nothing"
        found_reasons.append(f"{name} reads SEQ as {SPELLING[selection]} (equation "
                             f"{EQUATIONS[selection]}) and selected {shown} at {event.time}")
    return found_reasons or [f"{name} found no such event (no single cause identified)"]


def items(translation: EventTranslation, mapping: dict, event: MatchedEvent, elements):
    """The input items ``(window, triple, time)`` the event can be made of: each basic pattern's
    triples under the event's mapping, in the stream. Basic patterns come in time order (SEQ's
    left operand ends before its right one starts), so the first is at ``t1``, the last at
    ``t2`` and the others within ``[t1, t2]``."""
    present = {(e.triple, e.stream, e.time) for e in elements}
    found = list(basics(translation.query.pattern))
    for k, basic in enumerate(found):
        spec = translation.query.window(basic.window)
        ticks = ([event.start] if k == 0 else [event.end] if k == len(found) - 1
                 else range(event.start, event.end + 1))
        for tp in basic.pattern.triples:
            triple = tuple(mapping.get(x.name) if isinstance(x, Var) else x for x in tp.terms())
            for tick in ticks:
                if (triple, spec.stream, tick) in present:
                    yield basic.window, triple, tick


def basics(pattern):
    if isinstance(pattern, Basic):
        yield pattern
    else:
        for child in (getattr(pattern, "operand", None), getattr(pattern, "left", None),
                      getattr(pattern, "right", None)):
            if child is not None:
                yield from basics(child)

