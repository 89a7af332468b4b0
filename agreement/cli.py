"""The ``lars`` command: ``lars run`` (and, as they land, ``translate`` and ``agree``).

This is the only module that reads ``sys.argv``, prints results and exits. Exit status:
0 success, 1 (``agree`` only) a disagreement, 2 any error. An error about the user's input is
one line on stderr (``file:line:col: error: message``); anything else is an internal error,
shown with its traceback only under ``--debug``.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Sequence

from agreement.check import check_recorded
from agreement.report import render_text, to_json
from lars.analysis import is_stratified
from lars.errors import InputError, LarsError
from lars.parser import parse_facts, parse_program
from lars.readpolicy import ON_ERROR, ORDER, ReadPolicy, ReadReport, read_text
from lars.streamfile import read_stream
from lars.streams import Stream, Timeline
from solver.evaluate import Limits, Problem
from solver.formats import FORMATS, RunInfo
from translate.durations import parse_duration, parse_unit, to_ticks


def choose_timeline(stream: Stream, start: int | None, end: int | None) -> Timeline:
    """``--from``/``--to`` when given; else from 0 (or the first time point, if earlier) to the last."""
    timeline = Timeline(min(0, stream.timeline.start) if start is None else start,
                        stream.timeline.end if end is None else end)
    if timeline.start > timeline.end:
        raise InputError(f"empty timeline [{timeline.start},{timeline.end}]: --from is after --to")
    outside = [t for t in stream.time_points() if t not in timeline]
    if outside:
        raise InputError(f"the stream has atoms at time point {outside[0]}, outside the timeline "
                         f"[{timeline.start},{timeline.end}]", hint="widen --from/--to")
    return timeline


def load_atom_stream(args: argparse.Namespace) -> Stream:
    """The ``--stream`` file on the timeline of ``--from``/``--to``; reading problems go to stderr."""
    policy = ReadPolicy(on_error=args.on_error, order=args.order)
    report = ReadReport()
    stream = read_stream(args.stream, policy=policy, report=report) if args.stream \
        else Stream(Timeline(0, 0))
    for line in report.summary():
        print(line, file=sys.stderr)
    timeline = choose_timeline(stream, args.start, args.end)
    return Stream(timeline, stream.items)


def command_run(args: argparse.Namespace) -> int:
    """``lars run PROGRAM --stream FILE``: print the answer stream of a LARS program."""
    program = parse_program(read_text(args.program), args.program)
    background = frozenset(parse_facts(read_text(args.background), args.background)) \
        if args.background else frozenset()
    stream = load_atom_stream(args)
    problem = Problem(program, stream, background, Limits(max_facts=args.max_facts))
    timeline = (stream.timeline.start, stream.timeline.end)
    FORMATS[args.format](problem.run(), sys.stdout, RunInfo(timeline, timeline, is_stratified(program)))
    return 0


def command_agree(args: argparse.Namespace) -> int:
    """``lars agree``: do C-SPARQL and CQELS agree? Exit 0 if so, 1 if not."""
    unit_ms = parse_unit(args.unit)
    period = to_ticks(parse_duration(args.period), unit_ms)
    if not (args.recorded_csparql and args.recorded_cqels):
        raise InputError("give both --recorded-csparql and --recorded-cqels")
    report = check_recorded(args.recorded_csparql, args.recorded_cqels, period, unit_ms,
                            (args.start, args.end))
    if args.format == "json":
        print(json.dumps(to_json(report), indent=1, ensure_ascii=False))
    else:
        sys.stdout.write(render_text(report))
    return 0 if report.agree else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lars", description="LARS translator and ASP-backed analyzer for RDF stream queries.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser("run", help="compute the answer stream of a LARS program",
                              description="Compute the answer stream of a LARS program over a stream.")
    run.add_argument("program", help="LARS program file (unicode or ascii spelling)")
    run.add_argument("--stream", help="LARS atom stream file: lines 't: a(1), b(x,\"y\")'")
    run.add_argument("--background", help="background facts file: 'p(a). q(1,\"x\").'")
    run.add_argument("--from", dest="start", type=int, help="first time point (default: 0)")
    run.add_argument("--to", dest="end", type=int, help="last time point (default: last in stream)")
    run.add_argument("--format", choices=sorted(FORMATS), default="table", help="output format")
    run.add_argument("--on-error", choices=ON_ERROR, default="stop",
                     help="stop at the first bad stream line, or skip bad lines and report them")
    run.add_argument("--order", choices=ORDER, default="strict",
                     help="refuse timestamps that go back in time, or sort them (with a warning)")
    run.add_argument("--max-facts", type=int, default=Limits().max_facts,
                     help="refuse a time point that would ground more input facts (default %(default)s)")
    run.set_defaults(handler=command_run)
    agree = commands.add_parser(
        "agree", help="check whether C-SPARQL and CQELS agree (exit 0: yes, 1: no)",
        description="Check whether C-SPARQL and CQELS agree on every pulling interval.")
    agree.add_argument("--recorded-csparql", help="answers recorded from C-SPARQL (CSRBench JSON)")
    agree.add_argument("--recorded-cqels", help="answers recorded from CQELS (CSRBench JSON)")
    agree.add_argument("--period", required=True, help="pulling period U, a duration such as 10s")
    agree.add_argument("--unit", default="1s", help="length of one tick (default %(default)s)")
    agree.add_argument("--from", dest="start", type=int, help="first time point (default 0)")
    agree.add_argument("--to", dest="end", type=int, help="last time point (default: last answer)")
    agree.add_argument("--format", choices=("text", "json"), default="text")
    agree.set_defaults(handler=command_agree)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lars`` console command."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except LarsError as error:
        print(str(error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - the last line of defence of the CLI
        if args.debug:
            traceback.print_exc()
        else:
            print(f"internal error: {error!r} (run with --debug for the traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
