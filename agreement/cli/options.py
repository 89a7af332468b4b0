"""Reading the command line: the types of option values, and errors in one line.

A bad value (``--period 1.5s``, ``--max-facts -3``) is refused by argparse with a message that
names the option, ``lars run: error: argument --period: expected a duration such as 10s or 500ms
but found '1.5s' (see 'lars run --help')``, one line and exit status 2 (issue 18: every error says
what to fix, in one line; argparse alone prints the whole usage first). The values keep their
spelling (a duration stays the text ``"10s"``): what they mean is decided later, as before; only
the check moves to the front.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Callable

from ingest.kafkatime import kafka_time_mode
from ingest.sparkchoice import SPARK_CHOICES
from lars.errors import InputError, LarsError
from solver.sparkmaster import master_form
from translate.durations import parse_duration, parse_unit


INVALID_CHOICE = re.compile(r"invalid choice: '(?P<word>[^']*)' \(choose from (?P<choices>.*)\)$")
"""argparse's refusal of a value outside ``choices`` (a command, ``--format``, ``--engine``)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (its sub-command parsers are of its class);
    a misspelt option, command or choice is answered with the closest one ("did you mean").

    Abbreviated options are refused (``allow_abbrev=False``, newcomer): argparse would take
    ``--hori 5`` for ``--horizon 5`` silently, so a command line that works today could mean
    another option tomorrow, once a second option shares the prefix; the refusal names the
    option meant instead."""

    argv: list[str] = []

    def __init__(self, *args, allow_abbrev: bool = False, **kwargs) -> None:
        super().__init__(*args, allow_abbrev=allow_abbrev, **kwargs)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        """Also what a sub-command parser is given (argparse hands it the words after the
        command's name through this method), so that its errors can read them."""
        self.argv = list(sys.argv[1:] if args is None else map(str, args))
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        command = self._command()
        helped = command.prog if command is not None else self.prog
        message, missing = self._unknown_first(message)
        also = f"; the following arguments are required too: {', '.join(missing)}" if missing else ""
        self.exit(2, f"{self.prog}: error: {message}{self._suggestion(message, command)}{also} "
                     f"(see '{helped} --help')\n")

    def _unknown_first(self, message: str) -> tuple[str, list[str]]:
        """argparse reports a missing required option before the options it does not know, so
        ``lars check … --profle csparql`` said only that ``--profile`` is required (newcomer):
        the options it does not know come first, so that :meth:`_suggestion` names the one
        meant, and the required options missing besides that one follow (the message, and
        those options)."""
        unknown = unknown_options(self.argv, self._option_string_actions)
        if not message.startswith(REQUIRED) or not unknown:
            return message, []
        meant = {_closest(name.split("=", 1)[0], sorted(self._option_string_actions),
                          cutoff=0.75).removeprefix("; did you mean ").removesuffix("?")
                 for name in unknown}
        return (f"unrecognized arguments: {' '.join(unknown)}",
                [name for name in message.removeprefix(REQUIRED).split(", ") if name not in meant])

    def _command(self) -> argparse.ArgumentParser | None:
        """The sub-command parser named on the command line, if this parser has sub-commands."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001 (argparse's own type)
                return next((action.choices[word] for word in self.argv if word in action.choices), None)
        return None

    def _suggestion(self, message: str, command: argparse.ArgumentParser | None) -> str:
        """``; did you mean --period?`` for an unrecognized ``--perod`` (or the abbreviation
        ``--per``), from the options of the sub-command named on the command line, and ``; did
        you mean run?`` for the command ``rn`` (argparse of Python 3.11 suggests nothing)."""
        invalid = INVALID_CHOICE.search(message)
        if invalid is not None:
            return _closest(invalid["word"], re.findall(r"'([^']*)'", invalid["choices"]))
        if not message.startswith("unrecognized arguments: "):
            return ""
        known = set(self._option_string_actions) | set(
            command._option_string_actions if command is not None else ())  # noqa: SLF001
        for word in message.removeprefix("unrecognized arguments: ").split():
            name = word.split("=", 1)[0]
            if word.startswith("--") and len(name) > 2:
                said = _closest(name, sorted(known), cutoff=0.75)
                if said:
                    return said
        return ""


REQUIRED = "the following arguments are required: "
"""argparse's refusal of a command line without a required argument."""


def unknown_options(argv: list[str], known) -> list[str]:
    """The words of ``argv`` that are options (``--name`` or ``--name=value``, before a lone
    ``--``) of no name in ``known``.

    >>> unknown_options(["q.rq", "--profle", "csparql", "--stream=s", "--", "--x"], {"--stream"})
    ['--profle']
    """
    words = argv[:argv.index("--")] if "--" in argv else argv
    return [word for word in words
            if word.startswith("--") and word.split("=", 1)[0] not in known]


def _closest(word: str, choices: list[str], cutoff: float = 0.6) -> str:
    """``; did you mean run?`` for ``rn`` among ``choices``: those that start with ``word`` (it
    abbreviates them), else the closest spelling (:func:`difflib.get_close_matches` at
    ``cutoff``); nothing when none is close."""
    close = [choice for choice in choices if word and choice.startswith(word)] \
        or difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)
    if not close:
        return ""
    return f"; did you mean {close[0]}?" if len(close) == 1 else f"; did you mean one of {', '.join(close)}?"


