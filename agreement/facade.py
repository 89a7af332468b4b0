"""The façade for notebooks and the ``lars`` command: translate, run, check — one call each.

Each function takes the options of the matching ``lars`` subcommand as keyword arguments and
returns a view (:mod:`agreement.notebook.views`, :mod:`agreement.notebook.checkview`) that shows itself in
Jupyter, turns into a pandas DataFrame and plots (:mod:`agreement.notebook.plots`). :mod:`agreement.cli.commands` calls these same functions and only prints.

* :func:`translate_query` — a C-SPARQL or CQELS query → its LARS program (``lars translate``);
* :func:`run` — a LARS program over an atom stream, or a query over an RDF stream → the answer
  stream (``lars run``);
* :func:`check_agreement` — do C-SPARQL and CQELS agree, computed from a query and a stream or from answers
  recorded from the engines (``lars agree``);
* :func:`search_witness` — the smallest stream on which they disagree (``lars witness``).
* :func:`translate_event_query`, :func:`run_events`, :func:`compare_events` — the same three for
  RSEP-QL event queries under an engine profile (:mod:`agreement.events.pipeline`, ``docs/events.md``).

Queries, programs, background facts and LARS atom streams are given as text or as a path (a
:class:`~pathlib.Path`, or a one-line string naming a file); RDF streams, static data and
recorded answers as paths.

The witness search, event queries, the analysis (``--analyze``) and the recorded and profile
checks are imported inside the functions that run them, so that ``lars run`` and ``lars agree``
do not load them (start-up cost, issue 17; ``tests/cli/test_startup.py``); so are the stream
readers and solvers of :func:`prepare_run` and the interval check of :func:`prepare_check`, so
that ``lars translate`` loads neither and each of ``lars run`` and ``lars agree`` not the other's
(issue 29; ``tests/cli/test_import_paths.py``).

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
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agreement.defaults import (
    default_period, derive_cqels, derived_text, named_slices, pull_advice, pulling_timeline,
    read_options, stream_note, stream_options, uncompared_tail,
)
from agreement.options import (
    ComputeOptions, EvaluationOptions, InputOptions, Options, QueryOptions, with_options,
)
from agreement.optiondefaults import DEFAULT_MAX_GROUND, PAPER_PAIR
from agreement.sources import (
    TEXT_SOURCE, Source, is_query, period_ticks, atom_stream_reader, read_source,
)
from ingest.policy import ReadReport, within_timeline
from lars.analysis import is_stratified
from lars.errors import InputError, LarsError, LimitError, Position, placed
from ingest.limits import max_time_points
from solver.limits import MAX_PARTITIONS, Limits, max_derived_default
from translate.api import parse_query, query_background, translate
from translate.bags import witnessed
from translate.background import background_patterns
from translate.durations import parse_unit
from translate.profilefile import resolve_profile
from translate.profiles import Profile
from translate.querydiff import differences
from translate.rsp import AllWindow, RspQuery, TriplesWindow
from translate.scanner import SourceText
from translate.variants import variant_ids

if TYPE_CHECKING:  # for annotations only; each is imported by the function that needs it
    from agreement.agree.plan import CheckPlan
    from agreement.notebook.checkview import AgreementView
    from agreement.runplan import Partitioning, RunPlan
    from agreement.agree.analyze import Finding
    from ingest.options import ReadOptions
    from agreement.check.judge import Judgement
    from agreement.events.compare import EventComparison
    from agreement.notebook.eventviews import EventAnswersView, EventProgramView
    from agreement.notebook.views import AnswerStreamView, ProgramView
    from agreement.witness.child import Watch
    from agreement.witness.find import SearchResult, Witness
    from agreement.witness.search import Progress


# --- translate ------------------------------------------------------------------------------------

def translate_variants(query: Source, options: Options | None = None, **changes: Any) -> list[ProgramView]:
    """:func:`translate_query`, with one view per CQELS variant when ``variant="all"``.

    Args:
        query: the query text, or its path.
        options: the :class:`~agreement.options.Options` (or ``changes``, fields by name) it
            takes: :class:`~agreement.options.QueryOptions` (``engine``, ``variant``, ``unit``,
            ``window_bounds``) and :class:`~agreement.options.EvaluationOptions` (``mode``,
            ``period``, ``profile``, ``t0``); the period of pull mode defaults to the query's
            ``COMPUTED EVERY``, else its windows' STEP (:func:`agreement.defaults.default_period`).
    """
    chosen = with_options(options, changes)
    text, source = read_source(query)
    return translations(text, source, chosen.query, chosen.evaluation)


def translations(text: str, source: str, query: QueryOptions, evaluation: EvaluationOptions,
                 bags: bool = False) -> list[ProgramView]:
    """The translations of query ``text`` the options ask for (several for ``variant="all"``);
    with a ``profile``, the program of that engine profile (:mod:`translate.reports`) instead of
    ``mode`` and ``window_bounds``."""
    # the views and profiles of lars translate and lars run (issue 29: not lars agree's)
    from agreement.notebook.views import ProgramView
    from translate.reports import compile_profile, refuse_unread_streams
    chosen = resolve_profile(evaluation.profile) if evaluation.profile is not None else None
    try:  # (an unknown --profile is the option's error, not the query file's: resolved above)
        parsed = parse_query(text, source, query.engine, query.unit)
        engine = query.engine or parsed.engine
        variants = [query.variant]
        if engine in ("cqels", "rspql") and query.variant == "all":
            variants = list(variant_ids(len(parsed.streams)))
        ticks = period_ticks(evaluation.period, query.unit)
        if ticks is None and (evaluation.mode == "pull" or evaluation.profile is not None):
            ticks = default_period(parsed)
        if chosen is not None:
            refuse_unread_streams(replace(parsed, engine=engine), chosen)
            start = evaluation.t0 if evaluation.t0 is not None else (chosen.t0 or 0)
            if bags and chosen.answers == "bag":  # rows repeated as SPARQL's multisets repeat them
                parsed = witnessed(parsed)
            return [ProgramView(compile_profile(parsed, chosen, start, ticks, "brave" if v == "all" else v),
                                query.unit) for v in variants]
        return [ProgramView(translate(parsed, engine, variant="brave" if v == "all" else v,
                                      mode=evaluation.mode, period_ticks=ticks,
                                      window_bounds=query.window_bounds, bags=bags), query.unit)
                for v in variants]
    except LarsError as error:  # too deep, or a constant clingo cannot hold: name the query's file
        raise placed(error, Position(source)) from None


def translate_query(query: Source, options: Options | None = None, **changes: Any) -> ProgramView:
    """The LARS program of a C-SPARQL or CQELS query (``lars translate``).

    Args:
        query: the query text, or its path.
        options, changes: as in :func:`translate_variants` (one ``variant``, not ``"all"``).

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
    chosen = with_options(options, changes)
    if chosen.query.variant == "all":
        raise InputError("translate_query takes one variant", hint="use translate_variants for all")
    [view] = translate_variants(query, chosen)
    return view


