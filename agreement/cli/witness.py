"""``lars witness``: options, the search, the report, the exit status (0 none, 1 witness, 2 error).

:func:`add_parser` declares the options; :func:`command_witness` runs :func:`search_and_report`
in a child process (:mod:`agreement.witness.child`: ``--time-limit`` holds while clingo grounds),
which maps them onto the façade's :func:`agreement.facade.search_witness` and renders
:mod:`agreement.witness.report`; this process writes the report and ``--output``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agreement.cli import options
from agreement.cli.choices import ENGINES, READINGS
from agreement.cli.model import NOTES, options_of
from agreement.optiondefaults import DEFAULT_MAX_GROUND, PAPER_PAIR

if TYPE_CHECKING:  # for annotations only: the search is loaded in the child process
    from agreement.witness.child import Watch
    from agreement.witness.find import SearchResult, Witness
    from agreement.witness.search import Progress

EXAMPLE = """\
example (CSRBench Q1, in C-SPARQL; the period is its STEP, 10s):
  lars witness examples/csrbench/queries/q1-csparql.rq --earliest 1
  -> WITNESS, exit 1: `4 triple(s), last at 1 (minimal within the bounds)`, the stream, the
     pulling interval where the answers differ and why, and the `lars agree` command that
     re-checks it.
