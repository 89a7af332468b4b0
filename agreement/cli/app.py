"""The ``lars`` command: ``translate``, ``run``, ``agree``, ``check`` and ``witness``.

This is the only module that reads ``sys.argv`` and exits; :mod:`agreement.cli.commands` does the
work. Exit status (like ``diff``): 0 success (for ``agree``: they agree), 1 ``agree`` found a
disagreement (``witness``: found a witness), 2 any error, 130 interrupted
(Ctrl-C; one line on stderr), 143 and 129 stopped by SIGTERM and SIGHUP (cleaned up as after
Ctrl-C), 141 for ``agree``, ``check`` and ``witness`` when their output pipe closed early
(``lars agree … | head -1``: the verdict was not delivered, so the status is not 0; ``run`` and
``translate`` end quietly with 0, having written what was read). An error about the user's input is one line on stderr
(``file:line:col: error: message``); anything else is an internal error, shown with its
traceback only under ``--debug``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from agreement.cli import options
from agreement.cli.choices import ENGINES, READINGS, RESULT_FORMATS, SINKS, STRATEGIES
from agreement.cli.check import add_check_parser
from agreement.cli.model import NOTES
from agreement.cli.events import add_event_options
from agreement.cli.interrupt import Watched, interrupted_line
from agreement.cli.witness import add_parser as add_witness_parser
from agreement.cli.replay import add_parser as add_replay_parser
from ingest.limits import DEFAULT_MAX_TIME_POINTS, MAX_TIME_POINTS_VARIABLE
from agreement.optiondefaults import DEFAULT_MAX_EXPLANATIONS
from ingest.sparkchoice import SPARK_THRESHOLD_BYTES, THRESHOLD_VARIABLE
from lars.deep import TOO_DEEP
from lars.errors import LarsError
from lars.filekinds import WRITE_FAILURES
from ingest.policy import ON_ERROR, ORDER
from solver.limits import DEFAULT_MAX_DERIVED, MAX_PARTITIONS, Limits
from translate.profiles import PROFILES


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that keeps the examples' line breaks and shows every option's default value (options
    without one say in their help what happens when they are left out)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, [], argparse.SUPPRESS) or "default" in text:
            return text
        return f"{text} (default: %(default)s)"


EXAMPLES = {
    "translate": """examples (from examples/coupons/rdf):
  lars translate cqels.rq --unit 1m                 # tau2 of the paper's query, in its notation
  -> exit 0, the header `# τ2(Q')` and the rules in the paper's notation (`⊞^`)
  lars translate csparql.rq --unit 1m --mode pull --period 10m --syntax ascii
  -> exit 0, the header `pull ℘(P,10)` and the rules in ASCII (`:-`, `<>`)""",
    "run": """examples (from examples/coupons/rdf):
  lars run cqels.rq --stream stream.nt --static static.ttl --unit 1m
  -> exit 0, the header `# timeline [0,18] (unit 1m)`, then `?shop` `?product` `?percent` per time point
  lars run cqels.rq --stream stream.nt --static static.ttl --unit 1m --format csv > answers.csv
  -> exit 0, answers.csv starts `time,shop,product,percent`
  lars run ../program.lars --stream ../stream.txt --background ../background.lars --format atoms
  -> exit 0, the answer atoms of each time point (`ans(b,"rayban",25)`)

A query's answers are solution mappings: one row per answer and time point, variables in SELECT
order, IRIs shortened with the query's prefixes on a terminal (--no-prefixes: in full; machine
formats json and csv: always in full). --format atoms shows the raw LARS answer atoms.""",
    "agree": """examples (from examples/coupons/rdf):
  lars agree cqels.rq --stream stream.nt --static static.ttl --unit 1m --period 30m
  -> DISAGREE, exit 1: `disagree on 1 of 1 pulling intervals (period 30 × 1m, timeline [0,30])`
  lars agree csparql.rq --stream stream.nt --static static.ttl --unit 1m
  -> AGREE, exit 0: the CQELS side derived, the period taken from the STEP (`period 1 × 1m`)
  lars agree --analyze cqels.rq --unit 1m --period 30m
  -> exit 0: `agreement NOT GUARANTEED: 1 of 3 sufficient conditions met`, one line per condition
  lars agree --recorded-csparql ../../csrbench/engine-answers/csparql-answer-1.json \
      --recorded-cqels ../../csrbench/engine-answers/cqels-answer-1.json --period 10s
  -> DISAGREE, exit 1: `(recorded answers) disagree on 3 of 4 pulling intervals`