def _message(error: LarsError) -> str:
    """The error's message and hint without a position (an option has none)."""
    return error.message + (f" ({error.hint})" if error.hint else "")


def _parsed(parse: Callable[[str], object], text: str) -> str:
    """``text``, once ``parse`` accepts it; its refusal as argparse's (one line, the option named)."""
    try:
        parse(text)
    except LarsError as error:
        raise argparse.ArgumentTypeError(_message(error)) from None
    return text


def duration(text: str) -> str:
    """A duration such as ``10s`` or ``500ms``."""
    return _parsed(parse_duration, text)


def period(text: str) -> str:
    """A pulling period: a duration longer than zero."""
    if parse_duration(duration(text)).amount == 0:
        raise argparse.ArgumentTypeError(f"a pulling period must be longer than zero, not '{text}'")
    return text


def ticks_or_duration(text: str) -> str:
    """A number of ticks (digits only) or a duration, as ``--horizon`` takes."""
    return text if text.strip().isdigit() else duration(text)


def kafka_time(text: str) -> str:
    """``--kafka-time``: ``timestamp`` or ``field:NAME``."""
    return _parsed(kafka_time_mode, text)


def unit(text: str) -> str:
    """The length of one tick: a duration longer than zero."""
    return _parsed(parse_unit, text)


def whole(minimum: int) -> Callable[[str], int]:
    """A whole number of ``minimum`` or more."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number of {minimum} or more but found '{text}'")
        return value
    return convert


def master_url(text: str) -> str:
    """A Spark master URL of a form Spark takes (:func:`solver.sparkmaster.master_form`),
    refused here rather than after Spark's minute of retries."""
    try:
        return master_form(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(f"'{text}' is no Spark master URL ({error.hint})") from None


def seconds(text: str) -> float:
    """A positive number of seconds (a time limit)."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 but found '{text}'")
    return value


INPUT_OPTIONS = ("program", "query", "stream", "background", "csparql", "cqels", "profile")


def input_files(args: argparse.Namespace) -> list[str]:
    """Every file a command reads, as given (``--static IRI=FILE`` as a whole and its FILE), so
    that ``--output`` can be refused when it is one of them (issue 28)."""
    found = [getattr(args, name, None) for name in INPUT_OPTIONS]
    for static in getattr(args, "static", None) or []:
        found += [static, static.split("=", 1)[-1]]
    return [value for value in found if value]


def add_live_options(parser: argparse.ArgumentParser, judged: str) -> None:
    """``--max-delay``, ``--idle`` and ``--kafka-time``, the options of ``--follow`` that
    ``lars agree`` and ``lars check`` share (``judged``: what a verdict is on)."""
    parser.add_argument("--max-delay", type=ticks_or_duration, metavar="D",
                        help=f"with --follow: judge {judged} once every running input's "
                             "largest time, less D, has passed its end (each input in its own "
                             "order); later lines are reported as late (default 0)")
    parser.add_argument("--idle", type=seconds, metavar="SECONDS",
                        help="with --follow: a file or Kafka topic has ended after SECONDS "
                             "without a new line (default: never; Ctrl-C ends with the summary)")
    parser.add_argument("--kafka-time", type=kafka_time, metavar="timestamp|field:NAME",
                        help="with --follow: a kafka:// source's lines are at their message's "
                             "Kafka timestamp, or at the integer field NAME of the JSON message, "
                             "in ms (default: the time written in the line)")


def add_partition_options(parser: argparse.ArgumentParser, partitions: str, spark: str) -> None:
    """``--partitions``, ``--spark`` and ``--master``, the options of cutting the timeline into
    ranges that ``lars run``, ``lars agree`` and ``lars check`` share (``partitions``, ``spark``:
    their help, which says what the command cuts and what Spark does for it)."""
    parser.add_argument("--partitions", type=whole(1), default=0, metavar="N", help=partitions)
    parser.add_argument("--spark", choices=SPARK_CHOICES, default="auto", help=spark)
    parser.add_argument("--master", default="local[*]", type=master_url,
                        help="Spark master URL; local[*] is embedded and needs only Java")
