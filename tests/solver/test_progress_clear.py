"""The progress bar is blanked before each result written to the same terminal (issue 25: the bar
was glued to the first line of the answers), and left alone when results go elsewhere."""

from __future__ import annotations

import io

from solver.progress import progress


class Terminal(io.StringIO):
    """stderr and stdout of one terminal: one buffer that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def ticking():
    """A clock that moves one second at each reading: the bar is redrawn after every item."""
    count = iter(range(1_000_000))
    return lambda: float(next(count))


def screen(text: str) -> list[str]:
    """The lines a terminal shows: ``\\r`` returns to column 0 and overwrites what follows."""
    shown = []
    for line in text.split("\n"):
        current: list[str] = []
        for part in line.split("\r"):
            current = list(part) + current[len(part):]
        shown.append("".join(current).rstrip())
    return shown


def consume(terminal: io.StringIO, results: io.StringIO) -> None:
    with progress(range(5), total=5, out=terminal, clock=ticking(), interval=0.5,
                  results=results) as items:
        for item in items:
            results.write(f"answer {item}\n")


def test_every_result_starts_its_own_line_on_a_terminal():
    terminal = Terminal()
    consume(terminal, terminal)
    lines = screen(terminal.getvalue())
    assert [line for line in lines if "answer" in line] == [f"answer {i}" for i in range(5)]
    assert "done in" in lines[-2] and lines[-1] == ""  # the last state of the bar stays, below


def test_the_bar_is_not_blanked_when_results_go_elsewhere():
    terminal, file = Terminal(), io.StringIO()
    consume(terminal, file)
    assert file.getvalue() == "".join(f"answer {i}\n" for i in range(5))
    assert "\r" + " " * 10 not in terminal.getvalue()  # no blanking: nothing to keep apart