STEP, --period and --mode: a C-SPARQL window [RANGE L STEP D] slides by D; --period U is when
C-SPARQL pulls (evaluates), by default the windows' STEP (or COMPUTED EVERY). lars agree always
runs C-SPARQL in pull mode (every U) and CQELS in push mode (at every time point with input)
and compares, per pulling interval (t-U,t], the CQELS answers inside it with the C-SPARQL answer
at t. --mode (translate, run) picks one of the modes for a single translation. The timeline runs
to the end of the pulling interval holding the last input (--to cuts it).""",
}


PARTITIONS_HELP = ("cut the timeline into N ranges, each with the history its windows need, "
                   "solved by --strategy in worker processes on this machine, or as Spark tasks "
                   "with --spark always or a cluster --master (a note says which); the same "
                   f"answers; at most {MAX_PARTITIONS:,} (default: no cutting)")
"""``--partitions``: ``lars run``'s, and what ``lars agree`` does for each side."""

SPARK_HELP = ("read RDF streams with Spark: always, never, or auto (inputs over "
              f"{SPARK_THRESHOLD_BYTES // 2**20} MiB, or ${THRESHOLD_VARIABLE}, with a cluster "
              "--master; and scheme://... paths)")
"""``--spark`` of ``lars run`` and ``lars agree``, which read the stream with it (and cut
``--partitions`` ranges on it)."""


def add_query_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by everything that translates a query."""
    parser.add_argument("--engine", choices=ENGINES,
                        help="the query's language (default: guessed from its syntax)")
    parser.add_argument("--variant", default="brave",
                        help="CQELS variant of cq(Q): brave, cautious, all, or an id such as bc")
    parser.add_argument("--unit", default="1s", type=options.unit, help="length of one tick")
    parser.add_argument("--window-bounds", choices=READINGS, default="closed",
                        help="[RANGE L] as [t-L,t] (closed, the paper), (t-L,t] or [t-L,t)")


def add_profile_options(parser: argparse.ArgumentParser) -> None:
    """``--profile`` and ``--t0``: the program of an engine profile instead of --mode."""
    parser.add_argument("--profile", help="engine profile (" + ", ".join(PROFILES) + ") or a .toml "
                        "file: its program replaces --mode and --window-bounds")
    parser.add_argument("--t0", type=int, help="where the profile's windows start, in ticks "
                        "(default: the profile's t0, or 0)")


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by everything that reads streams."""
    parser.add_argument("--stream", help="the stream: a file, or a folder of Turtle files for queries")
    parser.add_argument("--stream-iri", help="stream IRI for triples whose line names none "
                        "(default: the query's stream, when it reads only one)")
    parser.add_argument("--static", action="append", default=[], metavar="[IRI=]FILE",
                        help="static RDF data (repeatable); IRI= maps it to FROM <IRI>")
    parser.add_argument("--from", dest="start", type=int, help="first time point (default 0)")
    parser.add_argument("--to", dest="end", type=int, help="last time point (default: the last input; for lars agree the end of "
                        "the pulling interval holding it)")
    parser.add_argument("--on-error", choices=ON_ERROR, default="stop",
                        help="stop at the first bad stream line, or skip bad lines and report them")
    parser.add_argument("--order", choices=ORDER, default="strict",
                        help="refuse timestamps that go back in time, or sort them (with a warning)")
    parser.add_argument("--max-time-points", type=options.whole(1), metavar="N",
                        help="refuse a timeline of more than N time points (default: "
                             f"${MAX_TIME_POINTS_VARIABLE}, else {DEFAULT_MAX_TIME_POINTS:,})")


RUN_FORMATS = ("table", "json", "csv", "intervals", "atoms")


