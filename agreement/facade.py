"""The façade for notebooks and the ``lars`` command: translate, run, check — one call each.

Each function takes the options of the matching ``lars`` subcommand as keyword arguments and
returns a view (:mod:`agreement.notebook.views`, :mod:`agreement.notebook.checkview`) that shows itself in
Jupyter, turns into a pandas DataFrame and plots (:mod:`agreement.notebook.plots`). :mod:`agreement.cli.commands` calls these same functions and only prints.

* :func:`translate_query` — a C-SPARQL or CQELS query → its LARS program (``lars translate``);
* :func:`run` — a LARS program over an atom stream, or a query over an RDF stream → the answer
  stream (``lars run``);
* :func:`check` — do C-SPARQL and CQELS agree, computed from a query and a stream or from answers
  recorded from the engines (``lars agree``);
* :func:`search_witness` — the smallest stream on which they disagree (``lars witness``).
* :func:`translate_event_query`, :func:`run_events`, :func:`compare_events` — the same three for
  RSEP-QL event queries under an engine profile (:mod:`agreement.events`, ``docs/events.md``).

Queries, programs, background facts and LARS atom streams are given as text or as a path (a
:class:`~pathlib.Path`, or a one-line string naming a file); RDF streams, static data and
recorded answers as paths.

The witness search, event queries, the analysis (``--analyze``) and the recorded and profile
checks are imported inside the functions that run them, so that ``lars run`` and ``lars agree``
do not load them (start-up cost, issue 17; ``tests/cli/test_startup.py``).

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
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agreement.checkplan import CheckPlan
from agreement.compare import pull_range
from agreement.streaming import ComputedCheck
from agreement.defaults import (
    default_period, derive_cqels, derived_text, named_slices, pulling_timeline,
    stream_note, stream_options,
)
from agreement.notebook.checkview import AgreementView
from agreement.notebook.views import ProgramView
from agreement.runplan import RunPlan
from agreement.optiondefaults import DEFAULT_MAX_EXPLANATIONS, DEFAULT_MAX_GROUND, PAPER_PAIR
from agreement.sources import (
    TEXT_SOURCE, Source, is_query, period_ticks, atom_stream_reader, read_source,
)
from ingest.eager import static_graphs
from ingest.encoded import EncodedLines
from ingest.lazy import QueryInput, choose_timeline, stream_reader
from ingest.options import ReadOptions
from ingest.policy import ReadReport, within_timeline
from ingest.ranges import cuttable, file_ranges
from lars.analysis import is_stratified
from lars.errors import InputError, LarsError, LimitError, Position, placed
from lars.parser import parse_facts, parse_program
from solver.formats import RunInfo
from solver.limits import DEFAULT_MAX_FACTS, DEFAULT_MAX_MODELS, MAX_PARTITIONS, Limits
from translate.api import parse_query, query_background, translate
from translate.durations import parse_unit
from translate.profilefile import resolve_profile
from translate.profiles import Profile
from translate.reports import compile_profile
from translate.rsp import RspQuery
from translate.variants import cs, variant_ids

if TYPE_CHECKING:  # for annotations only; each is imported by the function that needs it
    from agreement.analyze import Finding
    from agreement.eventcompare import EventComparison
    from agreement.notebook.eventviews import EventAnswersView, EventProgramView
    from agreement.notebook.views import AnswerStreamView
    from agreement.witness import SearchResult, Witness
    from agreement.witnesssearch import Progress


# --- translate ------------------------------------------------------------------------------------

def translate_variants(query: Source, *, engine: str | None = None, variant: str = "brave",
                       mode: str = "none", period: str | int | None = None, unit: str = "1s",
                       window_bounds: str = "closed", profile: str | None = None,
                       t0: int | None = None) -> list[ProgramView]:
    """:func:`translate_query`, with one view per CQELS variant when ``variant="all"``.

    Args:
        query: the query text, or its path.
        engine: ``csparql``, ``cqels`` or ``sparql`` (default: guessed from the syntax).
        variant: for CQELS, which query of ``cq(Q)``: ``brave``, ``cautious``, an id such as
            ``bc``, or ``all``.
        mode: ``none``, ``push`` (℘(P)) or ``pull`` (℘(P,U)).
        period: ``U`` for pull mode, a duration (``"10s"``) or ticks (default: ``COMPUTED EVERY``,
            else the windows' STEP, :func:`agreement.defaults.default_period`).
        unit: the length of one tick.
        window_bounds: ``closed`` (``[t-L,t]``, the paper), ``left-open`` or ``right-open``.
        profile, t0: an engine profile (name or TOML file) whose program replaces ``mode`` and
            ``window_bounds`` (:mod:`translate.reports`), and where its windows start.
    """
    text, source = read_source(query)
    return translations(text, source, engine=engine, variant=variant, mode=mode, period=period,
                        unit=unit, window_bounds=window_bounds, profile=profile, t0=t0)


def translations(text: str, source: str, *, engine: str | None, variant: str, mode: str,
                 period: str | int | None, unit: str, window_bounds: str,
                 bags: bool = False, profile: str | None = None,
                 t0: int | None = None) -> list[ProgramView]:
    """The translations of query ``text`` the options ask for (several for ``variant="all"``);
    with ``profile``, the program of that engine profile (:mod:`translate.reports`) instead of
    ``mode`` and ``window_bounds``."""
    try:
        parsed = parse_query(text, source, engine, unit)
        engine = engine or parsed.engine
        variants = [variant]
        if engine in ("cqels", "rspql") and variant == "all":
            variants = list(variant_ids(len(parsed.streams)))
        ticks = period_ticks(period, unit)
        if ticks is None and mode == "pull":
            ticks = default_period(parsed)
        if profile is not None:
            chosen = resolve_profile(profile)
            start = t0 if t0 is not None else (chosen.t0 or 0)
            return [ProgramView(compile_profile(parsed, chosen, start, ticks, "brave" if v == "all" else v),
                                unit) for v in variants]
        return [ProgramView(translate(parsed, engine, variant="brave" if v == "all" else v, mode=mode,
                                      period_ticks=ticks, window_bounds=window_bounds, bags=bags), unit)
                for v in variants]
    except LarsError as error:  # too deep, or a constant clingo cannot hold: name the query's file
        raise placed(error, Position(source)) from None


def translate_query(query: Source, **options: Any) -> ProgramView:
    """The LARS program of a C-SPARQL or CQELS query (``lars translate``).

    Args:
        query: the query text, or its path.
        options: those of :func:`translate_variants` (one ``variant``, not ``"all"``).

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
    if options.get("variant") == "all":
        raise InputError("translate_query takes one variant", hint="use translate_variants for all")
    [view] = translate_variants(query, **options)
    return view


# --- run ------------------------------------------------------------------------------------------

def prepare_run(program_or_query: Source, *, stream: Source | None = None,
                background: Source | None = None, static: Sequence[str] = (),
                start: int | None = None, end: int | None = None, engine: str | None = None,
                variant: str = "brave", mode: str = "none", period: str | int | None = None,
                unit: str = "1s", window_bounds: str = "closed", stream_iri: str | None = None,
                on_error: str = "stop", order: str = "strict",
                max_facts: int = DEFAULT_MAX_FACTS, max_models: int = DEFAULT_MAX_MODELS,
                spark: str = "auto",
                master: str = "local[*]", strategy: str = "auto", partitions: int = 0,
                bags: bool = False, profile: str | None = None,
                t0: int | None = None, max_time_points: int | None = None) -> RunPlan:
    """Read and translate what :func:`run` is given (its arguments are documented there),
    without solving; ``bags`` answers a query with SPARQL's multisets (:mod:`translate.bags`).

    A query's stream is not read here, only its first and last time points (for the default
    timeline); :meth:`RunPlan.answers` reads it.
    """
    text, source = read_source(program_or_query)
    reading, report = ReadOptions(stream_iri, on_error, order, spark, master), ReadReport()
    limits = Limits(max_facts=max_facts, max_models=max_models)
    if partitions < 0:
        raise InputError(f"--partitions must be 1 or more (0: no cutting), not {partitions}")
    if partitions > MAX_PARTITIONS:
        raise LimitError(f"--partitions {partitions} is more than the limit of {MAX_PARTITIONS:,} "
                         "ranges", hint="each range is a task; cut into fewer")
    on_cluster = spark == "always" or (spark == "auto" and not master.startswith("local"))
    ranges = {"partitions": partitions, "master": master if on_cluster else None}
    if not is_query(source, text):
        program = parse_program(text, source)
        facts = frozenset(parse_facts(*read_source(background))) if background is not None else frozenset()
        read, first, last = (atom_stream_reader(stream, reading.policy, report) if stream is not None
                             else ((lambda: iter(())), None, None))
        line = choose_timeline(first, last, start, end, max_time_points)
        return RunPlan(program, line, facts,
                       lambda: within_timeline(read(), line.start, line.end, report, "atom"),
                       RunInfo((line.start, line.end), (line.start, line.end), is_stratified(program)),
                       unit, "LARS program" if source == TEXT_SOURCE else Path(source).name, report,
                       strategy=strategy, limits=limits, **ranges)
    view = one_translation(text, source, engine=engine, variant=variant, mode=mode, period=period,
                           unit=unit, window_bounds=window_bounds, bags=bags, profile=profile, t0=t0)
    t = view.translation
    notes: list[str] = []
    reading, sole = stream_options(t.query, stream, reading, notes)
    report.notes.extend(notes)
    encoder = t.encoder()
    lines = EncodedLines(encoder, reading.stream, sole, lambda: report.note(stream_note(sole)))
    read, first, last = stream_reader(stream, reading, report, lines)
    data = QueryInput(choose_timeline(first, last, start, end, max_time_points),
                      query_background(t.query, static_graphs(list(static), t.query), encoder),
                      encoder, read, report)
    line = (data.timeline.start, data.timeline.end)
    title = view.short_title() if source == TEXT_SOURCE else f"{Path(source).name}: {view.short_title()}"
    cut = None
    if partitions and stream is not None and start is None and end is None \
            and cuttable(os.fspath(stream), reading):
        cut = partial(file_ranges, os.fspath(stream), timeline=data.timeline, encoder=encoder,
                      stream_iri=reading.stream, sole=sole, sole_note=stream_note(sole) if sole else "")
    return RunPlan(t.program, data.timeline, data.background, data.slices,
                   RunInfo(line, line, is_stratified(t.program), unit), unit, title, report, t,
                   encoder, strategy, limits, cut=cut, **ranges)


def one_translation(text: str, source: str, **options) -> ProgramView:
    """The one translation :func:`run` takes (``variant="all"`` for CQELS is refused)."""
    found = translations(text, source, **options)
    if len(found) > 1:
        raise InputError("lars run takes one variant", hint="choose --variant brave, cautious or an id")
    return found[0]


def run(program_or_query: Source, **options: Any) -> AnswerStreamView:
    """The answer stream of a LARS program or of a query (``lars run``).

    Args (``options`` are the keyword arguments of :func:`prepare_run`):
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
    return prepare_run(program_or_query, **options).view()


# --- check ----------------------------------------------------------------------------------------

DIFFERENT_QUERIES = ("warning: the C-SPARQL and CQELS queries do not describe the same abstract "
                     "query (result variables, pattern, dataset or stream windows differ)")


def check(query: Source | None = None, **options: Any) -> AgreementView:
    """Do C-SPARQL and CQELS agree on every pulling interval? (``lars agree``, SPEC section 9).

    Computed mode (``query`` and ``stream``): both sides come from the CQELS query —
    C-SPARQL's answers are those of ``℘(τ1(cs(Q)), U)`` at the multiples of ``U``, CQELS's those
    of ``℘(τ2(Q'))`` at every time point with input. Recorded mode (``recorded_csparql`` and
    ``recorded_cqels``): answers recorded from the real engines (CSRBench JSON).

    Args:
        query: the CQELS query, text or path.
        options: those of :func:`check_variants` (one ``variant``, not ``"all"``).

    Returns:
        an :class:`~agreement.notebook.checkview.AgreementView`: ``.agree``, ``.to_pandas()``,
        ``.plot()``.

    >>> answers = "examples/csrbench/engine-answers/csparql-answer-1.json"
    >>> check(recorded_csparql=answers, recorded_cqels=answers, period="10s").agree
    True
    """
    if options.get("variant") == "all":
        raise InputError("check takes one variant", hint="use check_variants for all")
    [view] = check_variants(query, **options)
    return view


def check_variants(query: Source | None = None, **options: Any) -> list[AgreementView]:
    """:func:`check`, with one view per CQELS variant of ``cq(Q)`` when ``variant="all"``;
    options as :func:`prepare_check`. The paper's pair is checked reading the stream once per
    variant, interval by interval, and the answers of both sides are collected for the view."""
    return [found.view() if isinstance(found, CheckPlan) else found
            for found in prepare_check(query, **options)]


def prepare_check(query: Source | None = None, *, stream: str | os.PathLike | None = None,
                  static: Sequence[str] = (), period: str | int | None = None, csparql: Source | None = None,
                  variant: str = "brave", unit: str = "1s", window_bounds: str = "closed",
                  start: int | None = None, end: int | None = None,
                  recorded_csparql: str | os.PathLike | None = None,
                  recorded_cqels: str | os.PathLike | None = None, stream_iri: str | None = None,
                  on_error: str = "stop", order: str = "strict", spark: str = "auto",
                  master: str = "local[*]", profiles: str | None = None,
                  max_time_points: int | None = None,
                  max_explanations: int | None = DEFAULT_MAX_EXPLANATIONS) -> list[CheckPlan | AgreementView]:
    """What :func:`check_variants` checks, one item per CQELS variant of ``cq(Q)`` (several for
    ``variant="all"``): for the paper's pair computed from a stream, a :class:`CheckPlan` with
    the stream still unread (``lars agree`` writes its report as the intervals close,
    :meth:`CheckPlan.write`); for recorded answers and other profiles, the finished view.

    Args:
        query: the CQELS or C-SPARQL query, text or path; from a C-SPARQL query the CQELS side
            is derived (:func:`agreement.defaults.derive_cqels`).
        stream: a timestamped N-Triples file or a folder of Turtle files.
        static: static RDF files, ``FILE`` or ``IRI=FILE``.
        period: ``U``, a duration (``"10s"``) or ticks; by default the C-SPARQL ``COMPUTED
            EVERY``, else the STEP of its windows (:func:`agreement.defaults.default_period`).
        csparql: a separately written C-SPARQL query for its side (warned about if it differs).
        variant: ``brave``, ``cautious``, an id such as ``bc``, or ``all``.
        unit, window_bounds: as in :func:`translate_query`.
        start, end: the timeline (default: 0 to the end of the pulling interval holding the
            last input or recorded answer, :func:`agreement.defaults.pulling_timeline`).
        recorded_csparql, recorded_cqels: answer files recorded from the engines.
        stream_iri, on_error, order, spark, master: how to read the stream
            (:class:`ingest.options.ReadOptions`), as in :func:`run`; without ``stream_iri``,
            triples that name no stream are read as on the query's stream when it reads one.
        profiles: ``"PULL,PUSH"``, engine profiles of the two sides (the pulling side first,
            SPEC section 12); default: the paper's ``paper-pull,paper-push``.
        max_time_points: refuse a longer timeline, as in :func:`run`.
        max_explanations: explain at most this many disagreeing intervals (``None``: all).

    The paper's pair is checked reading the stream once per variant, interval by interval
    (:func:`check_plans`, :mod:`agreement.streaming`): what is held is what the windows need,
    not the stream. Other profiles read the stream whole.
    """
    ticks = period_ticks(period, unit)
    pair = profile_pair(profiles)
    if recorded_csparql is not None or recorded_cqels is not None:
        from agreement.check import check_recorded
        if recorded_csparql is None or recorded_cqels is None:
            raise InputError("give both --recorded-csparql and --recorded-cqels")
        if ticks is None:
            raise InputError("give the pulling period with --period (e.g. --period 10s)")
        report = check_recorded(recorded_csparql, recorded_cqels, ticks, parse_unit(unit), (start, end),
                                pair, max_time_points)
        return [AgreementView(report, report.csparql, report.cqels.reordered(report.csparql.variables),
                              title=f"{Path(recorded_csparql).name} vs {Path(recorded_cqels).name}")]
    if query is None:
        raise InputError("give a C-SPARQL or CQELS query (QUERY or --cqels), or recorded answers")
    text, source = read_source(query)
    given = parse_query(text, source, None, unit)
    if given.engine == "csparql" and csparql is not None:
        raise InputError("QUERY is a C-SPARQL query and --csparql gives another",
                         hint="give the CQELS query as QUERY, or leave out --csparql")
    other = given if given.engine == "csparql" else (
        parse_query(*read_source(csparql), "csparql", unit) if csparql is not None else None)
    ticks = ticks if ticks is not None else default_period(other or given)
    if ticks is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)",
                         hint="it defaults to the windows' STEP (C-SPARQL) or SLIDE (CQELS), and "
                              "this query's windows have none")
    if max_explanations is not None and max_explanations < 0:
        raise InputError(f"--max-explanations must be 0 or more, not {max_explanations}")
    return check_plans(text, source, given, other, stream=stream, static=static, period=ticks,
                       variant=variant, unit=unit, window_bounds=window_bounds, start=start, end=end,
                       reading=ReadOptions(stream_iri, on_error, order, spark, master),
                       max_explanations=max_explanations, max_time_points=max_time_points,
                       profiles=pair)


def check_plans(text: str, source: str, given: RspQuery, other: RspQuery | None, *,
                stream: str | os.PathLike | None, static: Sequence[str], period: int, variant: str,
                unit: str, window_bounds: str, start: int | None, end: int | None,
                reading: ReadOptions, max_explanations: int | None,
                max_time_points: int | None,
                profiles: tuple[Profile, Profile] | None = None) -> list[CheckPlan]:
    """The computed check of :func:`prepare_check` (arguments as there), one plan per variant,
    nothing read yet but the queries, the static data and the stream's two ends (a C-SPARQL
    query alone is read through once more, to derive its CQELS side, and so is a stream checked
    under an Istream or Dstream profile, :func:`agreement.profilecheck.input_reach`)."""
    graphs = static_graphs(list(static), other or given)
    if given.engine == "csparql":
        options, sole = stream_options(given, stream, reading, [])
        read, _, _ = stream_reader(stream, options, ReadReport())
        triples = (e for _, elements in named_slices(read, sole, ReadReport())() for e in elements)
        parsed = derive_cqels(given, triples, graphs)
    elif given.engine in ("cqels", "rspql"):  # RSP-QL reads into the CQELS query (τ2)
        parsed = given
    else:
        parsed = parse_query(text, source, "cqels", unit)
    notices = (["note: " + derived_text(parsed)] if given.engine == "csparql" else []) + (
        [DIFFERENT_QUERIES] if other is not None and cs(other) != cs(parsed) else [])
    plans = []
    for v in variant_ids(len(parsed.streams)) if variant == "all" else [variant]:
        report, notes = ReadReport(), []
        options, sole = stream_options(other or given, stream, reading, notes)
        read, first, last = stream_reader(stream, options, report)
        line = choose_timeline(first, last, start, end, max_time_points)
        line, extended = pulling_timeline(line, period, end_given=end is not None, last_input=last,
                                          limit=max_time_points)
        if not pull_range(period, (line.start, line.end)):
            raise InputError(f"the timeline [{line.start},{line.end}] holds no pulling interval of "
                             f"period {period}: nothing to check", hint="give a longer --to")
        slices = named_slices(read, sole, report)
        if profiles is None:
            check = ComputedCheck(parsed, graphs, period, v, window_bounds, line, other, max_explanations)
        else:
            from agreement.profilecheck import ProfileCheck, input_reach
            reach = input_reach(parsed, profiles, period, named_slices(read, sole, ReadReport()))
            check = ProfileCheck(parsed, graphs, period, v, window_bounds, line, None,
                                 max_explanations, profiles=profiles, reach=reach)
        plans.append(CheckPlan(check, slices, report,
                               tuple(notes + notices), parsed.prefixes,
                               "query" if source == TEXT_SOURCE else Path(source).name, extended))
    return plans


def profile_pair(profiles: str | None) -> tuple[Profile, Profile] | None:
    """Two profiles from ``"A,B"`` (the pulling side first); ``None`` for the paper's pair,
    which keeps the paper's computation (:func:`agreement.check.check_query`)."""
    if profiles is None:
        return None
    names = [name.strip() for name in profiles.split(",")]
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


def analyze_query(query: Source, *, period: str | int | None = None, static: Sequence[str] = (),
                  unit: str = "1s") -> tuple[list[Finding], str]:
    """Which of the paper's sufficient conditions for agreement a CQELS query meets, without a
    stream (``lars agree --analyze``); static files, when given, are checked for condition (ii).
    A C-SPARQL query is analysed as the CQELS query derived from it
    (:func:`agreement.defaults.derive_cqels`, static data deciding which patterns are static).

    >>> findings, verdict = analyze_query("examples/coupons/rdf/cqels.rq", period="30m", unit="1m")
    >>> verdict
    'not guaranteed'
    """
    from agreement.analyze import analyze
    parsed = parse_query(*read_source(query), None, unit)
    graphs = static_graphs(list(static), parsed) if static else None
    if parsed.engine == "csparql":
        parsed = derive_cqels(parsed, (), graphs or {})
    ticks = period_ticks(period, unit)
    return analyze(parsed, default_period(parsed) if ticks is None else ticks, graphs)


def search_witness(query: Source, *, period: str | int, unit: str = "1s", static: Sequence[str] = (),
                   csparql: Source | None = None, max_triples: int = 6,
                   horizon: str | int | None = None, constants: int = 2, earliest: int = 0,
                   own_streams: bool = False, max_ground: int = DEFAULT_MAX_GROUND,
                   time_limit: float | None = None,
                   variant: str = "brave", window_bounds: str = "closed",
                   profiles: Sequence[str] = PAPER_PAIR,
                   on_progress: Progress | None = None) -> tuple[SearchResult, Witness | None]:
    """The smallest stream on which C-SPARQL and CQELS disagree (``lars witness``, SPEC section 13).

    Args:
        query: the CQELS query, text or path (both sides come from it unless ``csparql`` is given).
        period: ``U``, a duration (``"10s"``) or ticks.
        horizon: the timeline ``[0, T]``, ticks or a duration (default: the period).
        max_triples, constants, earliest, own_streams, max_ground, time_limit: the bounds
            (:class:`~agreement.witnesssearch.Bounds`); after ``time_limit`` seconds the best
            witness so far is returned, not proven minimal.
        profiles: the two profiles compared (:data:`agreement.witness.PROFILES`).
        on_progress: called with the models found and the current optimum.

    Returns:
        what was searched, and the witness (``None`` when there is none within the bounds): its
        ``elements`` (the stream), ``report`` (``lars agree``'s report on it), ``verdict``.

    >>> result, found = search_witness("examples/csrbench/queries/q1-cqels.rq", period="10s", earliest=1)
    >>> len(found.elements), found.last, found.found.optimal
    (4, 1, True)
    """
    from agreement.witness import find_witness
    from agreement.witnesssearch import Bounds
    parsed = parse_query(*read_source(query), "cqels", unit)
    other = parse_query(*read_source(csparql), "csparql", unit) if csparql is not None else None
    ticks = period_ticks(period, unit)
    span = ticks if horizon is None else (
        int(horizon) if str(horizon).strip().isdigit() else period_ticks(horizon, unit))
    bounds = Bounds(max_triples, span, constants, max_ground, own_streams, earliest, time_limit)
    return find_witness(parsed, static_graphs(list(static), parsed), ticks, bounds, other, variant,
                        window_bounds, profiles, on_progress)


# --- event queries --------------------------------------------------------------------------------

def translate_event_query(query: Source, *, profile: str = "rsep", at: str | None = None,
                          mode: str | None = None, period: str | int | None = None,
                          unit: str = "1s") -> EventProgramView:
    """The LARS program of an RSEP-QL event query under a profile (``lars translate``).

    Args:
        query: the query text or its path (event syntax, or C-SPARQL's ``timestamp()`` idiom).
        profile: an event profile (``rsep``, ``epsparql-unrestricted``, ``epsparql-chronological``,
            ``epsparql-recent``, ``csparql-seq``).
        at: evaluation times, ``"8,10"``; or ``mode`` ``push``/``pull`` (with ``period``); by
            default the profile's own.
        unit: the length of one tick.

    >>> view = translate_event_query("examples/events/figure1.rq", profile="epsparql-recent")
    >>> view.header().split(";")[1]
    ' profile epsparql-recent (EP-SPARQL, recent: W^λ + SEQ^r + P^r)'
    """
    from agreement.events import event_translation
    from agreement.notebook.eventviews import EventProgramView
    translation, _ = event_translation(query, profile=profile, at=at, mode=mode, period=period,
                                       unit=unit)
    return EventProgramView(translation, unit)


def run_events(query: Source, **options: Any) -> EventAnswersView:
    """The events an event query matches over a stream, each with its interval ``[t1, t2]``
    (``lars run``); options as :func:`agreement.events.compute_events`.

    >>> view = run_events("examples/events/figure1.rq", stream="examples/events/figure1.nt",
    ...                   profile="epsparql-chronological", at="8,10")
    >>> [(e.time, e.start, e.end) for e in view.intervals()]
    [(8, 2, 6), (8, 4, 6)]
    """
    from agreement.events import compute_events
    from agreement.notebook.eventviews import EventAnswersView
    return EventAnswersView.of(compute_events(query, **options))


def compare_events(query: Source, **options: Any) -> EventComparison:
    """Two event profiles on one query and stream, and why their answers differ (``lars agree``);
    options as :func:`agreement.eventcompare.compare_two_profiles`."""
    from agreement.eventcompare import compare_two_profiles
    return compare_two_profiles(query, **options)
