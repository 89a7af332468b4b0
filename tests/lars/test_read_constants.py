"""Input atoms a program cannot read (lars/analysis.py ``read_constants``): ``lars agree``
encodes only the stream triples whose predicate one of its programs reads, so leaving the
others out must change no answer (issue 29).

The property is checked by evaluation over generated programs and streams: every program
reads the input predicate ``p/2`` through plain atoms, time windows, tuple windows, ``◇``,
``□`` and ``@``, positively and negated, with a constant or a variable second argument.
Where :func:`read_constants` gives constants, the answers over the input filtered to them are
those over the whole input; where it gives ``None`` nothing is claimed. Tuple windows (which
count every atom) and ``□`` (whose active domain every atom adds to) must give ``None``: the
last tests show that filtering under them would change answers.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from lars.analysis import read_constants
from lars.parser import parse_atom, parse_program
from lars.printer import print_atom
from lars.streams import Stream, Timeline
from lars.terms import Name
from solver.strategies import evaluate, slices_of

SHOWN = frozenset({"h1", "h2", "g"})
TIMELINE = Timeline(1, 6)
READINGS = ["{k}", "[{n}] <> {k}", "[{n}] [] {k}", "[#{n}] <> {k}", "[#{n}] [] {k}", "[{n}] @T {k}",
            "@T {k}", "[0,0,4] <> {k}", "[0,0,4] [] {k}"]
"""How a rule reads ``p``; ``[0,0,4]`` is empty at 1..3 (its pivot 0 is before the timeline),
where ``□`` holds for every constant of the active domain."""


@st.composite
def programs(draw) -> str:
    """Two rules reading ``p(X, K)`` in some way, and a rule over what they derive."""
    rules = []
    for head in ("h1", "h2"):
        reading = draw(st.sampled_from(READINGS))
        n = draw(st.integers(1, 3))
        second = draw(st.sampled_from(["a", "b"]))  # a variable there: the unit tests below
        body = [reading.format(n=n, k=f"p(X, {second})")]
        if "@T" in reading and "[" not in reading:
            body.append("q(T)")  # @T outside a window needs T bound
        if draw(st.booleans()):
            other = draw(st.sampled_from(["a", "b"]))
            body.append("not " + draw(st.sampled_from(["p(X, {o})", "[{n}] <> p(X, {o})"]))
                        .format(n=n, o=other))
        rules.append(f"{head}(X) :- {', '.join(body)}.")
    rules.append("g(X) :- h1(X), not h2(X).")
    return " ".join(rules)


@st.composite
def streams(draw) -> dict[int, list[str]]:
    return {t: draw(st.lists(st.sampled_from([f"p({x}, {y})" for x in (1, 2) for y in "abcd"]),
                             max_size=4, unique=True))
            for t in TIMELINE}


def answers(program: str, contents: dict[int, list[str]], keep=lambda atom: True) -> list:
    """Each time point's answer streams over the shown predicates, as texts."""
    mapping = {t: [a for a in map(parse_atom, texts) if a.predicate == "q" or keep(a)]
               for t, texts in contents.items()}
    stream = Stream.from_mapping(TIMELINE, mapping)
    found = evaluate(parse_program(program), slices_of(stream), TIMELINE, shown=SHOWN)
    return [(a.time, sorted(sorted(print_atom(x) for x, time in s if time == a.time) for s in a.streams))
            for a in found]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(programs(), streams())
def test_leaving_out_unread_atoms_changes_no_answer(program, contents):
    for t in contents:
        contents[t] = contents[t] + [f"q({t})"]
    constants = read_constants(parse_program(program), ("p", 2), 1)
    if constants is None:
        return
    kept = answers(program, contents, lambda atom: atom.args[1] in constants)
    assert kept == answers(program, contents)


def test_constants_of_plain_and_time_window_readings():
    program = parse_program("h(X) :- [3] <> p(X, a), not p(X, b). g(X) :- @T p(X, c), q(T).")
    assert read_constants(program, ("p", 2), 1) == {Name("a"), Name("b"), Name("c")}


def test_a_variable_there_reads_every_atom():
    assert read_constants(parse_program("h(X) :- p(X, a). g(X) :- [2] <> p(X, Y)."), ("p", 2), 1) is None


def test_a_derived_signature_reads_every_atom():
    assert read_constants(parse_program("h(X) :- p(X, a). p(X, b) :- r(X)."), ("p", 2), 1) is None


def test_a_tuple_window_counts_atoms_it_does_not_match():
    program = "h1(X) :- [#1] <> p(X, a)."
    contents = {1: ["p(1, a)", "p(1, b)"]}
    whole = answers(program, contents)
    filtered = answers(program, contents, lambda atom: atom.args[1] == Name("a"))
    assert whole != filtered  # the atom p(1, b) pushes p(1, a) out of the window
    assert read_constants(parse_program(program), ("p", 2), 1) is None


def test_a_box_anywhere_reads_every_atom():
    program = parse_program("h1(X) :- q(X), [2] [] p(X, a).")
    assert read_constants(program, ("p", 2), 1) is None