def build_parser() -> argparse.ArgumentParser:
    parser = options.Parser(
        prog="lars", formatter_class=HelpFormatter, epilog="run 'lars COMMAND --help' for examples", description="LARS translator and ASP-backed analyzer for RDF stream queries.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    translate = commands.add_parser("translate", help="print the LARS program of a query",
                                    description="Translate a C-SPARQL or CQELS query into LARS.",
                                    epilog=EXAMPLES["translate"], formatter_class=HelpFormatter)
    translate.add_argument("query", help="query file")
    add_query_options(translate)
    translate.add_argument("--mode", choices=("none", "push", "pull"), default="none",
                           help="execution mode: none, push ℘(P) or pull ℘(P,U)")
    translate.add_argument("--period", type=options.period, help="pulling period U for --mode pull, e.g. 10s "
                           "(default: the query's COMPUTED EVERY, else its windows' STEP)")
    translate.add_argument("--syntax", choices=("unicode", "ascii", "asp", "json"), default="unicode",
                           help="the paper's notation, ASCII LARS, the ASP encoding, or JSON")
    add_profile_options(translate)
    add_event_options(translate)
    translate.set_defaults(handler="agreement.cli.commands:command_translate")

    run = commands.add_parser("run", help="compute the answer stream of a LARS program or a query",
                              description="Compute the answer stream of a LARS program (over a "
                              "LARS atom stream) or of a query (over an RDF stream).", epilog=EXAMPLES["run"],
                              formatter_class=HelpFormatter)
    run.add_argument("program", help="LARS program (.lars) or query (.rq, .sparql, or by content)")
    run.add_argument("--background", help="LARS background facts file: 'p(a). q(1,\"x\").'")
    add_query_options(run)
    add_data_options(run)
    run.add_argument("--mode", choices=("none", "push", "pull"), default="none",
                     help="execution mode: none (every time point), push (when input arrives) or "
                          "pull (every --period)")
    run.add_argument("--period", type=options.period, help="pulling period for --mode pull (default: COMPUTED EVERY, else the "
                          "windows' STEP)")
    add_profile_options(run)
    run.add_argument("--format", choices=RUN_FORMATS + RESULT_FORMATS, default="table",
                     help="table (a query's answers, or a program's atoms), json, csv (a query's "
                          "answers), intervals, or atoms (the raw LARS answer atoms); sparql-json, "
                          "sparql-csv, sparql-tsv: the SPARQL 1.1 results formats (one document "
                          "for a query over static data only; for a stream one per time point, "
                          "JSON lines or a 'time' column)")
    run.add_argument("--no-prefixes", action="store_true",
                     help="write IRIs in full on the terminal too")
    run.add_argument("--all-points", action="store_true",
                     help="also list time points without answers (a query's answers)")
    add_event_options(run)
    run.add_argument("--output", metavar="FILE",
                     help="write the answers to FILE ('-': stdout) as --output-format, one time "
                          "point at a time, instead of printing --format (a SPARQL results "
                          "--format, sparql-json/csv/tsv, is written to FILE as it is); FILE is "
                          "replaced when the run ends (a regular file, not one of the inputs; for a pipe or a "
                          "device use '-' and redirect)")
    run.add_argument("--output-format", choices=SINKS,
                     help="how --output FILE is written (default jsonl): jsonl, csv or parquet, a "
                          "query's answers one per line/row (time, then one column per variable), "
                          "a program's atoms one per line/row")
    run.add_argument("--strategy", choices=STRATEGIES, default="auto",
                     help="how to solve: the reference (one clingo grounding per time point) or a "
                          "faster one; all give the same answers")
    options.add_partition_options(run, PARTITIONS_HELP, SPARK_HELP)
    run.add_argument("--quiet", action="store_true", help="no progress bar on the terminal")
    run.add_argument("--max-facts", type=options.whole(1), default=Limits().max_facts,
                     help="refuse a time point that would ground more input facts")
    run.add_argument("--max-models", type=options.whole(1), default=Limits().max_models,
                     help="refuse a time point with more answer streams (clingo's models)")
    run.add_argument("--max-ground", type=options.whole(1), default=None, metavar="N",
                     help="refuse a time point whose rules derive (clingo: ground) more than N "
                          f"atoms (default {DEFAULT_MAX_DERIVED:,}, or LARS_MAX_DERIVED)")
    run.set_defaults(handler="agreement.cli.commands:command_run")

    agree = commands.add_parser(
        "agree", help="check whether C-SPARQL and CQELS agree (exit 0: yes, 1: no)",
        description="Check whether C-SPARQL and CQELS agree on every pulling interval, from a "
        "query and a stream, or from answers recorded from the engines. Exit status: 0 they "
        "agree, 1 they disagree, 2 an error, 141 the output pipe closed before the report was "
        "written (lars agree ... | head -1).", epilog=EXAMPLES["agree"], formatter_class=HelpFormatter)
    agree.add_argument("query", nargs="?", help="a C-SPARQL or CQELS query (the other side is "
                       "derived from it)")
    agree.add_argument("--cqels", help="the CQELS side: with QUERY, QUERY is the C-SPARQL side "
                       "(a CQELS query of your own for a C-SPARQL one); alone, the query")
    agree.add_argument("--csparql", help="a separately written C-SPARQL query for its side")
    agree.add_argument("--recorded-csparql", help="answers recorded from C-SPARQL (CSRBench JSON)")
    agree.add_argument("--recorded-cqels", help="answers recorded from CQELS (CSRBench JSON)")
    agree.add_argument("--period", type=options.period, help="pulling period U, a duration such as 10s (default: the "
                       "C-SPARQL windows' STEP, or COMPUTED EVERY)")
    agree.add_argument("--profiles", metavar="PULL,PUSH",
                       help="engine profiles of the two sides, the pulling side first (e.g. "
                            "csparql,cqels); default: the paper's paper-pull,paper-push")
    agree.add_argument("--analyze", action="store_true",
                       help="no stream: report which sufficient (not necessary) conditions for "
                            "agreement the query meets; exits 0")
    add_query_options(agree)
    add_data_options(agree)
    agree.add_argument("--format", choices=("text", "json", "jsonl"), default="text",
                       help="a report for people, one JSON document, or JSON lines written as "
                            "the intervals close (a head line, answer and interval lines, a "
                            "summary line)")
    agree.add_argument("--verbose", action="store_true",
                       help="all witnesses of every explanation (default: the first few)")
    agree.add_argument("--no-prefixes", action="store_true",
                       help="write IRIs in full on the terminal too")
    add_event_options(agree)
    options.add_partition_options(agree, "solve each side as lars run --partitions N does: "
                                  + PARTITIONS_HELP + "; the same report", SPARK_HELP)
    agree.add_argument("--max-explanations", type=int, default=DEFAULT_MAX_EXPLANATIONS,
                       metavar="N", help="explain at most N disagreeing intervals; the others are "
                       "listed without reasons (default %(default)s)")
    agree.add_argument("--follow", action="store_true",
                       help="read the inputs as they are written (a file being appended to, a "
                            "pipe, '-', ws://... or kafka://host:port/topic): --recorded-csparql "
                            "and --recorded-cqels (and --stream for the time), or QUERY's --stream; "
                            "one line per interval as it closes (docs/live.md)")
    options.add_live_options(agree, "an interval")
    agree.set_defaults(handler="agreement.cli.commands:command_agree")
    add_witness_parser(commands)
    add_check_parser(commands)
    add_replay_parser(commands, HelpFormatter)
    for command in commands.choices.values():  # error messages say "run with --debug": anywhere
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help="show tracebacks of internal errors")
    return parser