# --- run ------------------------------------------------------------------------------------------

def prepare_run(program_or_query: Source, options: Options | None = None, **changes: Any) -> RunPlan:
    """Read and translate what :func:`run` is given (its options are documented there),
    without solving.

    A query's stream is not read here, only its first and last time points (for the default
    timeline); :meth:`RunPlan.answers` reads it.
    """
    # the readers and the solver of a run (issue 29: lars translate loads none of them)
    from agreement.runplan import RunPlan
    from ingest.eager import static_graphs
    from ingest.encoded import EncodedLines
    from ingest.lazy import QueryInput, choose_timeline, stream_reader
    from ingest.ranges import cuttable, file_ranges
    from solver.formats import RunInfo
    chosen = with_options(options, changes)
    data, compute = chosen.data, chosen.compute
    text, source = read_source(program_or_query)
    reading, report = read_options(data), ReadReport()
    limits = Limits(max_facts=compute.max_facts, max_models=compute.max_models,
                    max_derived=compute.max_ground or max_derived_default())
    split = partitioning(data, compute)
    ranges = {"partitions": split.partitions, "master": split.master}
    start, end, most = chosen.timeline.start, chosen.timeline.end, chosen.timeline.max_time_points
    unit = chosen.query.unit
    if not is_query(source, text):
        from lars.parser import parse_facts, parse_program  # LARS text (issue 29: not lars agree's)
        program = parse_program(text, source)
        facts = (frozenset(parse_facts(*read_source(data.background))) if data.background is not None
                 else frozenset())
        read, first, last = (atom_stream_reader(data.stream, reading.policy, report) if data.stream is not None
                             else ((lambda: iter(())), None, None))
        line = choose_timeline(first, last, start, end, most)
        return RunPlan(program, line, facts,
                       lambda: within_timeline(read(), line.start, line.end, report, "atom"),
                       RunInfo((line.start, line.end), (line.start, line.end), is_stratified(program)),
                       unit, "LARS program" if source == TEXT_SOURCE else Path(source).name, report,
                       strategy=compute.strategy, limits=limits, **ranges)
    view = one_translation(text, source, chosen.query, chosen.evaluation, compute.bags)
    t = view.translation
    notes: list[str] = []
    reading, sole = stream_options(t.query, data.stream, reading, notes)
    if t.query.r2s not in (None, "rstream") and chosen.evaluation.profile is None:
        notes.append(f"note: the query registers {t.query.r2s.upper()}; without --profile the "
                     "paper's translation answers each evaluation's whole relation (RSTREAM): give "
                     "--profile (e.g. rsp4j) to apply the registered operator")
    override = (None if chosen.evaluation.profile is None else
                resolve_profile(chosen.evaluation.profile).r2s_note(t.query.name, t.query.r2s))
    if override is not None:
        notes.append(override)
    if data.stream is None and t.query.streams:
        notes.append("warning: the query reads " + ", ".join(sorted({f"<{s.stream}>" for s in t.query.streams}))
                     + " but no --stream was given: every window is empty")
    report.notes.extend(notes)
    encoder = t.encoder()
    lines = EncodedLines(encoder, reading.stream, sole, lambda: report.note(stream_note(sole)))
    read, first, last = stream_reader(data.stream, reading, report, lines, end=end)
    note_spark_reading(data.stream, reading, split, report)
    wanted = background_patterns([t.program])
    found = QueryInput(choose_timeline(first, last, start, end, most),
                       query_background(t.query, static_graphs(list(data.static), t.query, wanted),
                                        encoder, wanted),
                       encoder, read, report,
                       frozenset(encoder.encode(spec.stream) for spec in t.query.streams))
    line = (found.timeline.start, found.timeline.end)
    title = view.short_title() if source == TEXT_SOURCE else f"{Path(source).name}: {view.short_title()}"
    cut = None
    if compute.partitions and data.stream is not None and start is None and end is None \
            and cuttable(os.fspath(data.stream), reading):
        cut = partial(file_ranges, os.fspath(data.stream), timeline=found.timeline, encoder=encoder,
                      stream_iri=reading.stream, sole=sole, sole_note=stream_note(sole) if sole else "")
    return RunPlan(t.program, found.timeline, found.background, found.slices,
                   RunInfo(line, line, is_stratified(t.program), unit), unit, title, report, t,
                   encoder, compute.strategy, limits, cut=cut, **ranges)


