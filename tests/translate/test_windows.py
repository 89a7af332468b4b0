"""τ(ω): paper Table 1 and the boundary readings (SPEC section 4), checked on text and on streams."""

from __future__ import annotations

import pytest

from lars.atoms import Atom
from lars.errors import InputError, UnsupportedError
from lars.parser import parse_program
from lars.printer import print_literal
from lars.rules import Program, Rule
from lars.terms import Iri, Number, Variable
from lars.windows import ANY, NOW, UNBOUNDED, TimeWindow, TupleWindow
from tests.translate.solving import solve
from translate.clauses import Cursor
from translate.rsp import AllWindow, NowWindow, RangeWindow, TriplesWindow
from translate.scanner import SourceText, tokenize
from translate.rspwindows import tau_window, window_literals


S1 = Iri("http://ex.org/s1")
READ = Atom("striple", (Variable("S"), Variable("P"), Variable("O"), S1))
"""What a STREAM block on :s1 reads; its triple window counts the triples of :s1 only."""
OF_S1 = Atom("striple", (ANY, ANY, ANY, S1))


def read_window(text: str, unit_ms: int = 1000):
    return Cursor(tokenize(text), SourceText(text)).window(unit_ms)


@pytest.mark.parametrize(("text", "rsp", "lars"), [
    pytest.param("[RANGE 10s]", RangeWindow(10), TimeWindow(10), id="range-10s"),
    pytest.param("[RANGE 10s STEP 5s]", RangeWindow(10, 5), TimeWindow(10, 0, 5), id="range-10s-step-5s"),
    pytest.param("[RANGE 10s SLIDE 5s]", RangeWindow(10, 5), TimeWindow(10, 0, 5),
                 id="range-10s-slide-5s"),
    pytest.param("[RANGE 4s TUMBLING]", RangeWindow(4, 4), TimeWindow(4, 0, 4), id="range-4s-tumbling"),
    pytest.param("[TRIPLES 10]", TriplesWindow(10), TupleWindow(10, OF_S1), id="triples-10"),
    pytest.param("[RANGE TRIPLES 3]", TriplesWindow(3), TupleWindow(3, OF_S1), id="range-triples-3"),
    pytest.param("[ROWS 3]", TriplesWindow(3), TupleWindow(3, OF_S1), id="rows-3"),
    pytest.param("[NOW]", NowWindow(), NOW, id="now"),
    pytest.param("[ALL]", AllWindow(), UNBOUNDED, id="all"),
    pytest.param("[RANGE UNBOUNDED]", AllWindow(), UNBOUNDED, id="range-unbounded"),
    pytest.param("[range 10 s step 5 s]", RangeWindow(10, 5), TimeWindow(10, 0, 5), id="lower-case"),
])
def test_window_table(text: str, rsp, lars) -> None:
    window = read_window(text)
    assert window == rsp
    assert tau_window(window, atom=READ) == lars


@pytest.mark.parametrize("atom", [Atom("p"), Atom("striple", (Variable("S"), Variable("P"), Variable("O"), Variable("G")))],
                         ids=["not-a-stream-triple", "variable-stream"])
def test_a_triple_window_on_no_one_stream_is_refused(atom: Atom) -> None:
    """Which triples ``[TRIPLES n]`` counts is its stream's (RSP-QL, CSRBench); without one
    named stream the substream is unknown, and counting every stream would be wrong."""
    with pytest.raises(UnsupportedError, match="one named stream"):
        window_literals(TriplesWindow(2), atom)


@pytest.mark.parametrize(("text", "unit_ms", "rsp"), [
    pytest.param("[RANGE 30m]", 60_000, RangeWindow(30), id="range-30m-unit-1m"),
    pytest.param("[RANGE 1500ms STEP 500ms]", 100, RangeWindow(15, 5), id="range-1500ms-unit-100ms"),
])
def test_window_units(text: str, unit_ms: int, rsp) -> None:
    assert read_window(text, unit_ms) == rsp


def test_window_not_whole_ticks() -> None:
    with pytest.raises(InputError, match="500ms is not a whole number of ticks of 1s"):
        read_window("[RANGE 10s STEP 500ms]")


@pytest.mark.parametrize(("reading", "expected"), [
    pytest.param("closed", "⊞^10 ◇ p", id="closed"),
    pytest.param("left-open", "⊞^9 ◇ p", id="left-open"),
])
def test_readings_as_windows(reading: str, expected: str) -> None:
    (literal,) = window_literals(RangeWindow(10), Atom("p"), reading)
    assert print_literal(literal) == expected


def test_right_open_uses_at_and_cutoff() -> None:
    literals = window_literals(RangeWindow(10, 5), [Atom("p"), Atom("q")], "right-open")
    assert [print_literal(l) for l in literals] == [
        "⊞^{0,0,5} @__N true", "⊞^{10,0,5} @__T1 p", "_T1 < _N", "⊞^{10,0,5} @__T2 q", "_T2 < _N"]


@pytest.mark.parametrize("window", [TriplesWindow(3), NowWindow(), AllWindow()],
                         ids=["triples", "now", "all"])
@pytest.mark.parametrize("reading", ["left-open", "right-open"])
def test_readings_leave_other_windows_alone(window, reading: str) -> None:
    assert window_literals(window, READ, reading) == window_literals(window, READ)


@pytest.mark.parametrize("reading", ["left-open", "right-open"])
def test_range_zero_half_open_is_refused(reading: str) -> None:
    with pytest.raises(InputError, match="selects nothing"):
        tau_window(RangeWindow(0), reading)


def test_unknown_reading() -> None:
    with pytest.raises(InputError, match="unknown window boundary reading"):
        tau_window(RangeWindow(3), "half-open")


# --- what each reading selects, on a stream with p at every time point ------------------------

def _seen_at(reading: str, window, t: int) -> set[int]:
    """The time points whose ``p(T)`` the window shows at ``t``."""
    atom = Atom("p", (Variable("X"),))
    rule = Rule(Atom("seen", (Variable("X"),)), window_literals(window, atom, reading))
    contents = {k: [Atom("p", (Number(k),))] for k in range(0, 21)}
    (stream,) = solve(Program((rule,)), (), contents, t)
    return {a.args[0].value for a in stream}


@pytest.mark.parametrize(("reading", "t", "points"), [
    pytest.param("closed", 12, set(range(2, 13)), id="closed-[t-10,t]"),
    pytest.param("left-open", 12, set(range(3, 13)), id="left-open-(t-10,t]"),
    pytest.param("right-open", 12, set(range(2, 12)), id="right-open-[t-10,t)"),
])
def test_range_readings_on_a_stream(reading: str, t: int, points: set[int]) -> None:
    assert _seen_at(reading, RangeWindow(10), t) == points


@pytest.mark.parametrize(("reading", "t", "points"), [
    pytest.param("closed", 12, set(range(0, 11)), id="closed-pivot-10"),
    pytest.param("left-open", 12, set(range(1, 11)), id="left-open-pivot-10"),
    pytest.param("right-open", 12, set(range(0, 10)), id="right-open-pivot-10"),
    pytest.param("right-open", 15, set(range(5, 15)), id="right-open-pivot-15"),
])
def test_sliding_readings_on_a_stream(reading: str, t: int, points: set[int]) -> None:
    assert _seen_at(reading, RangeWindow(10, 5), t) == points


def test_closed_is_the_paper_window() -> None:
    closed = parse_program("seen(X) :- [10,0,5] <> p(X).")
    (literal,) = window_literals(RangeWindow(10, 5), Atom("p", closed.rules[0].body[0].formula.atom.args))
    assert literal == closed.rules[0].body[0]