def notes(error: BaseException) -> list[str]:
    """The notes added to ``error`` on its way up (e.g. that an output file was left as it was)."""
    return [f"note: {note}" for note in getattr(error, "__notes__", ())]


def implementation(reference: str) -> Callable[[argparse.Namespace, TextIO], int]:
    """The function ``module:name`` a subcommand's ``handler`` names, imported now: a command
    loads only its own implementation, not every other command's (start-up cost, issue 17).

    The import runs with Python's cyclic garbage collector paused, and what it made is then
    frozen (:func:`gc.freeze`: never scanned again). Importing a command makes some 300,000
    objects and almost no garbage, yet the collector scanned them about 120 times on the way,
    a third of the import's CPU time (``lars run``: 0.25 s of 0.7–0.85 s).

    A command's module may name, in a ``LOADS`` table by function name, the modules that
    function imports on its way (its machinery, imported inside the façade's functions so that
    other commands do not load it, issue 29): they are imported here too, with the collector
    paused, not while the command runs."""
    module, name = reference.split(":")
    paused = gc.isenabled()
    gc.disable()
    try:
        found = importlib.import_module(module)
        for machinery in getattr(found, "LOADS", {}).get(name, ()):
            importlib.import_module(machinery)
    finally:
        if paused:
            gc.enable()
    gc.freeze()
    return getattr(found, name)


