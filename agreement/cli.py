"""The ``lars`` command: ``lars run`` (and, as they land, ``translate`` and ``agree``).

This is the only module that reads ``sys.argv``, prints results and exits. Exit status:
0 success, 1 (``agree`` only) a disagreement, 2 any error. An error about the user's input is
one line on stderr (``file:line:col: error: message``); anything else is an internal error,
shown with its traceback only under ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from lars.analysis import is_stratified
from lars.errors import InputError, LarsError
from lars.parser import parse_facts, parse_program
from lars.streamfile import read_atom_stream
from lars.streams import Stream, Timeline
from solver.evaluate import Limits, Problem
from solver.formats import FORMATS, RunInfo


def read_text(path: str) -> str:
    """The text of a file the user named, or an :class:`InputError` saying why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read {path}: {error}") from None


def timeline_for(contents: dict[int, list], last: int | None, start: int | None, end: int | None) -> Timeline:
    """The timeline: ``--from``/``--to`` when given, else from 0 (or the first time) to the last."""
    times = list(contents)
    first = min([0, *times])
    final = max([first, *times] + ([last] if last is not None else []))
    timeline = Timeline(first if start is None else start, final if end is None else end)
    if timeline.start > timeline.end:
        raise InputError(f"empty timeline [{timeline.start},{timeline.end}]: --from is after --to")
    outside = [t for t in times if t not in timeline]
    if outside:
        raise InputError(f"the stream has atoms at {outside[0]}, outside the timeline "
                         f"[{timeline.start},{timeline.end}]", hint="widen --from/--to")
    return timeline


def command_run(args: argparse.Namespace) -> int:
    """``lars run PROGRAM --stream FILE``: print the answer stream of a LARS program."""
    program = parse_program(read_text(args.program), args.program)
    background = frozenset(parse_facts(read_text(args.background), args.background)) \
        if args.background else frozenset()
    contents, last = read_atom_stream(args.stream) if args.stream else ({}, None)
    timeline = timeline_for(contents, last, args.start, args.end)
    stream = Stream.from_mapping(timeline, contents)
    problem = Problem(program, stream, background, Limits(max_facts=args.max_facts))
    info = RunInfo((timeline.start, timeline.end), (timeline.start, timeline.end),
                   is_stratified(program))
    FORMATS[args.format](problem.run(), sys.stdout, info)
    return 0


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
    run.add_argument("--max-facts", type=int, default=Limits().max_facts,
                     help="refuse a time point that would ground more input facts (default %(default)s)")
    run.set_defaults(handler=command_run)
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
