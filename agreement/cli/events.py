"""``lars translate``, ``run`` and ``agree`` for RSEP-QL event queries.

:mod:`agreement.cli.commands` hands a query over when :func:`agreement.events.is_event_source` says it
is an event query (``EVENT ON``, ``MATCH {`` or ``timestamp(``); these functions map the options
onto the façade (:mod:`agreement.facade`) and print. The options
they add are declared by :func:`add_event_options`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from agreement.facade import compare_events, run_events, translate_event_query
from lars.errors import InputError
from solver.reference import Limits
from translate.eventprofiles import EVENT_PROFILES

NOT_FOR_EVENTS = {"engine": None, "variant": "brave", "window_bounds": "closed", "static": [],
                  "spark": "auto", "master": "local[*]", "background": None, "output": None,
                  "partitions": 0, "max_facts": Limits().max_facts, "csparql": None,
                  "recorded_csparql": None, "recorded_cqels": None, "analyze": False,
                  "no_prefixes": False, "all_points": False, "verbose": False}
"""Options of the RSP commands that event queries do not take, with their defaults."""
RUN_FORMATS = ("table", "intervals", "json")
"""``lars run --format`` for event queries: ``table`` and ``intervals`` both list the events
with their intervals."""


def add_event_options(parser: argparse.ArgumentParser, compare: bool = False) -> None:
    """``--profile`` (or ``--profiles A B`` for ``agree``) and ``--at`` for event queries."""
    names = ", ".join(EVENT_PROFILES)
    if compare:
        parser.add_argument("--profiles", nargs=2, metavar=("A", "B"),
                            help=f"event queries: the two profiles to compare ({names})")
    else:
        parser.add_argument("--profile", default="rsep",
                            help=f"event queries: the engine profile ({names}; default %(default)s)")
    parser.add_argument("--at", metavar="T1,T2,...",
                        help="event queries: the evaluation times (ticks, or durations such as 8s)")


def refuse_other_options(args: argparse.Namespace) -> None:
    """An event query given an option it does not take is an error, not a silent no-op."""
    for name, default in NOT_FOR_EVENTS.items():
        if getattr(args, name, default) != default:
            flag = "--" + name.replace("_", "-")
            raise InputError(f"{flag} does not apply to event queries",
                             hint="see docs/events.md for the options they take")


def refuse_event_options(args: argparse.Namespace) -> None:
    """``--profile``, ``--profiles`` and ``--at`` given for a query that is not an event query."""
    for flag, value, default in (("--profile", getattr(args, "profile", "rsep"), "rsep"),
                                 ("--profiles", getattr(args, "profiles", None), None),
                                 ("--at", getattr(args, "at", None), None)):
        if value != default:
            raise InputError(f"{flag} applies to event queries (EVENT ON … MATCH) only",
                             hint="use --mode and --period for C-SPARQL and CQELS queries")


def _evaluation(args: argparse.Namespace) -> dict:
    mode = getattr(args, "mode", None)
    if mode in (None, "none") and args.period is not None and args.at is None:
        mode = "pull"
    return {"at": args.at, "mode": mode, "period": args.period, "unit": args.unit}


def command_translate_events(args: argparse.Namespace, out: TextIO) -> int:
    refuse_other_options(args)
    if args.syntax == "asp":
        raise InputError("--syntax asp is not available for event queries",
                         hint="use unicode, ascii or json")
    view = translate_event_query(args.query, profile=args.profile, **_evaluation(args))
    if args.syntax == "json":
        out.write(json.dumps(view.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(f"# {view.header()}\n{view.text(args.syntax)}\n")
    return 0


def command_run_events(args: argparse.Namespace, out: TextIO) -> int:
    refuse_other_options(args)
    if args.format not in RUN_FORMATS:
        raise InputError(f"--format {args.format} is not available for event queries",
                         hint="use " + ", ".join(RUN_FORMATS))
    if args.stream is None:
        raise InputError("an event query needs a stream", hint="give --stream FILE")
    answers = run_events(args.program, stream=args.stream, profile=args.profile,
                         start=args.start, end=args.end, stream_iri=args.stream_iri,
                         on_error=args.on_error, order=args.order, strategy=args.strategy,
                         **_evaluation(args))
    if args.format == "json":
        out.write(json.dumps(answers.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(answers.text())
    for line in answers.warnings:
        print(line, file=sys.stderr)
    return 0


def command_agree_events(args: argparse.Namespace, out: TextIO) -> int:
    refuse_other_options(args)
    if not args.profiles:
        raise InputError("comparing an event query needs two profiles",
                         hint="--profiles epsparql-chronological epsparql-recent")
    if args.stream is None:
        raise InputError("an event query needs a stream", hint="give --stream FILE")
    report = compare_events(args.query, stream=args.stream, profiles=tuple(args.profiles),
                            start=args.start, end=args.end, stream_iri=args.stream_iri,
                            on_error=args.on_error, order=args.order, **_evaluation(args))
    if args.format == "json":
        out.write(json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(report.text())
    return 0 if report.agree else 1