def note_spark_reading(stream: Source | None, reading: ReadOptions, split: Partitioning,
                       report: ReadReport) -> None:
    """Say that Spark reads the stream while the program is solved in this process: without
    ``--partitions`` Spark only slices the stream (a newcomer took ``--spark always`` alone for
    a run on Spark, since the cut runs say where their ranges ran)."""
    from ingest.lazy import uses_spark  # a stream reader's choice (issue 29: not translate's)
    if stream is None or split.partitions or isinstance(stream, (list, tuple)):
        return
    if uses_spark(os.fspath(stream), reading.spark, reading.master):
        report.note(f"note: the stream is read by Spark ({reading.master}); the program is solved "
                    "in this process (--partitions N also solves time ranges as Spark tasks)")
    elif reading.spark == "auto" and on_a_cluster(reading.master):  # it ran here, silently
        report.note(f"note: --master {reading.master} is not used: with --spark auto "
                    "this stream is read and solved in this process (--spark auto uses a "
                    "cluster for streams over LARS_SPARK_THRESHOLD_MIB, default 256 MiB); "
                    "--spark always reads it on the cluster, --partitions N also solves there")


def on_a_cluster(master: str) -> bool:
    """Whether a Spark master URL names a cluster, not Spark embedded here (``local[...]``)."""
    return not master.startswith("local")


def partitioning(data: InputOptions, compute: ComputeOptions) -> Partitioning:
    """How ``--partitions`` cuts a solve (``lars run``, each side of ``lars agree``): into
    ``partitions`` ranges solved as Spark tasks on ``master`` with ``spark="always"`` (or
    ``"auto"`` and a cluster master), else in worker processes.

    Raises:
        InputError: ``partitions`` below 0; LimitError: above :data:`MAX_PARTITIONS`.
    """
    from agreement.runplan import Partitioning  # with the solver (issue 29: not translate's)
    if compute.partitions < 0:
        raise InputError(f"--partitions must be 0 (no cutting) or more, not {compute.partitions}")
    if compute.partitions > MAX_PARTITIONS:
        raise LimitError(f"--partitions {compute.partitions} is more than the limit of "
                         f"{MAX_PARTITIONS:,} ranges", hint="each range is a task; cut into fewer")
    on_cluster = data.spark == "always" or (data.spark == "auto" and on_a_cluster(data.master))
    return Partitioning(compute.partitions, data.master if on_cluster else None)


def one_translation(text: str, source: str, query: QueryOptions, evaluation: EvaluationOptions,
                    bags: bool) -> ProgramView:
    """The one translation :func:`run` takes (``variant="all"`` for CQELS is refused)."""
    found = translations(text, source, query, evaluation, bags)
    if len(found) > 1:
        raise InputError("lars run takes one variant", hint="choose --variant brave, cautious or an id")
    return found[0]