"""
DEFAULT_TRIPLES = 6
DEFAULT_FRESH = 2


def add_parser(commands) -> argparse.ArgumentParser:
    """The ``witness`` subcommand and its options."""
    parser = commands.add_parser(
        "witness", help="search the smallest stream on which C-SPARQL and CQELS disagree "
                        "(exit 0: none within the bounds, 1: found)",
        description="Search the smallest stream (fewest triples, then earliest last timestamp) on "
        "which two engine profiles disagree on a pulling interval, or show there is none within "
        "the bounds (SPEC section 13). Both sides are evaluated in one clingo program.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query", help="a C-SPARQL, CQELS or RSP-QL query (the other side is "
                        "derived from it)")
    parser.add_argument("--engine", choices=ENGINES,
                        help="the query's language (default: guessed from its syntax)")
    parser.add_argument("--csparql", help="a separately written C-SPARQL query for its side")
    parser.add_argument("--period", type=options.period, help="pulling period U, a duration such as "
                        "10s (default: the query's COMPUTED EVERY, else its windows' STEP)")
    parser.add_argument("--profiles", default=",".join(PAPER_PAIR),
                        help="the two profiles compared (default %(default)s)")
    parser.add_argument("--static", action="append", default=[], metavar="[IRI=]FILE",
                        help="static RDF data (repeatable); IRI= maps it to FROM <IRI>")
    parser.add_argument("--max-triples", type=options.whole(0), default=DEFAULT_TRIPLES, metavar="K",
                        help="at most K stream triples (default %(default)s)")
    parser.add_argument("--horizon", metavar="T", type=options.ticks_or_duration,
                        help="timeline [0, T]: ticks, or a duration such as 30m (default: the period)")
    parser.add_argument("--earliest", type=options.whole(0), default=0, metavar="E",
                        help="guess triples at time points E or later only (default 0; 1 leaves out "
                             "input at 0, whose CQELS answers no pulling interval compares)")
    parser.add_argument("--constants", type=options.whole(0), default=DEFAULT_FRESH, metavar="N",
                        help="fresh IRIs besides the query's and static data's constants "
                             "(default %(default)s)")
    parser.add_argument("--own-streams", action="store_true",
                        help="guess only triples of STREAM patterns, on their own streams "
                             "(assume the paper's condition (ii), look for timing differences)")
    parser.add_argument("--max-ground", type=options.whole(1), default=None, metavar="N",
                        help="refuse a search whose ground program is estimated larger than N "
                             f"(default {DEFAULT_MAX_GROUND:,})")
    parser.add_argument("--time-limit", type=options.seconds, metavar="SECONDS",
                        help="stop the search after SECONDS of wall time, grounding included, "
                             "with the best witness so far (not proven minimal); without one "
                             "found, exit 2 with what is ruled out (default: no limit)")
    parser.add_argument("--variant", default="brave", help="CQELS variant of cq(Q): brave, cautious or an id")
    parser.add_argument("--unit", default="1s", type=options.unit, help="length of one tick (default %(default)s)")
    parser.add_argument("--window-bounds", choices=READINGS, default="closed",
                        help="[RANGE L] as [t-L,t] (closed, the paper), (t-L,t] or [t-L,t)")
    parser.add_argument("--output", metavar="FILE", help="write the witness stream to FILE")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--quiet", action="store_true", help="no progress on the terminal")
    parser.set_defaults(handler="agreement.cli.witness:command_witness")
    return parser


def check_command(args: argparse.Namespace, stream: str, horizon: int) -> str:
    """The ``lars agree`` call that re-checks a witness written to ``stream``."""
    words = ["lars", "agree", args.query, "--stream", stream, "--unit", args.unit, "--to", str(horizon)]
    if args.period is not None:
        words += ["--period", args.period]
    if args.engine is not None:
        words += ["--engine", args.engine]
    words += [w for spec in args.static for w in ("--static", spec)]
    if args.csparql:
        words += ["--csparql", args.csparql]
    if args.variant != "brave":
        words += ["--variant", args.variant]
    if args.window_bounds != "closed":
        words += ["--window-bounds", args.window_bounds]
    return shlex.join(words)


def next_command(args: argparse.Namespace) -> str:
    """This search again from time 1 (``--earliest 1``), for a witness that rests on time 0."""
    words = ["lars", "witness", args.query]
    for flag, value, default in [("--engine", args.engine, None), ("--csparql", args.csparql, None),
                                 ("--period", args.period, None), ("--horizon", args.horizon, None),
                                 ("--max-triples", args.max_triples, DEFAULT_TRIPLES),
                                 ("--constants", args.constants, DEFAULT_FRESH),
                                 ("--max-ground", args.max_ground, None),
                                 ("--time-limit", args.time_limit, None),
                                 ("--variant", args.variant, "brave"), ("--unit", args.unit, "1s"),
                                 ("--window-bounds", args.window_bounds, "closed")]:
        if value != default:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    words += [w for spec in args.static for w in ("--static", spec)]
    if args.profiles != ",".join(PAPER_PAIR):
        words += ["--profiles", args.profiles]
    if args.own_streams:
        words.append("--own-streams")
    return shlex.join(words + ["--earliest", "1"])


@dataclass(frozen=True)
class Outcome:
    """What the child process hands back: the report as it is written, the witness stream for
    ``--output`` (``None`` without one), whether the search was stopped early, the exit status."""

    report: str
    stream: str | None
    interrupted: bool
    status: int


def search_and_report(args: argparse.Namespace, watch: Watch) -> Outcome:
    """The search and its report, in the child process (:func:`command_witness`); a witness
    found before the whole space is searched is offered to the parent, which shows it if the
    search is stopped later (:func:`agreement.witness.find.find_witness`)."""
    from dataclasses import replace

    from agreement.facade import search_witness  # the search, loaded when it runs (issue 17)

    offering = replace(watch, found=lambda result, witness: watch.offer(report(args, result, witness)))
    return report(args, *search_witness(Path(args.query), options_of(args), watch.progress, offering))


def report(args: argparse.Namespace, result: SearchResult, witness: Witness | None) -> Outcome:
    """The report of a search as :class:`Outcome`."""
    from agreement.witness.report import render_text, stream_text, to_json

    command = check_command(args, args.output or "WITNESS.nt", result.bounds.horizon)
    stream = stream_text(witness.elements, command) if witness is not None and args.output else None
    if args.format == "json":
        text = json.dumps(to_json(result, witness, command, next_command(args)), indent=1,
                          ensure_ascii=False) + "\n"
    else:
        text = render_text(result, witness, command, args.output, next_command(args))
    return Outcome(text, stream, witness is not None and witness.found.interrupted,
                   0 if witness is None else 1)


def command_witness(args: argparse.Namespace, out: TextIO) -> int:
    """``lars witness QUERY``: 1 with a witness, 0 when there is none within the bounds."""
    from agreement.witness.child import run_in_child
    from solver.sinks import check_target, opened_output

    if args.output is not None:
        check_target(args.output, options.input_files(args))
    progress = None if args.quiet else terminal_progress()
    try:
        outcome = run_in_child(search_and_report, (args,), args.time_limit, progress)
    finally:
        if progress is not None:
            sys.stderr.write("\r\033[K")
    if outcome.stream is not None:
        with opened_output(args.output, binary=False) as file:
            file.write(outcome.stream)
    out.write(outcome.report)
    if outcome.interrupted:
        NOTES.show(["stopped early: the witness shown is the best found so far"])
    return outcome.status


def terminal_progress(stream: TextIO | None = None) -> Progress | None:
    """Deepening steps and the bound tried on ``stream`` (stderr, as it is when called: it may
    be redirected), redrawn in place, only on a terminal."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        return None

    def show(steps: int, bound: list[int]) -> None:
        triples, last = (bound + [0, 0])[:2]
        stream.write(f"\r{steps} step(s); now: ≤ {triples} triple(s), last at ≤ {last}   ")
        stream.flush()
    return show
