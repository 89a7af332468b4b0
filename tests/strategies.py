"""Hypothesis strategies for small LARS programs, streams and backgrounds, built bottom-up.

terms → atoms → windows → window atoms → literals → rules → programs; timelines → streams;
backgrounds; and :func:`scenario`, a whole case ``(program, stream, background, t)``.

The vocabulary is small on purpose so that rules meet the data: input predicates ``p/1``,
``q/1``, ``r/0``, ``s/0``, a static predicate ``g/1``, derived predicates ``x/1``, ``y/0``,
``z/1``, constants ``a``, ``b``, ``1``, ``2``, data variables ``X``, ``Y`` and time variables
``T`` (bound by ``@_T``) and ``U`` (bound by ``U = T + 1``). Rules are safe by construction
(and checked with :func:`lars.analysis.check_safety`) and have at most three variables.

Use :func:`oracle_answers` in a property test to get the brute-force answer streams, with
cases too big for brute force rejected through ``assume``.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import assume
from hypothesis import strategies as st

from lars.analysis import check_safety
from lars.atoms import COMPARISON_OPERATORS, TRUE_PREDICATE, Atom, Comparison
from lars.formulas import BOX, DIAMOND, At, AtAtom, WindowAtom
from lars.rules import Literal, Program, Rule
from lars.streams import Stream, Timeline
from lars.terms import BinaryOp, Name, Number, Variable
from lars.windows import ANY, TimeWindow, TupleWindow
from tests.oracles.bruteforce import TooLarge, answer_streams

INPUT_SIGNATURES = (("p", 1), ("q", 1), ("r", 0), ("s", 0))
"""Predicates of the data stream."""

STATIC_SIGNATURES = (("g", 1),)
"""Predicates meant for background data (input predicates may also occur there)."""

DERIVED_SIGNATURES = (("x", 1), ("y", 0), ("z", 1))
"""Predicates that rule heads derive (bodies may use them too)."""

CONSTANTS = (Name("a"), Name("b"), Number(1), Number(2))
DATA_VARIABLES = (Variable("X"), Variable("Y"))
T, U = Variable("T"), Variable("U")
TRUE = Atom(TRUE_PREDICATE)
MAX_RULE_VARIABLES = 3


# --- terms and atoms -------------------------------------------------------------------------

def constants() -> st.SearchStrategy:
    """One of the constants ``a``, ``b``, ``1``, ``2``."""
    return st.sampled_from(CONSTANTS)


def small_numbers(max_value: int = 3) -> st.SearchStrategy[Number]:
    """A ``Number`` in ``[0, max_value]`` (time constants)."""
    return st.integers(0, max_value).map(Number)


@lru_cache(maxsize=None)
def args(variables=()) -> st.SearchStrategy:
    """An atom argument: a constant, or one of ``variables`` (more often)."""
    if not variables:
        return constants()
    return st.one_of(st.sampled_from(tuple(variables)), st.sampled_from(tuple(variables)), constants())


@lru_cache(maxsize=None)
def atoms(signatures=INPUT_SIGNATURES, variables=()) -> st.SearchStrategy[Atom]:
    """An atom of one of ``signatures`` with arguments from ``args(variables)``."""
    return st.one_of(*[
        st.tuples(*[args(tuple(variables))] * arity).map(lambda arguments, n=name: Atom(n, arguments))
        for name, arity in signatures
    ])


@lru_cache(maxsize=None)
def ground_atoms(signatures=INPUT_SIGNATURES) -> st.SearchStrategy[Atom]:
    """A ground atom of one of ``signatures``."""
    return atoms(signatures)


# --- timelines, streams, backgrounds ---------------------------------------------------------

def timelines(max_points: int = 6) -> st.SearchStrategy[Timeline]:
    """1 to ``max_points`` points, starting at 0 (mostly) or at 2 or 3."""
    return st.builds(lambda start, size: Timeline(start, start + size - 1),
                     st.sampled_from((0, 0, 0, 2, 3)), st.integers(1, max_points))


def streams(timeline: Timeline | None = None, max_per_point: int = 3) -> st.SearchStrategy[Stream]:
    """A data stream: 0 to ``max_per_point`` distinct input atoms per time point, in arrival order."""
    if timeline is None:
        return timelines().flatmap(lambda line: _streams_on(line, max_per_point))
    return _streams_on(timeline, max_per_point)


@lru_cache(maxsize=None)
def _streams_on(timeline: Timeline, max_per_point: int) -> st.SearchStrategy[Stream]:
    per_point = st.lists(ground_atoms(), max_size=max_per_point, unique=True)
    return st.tuples(*[per_point] * len(timeline)).map(
        lambda contents: Stream.from_mapping(timeline, dict(zip(timeline, contents))))


@lru_cache(maxsize=None)
def backgrounds(max_size: int = 2) -> st.SearchStrategy[frozenset[Atom]]:
    """0 to ``max_size`` ground background atoms, mostly ``g/1``, sometimes input atoms."""
    return st.frozensets(st.one_of(ground_atoms(STATIC_SIGNATURES), ground_atoms(STATIC_SIGNATURES),
                                   ground_atoms()), max_size=max_size)


# --- windows and extended atoms --------------------------------------------------------------

@lru_cache(maxsize=None)
def time_windows() -> st.SearchStrategy[TimeWindow]:
    """``⊞^{l,u,d}`` with small l (or ∞), u (often 0) and d (often 1)."""
    return st.builds(TimeWindow,
                     st.one_of(st.integers(0, 3), st.none()),
                     st.sampled_from((0, 0, 0, 1, 2)),
                     st.sampled_from((1, 1, 1, 2, 3)))


@lru_cache(maxsize=None)
def tuple_windows() -> st.SearchStrategy[TupleWindow]:
    """``⊞^{#n}`` with n in 1..3, sometimes on a substream (``⊞^{#n, p(_)}``, ``⊞^{#n, p(a)}``, …)."""
    return st.builds(TupleWindow, st.integers(1, 3), st.one_of(st.none(), st.none(), substreams()))


@lru_cache(maxsize=None)
def substreams() -> st.SearchStrategy[Atom]:
    """A substream pattern: an input predicate with constants or ``_`` (:data:`lars.windows.ANY`)."""
    return st.one_of(*[
        st.tuples(*[st.one_of(st.just(ANY), constants())] * arity).map(
            lambda arguments, n=name: Atom(n, arguments))
        for name, arity in INPUT_SIGNATURES
    ])


@lru_cache(maxsize=None)
def windows() -> st.SearchStrategy:
    """A time window (mostly) or a tuple window."""
    return st.one_of(time_windows(), time_windows(), tuple_windows())


@lru_cache(maxsize=None)
def modalities(time_variable: bool = True) -> st.SearchStrategy:
    """◇, □ or ``@_t`` with ``t`` the variable ``T`` (if allowed) or a small number."""
    times = st.one_of(st.just(T), small_numbers()) if time_variable else small_numbers()
    return st.one_of(st.just(DIAMOND), st.just(BOX), times.map(At))


def body_signatures() -> tuple:
    return INPUT_SIGNATURES + STATIC_SIGNATURES + DERIVED_SIGNATURES


@lru_cache(maxsize=None)
def extended_atoms(variables=(), time_variable: bool = True,
                   signatures=None) -> st.SearchStrategy:
    """``a``, ``@_t a`` or ``⊞ M a`` over ``signatures`` (default: all body predicates), or ``⊞ @_t true``."""
    atom = atoms(signatures or body_signatures(), variables)
    times = st.one_of(st.just(T), small_numbers()) if time_variable else small_numbers()
    return st.one_of(
        atom,
        st.builds(AtAtom, times, atom),
        st.builds(WindowAtom, windows(), modalities(time_variable), atom),
        st.builds(WindowAtom, windows(), modalities(time_variable), atom),
        st.builds(WindowAtom, time_windows(), times.map(At), st.just(TRUE)),
    )


@lru_cache(maxsize=None)
def comparisons(bound: frozenset[str]) -> st.SearchStrategy[Comparison]:
    """A built-in over the bound variables: ``X != a``, ``T % 2 = 0``, ``T >= 1``, ``X = Y``…

    Every operator of :data:`lars.atoms.COMPARISON_OPERATORS` is drawn (issue 18: ``<=`` read
    as ``<`` went unnoticed while only ``!=, =, <, >=`` were)."""
    options = []
    data = sorted(name for name in bound if name in ("X", "Y"))
    times = sorted(name for name in bound if name in ("T", "U"))
    for name in data:
        options.append(st.builds(lambda op, value, n=name: Comparison(op, Variable(n), value),
                                 st.sampled_from(COMPARISON_OPERATORS), constants()))
    if len(data) == 2:
        options.append(st.sampled_from(COMPARISON_OPERATORS).map(
            lambda op: Comparison(op, Variable("X"), Variable("Y"))))
    for name in times:
        variable = Variable(name)
        options.append(st.builds(
            lambda k, v=variable: Comparison("=", BinaryOp("%", v, Number(k)), Number(0)),
            st.integers(2, 3)))
        options.append(st.builds(lambda op, k, v=variable: Comparison(op, v, Number(k)),
                                 st.sampled_from(COMPARISON_OPERATORS), st.integers(0, 4)))
    return st.one_of(*options) if options else st.nothing()


@lru_cache(maxsize=None)
def literals(bound: frozenset[str]) -> st.SearchStrategy[Literal]:
    """A literal over ``bound`` variables: a comparison, a negated (often derived) or a positive atom."""
    variables = tuple(v for v in DATA_VARIABLES if v.name in bound)
    time_variable = "T" in bound
    options = [
        extended_atoms(variables, time_variable, DERIVED_SIGNATURES).map(
            lambda f: Literal(f, negated=True)),
        extended_atoms(variables, time_variable).map(lambda f: Literal(f, negated=True)),
        extended_atoms(variables, time_variable).map(Literal),
    ]
    if bound:
        options.append(comparisons(bound).map(Literal))
    return st.one_of(*options)


# --- rules and programs ----------------------------------------------------------------------

@lru_cache(maxsize=None)
def heads(bound: frozenset[str]) -> st.SearchStrategy:
    """A derived head ``a`` or ``@_t a`` using only ``bound`` variables (``t`` bound or a number)."""
    variables = tuple(v for v in DATA_VARIABLES if v.name in bound)
    atom = atoms(DERIVED_SIGNATURES, variables)
    times = tuple(Variable(n) for n in ("T", "U") if n in bound)
    time = st.one_of(st.sampled_from(times), small_numbers(5)) if times else small_numbers(5)
    return st.one_of(atom, atom, st.builds(AtAtom, time, atom))


@st.composite
def rules(draw, allow_facts: bool = True) -> Rule:
    """A safe rule with at most three variables: binders, then optional literals, then a head."""
    if allow_facts and draw(st.integers(0, 9)) == 0:
        return Rule(draw(heads(frozenset())))
    body = list(draw(st.lists(extended_atoms(DATA_VARIABLES).map(Literal), min_size=1, max_size=2)))
    bound = frozenset().union(*(lit.variables() for lit in body))
    if "T" in bound and draw(st.booleans()):
        body.append(Literal(Comparison("=", U, BinaryOp("+", T, Number(draw(st.integers(1, 2)))))))
        bound |= {"U"}
    body += draw(st.lists(literals(bound), max_size=2))
    rule = Rule(draw(heads(bound)), tuple(draw(st.permutations(body))))
    assume(len(rule.variables()) <= MAX_RULE_VARIABLES)
    check_safety(Program((rule,)))  # by construction; a failure here is a bug in the strategy
    return rule


@st.composite
def choice_rules(draw) -> tuple[Rule, Rule]:
    """An even loop through negation: ``h1 ← β, not h2`` and ``h2 ← β, not h1`` (two answers)."""
    binder = Literal(draw(extended_atoms(DATA_VARIABLES)))
    bound = binder.variables()
    first, second = draw(heads(bound)), draw(heads(bound))
    assume(first != second)
    return (Rule(first, (binder, Literal(second, negated=True))),
            Rule(second, (binder, Literal(first, negated=True))))


@st.composite
def programs(draw, max_rules: int = 4) -> Program:
    """1 to ``max_rules`` safe rules; about one program in four holds an even negative loop."""
    chosen = draw(st.lists(rules(), min_size=1, max_size=max_rules))
    if max_rules >= 2 and draw(st.integers(0, 3)) == 0:
        chosen = chosen[:max_rules - 2] + list(draw(choice_rules()))
        chosen = draw(st.permutations(chosen))
    return Program(tuple(chosen))


@st.composite
def scenario(draw, max_rules: int = 4, max_points: int = 6):
    """``(program, stream, background, t)`` with ``t`` a time point of the stream's timeline."""
    program = draw(programs(max_rules))
    stream = draw(streams(draw(timelines(max_points))))
    background = draw(backgrounds())
    t = draw(st.sampled_from(tuple(stream.timeline)))
    return program, stream, background, t


def oracle_answers(program: Program, stream: Stream, t: int, background=frozenset(), **limits):
    """The brute-force answer streams; ``assume``s the case away when it is too big for it."""
    try:
        return answer_streams(program, stream, t, background, **limits)
    except TooLarge:
        assume(False)


__all__ = [
    "CONSTANTS", "DATA_VARIABLES", "DERIVED_SIGNATURES", "INPUT_SIGNATURES", "STATIC_SIGNATURES",
    "args", "atoms", "backgrounds", "comparisons", "constants", "extended_atoms", "ground_atoms",
    "choice_rules", "heads", "literals", "modalities", "oracle_answers", "programs", "rules", "scenario",
    "small_numbers", "streams", "time_windows", "timelines", "tuple_windows", "windows",
]


DENSE_ATOMS = (Atom("r"), Atom("s"), Atom("p", (Name("a"),)), Atom("p", (Name("b"),)))


@lru_cache(maxsize=None)
def dense_streams(max_points: int = 8) -> st.SearchStrategy[Stream]:
    """Streams over ``r``, ``s``, ``p(a)``, ``p(b)`` where each atom is at about half the points.

    Dense data makes ``□`` and tuple windows meet both outcomes often, which the sparse
    :func:`streams` rarely does.
    """
    def build(timeline: Timeline, picks: list[list[Atom]]) -> Stream:
        return Stream.from_mapping(timeline, dict(zip(timeline, picks)))
    return timelines(max_points).flatmap(lambda line: st.lists(
        st.lists(st.sampled_from(DENSE_ATOMS), unique=True, max_size=4),
        min_size=len(line), max_size=len(line)).map(lambda picks: build(line, picks)))


@st.composite
def window_scenario(draw):
    """``(program, stream, background, t)``: one or two rules, each a window atom over dense data.

    Every window kind and modality appears, possibly negated after a positive binder, so that
    each encoder of the solver is exercised on its own.
    """
    stream = draw(dense_streams())
    dense = (("r", 0), ("s", 0), ("p", 1))
    chosen = []
    for head in draw(st.lists(st.sampled_from((Atom("x", (Variable("X"),)), Atom("y"))),
                              min_size=1, max_size=2, unique=True)):
        variables = head.variables() and (Variable("X"),)
        first = WindowAtom(draw(windows()), draw(modalities()), draw(atoms(dense[2:] if variables else dense, variables)))
        assume(head.variables() <= first.atom.variables())
        body = [Literal(first)]
        if draw(st.booleans()):
            body.append(Literal(WindowAtom(draw(windows()), draw(modalities(False))
                                           , draw(atoms(dense, variables))), negated=draw(st.booleans())))
        chosen.append(Rule(head, tuple(body)))
    program = Program(tuple(chosen))
    check_safety(program)
    t = draw(st.sampled_from(tuple(stream.timeline)))
    return program, stream, frozenset(draw(st.sampled_from(((), (Atom("s"),))))), t


# --- longer streams for partitioned evaluation (solver/partition.py) ---------------------------

@lru_cache(maxsize=None)
def hopping_windows() -> st.SearchStrategy[TimeWindow]:
    """``⊞^{l,u,d}`` with ``l`` up to 8, ``u`` up to 2 and a hop ``d`` of 2 to 5 ticks."""
    return st.builds(TimeWindow, st.integers(0, 8), st.sampled_from((0, 0, 1, 2)), st.integers(2, 5))


@lru_cache(maxsize=None)
def wide_windows() -> st.SearchStrategy:
    """Windows that reach several ticks back: hopping (half of them), sliding ``⊞^l`` (l ≤ 8) or
    ``⊞^{#n}`` (n ≤ 6)."""
    return st.one_of(hopping_windows(), hopping_windows(), st.builds(TimeWindow, st.integers(0, 8)),
                     st.builds(TupleWindow, st.integers(1, 6)))


@lru_cache(maxsize=None)
def long_streams(min_points: int = 20, max_points: int = 40) -> st.SearchStrategy[Stream]:
    """Streams of 20 to 40 points over ``r``, ``s``, ``p(a)``, ``p(b)``: 0 to 2 atoms per point,
    often none, so tuple windows reach back over several points."""
    timeline = st.builds(lambda start, size: Timeline(start, start + size - 1),
                         st.sampled_from((0, 0, 3, 7)), st.integers(min_points, max_points))
    point = st.one_of(st.just([]), st.lists(st.sampled_from(DENSE_ATOMS), unique=True, max_size=2))
    return timeline.flatmap(lambda line: st.lists(point, min_size=len(line), max_size=len(line)).map(
        lambda picks: Stream.from_mapping(line, dict(zip(line, picks)))))


@st.composite
def straddling_rules(draw) -> Rule:
    """A safe rule whose body reads wide windows: one positive window atom over the input, maybe a
    second one (negated or not, possibly over a derived predicate); heads ``a`` or ``@_t a``."""
    variables = draw(st.sampled_from(((), (Variable("X"),))))
    inputs = (("p", 1),) if variables else (("r", 0), ("s", 0), ("p", 1))
    first = WindowAtom(draw(wide_windows()), draw(modalities()), draw(atoms(inputs, variables)))
    assume({v.name for v in variables} <= first.atom.variables())
    body = [Literal(first)]
    if draw(st.booleans()):
        second = WindowAtom(draw(wide_windows()), draw(modalities(False)),
                            draw(atoms(inputs + DERIVED_SIGNATURES, variables)))
        body.append(Literal(second, negated=draw(st.booleans())))
    bound = frozenset().union(*(lit.variables() for lit in body if not lit.negated))
    rule = Rule(draw(heads(bound)), tuple(body))
    check_safety(Program((rule,)))
    return rule


@st.composite
def straddling_scenario(draw):
    """``(program, stream, background, parts)``: 1 to 3 :func:`straddling_rules` over a
    :func:`long_streams` stream, cut into 2 to 5 ranges, so windows straddle range boundaries."""
    program = Program(tuple(draw(st.lists(straddling_rules(), min_size=1, max_size=3))))
    stream = draw(long_streams())
    background = frozenset(draw(st.sampled_from(((), (Atom("s"),)))))
    return program, stream, background, draw(st.integers(2, 5))


# --- long gaps; input and background atoms of derived predicates (solver/strategies.py) ---------

@lru_cache(maxsize=None)
def gappy_streams(min_points: int = 15, max_points: int = 60, max_busy: int = 5) -> st.SearchStrategy[Stream]:
    """Streams on a long timeline with atoms at only a few (up to ``max_busy``) time points, so
    there are long gaps: windows empty out, tuple windows reach far back, idle points repeat."""
    timeline = st.builds(lambda start, size: Timeline(start, start + size - 1),
                         st.sampled_from((0, 0, 3)), st.integers(min_points, max_points))
    return timeline.flatmap(lambda line: st.dictionaries(
        st.sampled_from(tuple(line)), st.lists(ground_atoms(), min_size=1, max_size=3, unique=True),
        max_size=max_busy).map(lambda contents: Stream.from_mapping(line, contents)))


@st.composite
def gap_scenario(draw):
    """``(program, stream, background, t)`` over a :func:`gappy_streams` stream."""
    stream = draw(gappy_streams())
    return draw(programs()), stream, draw(backgrounds()), stream.timeline.start


MIXED_SIGNATURES = INPUT_SIGNATURES + DERIVED_SIGNATURES
"""Stream atoms of :func:`mixed_streams`: the input predicates and the derived ones."""


@lru_cache(maxsize=None)
def mixed_streams(max_points: int = 6, max_per_point: int = 3) -> st.SearchStrategy[Stream]:
    """Streams whose atoms may be of derived predicates too, and may arrive twice at one point."""
    per_point = st.lists(ground_atoms(MIXED_SIGNATURES), max_size=max_per_point)
    return timelines(max_points).flatmap(lambda line: st.tuples(*[per_point] * len(line)).map(
        lambda contents: Stream.from_mapping(line, dict(zip(line, contents)))))


@st.composite
def mixed_scenario(draw):
    """``(program, stream, background, t)``: a :func:`mixed_streams` stream and a background that
    may hold atoms of derived predicates, so input and background meet what rules derive."""
    stream = draw(mixed_streams())
    background = draw(st.frozensets(ground_atoms(MIXED_SIGNATURES + STATIC_SIGNATURES), max_size=3))
    return draw(programs()), stream, background, stream.timeline.start


MASKING_ATOMS = (Atom("x", (Name("a"),)), Atom("y"), Atom("z", (Number(1),)), Atom("p", (Name("a"),)),
                 Atom("r"))
"""Stream atoms of :func:`masking_scenario`: input atoms and atoms its heads derive."""


@st.composite
def masking_scenario(draw):
    """``(program, stream, background, parts)``: heads ``@_k a`` with a constant ``k`` put derived
    atoms at early time points where the stream holds the same atoms as input, while the bodies
    look back two ticks at most; so later ranges get little history, yet the answers must still
    leave those atoms out (``Lookback.masks`` in solver/partition.py)."""
    timeline = Timeline(0, draw(st.integers(7, 15)))
    picks = draw(st.lists(st.lists(st.sampled_from(MASKING_ATOMS), unique=True, max_size=2),
                          min_size=len(timeline), max_size=len(timeline)))
    chosen = []
    for _ in range(draw(st.integers(1, 2))):
        variables = draw(st.sampled_from(((), (Variable("X"),))))
        atom = draw(atoms((("p", 1),) if variables else (("p", 1), ("r", 0)), variables))
        window = draw(st.sampled_from((None, TimeWindow(0), TimeWindow(1), TimeWindow(2))))
        formula = atom if window is None else WindowAtom(window, DIAMOND, atom)
        bound = tuple(Variable(name) for name in sorted(formula.variables()))
        head = AtAtom(Number(draw(st.integers(0, 4))), draw(atoms(DERIVED_SIGNATURES, bound)))
        chosen.append(Rule(head, (Literal(formula),)))
    program = Program(tuple(chosen))
    check_safety(program)
    return program, Stream.from_mapping(timeline, dict(zip(timeline, picks))), frozenset(), draw(
        st.integers(2, 5))
