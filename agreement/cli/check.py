"""``lars check``: is a recorded answer stream correct for a query, a stream and a profile?

Exit status: 0 correct, 1 incorrect, 2 bad input (the ``lars`` command's convention). The work is
:func:`agreement.check.pipeline.judge_files`; this module only declares the options and prints.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from agreement.cli import options
from agreement.cli.model import NOTES, options_of
from agreement.cli.choices import COMPARISONS, ENGINES
from agreement.optiondefaults import DEFAULT_MAX_T0
from lars.errors import InputError
from ingest.limits import DEFAULT_MAX_TIME_POINTS, MAX_TIME_POINTS_VARIABLE
from translate.profiles import PROFILES

EXAMPLE = """\
example (CSRBench Q5, C-SPARQL's recorded answers, which drop a binding):
  lars check examples/csrbench/queries/q5-csparql.rq --stream examples/csrbench/stream \\
      --answers examples/csrbench/engine-answers/csparql-answer-5.json --profile csparql
  -> INCORRECT, exit 1: the `first mismatch` (an empty relation recorded at 1000 ms, before the
     profile expects any) and the profile change that would accept the recording
     (`accepted with:` `startup = "partial"`); where bindings differ, the bindings missing
     and extra and the stream triples behind them.
  lars check examples/csrbench/queries/q3-cqels.rq --stream examples/csrbench/stream \\
      --answers examples/csrbench/engine-answers/cqels-answer-3.json --profile cqels --merge-same-time
  -> CORRECT, exit 0 (CQELS reports one relation per binding; merged per tick they pass:
     `relations of one tick merged`).

profiles: """ + ", ".join(f"{name} ({p.description})" for name, p in PROFILES.items()) + """;
or a TOML file (see translate/profilefile.py), e.g. based-on = "csparql" and bounds = "closed".
"""


def add_check_parser(commands) -> None:
    """Declare ``lars check`` on the ``lars`` subcommand parser."""
    check = commands.add_parser(
        "check", help="judge answers recorded from an engine (exit 0: correct, 1: incorrect)",
        description="Judge whether an answer stream recorded from an engine (CSRBench JSON) is "
        "correct for a query, a stream and an engine profile: the recorded relations must be a "
        "contiguous run of the expected ones for some admissible t0 (CSRBench's alignment), "
        "relations compared as sets of whole bindings (IRIs, strings and group keys as terms, "
        "numbers by value) unless --compare says otherwise.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("query", help="the query file (C-SPARQL, CQELS or RSP-QL)")
    check.add_argument("--stream", required=True, help="the stream: a file or a folder of Turtle files")
    check.add_argument("--answers", required=True, help="the recorded answers: CSRBench JSON, or the JSON lines of "
                       "lars run --format sparql-json (told apart by content)")
    check.add_argument("--profile", required=True,
                       help="engine profile: " + ", ".join(PROFILES) + ", or a .toml file")
    mode = check.add_mutually_exclusive_group()
    mode.add_argument("--compare", choices=COMPARISONS, default=COMPARISONS[0],
                      help="bindings: whole bindings (the default); csrbench: CSRBench's oracle, "
                           "which tells bindings apart by their numeric values alone; strict: "
                           "as --strict")
    mode.add_argument("--strict", dest="compare", action="store_const", const="strict",
                      help="compare whole bindings, time labels (within the profile's jitter) and "
                           "duplicates (--compare strict)")
    mode.add_argument("--csrbench", dest="compare", action="store_const", const="csrbench",
                      help="CSRBench's comparison (--compare csrbench)")
    check.add_argument("--select", type=lambda text: tuple(n for n in text.split(",") if n),
                       metavar="VAR,...",
                       help="judge the query's results projected on these variables (for a "
                            "SELECT * query whose recording carries only some; docs/profiles.md)")
    check.add_argument("--merge-same-time", action="store_true",
                       help="merge recorded relations whose labels fall in one tick")
    check.add_argument("--static", action="append", default=[], metavar="[IRI=]FILE",
                       help="static RDF data (repeatable)")
    check.add_argument("--stream-iri", help="stream IRI for triples whose line names none "
                       "(default: the query's stream, when it reads only one)")
    check.add_argument("--period", type=options.period, help="pulling period for periodic report "
                       "policies, e.g. 10s (default: the query's COMPUTED EVERY, else its windows' STEP)")
    check.add_argument("--from", dest="start", type=int, help="first time point (default 0)")
    check.add_argument("--to", dest="end", type=int,
                       help="last time point (default: the last input plus the widest window and its step)")
    check.add_argument("--no-suggest", dest="suggest", action="store_false",
                       help="when incorrect, do not try the profile's single-parameter variations")
    check.add_argument("--format", choices=("text", "json", "jsonl"), default="text",
                       help="a report for people, one JSON document, or (with --follow) one JSON "
                            "object per line as each relation is judged")
    check.add_argument("--engine", choices=ENGINES,
                       help="the query's language (default: guessed from its syntax)")
    check.add_argument("--variant", default="brave", help="CQELS variant of cq(Q) (default brave)")
    check.add_argument("--unit", default="1s", type=options.unit, help="length of one tick (default %(default)s)")
    check.add_argument("--max-t0", type=options.whole(1), default=DEFAULT_MAX_T0, metavar="N",
                       help="refuse a profile whose t0 is any when the widest window holds more "
                            "than N t0 values (each one a whole run) (default %(default)s)")
    check.add_argument("--max-time-points", type=options.whole(1), metavar="N",
                       help="refuse a timeline of more than N time points (default: "
                            f"${MAX_TIME_POINTS_VARIABLE}, else {DEFAULT_MAX_TIME_POINTS:,})")
    check.add_argument("--follow", action="store_true",
                       help="read --stream and --answers as they are written (a file being "
                            "appended to, a pipe, '-', ws://... or kafka://host:port/topic) and "
                            "judge each recorded relation as it becomes final, every admissible "
                            "t0 side by side (docs/live.md)")
    options.add_live_options(check, "a recorded relation")
    options.add_partition_options(
        check, "solve each expected run as lars run --partitions N does (every t0 and variation "
        "tried; the stream is read by this process and each range shipped its slices): the same "
        "judgement", "with --partitions: always solves the ranges as Spark tasks on --master, auto "
        "only on a cluster master")
    check.set_defaults(handler="agreement.cli.check:command_check")


LOADS = {"command_check": ("agreement.facade", "agreement.check.pipeline", "agreement.check.report")}
"""What :func:`command_check` imports when it runs: imported with it, the collector paused
(:func:`agreement.cli.app.implementation`)."""


def command_check(args: argparse.Namespace, out: TextIO) -> int:
    """``lars check``: 0 if the recording is correct, 1 if not."""
    from agreement.facade import check_recording  # the judge, loaded when it runs (issue 17)
    from agreement.check.report import render_text, to_json

    if args.follow:
        from agreement.cli.livecheck import command_check_follow
        return command_check_follow(args, out)
    if args.max_delay is not None or args.idle is not None or args.kafka_time is not None:
        raise InputError("--max-delay, --idle and --kafka-time apply to --follow only")
    if args.format == "jsonl":
        raise InputError("--format jsonl writes a live check as it runs: give --follow",
                         hint="use --format json")

    judgement = check_recording(args.query, options_of(args))
    NOTES.show(judgement.notes)
    if args.format == "json":
        out.write(json.dumps(to_json(judgement), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(render_text(judgement))
    return 0 if judgement.correct else 1
