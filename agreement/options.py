"""The options of every command as a few frozen values: one options model for the façade and ``lars``.

The façade (:mod:`agreement.facade`) takes an :class:`Options`, eight groups of documented
fields with their defaults, instead of a long list of keyword arguments repeated from one
function to the next (issue 25):

* :class:`QueryOptions` — how to read the query: language, CQELS variant, unit, window bounds;
* :class:`InputOptions` — what to read besides it: stream, static data, background facts,
  recorded answers, and how (stream IRI, bad lines, order, Spark);
* :class:`TimelineOptions` — which time points: ``--from``, ``--to``, the longest timeline;
* :class:`EvaluationOptions` — when the query is evaluated: mode and period, engine profiles,
  an event query's evaluation times;
* :class:`ComputeOptions` — how to compute and how much: solving strategy, partitions, limits;
* :class:`WitnessOptions` — the search space of ``lars witness``;
* :class:`JudgeOptions` — how ``lars check`` compares a recording;
* :class:`LiveOptions` — following inputs that are still being written (``--follow``).

Every field name is unique across the groups, so a notebook may name fields flat and each
lands in its group: ``Options.of(stream="s.nt", unit="1m", end=50)``, ``options.replace(
mode="push")``; a misspelt name is refused with the closest one. The ``lars`` command builds
its :class:`Options` once, from the parsed command line, with the same field names
(:func:`agreement.cli.model.options_of`): an option's ``dest`` is its field's name. This module
imports nothing heavy: the command's parser loads it (start-up cost, issue 17).

Adding an option: a field with its default and a line in its group's docstring here, the
argparse option in :mod:`agreement.cli.app` (``dest`` = the field's name), and a row of
``docs/options.md`` (``tests/cli/test_options_doc.py`` fails until it is there).

>>> Options.of(stream="s.nt", unit="1m", end=50).timeline
TimelineOptions(start=None, end=50, max_time_points=None)
>>> Options().replace(mode="pull", period="10s").evaluation.period
'10s'
>>> Options.of(stram="s.nt")
Traceback (most recent call last):
TypeError: unknown option 'stram' (did you mean 'stream'?)
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from agreement.optiondefaults import DEFAULT_MAX_EXPLANATIONS, DEFAULT_MAX_T0
from solver.limits import DEFAULT_MAX_FACTS, DEFAULT_MAX_MODELS

Source = str | os.PathLike
"""Text, or a path (:data:`agreement.sources.Source`)."""


@dataclass(frozen=True)
class QueryOptions:
    """How to read the query.

    Attributes:
        engine: its language, ``csparql``, ``cqels``, ``rspql`` or ``sparql`` (default: guessed
            from the syntax). Every command takes each language and derives the other side
            as ``lars agree`` does (:func:`agreement.defaults.derive_cqels`).
        variant: the CQELS query of ``cq(Q)``: ``brave``, ``cautious``, an id such as ``bc``,
            or ``all`` (translate, agree: one result per variant).
        unit: the length of one tick.
        window_bounds: ``[RANGE L]`` as ``[t-L,t]`` (``closed``, the paper), ``left-open`` or
            ``right-open``.
        csparql: a separately written C-SPARQL query for its side (agree, witness).
    """

    engine: str | None = None
    variant: str = "brave"
    unit: str = "1s"
    window_bounds: str = "closed"
    csparql: Source | None = None


@dataclass(frozen=True)
class InputOptions:
    """What is read besides the query, and how.

    Attributes:
        stream: a query's RDF stream (timestamped N-Triples, or a folder of Turtle files named
            by timestamp), or a program's LARS atom stream (file or text).
        static: static RDF files, ``FILE`` or ``IRI=FILE``.
        background: a LARS program's background facts (text or path).
        recorded_csparql, recorded_cqels: answers recorded from the engines (``lars agree``).
        answers: the recorded answers ``lars check`` judges.
        stream_iri: the stream of triples whose line names none (default: the query's stream,
            when it reads only one: :func:`agreement.defaults.stream_options`).
        on_error: ``stop`` at the first bad stream line, or ``skip`` and count it.
        order: ``strict`` (a timestamp going back is an error) or ``sort``.
        spark, master: read an RDF stream with Spark (``auto``, ``always``, ``never``) on
            ``master``.
    """

    stream: Source | None = None
    static: Sequence[str] = ()
    background: Source | None = None
    recorded_csparql: Source | None = None
    recorded_cqels: Source | None = None
    answers: Source | None = None
    stream_iri: str | None = None
    on_error: str = "stop"
    order: str = "strict"
    spark: str = "auto"
    master: str = "local[*]"


@dataclass(frozen=True)
class TimelineOptions:
    """Which time points.

    Attributes:
        start: the first time point (default 0).
        end: the last (default: the last input; for a check, the end of the pulling interval
            holding it, :func:`agreement.defaults.pulling_timeline`).
        max_time_points: refuse a longer timeline (default: ``LARS_MAX_TIME_POINTS``, else ten
            million, :mod:`ingest.limits`).
    """

    start: int | None = None
    end: int | None = None
    max_time_points: int | None = None


@dataclass(frozen=True)
class EvaluationOptions:
    """When the query is evaluated: mode and period, or engine profiles.

    Attributes:
        mode: ``none``, ``push`` (℘(P)) or ``pull`` (℘(P,U)).
        period: ``U``, a duration (``"10s"``) or ticks; by default the query's ``COMPUTED
            EVERY``, else its windows' STEP (:func:`agreement.defaults.default_period`), for
            every command.
        profile: an engine profile (name or TOML file) whose program replaces ``mode`` and
            ``window_bounds`` (translate, run, check); for an event query, its event profile.
        t0: where the profile's windows start (default: the profile's own, or 0).
        profiles: the two profiles compared, ``("PULL", "PUSH")`` or ``"PULL,PUSH"`` (agree,
            witness; default: the paper's ``paper-pull,paper-push``).
        at: an event query's evaluation times, ``"8,10"``.
    """

    mode: str = "none"
    period: str | int | None = None
    profile: str | None = None
    t0: int | None = None
    profiles: str | Sequence[str] | None = None
    at: str | None = None

    def profile_names(self) -> tuple[str, ...] | None:
        """``profiles`` as names (``None`` when not given)."""
        if self.profiles is None:
            return None
        given = self.profiles.split(",") if isinstance(self.profiles, str) else self.profiles
        return tuple(name.strip() for name in given)


@dataclass(frozen=True)
class ComputeOptions:
    """How to compute, and how much before refusing.

    Attributes:
        strategy: ``auto``, ``reference``, ``incremental`` or ``stratified`` (the same answers,
            :mod:`solver.strategies`).
        partitions: with ``n > 0``, cut the timeline into ``n`` ranges solved in parallel.
        bags: answer with SPARQL's multisets (``--format sparql-*``, :mod:`translate.bags`).
        max_facts: refuse a time point that would ground more input facts.
        max_models: refuse a time point with more answer streams (``lars run``).
        max_explanations: explain at most this many disagreeing intervals (``None``: all).
        max_ground: ``lars run``: refuse a time point whose rules derive (clingo: ground) more
            atoms (``None``: :data:`solver.limits.DEFAULT_MAX_DERIVED` or ``LARS_MAX_DERIVED``);
            ``lars witness``: refuse a search whose ground program is estimated larger
            (``None``: :data:`~agreement.optiondefaults.DEFAULT_MAX_GROUND`).
        time_limit: stop a witness search after this many seconds, with the best so far.
    """

    strategy: str = "auto"
    partitions: int = 0
    bags: bool = False
    max_facts: int = DEFAULT_MAX_FACTS
    max_models: int = DEFAULT_MAX_MODELS
    max_explanations: int | None = DEFAULT_MAX_EXPLANATIONS
    max_ground: int | None = None
    time_limit: float | None = None


@dataclass(frozen=True)
class WitnessOptions:
    """The search space of ``lars witness`` (:class:`agreement.witness.search.Bounds`).

    Attributes:
        max_triples: at most this many stream triples.
        horizon: the timeline ``[0, T]``, ticks or a duration (default: the period).
        constants: fresh IRIs besides the query's and the static data's.
        earliest: guess triples at this time point or later only.
        own_streams: only triples of STREAM patterns, on their own streams.
    """

    max_triples: int = 6
    horizon: str | int | None = None
    constants: int = 2
    earliest: int = 0
    own_streams: bool = False


@dataclass(frozen=True)
class JudgeOptions:
    """How ``lars check`` compares a recording with the expected relations.

    Attributes:
        compare: ``bindings`` (whole bindings: IRIs, strings and group keys as terms, numbers by
            value), ``csrbench`` (the CSRBench oracle's reading, numeric values alone) or
            ``strict`` (whole bindings, time labels and duplicates);
            :data:`agreement.check.judge.COMPARISONS`.
        merge_same_time: merge recorded relations whose labels fall in one tick.
        suggest: when incorrect, try the profile's single-parameter variations.
        select: judge the query's results projected on these variables (a ``SELECT *`` query
            whose recording carries only some; ``None``: all it selects).
        max_t0: refuse a profile whose t0 is any when the widest window holds more t0 values
            (each one a whole run).
    """

    compare: str = "bindings"
    merge_same_time: bool = False
    suggest: bool = True
    select: tuple[str, ...] | None = None
    max_t0: int = DEFAULT_MAX_T0


@dataclass(frozen=True)
class LiveOptions:
    """Inputs read as they are written (issue 31, ``lars agree --follow``, docs/live.md).

    Attributes:
        follow: read the inputs as they arrive (a file being appended to, a pipe, ``-``,
            ``ws://``, ``kafka://``): two engines' recorded answers, or a query's stream; write
            each interval's verdict as it closes.
        max_delay: ``D``, ticks or a duration: an interval is judged once the least over the
            running inputs of each one's largest time point, less ``D``, has passed its end; a
            line later than that is reported as late (default 0).
        idle: seconds without a new line after which a followed file or Kafka topic has ended
            (default: never; Ctrl-C ends the check with its summary).
        kafka_time: where a ``kafka://`` source's lines take their time: ``timestamp`` (the
            Kafka message's) or ``field:NAME`` (an integer field of a JSON message), in ms
            (default: the time written in the line).
        replayed: the files ``lars replay`` publishes.
        rate: how many times real time they are replayed at.
        to: where: ``-``, ``ws://HOST:PORT`` or ``kafka://HOST:PORT/TOPIC``.
        clients: a WebSocket replay starts once this many clients listen to each file.
    """

    follow: bool = False
    max_delay: str | int | None = None
    idle: float | None = None
    kafka_time: str | None = None
    replayed: tuple[str, ...] = ()
    rate: float = 1.0
    to: str = "-"
    clients: int = 1


GROUPS = {"query": QueryOptions, "data": InputOptions, "timeline": TimelineOptions,
          "evaluation": EvaluationOptions, "compute": ComputeOptions, "witness": WitnessOptions,
          "judge": JudgeOptions, "live": LiveOptions}
"""Each field of :class:`Options` → its group's class."""


@dataclass(frozen=True)
class Options:
    """Every option of a command, in its groups (see the module doc)."""

    query: QueryOptions = field(default_factory=QueryOptions)
    data: InputOptions = field(default_factory=InputOptions)
    timeline: TimelineOptions = field(default_factory=TimelineOptions)
    evaluation: EvaluationOptions = field(default_factory=EvaluationOptions)
    compute: ComputeOptions = field(default_factory=ComputeOptions)
    witness: WitnessOptions = field(default_factory=WitnessOptions)
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    live: LiveOptions = field(default_factory=LiveOptions)

    @classmethod
    def of(cls, **values: Any) -> Options:
        """Options with the named fields set, each in its group."""
        return cls().replace(**values)

    def replace(self, **values: Any) -> Options:
        """A copy with the named fields changed, each in its group."""
        changes: dict[str, dict[str, Any]] = {}
        for name, value in values.items():
            changes.setdefault(group_of(name), {})[name] = value
        return replace(self, **{group: replace(getattr(self, group), **fields_)
                                for group, fields_ in changes.items()})


def option_names() -> dict[str, str]:
    """Every field name → the group that holds it."""
    return {f.name: group for group, kind in GROUPS.items() for f in fields(kind)}


def group_of(name: str) -> str:
    """The group holding field ``name``; a ``TypeError`` naming the closest field otherwise."""
    names = option_names()
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1)
        raise TypeError(f"unknown option {name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return names[name]


def with_options(options: Options | None, changes: dict[str, Any]) -> Options:
    """``options`` (default: all defaults) with ``changes``, the keyword convenience of the
    façade's functions."""
    return (options or Options()).replace(**changes)