def run(program_or_query: Source, options: Options | None = None, **changes: Any) -> AnswerStreamView:
    """The answer stream of a LARS program or of a query (``lars run``).

    Args:
        options, changes: an :class:`~agreement.options.Options`, or its fields by name (each
            lands in its group, :meth:`~agreement.options.Options.replace`); ``run`` reads:
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
        max_models: refuse a time point with more answer streams (clingo's models).
        max_time_points: refuse a longer timeline (default: ``LARS_MAX_TIME_POINTS`` or ten
            million, :mod:`ingest.limits`).
        bags: answer a query with SPARQL's multisets (:mod:`translate.bags`).
        strategy: how to solve (``auto``, ``reference``, ``incremental``, ``stratified``; see
            :mod:`solver.strategies`; all give the same answers).
        spark, master: read an RDF stream with Spark on ``master``: ``always``, ``never``, or
            ``auto`` (:func:`ingest.lazy.uses_spark`: big inputs on a cluster).
        partitions: with ``n > 0``, cut the timeline into ``n`` ranges, each solved by
            ``strategy`` with the history its windows need, in ``n`` worker processes, or as
            Spark tasks on ``master`` with ``spark="always"`` (or ``"auto"`` and a cluster
            master); the same answers. A query's stream file (local, default reading policy,
            default timeline) is cut by byte offsets and each worker reads its own part
            (:mod:`ingest.ranges`); other input is read by the driver and each range shipped
            its slices (:mod:`solver.partition`). Each range's answers are held until it ends.

    Returns:
        an :class:`~agreement.notebook.views.AnswerStreamView`; for a query, its chopped ``ans_1`` atoms.

    >>> view = run("x :- not y. y :- not x.", end=1)
    >>> sorted(map(sorted, view.at(0)))
    [[('x', 0)], [('y', 0)]]
    """
    return prepare_run(program_or_query, with_options(options, changes)).view()


# --- check ----------------------------------------------------------------------------------------

def different_queries(csparql: RspQuery, cqels: RspQuery) -> list[str]:
    """A warning, when the C-SPARQL query given apart does not describe the abstract query the
    CQELS one does, naming each part that differs (newcomer: "result variables, pattern,
    dataset or stream windows differ" left the user to find which)."""
    found = differences(csparql, cqels)
    return [f"warning: the C-SPARQL and CQELS queries do not describe the same abstract query: "
            f"{'; '.join(found)}"] if found else []



def check_agreement(query: Source | None = None, options: Options | None = None,
                    **changes: Any) -> AgreementView:
    """Do C-SPARQL and CQELS agree on every pulling interval? (``lars agree``, SPEC section 9).

    Computed mode (``query`` and ``stream``): both sides come from the CQELS query —
    C-SPARQL's answers are those of ``℘(τ1(cs(Q)), U)`` at the multiples of ``U``, CQELS's those
    of ``℘(τ2(Q'))`` at every time point with input. Recorded mode (``recorded_csparql`` and
    ``recorded_cqels``): answers recorded from the real engines (CSRBench JSON).

    Args:
        query: the CQELS query, text or path.
        options, changes: as in :func:`prepare_check` (one ``variant``, not ``"all"``).

    Returns:
        an :class:`~agreement.notebook.checkview.AgreementView`: ``.agree``, ``.to_pandas()``,
        ``.plot()``.

    >>> answers = "examples/csrbench/engine-answers/csparql-answer-1.json"
    >>> check_agreement(recorded_csparql=answers, recorded_cqels=answers, period="10s").agree
    True
    """
    chosen = with_options(options, changes)
    if chosen.query.variant == "all":
        raise InputError("check takes one variant", hint="use check_variants for all")
    [view] = check_variants(query, chosen)
    return view


def check_variants(query: Source | None = None, options: Options | None = None,
                   **changes: Any) -> list[AgreementView]:
    """:func:`check_agreement`, with one view per CQELS variant of ``cq(Q)`` when ``variant="all"``;
    options as :func:`prepare_check`. The paper's pair is checked reading the stream once per
    variant, interval by interval, and the answers of both sides are collected for the view."""
    from agreement.agree.plan import CheckPlan  # the interval check (issue 29: not run's)
    return [found.view() if isinstance(found, CheckPlan) else found
            for found in prepare_check(query, with_options(options, changes))]