VERDICT_COMMANDS = ("agree", "check", "witness")
"""Commands whose exit status is a verdict: a closed pipe must not turn it into 0."""
CLOSED_PIPE = 128 + signal.SIGPIPE
"""Exit status of a verdict command whose output pipe closed early (``lars agree … | head -1``):
the shell's status for a program ended by SIGPIPE, 141; never 0, which would read as AGREE."""
STOPPING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is, so that it cleans up as after Ctrl-C
    (the hidden ``.part`` file of ``--output`` removed, the previous output kept)."""

    def __init__(self, number: "int | Stopped"):
        if isinstance(number, Stopped):  # clingo re-raises a callback's exception as type(e)(e)
            number = number.number
        super().__init__(signal.Signals(number).name)
        self.number = number


def _stop(number: int, _frame: object) -> None:
    raise Stopped(number)


def _quiet_stdout() -> None:
    """Point the standard output's descriptor at /dev/null, so that Python's last flush at exit
    does not report the closed pipe again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests redirect to StringIO)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lars`` console command."""
    args = build_parser().parse_args(argv)
    NOTES.clear()
    if sys.stdout is None:  # started with stdout closed (``lars run ... >&-``)
        print("error: standard output is closed", file=sys.stderr)
        return 2
    previous = {number: signal.getsignal(number) for number in STOPPING_SIGNALS}
    try:
        for number in STOPPING_SIGNALS:
            signal.signal(number, _stop)
    except ValueError:  # not the main thread: signals stay as they are
        previous = {}
    try:
        return run(args)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def console() -> NoReturn:
    """The ``lars`` console command: :func:`main` on ``sys.argv``, then exit with its status.

    Before exiting, every object left is moved out of the collector's reach (``gc.freeze``):
    the interpreter's last collection at exit would otherwise walk all of them, and the
    reference cycles a run leaves behind, to free memory the process is about to give back
    (0.5 s of the 5 s of ``lars agree`` on 10^5 triples). Objects still free as their
    references go, and exit handlers run as before; only cyclic garbage is left unfinalized,
    as at any exit. Tests call :func:`main`, where nothing is frozen."""
    status = main()
    gc.freeze()
    sys.exit(status)


def run(args: argparse.Namespace) -> int:
    """The subcommand of ``args``, its exceptions turned into one line and an exit status."""
    out = Watched(sys.stdout)
    try:
        status = implementation(args.handler)(args, out)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not after the last line
        return status
    except LarsError as error:
        if args.debug and error.__cause__ is not None:  # e.g. the remote trace of a Spark job
            traceback.print_exception(error.__cause__)
        print(str(error), *notes(error), sep="\n", file=sys.stderr)
        return 2
    except Stopped as stopped:
        print(f"stopped by {stopped}", *(f"({note})" for note in getattr(stopped, "__notes__", ())),
              file=sys.stderr)
        return 128 + stopped.number
    except KeyboardInterrupt as interrupt:
        print(interrupted_line(interrupt, out.wrote), file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return CLOSED_PIPE if args.command in VERDICT_COMMANDS else 0
    except OSError as error:
        if error.errno not in WRITE_FAILURES:
            return internal_error(error, args.debug)
        _quiet_stdout()
        print(f"<stdout>: error: cannot write the standard output: {error.strerror}",
              *notes(error), sep="\n", file=sys.stderr)
        return 2
    except RecursionError:  # a structure deeper than Python's stack, past the parsers (lars.deep)
        print(f"error: {TOO_DEEP}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 - the last line of defence of the CLI
        return internal_error(error, args.debug)


def internal_error(error: BaseException, debug: bool) -> int:
    """A bug: one line (``--debug``: the traceback); exit 2."""
    if debug:
        traceback.print_exception(error)
    else:
        print(f"internal error: {error!r} (run with --debug for the traceback)", file=sys.stderr)
    return 2

if __name__ == "__main__":
    sys.exit(main())
