"""What the façade (:mod:`agreement.facade`) returns: views of a program and of an answer stream
(the view of an agreement check is :mod:`agreement.notebook.checkview`).

Each view wraps what the pipeline computed and recomputes nothing. In Jupyter it shows itself
(``_repr_html_``: a compact table, never a wall of text); ``to_pandas()`` gives a DataFrame and
``plot()`` a matplotlib figure (:mod:`agreement.notebook.plots`). pandas and matplotlib are optional
(``pip install 'lars-rsp[notebook]'``) and imported only by those two methods, so the ``lars``
command, which uses the same façade, does not need them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from agreement.answers import Solution, solution_json, solutions, values_text
from agreement.spans import interval_text
from agreement.notebook.display import MAX_ROWS, AnswerTimeline, escape, html_table, python_value
from agreement.notebook.labels import Labeller
from lars.atoms import Atom
from lars.errors import InputError
from lars.printer import print_atom, print_program
from solver.intervals import IntervalsView, intervals_view
from solver.answers import TimePointAnswer
from translate.api import Translation

# --- a translated program -------------------------------------------------------------------------

@dataclass(frozen=True)
class ProgramText:
    """What every program view shows: the rules with their provenance comments, in three spellings,
    under a one-line :meth:`header` that each kind of translation writes its own way.

    Attributes:
        translation: a translation with ``program`` and ``comment_map()`` (a query's
            :class:`translate.api.Translation`, an event query's ``EventTranslation``).
        unit: the length of one tick the query's durations were read in.
    """

    translation: Any
    unit: str = "1s"

    @property
    def program(self):
        """The :class:`lars.rules.Program`."""
        return self.translation.program

    def header(self) -> str:
        raise NotImplementedError

    def text(self, spelling: str = "unicode", comments: bool = True) -> str:
        """The program in ``unicode`` (the paper's notation), ``ascii`` or ``asp`` (its encoding).

        >>> from agreement.facade import translate_query
        >>> view = translate_query("PREFIX : <http://ex.org/> SELECT ?x "
        ...                        "WHERE { STREAM :s [RANGE 3s] { ?x :p ?y } }")
        >>> print(view.text("ascii", comments=False))
        ans_1(X,default,streams) :- [3] <> striple(X,<http://ex.org/p>,Y,<http://ex.org/s>).
        """
        notes = self.translation.comment_map() if comments else None
        if spelling == "asp":
            from solver.encode import annotated_encoding  # loads clingo (issue 29: asp only)
            return annotated_encoding(self.program, notes or {})
        return print_program(self.program, spelling, comments=notes)

    def rules_json(self) -> list[dict]:
        """Each rule in both spellings with its provenance comment (``lars translate --syntax json``)."""
        t = self.translation
        return [{"unicode": print_program(type(t.program)((r,)), "unicode"),
                 "ascii": print_program(type(t.program)((r,)), "ascii"), "comment": c}
                for r, c in zip(t.program.rules, t.comments)]

    def __str__(self) -> str:
        return f"# {self.header()}\n{self.text()}"

    def _repr_markdown_(self) -> str:
        return f"**{self.header()}**\n\n```\n{self.text()}\n```\n"

    def _repr_html_(self) -> str:
        lines = []
        for line in self.text().splitlines():
            style = "color:#6a737d" if line.startswith("#") else ""
            lines.append(f"<span style='{style}'>{escape(line)}</span>")
        return (f"<p><b>{escape(self.header())}</b></p><pre style='white-space:pre-wrap'>"
                + "\n".join(lines) + "</pre>")


@dataclass(frozen=True)
class ProgramView(ProgramText):
    """The LARS program of a query (``translation``: what :func:`translate.api.translate`
    returned), with the provenance comment of each rule."""

    translation: Translation

    def header(self) -> str:
        """One line: which translation, which mode, the unit, the window bounds, the answer predicate."""
        t = self.translation
        cq = (f"τ2(Q'), Q' the {t.variant} variant of cq(Q)" if t.variant is not None
              else "τ2(Q), its WINDOW blocks read as STREAM patterns")
        strategy = {"csparql": "τ1(cs(Q))", "cqels": cq, "rspql": cq, "sparql": "τ(Q)"}[t.engine]
        mode = {"none": "", "push": ", push ℘(P)", "pull": f", pull ℘(P,{t.period})",
                "engine": ""}[t.mode]
        profile = f"; profile {t.profile}" + (f", t0 = {t.t0}" if t.mode == "engine" else "") \
            if t.profile else ""
        return (f"{strategy}{mode}{profile}; unit {self.unit}; window bounds {t.window_bounds}; "
                f"answers: {t.answer.predicate}" + (f", reported where {t.report} holds"
                                                    if t.mode == "engine" else ""))

    def short_title(self) -> str:
        """A few words for titles: ``CQELS τ2 (brave), push``."""
        t = self.translation
        name = {"csparql": "C-SPARQL τ1", "cqels": f"CQELS τ2 ({t.variant})",
                "rspql": f"RSP-QL τ2 ({t.variant})", "sparql": "SPARQL τ"}[t.engine]
        if t.profile and t.mode == "engine":
            return f"{name}, profile {t.profile}"
        return name + {"none": "", "push": ", push", "pull": f", pull every {t.period}"}[t.mode]

    def to_json(self) -> dict:
        """The document ``lars translate --syntax json`` prints."""
        t = self.translation
        return {"engine": t.engine, "variant": t.variant, "mode": t.mode, "period": t.period,
                "unit": self.unit, "window_bounds": t.window_bounds,
                "answer_predicate": t.answer.predicate, "answer_variables": list(t.answer.variables),
                "select": list(t.answer.select_order), "rules": self.rules_json()}


# --- an answer stream ---------------------------------------------------------------------------

@dataclass(frozen=True)
class AnswerStreamView:
    """The answers of a program or query at each evaluated time point (SPEC section 3).

    Iterating gives the :class:`~solver.reference.TimePointAnswer` of each time point in order;
    ``len`` is the number of time points evaluated.

    Attributes:
        answers: one per evaluated time point, in time order.
        timeline: ``(start, end)``.
        unit: the length of one tick (for axis labels), if known.
        stratified: whether the program is stratified (then one answer stream per time point).
        title: what was run, for headings and plot titles.
        input_counts: input atoms (or triples) per time point, for :meth:`plot` ``kind="input"``.
        input_kind: ``atoms`` or ``triples``.
        variables: for a query, its result variables in SELECT order (``()`` for a program).
        row_of: for a query, an answer atom → its values in SELECT order (rdflib terms).
        prefixes: ``(prefix, namespace)`` pairs used to shorten IRIs in labels.
        warnings: what reading the input reported (skipped or reordered lines).
    """

    answers: tuple[TimePointAnswer, ...]
    timeline: tuple[int, int]
    unit: str | None = None
    stratified: bool = True
    title: str = "answer stream"
    input_counts: Mapping[int, int] = field(default_factory=dict)
    input_kind: str = "atoms"
    variables: tuple[str, ...] = ()
    row_of: Callable[[Atom], tuple[Hashable, ...]] | None = field(default=None, repr=False,
                                                                 compare=False)
    prefixes: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.answers)

    def __iter__(self) -> Iterator[TimePointAnswer]:
        return iter(self.answers)

    @cached_property
    def _by_time(self) -> dict[int, TimePointAnswer]:
        return {answer.time: answer for answer in self.answers}

    def at(self, t: int) -> list[frozenset[tuple[str, int]]]:
        """The answer streams at reference time ``t``, each a set of ``(atom text, time point)``.

        Raises:
            InputError: ``t`` was not evaluated.
        """
        answer = self._by_time.get(t)
        if answer is None:
            raise InputError(f"time point {t} was not evaluated "
                             f"(timeline [{self.timeline[0]},{self.timeline[1]}])")
        return [frozenset((atom_text(a), time) for a, time in stream) for stream in answer.streams]

    def intervals(self) -> IntervalsView:
        """Atoms with their maximal intervals (:func:`solver.intervals.intervals_view`; where a time
        point has several answer streams, the atoms they all share)."""
        return intervals_view(self.answers)

    @cached_property
    def presence(self) -> dict[Atom, dict[int, bool]]:
        """Atom → {time point at which it holds in the answer at that time: in every answer stream?}."""
        found: dict[Atom, dict[int, bool]] = {}
        for answer in self.answers:
            counts: dict[Atom, int] = {}
            for stream in answer.streams:
                for atom, time in stream:
                    if time == answer.time:
                        counts[atom] = counts.get(atom, 0) + 1
            for atom, count in counts.items():
                found.setdefault(atom, {})[answer.time] = count == len(answer.streams)
        return dict(sorted(found.items(), key=lambda item: (min(item[1]), atom_text(item[0]))))

    def segments(self) -> dict[Atom, list[tuple[int, int, bool]]]:
        """Atom → maximal runs ``(start, end, in every answer stream)`` of consecutive time points."""
        result: dict[Atom, list[tuple[int, int, bool]]] = {}
        for atom, points in self.presence.items():
            runs: list[tuple[int, int, bool]] = []
            for t in sorted(points):
                if runs and runs[-1][1] == t - 1 and runs[-1][2] == points[t]:
                    runs[-1] = (runs[-1][0], t, points[t])
                else:
                    runs.append((t, t, points[t]))
            result[atom] = runs
        return result

    def elsewhere(self) -> list[tuple[int, Atom, int]]:
        """``(reference time, atom, time point)`` for atoms an answer puts at another time (``@_T``)."""
        return sorted({(answer.time, atom, time) for answer in self.answers for stream in answer.streams
                       for atom, time in stream if time != answer.time},
                      key=lambda item: (item[0], item[2], atom_text(item[1])))

    def answer_text(self, atom: Atom) -> str:
        """A query answer as ``(v1, v2, …)`` in SELECT order (Turtle form, full IRIs); a
        program's atom as it is printed."""
        if self.row_of is None:
            return atom_text(atom)
        return values_text(self.row_of(atom))

    def solutions(self, all_points: bool = False) -> list[Solution]:
        """A query's answers as solution mappings, one per answer and time point, as ``lars run``
        writes them (:mod:`agreement.answers`); ``all_points`` adds the time points without one.

        Raises:
            InputError: this is a LARS program's answer stream (atoms, not solution mappings).
        """
        if self.row_of is None:
            raise InputError("a LARS program has atoms, not solution mappings", hint="use .at(t)")
        return list(solutions(self.answers, self.row_of, all_points=all_points))

    def to_json(self) -> list[dict]:
        """The answers as ``lars run --format json`` lists them (``"answers"`` of ``lars-solutions``)."""
        return [solution_json(self.variables, s) for s in self.solutions()]

    @cached_property
    def _labelling(self) -> tuple[dict[Atom, str], str]:
        atoms = list(dict.fromkeys([*self.presence, *(a for _, a, _ in self.elsewhere())]))
        labeller = Labeller(self.prefixes)
        labels = labeller.labels([self.answer_text(a) for a in atoms])
        return dict(zip(atoms, labels)), labeller.note()

    @property
    def labels(self) -> dict[Atom, str]:
        """Short unique labels (see :mod:`agreement.notebook.labels`) of every atom that holds somewhere."""
        return self._labelling[0]

    @property
    def label_note(self) -> str:
        """The prefixes the labels made up (``ssw: = <http://knoesis.wright.edu/ssw/>``), or ``""``."""
        return self._labelling[1]

    def several(self) -> list[int]:
        """Time points with more than one answer stream."""
        return [a.time for a in self.answers if len(a.streams) > 1]

    def none(self) -> list[int]:
        """Time points with no answer stream."""
        return [a.time for a in self.answers if not a.streams]

    def to_pandas(self, by: str = "time"):
        """A DataFrame of the answers.

        ``by="time"``: one row per answer stream, atom and reference time: columns ``time`` (the
        reference time), ``answer_stream`` (1, 2, … at that time), ``streams`` (how many there
        are at that time), ``atom`` (as ``lars run`` prints it), ``holds_at`` (the time point
        the atom holds at: ``time`` except for heads ``@_T a``), ``label`` (short), then for a
        query one column per result variable (Python values: numbers, strings, IRIs; ``None``
        for unbound). Time points whose answer adds
        nothing have no rows.

        ``by="interval"``: one row per maximal interval in which an atom holds at the reference
        time: ``atom``, ``label``, ``start``, ``end``, ``points`` (how many time points),
        ``in_all_streams`` (false where it holds in some answer streams only), then the variables.
        """
        import pandas as pd  # optional dependency, only for notebooks

        if by == "time":
            columns = ["time", "answer_stream", "streams", "atom", "holds_at", "label", *self.variables]
            records = [[a.time, index, len(a.streams), atom_text(atom), time, self.labels[atom],
                        *self._values(atom)]
                       for a in self.answers for index, stream in enumerate(a.streams, 1)
                       for atom, time in sorted(stream, key=lambda p: (p[1], atom_text(p[0])))]
        elif by == "interval":
            columns = ["atom", "label", "start", "end", "points", "in_all_streams", *self.variables]
            records = [[atom_text(atom), self.labels[atom], start, end, end - start + 1, certain,
                        *self._values(atom)]
                       for atom, runs in self.segments().items() for start, end, certain in runs]
        else:
            raise InputError(f"unknown table '{by}'", hint="use by='time' or by='interval'")
        return pd.DataFrame.from_records(records, columns=columns)

    def _values(self, atom: Atom) -> tuple[Any, ...]:
        """A query answer's values as Python values (``toPython``: numbers, strings, IRIs)."""
        if self.row_of is None:
            return ()
        return tuple(python_value(value) for value in self.row_of(atom))

    def timeline_data(self) -> AnswerTimeline:
        """What a timeline plot of this answer stream draws, as plain data."""
        return AnswerTimeline(
            title=self.title, timeline=self.timeline, unit=self.unit, label_note=self.label_note,
            variables=tuple(self.variables),
            runs={self.labels[atom]: runs for atom, runs in self.segments().items()},
            elsewhere=[(t, self.labels[atom]) for _, atom, t in self.elsewhere()],
            points=len(self), several=self.several(), none=self.none(), stratified=self.stratified)

    def plot(self, kind: str = "timeline", **options: Any):
        """A matplotlib figure: ``timeline`` (atoms × time, intervals as bars) or ``input``
        (input atoms or triples per time point). Options go to :mod:`agreement.notebook.plots`."""
        from agreement.notebook import plots  # matplotlib is optional, only for notebooks

        if kind == "timeline":
            return plots.answer_timeline(self.timeline_data(), **options)
        if kind == "input":
            return plots.input_rate(self.input_counts, unit=self.unit, kind=self.input_kind,
                                    timeline=self.timeline, name=self.title.split(":")[0], **options)
        raise InputError(f"unknown plot '{kind}'", hint="use kind='timeline' or kind='input'")

    def summary(self) -> str:
        """One line: timeline, unit, how many atoms, and where there were several or no answer streams."""
        unit = f" (unit {self.unit})" if self.unit else ""
        line = (f"{self.title}: {len(self)} time points of [{self.timeline[0]},{self.timeline[1]}]"
                f"{unit}; {len(self.presence)} {'atom holds' if len(self.presence) == 1 else 'atoms hold'}"
                " at some time point; program "
                + ("stratified" if self.stratified else "not stratified"))
        if self.several():
            line += f"; several answer streams at {len(self.several())} time points"
        if self.none():
            line += f"; no answer stream at {len(self.none())} time points"
        return line

    def _repr_html_(self) -> str:
        segments = self.segments()
        rows = [[escape(self.labels[atom]), escape(" ".join(
                    interval_text(a, b) + ("" if certain else "?") for a, b, certain in runs)),
                 str(sum(b - a + 1 for a, b, _ in runs))]
                for atom, runs in list(segments.items())[:MAX_ROWS]]
        notes = [escape(w) for w in self.warnings]
        if self.label_note:
            notes.append(f"prefixes in labels: {escape(self.label_note)}")
        if any(not c for runs in segments.values() for _, _, c in runs):
            notes.append("[a,b]? : the atom holds there in some answer streams only")
        if self.elsewhere():
            notes.append(f"{len(self.elsewhere())} atom(s) put at other time points by @ heads "
                         "(see .elsewhere())")
        table = html_table(["answer" if self.variables else "atom", "intervals", "points"], rows,
                           max(0, len(segments) - MAX_ROWS)) if segments else "<p>(no atom holds)</p>"
        return (f"<p><b>{escape(self.summary())}</b></p>" + table
                + "".join(f"<p><small>{n}</small></p>" for n in notes))


def atom_text(atom: Atom) -> str:
    """An atom as ``lars run`` prints it."""
    return print_atom(atom)
