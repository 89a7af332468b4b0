"""Durations and time units (SPEC section 2).

A duration is an integer followed by ``ms``, ``s``, ``m``, ``h`` or ``d``, with or without a
space (``30m``, ``10 s``, ``500ms``). A *time unit* is itself a duration: the length of one tick
(``1s``, ``100ms``, ``1m``). Converting a duration into ticks must give a whole number; anything
else is an :class:`~lars.errors.InputError`, never a rounding.

>>> to_ticks(parse_duration("30m"), parse_unit("1m"))
30
>>> to_ticks(parse_duration("1500 ms"), parse_unit("100ms"))
15
>>> to_ticks(parse_duration("500ms"), parse_unit("1s"))
Traceback (most recent call last):
...
lars.errors.InputError: error: 500ms is not a whole number of ticks of 1s (1 tick = 1000 ms) (choose a smaller time unit, e.g. --unit 500ms)
"""

from __future__ import annotations

import difflib
import re
from math import gcd
from dataclasses import dataclass

from lars.errors import InputError, ParseError, Position

UNIT_MILLISECONDS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
"""Milliseconds per duration suffix."""

_SPELLINGS = {word: suffix for suffix, words in {
    "ms": ("msec", "msecs", "millis", "millisecond", "milliseconds"),
    "s": ("sec", "secs", "second", "seconds"), "m": ("min", "mins", "minute", "minutes"),
    "h": ("hr", "hrs", "hour", "hours"), "d": ("day", "days")}.items() for word in words}

_DURATION = re.compile(r"\s*(-?\d+)\s*([A-Za-z]*)\s*\Z")


@dataclass(frozen=True)
class Duration:
    """``amount`` times ``suffix`` (a key of :data:`UNIT_MILLISECONDS`): ``Duration(30, "m")``."""

    amount: int
    suffix: str

    @property
    def milliseconds(self) -> int:
        return self.amount * UNIT_MILLISECONDS[self.suffix]

    def __str__(self) -> str:
        return f"{self.amount}{self.suffix}"


def check_suffix(suffix: str, position: Position | None = None) -> str:
    """The lower-cased suffix if it names a unit, else a :class:`ParseError` with a suggestion.

    >>> check_suffix("MS")
    'ms'
    """
    lowered = suffix.lower()
    if lowered in UNIT_MILLISECONDS:
        return lowered
    close = [_SPELLINGS[lowered]] if lowered in _SPELLINGS else difflib.get_close_matches(
        lowered, list(UNIT_MILLISECONDS), n=1)
    hint = f"did you mean '{close[0]}'?" if close else None
    what = f"'{suffix}'" if suffix else "nothing"
    raise ParseError(f"expected a time unit (ms, s, m, h, d) after the number but found {what}",
                     position, hint=hint)


def make_duration(amount: int, suffix: str, position: Position | None = None) -> Duration:
    """A :class:`Duration` from its parts; checks the suffix and that the amount is >= 0."""
    if amount < 0:
        raise ParseError(f"a duration cannot be negative: {amount}{suffix}", position)
    return Duration(amount, check_suffix(suffix, position))


def parse_duration(text: str, position: Position | None = None) -> Duration:
    """Parse ``"10s"``, ``"10 s"`` or ``"500ms"``.

    Raises:
        ParseError: the text is not an integer followed by a known suffix.

    >>> parse_duration("10 s")
    Duration(amount=10, suffix='s')
    """
    match = _DURATION.match(text)
    if match is None:
        raise ParseError(f"expected a duration such as 10s or 500ms but found '{text}'", position)
    return make_duration(int(match.group(1)), match.group(2), position)


def parse_unit(text: str, position: Position | None = None) -> int:
    """The length of one tick in milliseconds, from a unit such as ``"1s"`` or ``"100ms"``.

    >>> parse_unit("1m")
    60000
    """
    duration = parse_duration(text, position)
    if duration.amount == 0:
        raise InputError(f"a time unit must be longer than zero: '{text}'", position)
    return duration.milliseconds


def unit_text(unit_ms: int) -> str:
    """The shortest spelling of a unit given in milliseconds.

    >>> unit_text(60000), unit_text(1500)
    ('1m', '1500ms')
    """
    for suffix in ("d", "h", "m", "s"):
        size = UNIT_MILLISECONDS[suffix]
        if unit_ms % size == 0:
            return f"{unit_ms // size}{suffix}"
    return f"{unit_ms}ms"


def to_ticks(duration: Duration, unit_ms: int, position: Position | None = None) -> int:
    """``duration`` in ticks of ``unit_ms`` milliseconds; an :class:`InputError` if not whole."""
    ticks, rest = divmod(duration.milliseconds, unit_ms)
    if rest:
        raise InputError(
            f"{duration} is not a whole number of ticks of {unit_text(unit_ms)} "
            f"(1 tick = {unit_ms} ms)",
            position,
            hint="choose a smaller time unit, e.g. --unit "
                 + unit_text(gcd(duration.milliseconds, unit_ms)),
        )
    return ticks
