"""A progress bar on stderr for long runs: time points done, rate, time left (STYLE section 3).

Progress goes to stderr and only when it is a terminal: piped or redirected output, and
``--quiet``, show nothing, so stdout stays parseable and logs stay clean. The bar is redrawn at
most every ``interval`` seconds (10 times a second by default), in place (``\\r``). A run that
ends before the first redraw prints nothing at all; otherwise the last line stays and says how
long the run took (or, when it was interrupted, how far it got). When the results go to the
same terminal, the bar is blanked before each result is written, and redrawn after::

    [##########--------------]  4,210/10,000 time points   42%  351.2/s  0:00:16 left

Use it around the iterator of answers::

    with progress(problem.run(), total=len(timeline), quiet=args.quiet) as answers:
        for answer in answers:
            sink.write(answer)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Generic, TextIO, TypeVar

Item = TypeVar("Item")
BAR_WIDTH = 24


def clock_text(seconds: float) -> str:
    """``H:MM:SS``.

    >>> clock_text(3725.4)
    '1:02:05'
    """
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def bar_text(done: int, total: int | None, elapsed: float, unit: str = "time points",
             finished: bool = False) -> str:
    """One line of the bar (without ``\\r``); the bar and the time left need a ``total``.

    >>> bar_text(250, 1000, 5.0)
    '[######------------------]  250/1,000 time points   25%  50.0/s  0:00:15 left'
    >>> bar_text(250, None, 5.0)
    '250 time points  50.0/s'
    >>> bar_text(1000, 1000, 20.0, finished=True)
    '[########################]  1,000/1,000 time points  100%  50.0/s  done in 0:00:20'
    """
    rate = done / elapsed if elapsed > 0 else 0.0
    if finished:
        ending = f"  done in {clock_text(elapsed)}"
    elif total:
        ending = f"  {clock_text((total - done) / rate) if rate > 0 else '?'} left"
    else:
        ending = ""
    if not total:
        return f"{done:,} {unit}  {rate:,.1f}/s{ending}"
    filled = min(BAR_WIDTH, BAR_WIDTH * done // total)
    return (f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}]  {done:,}/{total:,} {unit}  "
            f"{100 * done // total:>3}%  {rate:,.1f}/s{ending}")


class Progress(Generic[Item]):
    """The context manager behind :func:`progress`; entering it gives the wrapped iterator."""

    def __init__(self, items: Iterable[Item], total: int | None, out: TextIO, enabled: bool,
                 interval: float, clock: Callable[[], float], unit: str, clear: bool = False):
        self.items, self.total, self.out, self.enabled = items, total, out, enabled
        self.clear = clear
        self.interval, self.clock, self.unit = interval, clock, unit
        self.done, self.started, self.drawn_at, self.width = 0, 0.0, None, 0

    def __enter__(self) -> Iterator[Item]:
        self.started = self.clock()
        return self._counted() if self.enabled else iter(self.items)

    def _counted(self) -> Iterator[Item]:
        last = self.started
        for item in self.items:
            self.erase()
            yield item
            self.done += 1
            now = self.clock()
            if now - last >= self.interval:
                self.draw(now)
                last = now

    def draw(self, now: float, finished: bool = False) -> None:
        """Redraw the line in place, padding over a longer previous line."""
        text = bar_text(self.done, self.total, now - self.started, self.unit, finished)
        self.out.write("\r" + text.ljust(self.width))
        self.out.flush()
        self.width, self.drawn_at = len(text), now

    def erase(self) -> None:
        """With ``clear``, blank the bar before the caller writes an item's output to the same
        terminal, so that the output starts at the beginning of a line, not after the bar; the
        next redraw shows it again below."""
        if self.clear and self.width:
            self.out.write("\r" + " " * self.width + "\r")
            self.out.flush()
            self.width = 0

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.drawn_at is None:
            return
        now = self.clock()
        self.draw(now, finished=kind is None)
        self.out.write("\n")
        self.out.flush()


def progress(items: Iterable[Item], total: int | None = None, *, out: TextIO | None = None,
             quiet: bool = False, interval: float = 0.1, clock: Callable[[], float] = time.monotonic,
             unit: str = "time points", results: TextIO | None = None) -> Progress[Item]:
    """Wrap ``items`` (answers, one per time point) in a progress bar.

    Args:
        items: the iterator to count; it is consumed lazily, one item at a time.
        total: how many items to expect (the bar and the time left need it).
        out: where to draw (default: ``sys.stderr``); nothing is drawn unless it is a terminal.
        quiet: draw nothing (``--quiet``).
        interval: the least time between two redraws, in seconds.
        clock: seconds as a float (tests pass a fake one).
        unit: what the items are, for the text.
        results: where the caller writes each item's output (default: ``sys.stdout``); when it
            is a terminal too, the bar is blanked before each item is handed over
            (:meth:`Progress.erase`), so results never follow the bar on its line.

    Returns:
        A context manager; ``with progress(...) as items`` gives the items back.
    """
    out = sys.stderr if out is None else out
    results = sys.stdout if results is None else results
    enabled = not quiet and is_terminal(out)
    return Progress(items, total, out, enabled, interval, clock, unit, clear=is_terminal(results))


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal (a closed or missing stream is not)."""
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except ValueError:  # closed
        return False