def prepare_check(query: Source | None = None, options: Options | None = None,
                  **changes: Any) -> list[CheckPlan | AgreementView]:
    """What :func:`check_variants` checks, one item per CQELS variant of ``cq(Q)`` (several for
    ``variant="all"``): for the paper's pair computed from a stream, a :class:`CheckPlan` with
    the stream still unread (``lars agree`` writes its report as the intervals close,
    :meth:`CheckPlan.write`); for recorded answers and other profiles, the finished view.

    Args:
        query: the CQELS, RSP-QL or C-SPARQL query, text or path; from a C-SPARQL query the
            CQELS side is derived (:func:`agreement.defaults.derive_cqels`).
        options, changes: an :class:`~agreement.options.Options`, or its fields by name. It reads
            the query options (``variant`` may be ``all``; ``csparql``: a separately written
            C-SPARQL query for its side, warned about if it differs), the input (``stream``,
            ``static``, ``recorded_csparql`` and ``recorded_cqels``: answer files recorded from
            the engines, and how to read the stream, as in :func:`run`; without ``stream_iri``,
            triples that name no stream are read as on the query's stream when it reads one),
            the timeline (default: 0 to the end of the pulling interval holding the last input
            or recorded answer, :func:`agreement.defaults.pulling_timeline`), ``period`` (by
            default the C-SPARQL ``COMPUTED EVERY``, else the STEP of its windows,
            :func:`agreement.defaults.default_period`), ``profiles`` (``"PULL,PUSH"``, the
            pulling side first, SPEC section 12; default the paper's pair) and
            ``max_explanations`` (``None``: all); ``partitions``, ``spark`` and ``master``: each
            side solved cut into ranges as :func:`run` solves (:func:`partitioning`), the same
            report.

    The paper's pair is checked reading the stream once per variant, interval by interval
    (:func:`check_plans`, :mod:`agreement.agree.streaming`): what is held is what the windows need,
    not the stream. Other profiles read the stream whole.
    """
    chosen = with_options(options, changes)
    data, unit = chosen.data, chosen.query.unit
    ticks = period_ticks(chosen.evaluation.period, unit)
    pair = profile_pair(chosen.evaluation.profiles)
    if data.recorded_csparql is not None or data.recorded_cqels is not None:
        from agreement.agree.modes import check_recorded
        from agreement.notebook.checkview import AgreementView  # its view (issue 29: not run's)
        if data.recorded_csparql is None or data.recorded_cqels is None:
            raise InputError("give both --recorded-csparql and --recorded-cqels")
        if ticks is None and query is not None:
            ticks = default_period(parse_query(*read_source(query), None, unit))
        if ticks is None:
            raise InputError("give the pulling period with --period (e.g. --period 10s), or the query",
                             hint="it defaults to the query's COMPUTED EVERY, else its windows' STEP")
        line = chosen.timeline
        report = check_recorded(data.recorded_csparql, data.recorded_cqels, ticks, parse_unit(unit),
                                (line.start, line.end), pair, line.max_time_points)
        return [AgreementView(report, report.csparql, report.cqels.reordered(report.csparql.variables),
                              title=f"{Path(data.recorded_csparql).name} vs {Path(data.recorded_cqels).name}")]
    if query is None:
        raise InputError("give a C-SPARQL or CQELS query (QUERY or --cqels), or recorded answers")
    text, source = read_source(query)
    given, other = query_pair(text, source, chosen.query)
    ticks = ticks if ticks is not None else default_period(other or given)
    if ticks is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)",
                         hint=NO_PERIOD)
    if chosen.compute.max_explanations is not None and chosen.compute.max_explanations < 0:
        raise InputError(f"--max-explanations must be 0 or more, not {chosen.compute.max_explanations}")
    return check_plans(text, source, given, other, chosen, ticks)


NO_PERIOD = ("it defaults to the query's COMPUTED EVERY, else its windows' STEP (C-SPARQL) or "
             "SLIDE (CQELS), and this query's windows have none")


def query_pair(text: str, source: str, query: QueryOptions) -> tuple[RspQuery, RspQuery | None]:
    """The query given, in whichever language, and a separately written C-SPARQL query for its
    side (``csparql``), parsed; the two commands comparing sides (agree, witness) share this."""
    given = parse_query(text, source, query.engine, query.unit)
    if given.engine == "csparql" and query.csparql is not None:
        raise InputError("QUERY is a C-SPARQL query and --csparql gives another",
                         hint="give the CQELS query as QUERY, or leave out --csparql")
    other = given if given.engine == "csparql" else (
        parse_query(*read_source(query.csparql), "csparql", query.unit) if query.csparql is not None
        else None)
    return given, other


