"""The façade for notebooks and the ``lars`` command: translate, run, check — one call each.

Each function takes the options of the matching ``lars`` subcommand as keyword arguments and
returns a view (:mod:`agreement.notebook.views`, :mod:`agreement.notebook.checkview`) that shows itself in
Jupyter, turns into a pandas DataFrame and plots (:mod:`agreement.notebook.plots`). :mod:`agreement.cli.commands` calls these same functions and only prints.

* :func:`translate_query` — a C-SPARQL or CQELS query → its LARS program (``lars translate``);
* :func:`run` — a LARS program over an atom stream, or a query over an RDF stream → the answer
  stream (``lars run``);
* :func:`check` — do C-SPARQL and CQELS agree, computed from a query and a stream or from answers
  recorded from the engines (``lars agree``).

Queries, programs, background facts and LARS atom streams are given as text or as a path (a
:class:`~pathlib.Path`, or a one-line string naming a file); RDF streams, static data and
recorded answers as paths.

>>> view = run("x :- [2] <> p.", stream=None, end=3)
>>> [(a.time, a.streams) for a in view][:1]
[(0, (frozenset(),))]
>>> view = translate_query('''PREFIX : <http://ex.org/>
... SELECT ?shop FROM STREAM :s [RANGE 30m STEP 5m] WHERE { ?shop :offers ?c }''', unit="1m")
>>> print(view.text("ascii", comments=False))
ans_1(Shop,default,streams) :- triple(Shop,<http://ex.org/offers>,C,default).
triple(S,P,O,default) :- [30,0,5] <> striple(S,P,O,<http://ex.org/s>).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path


from agreement.notebook.checkview import AgreementView
from agreement.check import check_query, check_recorded
from agreement.analyze import Finding, analyze
from ingest.eager import read_rdf_stream, static_graphs
from ingest.lazy import QueryInput, choose_timeline, stream_reader
from agreement.notebook.views import AnswerStreamView, ProgramView
from lars.analysis import is_stratified
from lars.atoms import Atom
from lars.errors import InputError
from lars.parser import parse_facts, parse_program, parse_stream_line
from ingest.policy import ReadPolicy, ReadReport, parse_lines, read_text, within_timeline
from lars.rules import Program
from ingest.larsfile import read_stream
from lars.streams import Stream, Timeline
from solver.reference import DEFAULT_MAX_FACTS, Limits
from solver.answers import TimePointAnswer
from solver.partition import evaluate_partitioned, in_process, spark_runner
from solver.strategies import Slice, evaluate
from solver.formats import RunInfo
from translate.api import Translation, parse_query, query_background, translate
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.rdf import RdfTermEncoder, chop
from translate.variants import cs, variant_ids

Source = str | os.PathLike
"""Text, or a path: a :class:`~pathlib.Path`, or a one-line string naming an existing file or
ending in a known suffix (``.lars``, ``.rq``, ``.sparql``, ``.csparql``, ``.cqels``, ``.txt``)."""

QUERY_SUFFIXES = (".rq", ".sparql", ".csparql", ".cqels")
SOURCE_SUFFIXES = (".lars", ".txt", *QUERY_SUFFIXES)
QUERY_START = re.compile(r"\A(?:\s|#[^\n]*\n)*(PREFIX|BASE|SELECT|REGISTER)\b", re.IGNORECASE)
TEXT_SOURCE = "<string>"


def read_source(value: Source) -> tuple[str, str]:
    """``(text, source name)`` of a text-or-path argument (see :data:`Source`).

    >>> read_source("x :- p.")
    ('x :- p.', '<string>')
    """
    if isinstance(value, os.PathLike):
        return read_text(value), os.fspath(value)
    if "\n" not in value and (value.lower().endswith(SOURCE_SUFFIXES) or names_file(value)):
        return read_text(value), value
    return value, TEXT_SOURCE


def names_file(value: str) -> bool:
    """Whether ``value`` is one line naming an existing file."""
    try:
        return "\n" not in value and Path(value).is_file()
    except OSError:  # a name too long for the system is no file's name
        return False


def read_atom_stream(stream: Source, policy: ReadPolicy, report: ReadReport) -> Stream:
    """A LARS atom stream from a file, or from text (lines ``t: a(1), b``; text is what holds a
    line break, or a colon without naming a file).

    >>> read_atom_stream("1: p(1)\\n3: q", ReadPolicy(), ReadReport()).time_points()
    [1, 3]
    """
    if isinstance(stream, os.PathLike) or not ("\n" in stream or ":" in stream) or names_file(stream):
        return read_stream(stream, policy=policy, report=report)
    contents: dict[int, list[Atom]] = {}
    for entry in parse_lines(stream.splitlines(), TEXT_SOURCE, parse_stream_line, policy, report):
        contents.setdefault(entry.time, []).extend(entry.elements)
    return Stream.from_mapping(Timeline(min(contents, default=0), max(contents, default=0)), contents)


def is_query(path: str, text: str) -> bool:
    """A query file by its suffix, or, for other names, by its first keyword."""
    return path.lower().endswith(QUERY_SUFFIXES) or (
        not path.lower().endswith(".lars") and QUERY_START.match(text) is not None)


def period_ticks(period: str | int | None, unit: str) -> int | None:
    """A pulling period in ticks: a duration such as ``"10s"``, or a number of ticks."""
    if period is None or isinstance(period, int):
        return period
    return to_ticks(parse_duration(period), parse_unit(unit))


def read_policy(on_error: str, order: str) -> tuple[ReadPolicy, ReadReport]:
    return ReadPolicy(on_error=on_error, order=order), ReadReport()


# --- translate ------------------------------------------------------------------------------------

def translate_variants(query: Source, *, engine: str | None = None, variant: str = "brave",
                       mode: str = "none", period: str | int | None = None, unit: str = "1s",
                       window_bounds: str = "closed") -> list[ProgramView]:
    """Like :func:`translate_query`, but ``variant="all"`` gives one view per CQELS variant."""
    text, source = read_source(query)
    return translations(text, source, engine=engine, variant=variant, mode=mode, period=period,
                        unit=unit, window_bounds=window_bounds)


def translations(text: str, source: str, *, engine: str | None, variant: str, mode: str,
                 period: str | int | None, unit: str, window_bounds: str) -> list[ProgramView]:
    """The translations of query ``text`` the options ask for (several for ``variant="all"``)."""
    parsed = parse_query(text, source, engine, unit)
    engine = engine or parsed.engine
    variants = [variant]
    if engine == "cqels" and variant == "all":
        variants = list(variant_ids(len(parsed.streams)))
    ticks = period_ticks(period, unit)
    return [ProgramView(translate(parsed, engine, variant="brave" if v == "all" else v, mode=mode,
                                  period_ticks=ticks, window_bounds=window_bounds), unit)
            for v in variants]


def translate_query(query: Source, *, engine: str | None = None, variant: str = "brave",
                    mode: str = "none", period: str | int | None = None, unit: str = "1s",
                    window_bounds: str = "closed") -> ProgramView:
    """The LARS program of a C-SPARQL or CQELS query (``lars translate``).

    Args:
        query: the query text, or its path.
        engine: ``csparql``, ``cqels`` or ``sparql`` (default: guessed from the syntax).
        variant: for CQELS, which query of ``cq(Q)``: ``brave``, ``cautious`` or an id such as ``bc``.
        mode: ``none``, ``push`` (℘(P)) or ``pull`` (℘(P,U)).
        period: ``U`` for pull mode, a duration (``"10s"``) or ticks (default: ``COMPUTED EVERY``).
        unit: the length of one tick.
        window_bounds: ``closed`` (``[t-L,t]``, the paper), ``left-open`` or ``right-open``.

    Returns:
        a :class:`~agreement.notebook.views.ProgramView`: it shows the rules in the paper's notation with
        the provenance comment of each; ``.text("ascii")``, ``.text("asp")``, ``.program``.

    >>> view = translate_query("PREFIX : <http://ex.org/> SELECT ?x "
    ...                        "WHERE { STREAM :s [NOW] { ?x :p 1 } }", mode="push")
    >>> print(view.text())
    # node 1: STREAM :s [NOW] {?x :p 1}
    ans_1(X,default,streams) ← ⊞^0 ◇ striple(X,<http://ex.org/p>,1,<http://ex.org/s>), trigger.
    # push: input striple/4 arrived now
    trigger ← ⊞^0 ◇ striple(X1,X2,X3,X4).
    """
    if variant == "all":
        raise InputError("translate_query takes one variant", hint="use translate_variants for all")
    [view] = translate_variants(query, engine=engine, variant=variant, mode=mode, period=period,
                                unit=unit, window_bounds=window_bounds)
    return view


# --- run ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RunPlan:
    """Everything :func:`run` prepares before solving; :meth:`answers` reads and solves lazily.

    ``lars run`` writes :meth:`answers` as they come: the stream is read one time point at a
    time (:mod:`ingest.lazy`) and no answer is kept, so a long run holds what its windows
    hold, not the stream; :meth:`view` collects the answers into an
    :class:`~agreement.notebook.views.AnswerStreamView`. Reading problems and input outside the timeline
    are in :attr:`warnings` once the answers have been read.
    """

    program: Program
    timeline: Timeline
    background: frozenset[Atom]
    slices: Callable[[], Iterator[Slice]]
    info: RunInfo
    unit: str | None
    title: str
    report: ReadReport
    translation: Translation | None = None
    encoder: RdfTermEncoder | None = None
    strategy: str = "auto"
    limits: Limits = field(default_factory=Limits)
    partitions: int = 0
    """With ``n > 0``: the timeline cut into ``n`` ranges (:mod:`solver.partition`)."""
    master: str | None = None
    """Where the ranges are evaluated: a Spark master, or ``None`` for this process."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """What reading reported so far (complete once :meth:`answers` is exhausted)."""
        return tuple(self.report.summary())

    def answers(self, slices: Iterator[Slice] | None = None) -> Iterator[TimePointAnswer]:
        """The answers at every time point of the timeline, in order (a query's: chopped ``ans_1``),
        computed with :func:`solver.strategies.evaluate` (``strategy``; all give the same answers)
        or, with :attr:`partitions`, range by range (:func:`solver.partition.evaluate_partitioned`)."""
        slices = self.slices() if slices is None else slices
        shown = None if self.translation is None else frozenset({self.translation.answer.predicate})
        if self.partitions:
            runner = in_process if self.master is None else spark_runner(self.master)
            answers = evaluate_partitioned(self.program, slices, self.timeline, self.background,
                                           self.partitions, runner, self.limits, shown)
        else:
            answers = evaluate(self.program, slices, self.timeline, self.background, self.strategy,
                               self.limits, shown=shown)
        return answers if self.translation is None else answers_only(answers)

    def view(self) -> AnswerStreamView:
        """Solve at every time point and collect the answers."""
        t = self.translation
        counts: dict[int, int] = {}

        def counted() -> Iterator[Slice]:
            for time, atoms in self.slices():
                counts[time] = len(atoms)
                yield time, atoms

        answers = tuple(self.answers(counted()))
        return AnswerStreamView(
            answers, self.info.timeline, self.unit, self.info.stratified, self.title,
            counts, "atoms" if t is None else "triples",
            variables=() if t is None else t.answer.select_order,
            row_of=None if t is None else RowOf(t, self.encoder),
            prefixes=() if t is None else t.query.prefixes, warnings=self.warnings)


class RowOf:
    """A chopped answer atom of a query → its values in SELECT order (rdflib terms, ``None``
    for unbound), cached."""

    def __init__(self, translation: Translation, encoder: RdfTermEncoder) -> None:
        self.translation, self.encoder, self.cache = translation, encoder, {}

    def __call__(self, atom: Atom) -> tuple:
        if atom not in self.cache:
            [row] = self.translation.rows([atom], self.encoder, chopped=True)
            self.cache[atom] = tuple(row.values())
        return self.cache[atom]


def answers_only(answers: Iterator[TimePointAnswer]) -> Iterator[TimePointAnswer]:
    """The answer atoms of each answer stream, chopped (SPEC section 5: ``chop``)."""
    for answer in answers:
        yield TimePointAnswer(answer.time, tuple(
            frozenset((atom, t) for a, t in stream for atom in chop([a])) for stream in answer.streams))


def prepare_run(program_or_query: Source, *, stream: Source | None = None,
                background: Source | None = None, static: Sequence[str] = (),
                start: int | None = None, end: int | None = None, engine: str | None = None,
                variant: str = "brave", mode: str = "none", period: str | int | None = None,
                unit: str = "1s", window_bounds: str = "closed", stream_iri: str | None = None,
                on_error: str = "stop", order: str = "strict",
                max_facts: int = DEFAULT_MAX_FACTS, spark: str = "auto",
                master: str = "local[*]", strategy: str = "auto", partitions: int = 0) -> RunPlan:
    """Read and translate what :func:`run` is given (same arguments), without solving.

    A query's stream is not read here, only its first and last time points (for the default
    timeline); :meth:`RunPlan.answers` reads it.
    """
    text, source = read_source(program_or_query)
    policy, report = read_policy(on_error, order)
    limits = Limits(max_facts=max_facts)
    if partitions and strategy not in ("auto", "reference"):
        raise InputError(f"--partitions evaluates each range with the reference solver, not {strategy}",
                         hint="leave out --strategy, or leave out --partitions")
    if partitions < 0:
        raise InputError(f"--partitions must be 1 or more (0: no cutting), not {partitions}")
    ranges = {"partitions": partitions, "master": None if spark == "never" else master}
    if not is_query(source, text):
        program = parse_program(text, source)
        facts = frozenset(parse_facts(*read_source(background))) if background is not None else frozenset()
        atoms = read_atom_stream(stream, policy, report) if stream is not None else Stream(Timeline(0, 0))
        line = choose_timeline(atoms.timeline.start, atoms.timeline.end, start, end)
        items = atoms.items
        return RunPlan(program, line, facts,
                       lambda: within_timeline(iter(items), line.start, line.end, report, "atom"),
                       RunInfo((line.start, line.end), (line.start, line.end), is_stratified(program)),
                       unit, "LARS program" if source == TEXT_SOURCE else Path(source).name, report,
                       strategy=strategy, limits=limits, **ranges)
    view = one_translation(text, source, engine=engine, variant=variant, mode=mode, period=period,
                           unit=unit, window_bounds=window_bounds)
    t = view.translation
    read, first, last = stream_reader(stream, stream_iri, policy, report, spark, master)
    encoder = t.encoder()
    data = QueryInput(choose_timeline(first, last, start, end),
                      query_background(t.query, static_graphs(list(static), t.query), encoder),
                      encoder, read, report)
    line = (data.timeline.start, data.timeline.end)
    title = view.short_title() if source == TEXT_SOURCE else f"{Path(source).name}: {view.short_title()}"
    return RunPlan(t.program, data.timeline, data.background, data.slices,
                   RunInfo(line, line, is_stratified(t.program), unit), unit, title, report, t,
                   encoder, strategy, limits, **ranges)


def one_translation(text: str, source: str, **options) -> ProgramView:
    """The one translation :func:`run` takes (``variant="all"`` for CQELS is refused)."""
    found = translations(text, source, **options)
    if len(found) > 1:
        raise InputError("lars run takes one variant", hint="choose --variant brave, cautious or an id")
    return found[0]


def run(program_or_query: Source, *, stream: Source | None = None,
        background: Source | None = None, static: Sequence[str] = (), start: int | None = None,
        end: int | None = None, engine: str | None = None, variant: str = "brave",
        mode: str = "none", period: str | int | None = None, unit: str = "1s",
        window_bounds: str = "closed", stream_iri: str | None = None, on_error: str = "stop",
        order: str = "strict", max_facts: int = DEFAULT_MAX_FACTS, spark: str = "auto",
        master: str = "local[*]", strategy: str = "auto", partitions: int = 0) -> AnswerStreamView:
    """The answer stream of a LARS program or of a query (``lars run``).

    Args:
        program_or_query: LARS text or a ``.lars`` path, or query text or a query path (told
            apart like ``lars run``: by suffix, else by a first keyword PREFIX/BASE/SELECT/REGISTER).
        stream: for a program, a LARS atom stream (``t: a(1), b`` lines), a file or text; for a
            query, a timestamped N-Triples file or a folder of Turtle files named by timestamp.
        background: for a program, LARS facts (``p(a). q(1).``), text or path.
        static: for a query, static RDF files, ``FILE`` or ``IRI=FILE``.
        start, end: the timeline (default: 0 to the last time point with input).
        engine, variant, mode, period, unit, window_bounds: as in :func:`translate_query`
            (``unit`` also labels the time axis of a program's plots).
        stream_iri: for a query, the stream IRI of triples whose line names none.
        on_error, order: ``stop``/``skip`` bad stream lines; ``strict``/``sort`` timestamps.
        max_facts: refuse a time point that would ground more input facts.
        strategy: how to solve (``auto``, ``reference``, ``incremental``, ``stratified``; see
            :mod:`solver.strategies`; all give the same answers).
        spark, master: read an RDF stream with Spark on ``master``: ``always``, ``never``, or
            ``auto`` (:func:`ingest.lazy.uses_spark`: big inputs on a cluster).
        partitions: with ``n > 0``, cut the timeline into ``n`` ranges, each shipped with the
            history its windows need and solved by the reference solver as one Spark task on
            ``master`` (in this process if ``spark="never"``); the same answers, but the stream
            and each range's answers are held in memory (:mod:`solver.partition`).

    Returns:
        an :class:`~agreement.notebook.views.AnswerStreamView`; for a query, its chopped ``ans_1`` atoms.

    >>> view = run("x :- not y. y :- not x.", end=1)
    >>> sorted(map(sorted, view.at(0)))
    [[('x', 0)], [('y', 0)]]
    """
    return prepare_run(program_or_query, stream=stream, background=background, static=static,
                       start=start, end=end, engine=engine, variant=variant, mode=mode,
                       period=period, unit=unit, window_bounds=window_bounds, stream_iri=stream_iri,
                       on_error=on_error, order=order, max_facts=max_facts, spark=spark,
                       master=master, strategy=strategy, partitions=partitions).view()


# --- check ----------------------------------------------------------------------------------------

DIFFERENT_QUERIES = ("warning: the C-SPARQL and CQELS queries do not describe the same abstract "
                     "query (result variables, pattern, dataset or stream windows differ)")


def check_variants(query: Source | None = None, *, stream: str | os.PathLike | None = None,
                   static: Sequence[str] = (), period: str | int, csparql: Source | None = None,
                   variant: str = "brave", unit: str = "1s", window_bounds: str = "closed",
                   start: int | None = None, end: int | None = None,
                   recorded_csparql: str | os.PathLike | None = None,
                   recorded_cqels: str | os.PathLike | None = None, stream_iri: str | None = None,
                   on_error: str = "stop", order: str = "strict", spark: str = "auto",
                   master: str = "local[*]") -> list[AgreementView]:
    """Like :func:`check`, but ``variant="all"`` gives one view per CQELS variant."""
    ticks = period_ticks(period, unit)
    if recorded_csparql is not None or recorded_cqels is not None:
        if recorded_csparql is None or recorded_cqels is None:
            raise InputError("give both --recorded-csparql and --recorded-cqels")
        report = check_recorded(recorded_csparql, recorded_cqels, ticks, parse_unit(unit), (start, end))
        return [AgreementView(report, report.csparql, report.cqels.reordered(report.csparql.variables),
                              title=f"{Path(recorded_csparql).name} vs {Path(recorded_cqels).name}")]
    if query is None:
        raise InputError("give a CQELS query (QUERY or --cqels), or recorded answers")
    text, source = read_source(query)
    parsed = parse_query(text, source, "cqels", unit)
    other = parse_query(*read_source(csparql), "csparql", unit) if csparql is not None else None
    warnings = [DIFFERENT_QUERIES] if other is not None and cs(other) != cs(parsed) else []
    policy, report = read_policy(on_error, order)
    elements, line = read_rdf_stream(stream, stream_iri, policy, report, (start, end), spark, master)
    warnings += report.summary()
    graphs = static_graphs(list(static), parsed)
    counts: dict[int, int] = {}
    for element in elements:
        counts[element.time] = counts.get(element.time, 0) + 1
    variants = variant_ids(len(parsed.streams)) if variant == "all" else [variant]
    views = []
    for v in variants:
        found = check_query(parsed, elements, graphs, ticks, v, window_bounds, line, other)
        views.append(AgreementView(found, found.csparql, found.cqels.reordered(found.csparql.variables),
                                   counts, parsed.prefixes, tuple(warnings),
                                   "query" if source == TEXT_SOURCE else Path(source).name))
    return views


def check(query: Source | None = None, *, stream: str | os.PathLike | None = None,
          static: Sequence[str] = (), period: str | int, csparql: Source | None = None,
          variant: str = "brave", unit: str = "1s", window_bounds: str = "closed",
          start: int | None = None, end: int | None = None,
          recorded_csparql: str | os.PathLike | None = None,
          recorded_cqels: str | os.PathLike | None = None, stream_iri: str | None = None,
          on_error: str = "stop", order: str = "strict", spark: str = "auto",
          master: str = "local[*]") -> AgreementView:
    """Do C-SPARQL and CQELS agree on every pulling interval? (``lars agree``, SPEC section 9).

    Computed mode (``query`` and ``stream``): both sides come from the CQELS query —
    C-SPARQL's answers are those of ``℘(τ1(cs(Q)), U)`` at the multiples of ``U``, CQELS's those
    of ``℘(τ2(Q'))`` at every time point with input. Recorded mode (``recorded_csparql`` and
    ``recorded_cqels``): answers recorded from the real engines (CSRBench JSON).

    Args:
        query: the CQELS query, text or path.
        stream: a timestamped N-Triples file or a folder of Turtle files.
        static: static RDF files, ``FILE`` or ``IRI=FILE``.
        period: ``U``, a duration (``"10s"``) or ticks.
        csparql: a separately written C-SPARQL query for its side (warned about if it differs).
        variant, unit, window_bounds: as in :func:`translate_query`.
        start, end: the timeline (default: 0 to the last input or recorded answer).
        recorded_csparql, recorded_cqels: answer files recorded from the engines.
        stream_iri, on_error, order, spark, master: as in :func:`run`.

    Returns:
        an :class:`~agreement.notebook.views.AgreementView`: ``.agree``, ``.to_pandas()``, ``.plot()``.

    >>> answers = "examples/csrbench/engine-answers/csparql-answer-1.json"
    >>> check(recorded_csparql=answers, recorded_cqels=answers, period="10s").agree
    True
    """
    if variant == "all":
        raise InputError("check takes one variant", hint="use check_variants for all")
    [view] = check_variants(query, stream=stream, static=static, period=period, csparql=csparql,
                            variant=variant, unit=unit, window_bounds=window_bounds, start=start,
                            end=end, recorded_csparql=recorded_csparql, recorded_cqels=recorded_cqels,
                            stream_iri=stream_iri, on_error=on_error, order=order, spark=spark,
                            master=master)
    return view


def analyze_query(query: Source, *, period: str | int | None = None, static: Sequence[str] = (),
                  unit: str = "1s") -> tuple[list[Finding], str]:
    """Which of the paper's sufficient conditions for agreement a CQELS query meets, without a
    stream (``lars agree --analyze``); static files, when given, are checked for condition (ii).

    >>> findings, verdict = analyze_query("examples/coupons/rdf/cqels.rq", period="30m", unit="1m")
    >>> verdict
    'not expected'
    """
    parsed = parse_query(*read_source(query), "cqels", unit)
    graphs = static_graphs(list(static), parsed) if static else None
    return analyze(parsed, period_ticks(period, unit), graphs)
