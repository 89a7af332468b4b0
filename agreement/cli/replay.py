"""``lars replay``: publish recorded streams again at a multiple of real time (issue 31).

For tests and demos of ``lars agree --follow``: the stream and two engines' recorded answers,
replayed together, are three live sources (:mod:`ingest.replay`). Exit 0 once every line is
sent; 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from lars.errors import InputError


def command_replay(args: argparse.Namespace, out: TextIO) -> int:
    """``lars replay FILE... --rate R --to ADDRESS``: 0 when every line was sent."""
    from ingest.replay import paced, publish, timed_lines  # not at start-up (issue 17)
    from translate.durations import parse_unit
    names = [Path(path).name for path in args.replayed]
    if len(set(names)) != len(names):
        raise InputError("the files to replay must have different names (each is published "
                         "under its name)")
    unit_ms = parse_unit(args.unit)
    files = {name: timed_lines(path, unit_ms) for name, path in zip(names, args.replayed)}
    sent = publish(paced(files, args.rate), names, args.to, args.clients)
    if args.to != "-":
        print(f"replayed {sent} lines at {args.rate:g}× real time to {args.to}", file=sys.stderr)
    return 0


def add_parser(commands: argparse._SubParsersAction, formatter: type) -> None:
    """The ``replay`` subcommand."""
    from agreement.cli import options

    replay = commands.add_parser(
        "replay", help="publish recorded streams at R× real time (for lars agree --follow)",
        description="Publish timestamped N-Triples and recorded answers (CSRBench JSON, or "
        "JSON lines) at R times real time, merged in time order: to the standard output, a "
        "Kafka topic, or the clients of a WebSocket server (each file at ws://HOST:PORT/NAME).",
        epilog=EXAMPLES, formatter_class=formatter)
    replay.add_argument("replayed", nargs="+", metavar="FILE",
                        help="timestamped N-Triples, JSON lines of answers, or a CSRBench answer file")
    replay.add_argument("--rate", type=positive, default=1.0, help="R× real time")
    replay.add_argument("--to", default="-", metavar="ADDRESS",
                        help="'-' (standard output), ws://HOST:PORT (a server publishing each file "
                             "at /NAME, its file name), kafka://HOST:PORT/TOPIC (one file) or "
                             "kafka://HOST:PORT (each file to the topic of its name)")
    replay.add_argument("--clients", type=options.whole(1), default=1, metavar="N",
                        help="ws://: start once N clients listen to each file")
    replay.add_argument("--unit", default="1s", type=options.unit,
                        help="length of one tick of the N-Triples timestamps")
    replay.set_defaults(handler="agreement.cli.replay:command_replay")


def positive(text: str) -> float:
    """A rate: a number above zero."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number above zero but found '{text}'")
    return value


EXAMPLES = """examples (from examples/coupons/rdf):
  lars replay stream.nt --rate 600 --unit 1m
  -> exit 0, the stream's lines at 600× real time, a minute of stream time in 0.1 s
     (`<http://ex.org/a> <http://ex.org/offers> <http://ex.org/c1> <http://ex.org/s1> 10`)

With --to ws://127.0.0.1:8765 the files are served at ws://127.0.0.1:8765/NAME, and the replay
starts once a client listens to each: lars agree --follow --recorded-csparql
ws://127.0.0.1:8765/csparql.jsonl ... reads them (docs/live.md)."""