def check_plans(text: str, source: str, given: RspQuery, other: RspQuery | None,
                options: Options, period: int) -> list[CheckPlan]:
    """The computed check of :func:`prepare_check` (options as there; ``period`` in ticks), one
    plan per variant, nothing read yet but the queries, the static data and the stream's two
    ends (a C-SPARQL query alone is read through once more, to derive its CQELS side, and so is
    a stream checked under an Istream or Dstream profile, :func:`agreement.agree.profiles.input_reach`)."""
    # the readers and the interval check of lars agree (issue 29: not loaded by translate and run)
    from agreement.agree.arrivals import WindowReader
    from agreement.agree.modes import half_open
    from agreement.agree.plan import CheckPlan
    from agreement.agree.streaming import ComputedCheck
    from agreement.compare import pull_range
    from ingest.eager import static_graphs
    from ingest.lazy import choose_timeline, stream_reader
    from ingest.ranges import cuttable, file_ranges
    data, line_options, query = options.data, options.timeline, options.query
    reading, profiles = read_options(data), profile_pair(options.evaluation.profiles)
    stream, start, end = data.stream, line_options.start, line_options.end
    graphs = static_graphs(list(data.static), other or given)
    split = partitioning(data, options.compute)
    if given.engine == "csparql":
        read_with, sole = stream_options(given, stream, reading, [])
        read, _, _ = stream_reader(stream, read_with, ReadReport(), end=end)
        triples = (e for _, elements in named_slices(read, sole, ReadReport())() for e in elements)
        parsed = derive_cqels(given, triples, graphs, SourceText(text, source))
    elif given.engine in ("cqels", "rspql"):  # RSP-QL reads into the CQELS query (τ2)
        parsed = given
    else:
        parsed = parse_query(text, source, "cqels", query.unit)
    notices = (["note: " + derived_text(parsed)] if given.engine == "csparql" else []) + (
        different_queries(other, parsed) if other is not None else [])
    plans = []
    variants = variant_ids(len(parsed.streams)) if query.variant == "all" else [query.variant]
    for v in variants:
        report, notes = ReadReport(), []
        read_with, sole = stream_options(other or given, stream, reading, notes)
        read, first, last = stream_reader(stream, read_with, report, end=end)
        note_spark_reading(stream, read_with, split, report)
        line = choose_timeline(first, last, start, end, line_options.max_time_points)
        right_open = profiles is not None and half_open(profiles[0])
        line, extended = pulling_timeline(line, period, end_given=end is not None, last_input=last,
                                          half_open=right_open, limit=line_options.max_time_points,
                                          unit_ms=parse_unit(query.unit))
        if end is not None:
            extended = uncompared_tail(line, period, right_open)
        if not pull_range(period, (line.start, line.end)):
            raise InputError(f"the timeline [{line.start},{line.end}] holds no pulling interval of "
                             f"period {period}: nothing to check",
                             hint=pull_advice(line, period, max_time_points(line_options.max_time_points),
                                              parse_unit(query.unit)))
        slices = named_slices(read, sole, report)
        explained = options.compute.max_explanations
        if profiles is None:
            check = ComputedCheck(parsed, graphs, period, v, query.window_bounds, line, other, explained)
        else:
            from agreement.agree.profiles import ProfileCheck, input_reach
            reach = input_reach(parsed, profiles, period, named_slices(read, sole, ReadReport()))
            check = ProfileCheck(parsed, graphs, period, v, query.window_bounds, line, None,
                                 explained, profiles=profiles, reach=reach)
        cut = None
        if split.partitions and stream is not None and start is None and end is None \
                and cuttable(os.fspath(stream), read_with):
            cut = partial(file_ranges, os.fspath(stream), timeline=line, encoder=check.encoder,
                          stream_iri=read_with.stream, sole=sole,
                          sole_note=stream_note(sole) if sole else "")
        windows = None
        if cut is not None and profiles is None and time_windows(parsed):
            windows = WindowReader(os.path.abspath(os.fspath(stream)), read_with.stream, sole)
        plans.append(CheckPlan(check, slices, report,
                               tuple(notes + notices), parsed.prefixes,
                               "query" if source == TEXT_SOURCE else Path(source).name, extended,
                               replace(split, cut=cut), windows))
    return plans


def time_windows(query: RspQuery) -> bool:
    """Whether every stream window of ``query`` is a time window (or ``NOW``): then a disagreeing
    interval's snapshots read a bounded stretch of time, which the workers of a partitioned check
    re-read from the file to explain it, the driver reading no triple (:mod:`agreement.agree.rangecheck`);
    ``TRIPLES n`` and ``ALL`` reach back an unknown way, and the driver reads the stream then."""
    return not any(isinstance(spec.window, (AllWindow, TriplesWindow)) for spec in query.streams)


def profile_pair(profiles: str | Sequence[str] | None) -> tuple[Profile, Profile] | None:
    """Two profiles from ``"A,B"`` or ``("A", "B")`` (the pulling side first); ``None`` for the
    paper's pair, which keeps the paper's computation (:func:`agreement.agree.modes.check_query`)."""
    if profiles is None:
        return None
    names = list(EvaluationOptions(profiles=profiles).profile_names())
    if len(names) != 2 or not all(names):
        raise InputError(f"--profiles takes two profiles separated by a comma, not {profiles!r}",
                         hint="e.g. --profiles csparql,cqels")
    pair = (resolve_profile(names[0]), resolve_profile(names[1]))
    if not pair[0].pulls:
        raise InputError(f"the first profile of --profiles is the pulling side; {pair[0].name} "
                         "reports neither periodically nor at window closes")
    if all(p.paper for p in pair):
        return None
    return pair


