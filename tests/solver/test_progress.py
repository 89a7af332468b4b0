"""The progress bar (solver/progress.py): drawn on a terminal only, at most 10 times a second."""

from __future__ import annotations

import io

import pytest

from solver.progress import progress


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class FakeClock:
    """Seconds that move by ``step`` (a power of two, so sums are exact) at each reading, or
    that follow a list of readings."""

    def __init__(self, step: float = 0.0, readings: list[float] | None = None):
        self.count, self.step, self.readings = 0, step, readings

    def __call__(self) -> float:
        self.count += 1
        return self.readings[self.count - 1] if self.readings else self.count * self.step


def drawn_lines(text: str) -> list[str]:
    """The successive states of the bar (each redraw starts with ``\\r``)."""
    return [part.rstrip() for part in text.replace("\n", "").split("\r") if part]


def test_draws_count_rate_and_time_left_on_a_terminal():
    out = FakeTerminal()
    with progress(range(100), total=100, out=out, clock=FakeClock(1 / 64)) as items:
        assert list(items) == list(range(100))
    lines = drawn_lines(out.getvalue())
    assert lines[0] == "[#" + "-" * 23 + "]  7/100 time points    7%  64.0/s  0:00:01 left"
    assert lines[-1] == "[" + "#" * 24 + "]  100/100 time points  100%  63.4/s  done in 0:00:02"
    assert out.getvalue().endswith("\n")


def test_redraws_at_most_ten_times_a_second():
    out = FakeTerminal()
    with progress(range(1000), total=1000, out=out, clock=FakeClock(1 / 1024)) as items:
        for _ in items:
            pass
    redraws = len(drawn_lines(out.getvalue())) - 1  # the last line is the final one
    assert redraws == 9  # 1000 items in 0.98 s: one redraw per 103 items (0.1006 s)


def test_without_a_total_shows_count_and_rate():
    out = FakeTerminal()
    with progress(iter(range(20)), out=out, clock=FakeClock(1 / 16), unit="answers") as items:
        list(items)
    assert drawn_lines(out.getvalue())[0] == "2 answers  16.0/s"


def test_a_shorter_line_covers_the_previous_one():
    out = FakeTerminal()
    readings = [0.0] * 1000 + [0.125, 100.0, 200.0]  # start, 1,001 items, the end
    with progress(range(1001), out=out, clock=FakeClock(readings=readings)) as items:
        list(items)
    assert out.getvalue().split("\r")[1:3] == ["1,000 time points  8,000.0/s",
                                               "1,001 time points  10.0/s   "]


@pytest.mark.parametrize("out, quiet", [
    pytest.param(io.StringIO(), False, id="not-a-terminal"),
    pytest.param(FakeTerminal(), True, id="quiet"),
])
def test_prints_nothing_off_a_terminal_or_when_quiet(out, quiet):
    with progress(range(1000), total=1000, out=out, quiet=quiet, clock=FakeClock(1 / 2)) as items:
        assert sum(items) == sum(range(1000))
    assert out.getvalue() == ""


def test_a_run_shorter_than_one_redraw_prints_nothing():
    out = FakeTerminal()
    with progress(range(5), total=5, out=out, clock=FakeClock(1 / 1024)) as items:
        list(items)
    assert out.getvalue() == ""


def test_an_interrupted_run_ends_its_line_without_claiming_done():
    out = FakeTerminal()
    with pytest.raises(KeyboardInterrupt):
        with progress(range(100), total=100, out=out, clock=FakeClock(1 / 16)) as items:
            for item in items:
                if item == 10:
                    raise KeyboardInterrupt
    assert out.getvalue().endswith("\n") and "done" not in out.getvalue()
    assert drawn_lines(out.getvalue())[-1].split()[1] == "10/100"


def test_consumes_its_items_lazily():
    pulled = []

    def answers():
        for n in range(10**6):
            pulled.append(n)
            yield n

    with progress(answers(), total=10**6, out=FakeTerminal(), clock=FakeClock(1 / 64)) as items:
        assert next(items) == 0
    assert pulled == [0]


def test_draws_on_stderr_by_default(monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress(range(10), total=10, clock=FakeClock(1 / 4)) as items:
        list(items)
    assert "10/10 time points" in terminal.getvalue()
