"""``lars translate``, ``run`` and ``agree`` for RSEP-QL event queries.

:mod:`agreement.cli.commands` hands a query over when :func:`agreement.sources.is_event_source` says it
is an event query (``EVENT ON``, ``MATCH {`` or ``timestamp(``); these functions map the options
onto the façade (:mod:`agreement.facade`) and print. They share ``--profile`` (translate,
run) and ``--profiles A,B`` (agree) with the engine profiles of C-SPARQL and CQELS queries; an
event query takes the event profiles of :mod:`translate.eventprofiles` there. ``--at`` is
their own (:func:`add_event_options`).
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from agreement.cli.model import NOTES, options_of
from lars.errors import InputError
from solver.limits import Limits
from translate.eventprofiles import EVENT_PROFILES

NOT_FOR_EVENTS = {"engine": None, "variant": "brave", "window_bounds": "closed", "static": [],
                  "spark": "auto", "master": "local[*]", "background": None, "output": None,
                  "partitions": 0, "max_facts": Limits().max_facts, "csparql": None,
                  "recorded_csparql": None, "recorded_cqels": None, "analyze": False,
                  "no_prefixes": False, "all_points": False, "verbose": False, "t0": None,
                  "follow": False, "max_delay": None, "idle": None, "kafka_time": None}
"""Options of the RSP commands that event queries do not take, with their defaults."""
RUN_FORMATS = ("table", "intervals", "json")
"""``lars run --format`` for event queries: ``table`` and ``intervals`` both list the events
with their intervals."""


def add_event_options(parser: argparse.ArgumentParser) -> None:
    """``--at``: the evaluation times of an event query."""
    parser.add_argument("--at", metavar="T1,T2,...",
                        help="event queries: the evaluation times (ticks, or durations such as "
                             "8s); event profiles for --profile(s): " + ", ".join(EVENT_PROFILES))


def require_profile_pair(args: argparse.Namespace) -> None:
    """``--profiles A,B`` given, for comparing an event query."""
    names = tuple(n.strip() for n in (args.profiles or "").split(",") if n.strip())
    if len(names) != 2:
        raise InputError("comparing an event query needs two profiles",
                         hint="--profiles epsparql-chronological,epsparql-recent")


def refuse_other_options(args: argparse.Namespace) -> None:
    """An event query given an option it does not take is an error, not a silent no-op."""
    for name, default in NOT_FOR_EVENTS.items():
        if getattr(args, name, default) != default:
            flag = "--" + name.replace("_", "-")
            raise InputError(f"{flag} does not apply to event queries",
                             hint="see docs/events.md for the options they take")


def refuse_event_options(args: argparse.Namespace) -> None:
    """``--at`` given for a query that is not an event query."""
    if getattr(args, "at", None) is not None:
        raise InputError("--at applies to event queries (EVENT ON … MATCH) only",
                         hint="use --mode and --period for C-SPARQL and CQELS queries")


def command_translate_events(args: argparse.Namespace, out: TextIO) -> int:
    from agreement.facade import translate_event_query  # loaded when it runs (issue 17)

    refuse_other_options(args)
    if args.syntax == "asp":
        raise InputError("--syntax asp is not available for event queries",
                         hint="use unicode, ascii or json")
    view = translate_event_query(args.query, options_of(args))
    if args.syntax == "json":
        out.write(json.dumps(view.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(f"# {view.header()}\n{view.text(args.syntax)}\n")
    return 0


def command_run_events(args: argparse.Namespace, out: TextIO) -> int:
    from agreement.facade import run_events  # loaded when it runs (issue 17)

    refuse_other_options(args)
    if args.format not in RUN_FORMATS:
        raise InputError(f"--format {args.format} is not available for event queries",
                         hint="use " + ", ".join(RUN_FORMATS))
    answers = run_events(args.program, options_of(args))
    if args.format == "json":
        out.write(json.dumps(answers.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(answers.text())
    NOTES.show(answers.warnings)
    return 0


def command_agree_events(args: argparse.Namespace, out: TextIO) -> int:
    from agreement.facade import compare_events  # loaded when it runs (issue 17)

    refuse_other_options(args)
    require_profile_pair(args)
    report = compare_events(args.query, options_of(args))
    if args.format == "json":
        out.write(json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(report.text())
    return 0 if report.agree else 1