def analyze_query(query: Source, options: Options | None = None,
                  **changes: Any) -> tuple[list[Finding], str]:
    """Which of the paper's sufficient conditions for agreement a CQELS query meets, without a
    stream (``lars agree --analyze``); static files, when given, are checked for condition (ii).
    A C-SPARQL query is analysed as the CQELS query derived from it
    (:func:`agreement.defaults.derive_cqels`, static data deciding which patterns are static).
    It reads ``period``, ``static``, ``unit`` and ``engine``.

    >>> findings, verdict = analyze_query("examples/coupons/rdf/cqels.rq", period="30m", unit="1m")
    >>> verdict
    'not guaranteed'
    """
    from agreement.agree.analyze import analyze
    from ingest.eager import static_graphs  # the static data's reader (issue 29: not translate's)
    chosen = with_options(options, changes)
    unit, static = chosen.query.unit, chosen.data.static
    text, source = read_source(query)
    parsed = parse_query(text, source, chosen.query.engine, unit)
    graphs = static_graphs(list(static), parsed) if static else None
    if parsed.engine == "csparql":
        parsed = derive_cqels(parsed, (), graphs or {}, SourceText(text, source))
    ticks = period_ticks(chosen.evaluation.period, unit)
    return analyze(parsed, default_period(parsed) if ticks is None else ticks, graphs)


def search_witness(query: Source, options: Options | None = None, on_progress: Progress | None = None,
                   watch: Watch | None = None, **changes: Any) -> tuple[SearchResult, Witness | None]:
    """The smallest stream on which C-SPARQL and CQELS disagree (``lars witness``, SPEC section 13).

    Args:
        query: the query, text or path, in any language: from a CQELS or RSP-QL query both
            sides come (unless ``csparql`` is given); from a C-SPARQL query the CQELS side is
            derived as ``lars agree`` does, the static data deciding which patterns are static
            (:func:`agreement.defaults.derive_cqels`).
        options, changes: an :class:`~agreement.options.Options`, or its fields by name. It
            reads the query options, ``static``, ``period`` (default: the query's COMPUTED EVERY,
            else its windows' STEP, as for ``lars agree``), ``profiles`` (default the paper's
            pair, :data:`agreement.witness.find.PROFILES`), the search space
            (:class:`~agreement.options.WitnessOptions`: ``horizon`` defaults to the period) and
            ``max_ground`` and ``time_limit`` (after that many seconds the best witness so far is
            returned, not proven minimal; checked while clingo solves, not while it grounds:
            ``lars witness`` runs this in a child process to hold it there too,
            :mod:`agreement.witness.child`).
        on_progress: called after each deepening step with the steps so far and the bound tried.
        watch: for a search run from a parent process that owns the clock (``lars witness``,
            :mod:`agreement.witness.child`): asked whether to stop, told what is ruled out.

    Returns:
        what was searched, and the witness (``None`` when there is none within the bounds): its
        ``elements`` (the stream), ``report`` (``lars agree``'s report on it), ``verdict``.

    >>> result, found = search_witness("examples/csrbench/queries/q1-cqels.rq", period="10s", earliest=1)
    >>> len(found.elements), found.last, found.found.optimal
    (4, 1, True)
    """
    from agreement.witness.find import find_witness
    from agreement.witness.search import Bounds
    from ingest.eager import static_graphs
    chosen = with_options(options, changes)
    unit, space, compute = chosen.query.unit, chosen.witness, chosen.compute
    text, source = read_source(query)
    given, other = query_pair(text, source, chosen.query)
    graphs = static_graphs(list(chosen.data.static), other or given)
    parsed = derive_cqels(given, (), graphs, SourceText(text, source)) if given.engine == "csparql" else (
        given if given.engine in ("cqels", "rspql") else parse_query(text, source, "cqels", unit))
    ticks = period_ticks(chosen.evaluation.period, unit)
    ticks = ticks if ticks is not None else default_period(other or given)
    if ticks is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)", hint=NO_PERIOD)
    horizon = space.horizon
    span = ticks if horizon is None else (
        int(horizon) if str(horizon).strip().isdigit() else period_ticks(horizon, unit))
    max_ground = DEFAULT_MAX_GROUND if compute.max_ground is None else compute.max_ground
    bounds = Bounds(space.max_triples, span, space.constants, max_ground, space.own_streams,
                    space.earliest, compute.time_limit)
    return find_witness(parsed, graphs, ticks, bounds, other, chosen.query.variant,
                        chosen.query.window_bounds, chosen.evaluation.profile_names() or PAPER_PAIR,
                        on_progress, watch)


