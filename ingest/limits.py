"""The bound on the timeline's length, which protects the machine from outlier time points
(SPEC section 11: limits are explicit, refused with a message saying how to raise them).

A single triple at time 10^18, or ``--to 10^18``, would make a timeline of 10^18 time points:
the run would never end, and the output formats that list every evaluated time point would not
fit on any disk. So a timeline longer than ``max_time_points`` is refused before anything is
read or solved. The bound also caps every empty stretch between two inputs, which lies inside
the timeline. The default, :data:`DEFAULT_MAX_TIME_POINTS`, is ten million (CSRBench's 34 s in
milliseconds are 34,000 points; a day in seconds 86,400); ``--max-time-points`` or the
environment variable :data:`MAX_TIME_POINTS_VARIABLE` (for scripts) set another.

>>> check_timeline_length(0, 99, 100)
>>> check_timeline_length(0, 10**18, 100)
Traceback (most recent call last):
lars.errors.LimitError: error: the timeline [0,1000000000000000000] has 1000000000000000001 time points, \
more than the limit of 100 (raise it with --max-time-points 1000000000000000001 (or \
LARS_MAX_TIME_POINTS), or cut it to at most 100 time points (--from, --to), e.g. --to 99)
"""

from __future__ import annotations

import os

from lars.errors import InputError, LimitError

DEFAULT_MAX_TIME_POINTS = 10_000_000
MAX_TIME_POINTS_VARIABLE = "LARS_MAX_TIME_POINTS"


def max_time_points(given: int | None = None) -> int:
    """The bound in force: ``given`` (``--max-time-points``), else the environment variable,
    else :data:`DEFAULT_MAX_TIME_POINTS`.

    Raises:
        InputError: the bound is not a whole number of 1 or more.
    """
    if given is None:
        text = os.environ.get(MAX_TIME_POINTS_VARIABLE)
        if text is None:
            return DEFAULT_MAX_TIME_POINTS
        if not text.strip().isdigit() or int(text) < 1:
            raise InputError(f"{MAX_TIME_POINTS_VARIABLE} must be a whole number of 1 or more, not {text!r}")
        return int(text)
    if given < 1:
        raise InputError(f"--max-time-points must be 1 or more, not {given}")
    return given


def check_timeline_length(start: int, end: int, limit: int, cause: str | None = None,
                          fix: str | None = None) -> None:
    """Refuse the timeline ``[start, end]`` if it has more than ``limit`` time points.

    ``cause`` says what made the timeline this long when an option other than ``--from``,
    ``--to`` or the input did (the pulling period, for ``lars agree``), and ``fix`` is the whole
    hint: what works instead, computed by the caller, who knows which options can help.

    >>> check_timeline_length(0, 10**6, 100, cause="the pulling period of 10^6 ticks ends it "
    ...                       "at 10^6", fix="give a --period of at most 99s")
    Traceback (most recent call last):
    lars.errors.LimitError: error: the pulling period of 10^6 ticks ends it at 10^6: the timeline \
[0,1000000] has 1000001 time points, more than the limit of 100 (give a --period of at most 99s)

    Raises:
        LimitError: it is too long; the hint says how to raise the bound.
    """
    points = end - start + 1
    if points <= limit:
        return
    message = (f"the timeline [{start},{end}] has {points} time points, more than the "
               f"limit of {limit}")
    if cause is None:
        raise LimitError(message, hint=f"raise it with --max-time-points {points} (or "
                                       f"{MAX_TIME_POINTS_VARIABLE}), or cut it to at most {limit} time "
                                       f"points (--from, --to), e.g. --to {start + limit - 1}")
    raise LimitError(f"{cause}: {message}", hint=fix)
