"""Tuple windows on a substream, ``⊞^{#n, striple(_,_,_,s)}`` (SPEC section 3), in every strategy.

RSP's ``[TRIPLES n]`` on stream ``s`` holds the latest ``n`` triples *of s* (RSP-QL, CSRBench;
SPEC section 4 Table 1); the fuzzer found that ``⊞^{#n}`` over the whole LARS stream let a later
triple of another stream push them out. The substream window is one partition of LARS's
partition-based window (Beck, Dao-Tran, Eiter, Fink, AAAI 2015). Each strategy — reference,
stratified, incremental, the partitioned evaluation and the time-indexed encoding of
``lars witness`` — is compared on generated two-stream inputs with :func:`expected`, a direct
reading of the definition: the latest ``n`` atoms of the substream up to ``t``, the atoms at one
time point a set in first-arrival order (SPEC section 2), the window's interval ``[t'', t]``
starting at the time of the ``n``-th latest atom (at ``t_min`` while it holds fewer).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.errors import ParseError
from lars.parser import parse_program
from lars.printer import print_program
from lars.streams import Stream, Timeline
from lars.terms import Name, Number
from lars.windows import ANY, TupleWindow
from solver.partition import evaluate_partitioned, history_needed, range_input
from solver.strategies import evaluate, slices_of
from solver.timeindexed import solve_fixed

TIMELINE = Timeline(0, 7)
SUBJECTS = ("a", "b", "c")
STREAMS = ("s1", "s2")

PROGRAM_TEXT = """
d1(S) :- [#2, striple(_,_,_,s1)] <> striple(S,p,o,s1).
t1(S,T) :- [#2, striple(_,_,_,s1)] @T striple(S,p,o,s1).
b2(S) :- [#2, striple(_,_,_,s2)] <> striple(S,p,o,s2), [#2, striple(_,_,_,s2)] [] striple(S,p,o,s2).
d2(S) :- [#1, striple(_,_,_,s2)] <> striple(S,p,o,s2).
both(S) :- [#1, striple(_,_,_,s1)] <> striple(S,p,o,s1), [#1, striple(_,_,_,s2)] <> striple(S,p,o,s2).
any(S,G) :- [#2] <> striple(S,p,o,G).
"""
PROGRAM = parse_program(PROGRAM_TEXT)


def triple(subject: str, stream: str) -> Atom:
    return Atom("striple", (Name(subject), Name("p"), Name("o"), Name(stream)))


def selection(stream: Stream, t: int, n: int, of: str | None) -> tuple[int, list[tuple[int, Atom]]]:
    """The window's interval start and its ``(time, atom)`` pairs, read off the definition."""
    arrived = [(time, a) for time, atoms in stream.items if time <= t for a in atoms
               if of is None or a.args[3] == Name(of)]
    latest = arrived[-n:]
    return (latest[0][0] if len(latest) == n else TIMELINE.start), latest


def expected(stream: Stream) -> dict[int, set[tuple[Atom, int]]]:
    """The atoms :data:`PROGRAM` derives at each time point, by :func:`selection`."""
    found: dict[int, set[tuple[Atom, int]]] = {}
    for t in TIMELINE:
        def subjects(n: int, of: str | None) -> set[str]:
            return {a.args[0].value for _, a in selection(stream, t, n, of)[1]}
        start, s2 = selection(stream, t, 2, "s2")
        boxed = {s for s in SUBJECTS
                 if all(any(time == k and a == triple(s, "s2") for time, a in s2)
                        for k in range(start, t + 1))}
        atoms = ({Atom("d1", (Name(s),)) for s in subjects(2, "s1")}
                 | {Atom("t1", (a.args[0], Number(time))) for time, a in selection(stream, t, 2, "s1")[1]}
                 | {Atom("b2", (Name(s),)) for s in boxed & subjects(2, "s2")}
                 | {Atom("d2", (Name(s),)) for s in subjects(1, "s2")}
                 | {Atom("both", (Name(s),)) for s in subjects(1, "s1") & subjects(1, "s2")}
                 | {Atom("any", (a.args[0], a.args[3])) for _, a in selection(stream, t, 2, None)[1]})
        found[t] = {(a, t) for a in atoms}
    return found


@st.composite
def two_streams(draw) -> Stream:
    """Up to four triples per time point, each of :s1 or :s2, repeats allowed (they collapse)."""
    contents = {}
    for t in TIMELINE:
        items = draw(st.lists(st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(STREAMS)),
                              max_size=4))
        if items:
            contents[t] = [triple(s, g) for s, g in items]
    return Stream.from_mapping(TIMELINE, contents)


def answered(answers) -> dict[int, set[tuple[Atom, int]]]:
    """The one answer stream at each time point (the program is positive)."""
    found = {}
    for answer in answers:
        (stream,) = answer.streams
        found[answer.time] = set(stream)
    return found


@pytest.mark.parametrize("strategy", ["reference", "stratified", "incremental"])
@settings(max_examples=25, deadline=None, derandomize=True)
@given(stream=two_streams())
def test_every_strategy_reads_the_definition(strategy: str, stream: Stream) -> None:
    assert answered(evaluate(PROGRAM, slices_of(stream), TIMELINE, strategy=strategy)) == expected(stream)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(stream=two_streams(), parts=st.integers(2, 4))
def test_partitioned_evaluation_reads_the_definition(stream: Stream, parts: int) -> None:
    """Ranges ship the whole history for a substream window (its atoms may be far back)."""
    answers = evaluate_partitioned(PROGRAM, slices_of(stream), TIMELINE, parts=parts)
    assert answered(answers) == expected(stream)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(stream=two_streams())
def test_time_indexed_encoding_reads_the_definition(stream: Stream) -> None:
    """The encoding ``lars witness`` searches with, on a fixed stream."""
    models = solve_fixed(PROGRAM, stream)
    assert {t: {frozenset(m) for m in found} for t, found in models.items()} == \
        {t: {frozenset(pairs)} for t, pairs in expected(stream).items()}


def test_a_later_triple_of_another_stream_does_not_push_one_out() -> None:
    """The fuzzer's case, shrunk: :b on :s1 then :a on :s2 at the same time point; ``[#1]`` on
    :s1 still holds :b (over the whole stream it held :a only)."""
    stream = Stream.from_mapping(TIMELINE, {3: [triple("b", "s1"), triple("a", "s2")]})
    answers = answered(evaluate(PROGRAM, slices_of(stream), TIMELINE, strategy="reference"))
    assert (Atom("d1", (Name("b"),)), 3) in answers[3]
    assert (Atom("d2", (Name("a"),)), 3) in answers[3]
    assert answers == expected(stream)


def test_the_program_prints_and_parses_back() -> None:
    for spelling in ("unicode", "ascii"):
        assert parse_program(print_program(PROGRAM, spelling)) == PROGRAM


def test_a_pattern_that_would_bind_is_refused() -> None:
    with pytest.raises(ParseError, match="constants and _ only"):
        parse_program("x(S) :- [#2, striple(S,_,_,s1)] <> striple(S,p,o,s1).")


def test_a_range_is_shipped_the_latest_atoms_of_each_substream() -> None:
    """``[#1, p(_)]`` at 9 holds the ``p`` of 0, however many other atoms came after it: the
    range from 9 on is shipped the slices from 0 (``[#1]`` alone needs those from 8)."""
    p, q = Atom("p", (Name("a"),)), Atom("q")
    slices = [(0, (p,)), *[(t, (q,)) for t in range(1, 10)]]
    lookback = history_needed(parse_program("x(X) :- [#1, p(_)] <> p(X). y :- [#1] <> q."))
    assert lookback.substreams == {TupleWindow(1, Atom("p", (ANY,)))}
    assert [t for t, _ in range_input(slices, Timeline(9, 9), lookback)] == list(range(10))
    whole = history_needed(parse_program("x(X) :- [#1] <> p(X). y :- [#1] <> q."))
    assert [t for t, _ in range_input(slices, Timeline(9, 9), whole)] == [8, 9]