# --- event queries --------------------------------------------------------------------------------

def translate_event_query(query: Source, options: Options | None = None,
                          **changes: Any) -> EventProgramView:
    """The LARS program of an RSEP-QL event query under a profile (``lars translate``).

    Args:
        query: the query text or its path (event syntax, or C-SPARQL's ``timestamp()`` idiom).
        options, changes: an :class:`~agreement.options.Options`, or its fields by name:
            ``profile``, an event profile (``rsep``, the default, ``epsparql-unrestricted``,
            ``epsparql-chronological``, ``epsparql-recent``, ``csparql-seq``); ``at``, the
            evaluation times ``"8,10"``, or ``mode`` ``push``/``pull`` (with ``period``; a
            ``period`` alone pulls), by default the profile's own; ``unit``.

    >>> view = translate_event_query("examples/events/figure1.rq", profile="epsparql-recent")
    >>> view.header().split(";")[1]
    ' profile epsparql-recent (EP-SPARQL, recent: W^λ + SEQ^r + P^r)'
    """
    from agreement.events.pipeline import event_translation
    from agreement.notebook.eventviews import EventProgramView
    chosen = with_options(options, changes)
    translation, _ = event_translation(query, chosen)
    return EventProgramView(translation, chosen.query.unit)


def run_events(query: Source, options: Options | None = None, **changes: Any) -> EventAnswersView:
    """The events an event query matches over a stream, each with its interval ``[t1, t2]``
    (``lars run``); options as :func:`agreement.events.pipeline.compute_events`.

    >>> view = run_events("examples/events/figure1.rq", stream="examples/events/figure1.nt",
    ...                   profile="epsparql-chronological", at="8,10")
    >>> [(e.time, e.start, e.end) for e in view.intervals()]
    [(8, 2, 6), (8, 4, 6)]
    """
    from agreement.events.pipeline import compute_events
    from agreement.notebook.eventviews import EventAnswersView
    return EventAnswersView.of(compute_events(query, with_options(options, changes)))


def compare_events(query: Source, options: Options | None = None, **changes: Any) -> EventComparison:
    """Two event profiles (``profiles``) on one query and stream, and why their answers differ
    (``lars agree``); options as :func:`agreement.events.compare.compare_two_profiles`."""
    from agreement.events.compare import compare_two_profiles
    return compare_two_profiles(query, with_options(options, changes))


# --- lars check -----------------------------------------------------------------------------------

def check_recording(query: Source, options: Options | None = None, **changes: Any) -> Judgement:
    """Is the answer stream recorded from an engine (``answers``, CSRBench JSON) correct for a
    query, its ``stream`` and an engine ``profile``? (``lars check``; the judge:
    :mod:`agreement.check.pipeline`).

    The defaults are every command's: a stream whose lines name no stream is read as the
    query's only stream, the ``period`` of a periodic profile is the query's COMPUTED EVERY,
    else its windows' STEP, and a C-SPARQL, CQELS or RSP-QL query is taken. The judge's own
    options (``compare``, ``merge_same_time``, ``suggest``) are :class:`~agreement.options.JudgeOptions`.

    >>> judgement = check_recording("examples/csrbench/queries/q3-cqels.rq",
    ...     stream="examples/csrbench/stream", profile="cqels", merge_same_time=True,
    ...     answers="examples/csrbench/engine-answers/cqels-answer-3.json")
    >>> judgement.correct
    True
    """
    from agreement.check.pipeline import judge_files
    chosen = with_options(options, changes)
    data, judging = chosen.data, chosen.judge
    if data.stream is None or data.answers is None or chosen.evaluation.profile is None:
        raise InputError("lars check needs a stream, the recorded answers and a profile",
                         hint="give --stream, --answers and --profile")
    if on_a_cluster(data.master) and not chosen.compute.partitions:
        raise InputError(f"--master {data.master} is used only with --partitions N: lars check "
                         "reads the stream and solves its expected runs in this process",
                         hint="give --partitions N to solve each run's ranges as Spark tasks "
                              "there, or leave --master out")
    return judge_files(query, data.stream, data.answers, chosen.evaluation.profile,
                       static=data.static, unit=chosen.query.unit, engine=chosen.query.engine,
                       stream_iri=data.stream_iri, comparison=judging.compare,
                       merge=judging.merge_same_time, period=chosen.evaluation.period,
                       variant=chosen.query.variant, start=chosen.timeline.start,
                       end=chosen.timeline.end, suggest=judging.suggest,
                       select=judging.select, max_t0=judging.max_t0,
                       max_time_points=chosen.timeline.max_time_points,
                       cut=partitioning(data, chosen.compute))
