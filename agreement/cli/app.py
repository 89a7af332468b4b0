"""The ``lars`` command: ``translate``, ``run`` and ``agree``.

This is the only module that reads ``sys.argv`` and exits; :mod:`agreement.cli.commands` does the
work. Exit status (like ``diff``): 0 success (for ``agree``: they agree), 1 ``agree`` found a
disagreement, 2 any error. An error about the user's input is one line on stderr
(``file:line:col: error: message``); anything else is an internal error, shown with its
traceback only under ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence

from agreement.cli.commands import command_agree, command_run, command_translate
from ingest.lazy import SPARK_CHOICES, SPARK_THRESHOLD_BYTES, THRESHOLD_VARIABLE
from lars.errors import LarsError
from ingest.policy import ON_ERROR, ORDER
from solver.reference import Limits
from solver.formats import FORMATS
from solver.sinks import SINKS
from solver.strategies import STRATEGIES
from translate.rspwindows import READINGS


def add_query_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by everything that translates a query."""
    parser.add_argument("--engine", choices=("csparql", "cqels", "sparql"),
                        help="the query's language (default: guessed from its syntax)")
    parser.add_argument("--variant", default="brave",
                        help="CQELS variant of cq(Q): brave, cautious, all, or an id such as bc")
    parser.add_argument("--unit", default="1s", help="length of one tick (default %(default)s)")
    parser.add_argument("--window-bounds", choices=READINGS, default="closed",
                        help="[RANGE L] as [t-L,t] (closed, the paper), (t-L,t] or [t-L,t)")


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by everything that reads streams."""
    parser.add_argument("--stream", help="the stream: a file, or a folder of Turtle files for queries")
    parser.add_argument("--stream-iri", help="stream IRI for triples whose line names none")
    parser.add_argument("--static", action="append", default=[], metavar="[IRI=]FILE",
                        help="static RDF data (repeatable); IRI= maps it to FROM <IRI>")
    parser.add_argument("--from", dest="start", type=int, help="first time point (default 0)")
    parser.add_argument("--to", dest="end", type=int, help="last time point (default: last input)")
    parser.add_argument("--on-error", choices=ON_ERROR, default="stop",
                        help="stop at the first bad stream line, or skip bad lines and report them")
    parser.add_argument("--order", choices=ORDER, default="strict",
                        help="refuse timestamps that go back in time, or sort them (with a warning)")
    parser.add_argument("--spark", choices=SPARK_CHOICES, default="auto",
                        help="read RDF streams with Spark: always, never, or auto (inputs over "
                             f"{SPARK_THRESHOLD_BYTES // 2**20} MiB, or ${THRESHOLD_VARIABLE}, with a "
                             "cluster --master; and scheme://... paths)")
    parser.add_argument("--master", default="local[*]",
                        help="Spark master URL (default %(default)s: embedded, needs only Java)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lars", description="LARS translator and ASP-backed analyzer for RDF stream queries.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    translate = commands.add_parser("translate", help="print the LARS program of a query",
                                    description="Translate a C-SPARQL or CQELS query into LARS.")
    translate.add_argument("query", help="query file")
    add_query_options(translate)
    translate.add_argument("--mode", choices=("none", "push", "pull"), default="none",
                           help="execution mode: none, push ℘(P) or pull ℘(P,U)")
    translate.add_argument("--period", help="pulling period U for --mode pull, e.g. 10s")
    translate.add_argument("--syntax", choices=("unicode", "ascii", "asp", "json"), default="unicode")
    translate.set_defaults(handler=command_translate)

    run = commands.add_parser("run", help="compute the answer stream of a LARS program or a query",
                              description="Compute the answer stream of a LARS program (over a "
                              "LARS atom stream) or of a query (over an RDF stream).")
    run.add_argument("program", help="LARS program (.lars) or query (.rq, .sparql, or by content)")
    run.add_argument("--background", help="LARS background facts file: 'p(a). q(1,\"x\").'")
    add_query_options(run)
    add_data_options(run)
    run.add_argument("--mode", choices=("none", "push", "pull"), default="none")
    run.add_argument("--period", help="pulling period for --mode pull")
    run.add_argument("--format", choices=sorted(FORMATS), default="table", help="output format")
    run.add_argument("--output", metavar="FILE",
                     help="write the answers to FILE ('-': stdout) as --output-format, one time "
                          "point at a time, instead of printing --format")
    run.add_argument("--output-format", choices=tuple(SINKS), default="jsonl",
                     help="jsonl (one JSON object per time point), csv or parquet (one row per atom)")
    run.add_argument("--strategy", choices=STRATEGIES, default="auto",
                     help="how to solve: the reference (one clingo grounding per time point) or a "
                          "faster one; all give the same answers (default %(default)s)")
    run.add_argument("--partitions", type=int, default=0, metavar="N",
                     help="cut the timeline into N ranges solved as Spark tasks on --master (in "
                          "process with --spark never), each with the history its windows need; "
                          "reference solver, stream held in memory (default: no cutting)")
    run.add_argument("--quiet", action="store_true", help="no progress bar on the terminal")
    run.add_argument("--max-facts", type=int, default=Limits().max_facts,
                     help="refuse a time point that would ground more input facts (default %(default)s)")
    run.set_defaults(handler=command_run)

    agree = commands.add_parser(
        "agree", help="check whether C-SPARQL and CQELS agree (exit 0: yes, 1: no)",
        description="Check whether C-SPARQL and CQELS agree on every pulling interval, from a "
        "query and a stream, or from answers recorded from the engines.")
    agree.add_argument("query", nargs="?", help="a CQELS query (both sides are derived from it)")
    agree.add_argument("--cqels", help="the CQELS query (instead of QUERY)")
    agree.add_argument("--csparql", help="a separately written C-SPARQL query for its side")
    agree.add_argument("--recorded-csparql", help="answers recorded from C-SPARQL (CSRBench JSON)")
    agree.add_argument("--recorded-cqels", help="answers recorded from CQELS (CSRBench JSON)")
    agree.add_argument("--period", help="pulling period U, a duration such as 10s")
    agree.add_argument("--analyze", action="store_true",
                       help="no stream: report which sufficient conditions for agreement the query meets")
    add_query_options(agree)
    add_data_options(agree)
    agree.add_argument("--format", choices=("text", "json"), default="text")
    agree.set_defaults(handler=command_agree)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lars`` console command."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args, sys.stdout)
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
