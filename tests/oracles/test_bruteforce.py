"""The brute-force oracle on hand-computed cases: each asserts what is derived and what is not."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.analysis import is_stratified
from lars.atoms import Atom, Comparison
from lars.errors import InputError
from lars.formulas import BOX, DIAMOND, At, AtAtom, WindowAtom
from lars.rules import Literal, Program, Rule
from lars.streams import Stream, Timeline
from lars.terms import BinaryOp, Name, Number, String, Variable
from lars.windows import TimeWindow, TupleWindow
from tests.oracles.bruteforce import TooLarge, answer_streams, format_answers
from tests.strategies import INPUT_SIGNATURES, STATIC_SIGNATURES, oracle_answers, scenario

a, b, c, d, e = (Name(n) for n in "abcde")
p1, p2 = Name("p1"), Name("p2")
X, T, U = Variable("X"), Variable("T"), Variable("U")
x, y, q, p = Atom("x"), Atom("y"), Atom("q"), Atom("p")
TRUE = Atom("true")


def pos(formula):
    return Literal(formula)


def neg(formula):
    return Literal(formula, negated=True)


def program(*rules: Rule) -> Program:
    return Program(tuple(rules))


def stream(start: int, end: int, contents: dict) -> Stream:
    return Stream.from_mapping(Timeline(start, end), contents)


def only(*pairs) -> list[frozenset]:
    """Exactly one answer stream, adding exactly ``pairs``."""
    return [frozenset(pairs)]


# --------------------------------------------------------------------------------------------
# SPEC section 10: the running example
# --------------------------------------------------------------------------------------------

Sh, Pr, Pe, Ge = (Variable(n) for n in ("Sh", "Pr", "Pe", "Ge"))
MBT, RAYBAN = String("mbt"), String("rayban")
RUNNING_RULE = Rule(Atom("ans", (Sh, Pr, Pe)), (
    pos(WindowAtom(TimeWindow(30), DIAMOND, Atom("offer", (Sh, Pr, Pe)))),
    pos(WindowAtom(TimeWindow(5), DIAMOND, Atom("isNear", (Sh,)))),
    pos(Atom("g_classify", (Pr, Ge))),
    pos(Comparison(">=", Pe, Number(20))),
    pos(Comparison("!=", Ge, Number(1))),
))
RUNNING_BACKGROUND = frozenset({Atom("g_classify", (MBT, Number(1))),
                                Atom("g_classify", (RAYBAN, Number(0)))})
RUNNING_STREAM = stream(0, 50, {
    10: [Atom("offer", (a, MBT, Number(30)))],
    15: [Atom("offer", (b, RAYBAN, Number(25)))],
    18: [Atom("isNear", (a,)), Atom("isNear", (b,))],
})


def running(t: int) -> list[frozenset]:
    return answer_streams(program(RUNNING_RULE), RUNNING_STREAM, t, RUNNING_BACKGROUND)


def test_running_example_at_18_adds_only_the_rayban_offer():
    result = running(18)
    assert result == only((Atom("ans", (b, RAYBAN, Number(25))), 18))
    assert (Atom("ans", (a, MBT, Number(30))), 18) not in result[0]  # men's product: Ge = 1


@pytest.mark.parametrize("t", [pytest.param(17, id="before-isNear"), pytest.param(9, id="before-offers")])
def test_running_example_has_one_empty_answer_before_18(t):
    assert running(t) == [frozenset()]


def test_running_example_window_expires():
    # at 23 isNear@18 is still in ⊞^5; at 24 it is not
    assert running(23) == only((Atom("ans", (b, RAYBAN, Number(25))), 23))
    assert running(24) == [frozenset()]


# --------------------------------------------------------------------------------------------
# Windows over the input
# --------------------------------------------------------------------------------------------

TRANSPORT = stream(0, 13, {
    2: [Atom("tr", (a, p1)), Atom("bus", (c, p1))],
    8: [Atom("tr", (d, p2))],
    11: [Atom("bus", (e, p2))],
})
CONNECTION = program(Rule(x, (
    pos(WindowAtom(TimeWindow(5), DIAMOND, Atom("tr", (d, p2)))),
    pos(WindowAtom(TimeWindow(5), DIAMOND, Atom("bus", (e, p2)))),
)))


@pytest.mark.parametrize("t", range(14))
def test_connection_derived_exactly_at_11_to_13(t):
    expected = only((x, t)) if t in (11, 12, 13) else [frozenset()]
    assert answer_streams(CONNECTION, TRANSPORT, t) == expected


def test_streaming_reading_does_not_see_future_input():
    prog = program(Rule(x, (pos(AtAtom(Number(3), p)),)))
    data = stream(0, 5, {3: [p]})
    assert answer_streams(prog, data, 1) == [frozenset()]
    assert answer_streams(prog, data, 3) == only((x, 3))
    assert answer_streams(prog, data, 5) == only((x, 5))


def test_box_over_time_window_needs_every_point():
    prog = program(Rule(x, (pos(WindowAtom(TimeWindow(2), BOX, p)),)))
    data = stream(0, 6, {1: [p], 2: [p], 3: [p], 5: [p]})
    results = {t: answer_streams(prog, data, t) for t in range(7)}
    assert {t for t, r in results.items() if r != [frozenset()]} == {3}
    assert results[3] == only((x, 3))


def test_background_holds_at_every_point_of_a_window():
    prog = program(Rule(x, (pos(WindowAtom(TimeWindow(3), BOX, Atom("g", (a,)))),)),
                   Rule(y, (pos(WindowAtom(TimeWindow(3), BOX, Atom("g", (b,)))),)))
    result = answer_streams(prog, stream(0, 4, {}), 4, frozenset({Atom("g", (a,))}))
    assert result == only((x, 4))  # and no y: g(b) is not background


def test_empty_time_window_box_is_vacuous_diamond_is_false():
    # ⊞^{1,0,3} at t=2 on [2,5]: pivot 0, range [2,0] is empty
    window = TimeWindow(1, 0, 3)
    prog = program(Rule(x, (pos(WindowAtom(window, BOX, q)),)),
                   Rule(y, (pos(WindowAtom(window, DIAMOND, TRUE)),)))
    data = stream(2, 5, {2: [q]})
    assert answer_streams(prog, data, 2) == only((x, 2))
    # at t=3 the window is [2,3]: q only at 2, so no □; true holds at both points
    assert answer_streams(prog, data, 3) == only((y, 3))


def test_empty_window_box_binds_its_variables_over_the_active_domain():
    # The decision for vacuous □ with variables: they range over the active domain.
    window = TimeWindow(1, 0, 3)
    prog = program(Rule(Atom("z", (X,)), (pos(WindowAtom(window, BOX, Atom("q", (X,)))),)))
    data = stream(2, 3, {2: [Atom("p", (a,))]})
    result = answer_streams(prog, data, 2)
    assert result == only(*((Atom("z", (value,)), 2) for value in (a, Number(2), Number(3))))


# --------------------------------------------------------------------------------------------
# Negation: zero, one or many answer streams
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("t", range(4))
def test_even_loop_has_two_answer_streams_at_every_point(t):
    prog = program(Rule(x, (neg(y),)), Rule(y, (neg(x),)))
    result = answer_streams(prog, stream(0, 3, {1: [p]}), t)
    assert result == [frozenset({(x, t)}), frozenset({(y, t)})]
    assert frozenset({(x, t), (y, t)}) not in result


@pytest.mark.parametrize("t", range(3))
def test_odd_loop_has_no_answer_stream(t):
    assert answer_streams(program(Rule(x, (neg(x),))), stream(0, 2, {}), t) == []


def test_negated_window_atom():
    prog = program(Rule(x, (pos(p), neg(WindowAtom(TimeWindow(2), DIAMOND, q)))))
    data = stream(0, 5, {1: [q], 2: [p], 4: [p]})
    assert answer_streams(prog, data, 2) == [frozenset()]  # q@1 is in [0,2]
    assert answer_streams(prog, data, 4) == only((x, 4))   # [2,4] has no q


def test_positive_loop_is_not_self_supporting():
    # FLP minimality: x ← y, y ← x has only the empty answer
    prog = program(Rule(x, (pos(y),)), Rule(y, (pos(x),)))
    assert answer_streams(prog, stream(0, 1, {}), 1) == [frozenset()]


def test_flp_reduct_rejects_unsupported_choice():
    # x ← not x, y   and   y ← x : the model {x, y} is not minimal for its reduct {y ← x}
    prog = program(Rule(x, (neg(x), pos(y))), Rule(y, (pos(x),)))
    assert answer_streams(prog, stream(0, 1, {}), 0) == [frozenset()]


def test_fact_and_background_head():
    g = Atom("g", (a,))
    prog = program(Rule(y), Rule(g, (pos(p),)))
    result = answer_streams(prog, stream(0, 2, {2: [p]}), 2, frozenset({g}))
    assert result == only((y, 2))  # g(a) holds by background, so it is not added


# --------------------------------------------------------------------------------------------
# Heads @_T a and windows that look ahead
# --------------------------------------------------------------------------------------------

AT_HEAD = program(Rule(AtAtom(T, y), (pos(WindowAtom(TimeWindow(2), At(T), p)),)))
AT_DATA = stream(0, 5, {1: [p], 3: [p]})


@pytest.mark.parametrize(("t", "points"), [
    pytest.param(0, (), id="t0-nothing"),
    pytest.param(1, (1,), id="t1"),
    pytest.param(2, (1,), id="t2"),
    pytest.param(3, (1, 3), id="t3-both"),
    pytest.param(4, (3,), id="t4-p1-left"),
    pytest.param(5, (3,), id="t5"),
])
def test_at_head_puts_y_where_p_was_in_the_window(t, points):
    assert answer_streams(AT_HEAD, AT_DATA, t) == only(*((y, s) for s in points))


LOOK_AHEAD = program(
    Rule(AtAtom(U, q), (pos(WindowAtom(TimeWindow(0), At(T), p)),
                        pos(Comparison("=", U, BinaryOp("+", T, Number(1)))))),
    Rule(x, (pos(WindowAtom(TimeWindow(0, 2, 1), DIAMOND, q)),)),
)


def test_future_window_sees_q_derived_at_a_later_point():
    data = stream(0, 5, {2: [p]})
    assert answer_streams(LOOK_AHEAD, data, 2) == only((x, 2), (q, 3))
    assert answer_streams(LOOK_AHEAD, data, 1) == [frozenset()]
    assert answer_streams(LOOK_AHEAD, data, 3) == [frozenset()]  # q@3 is only derived at t=2


def test_at_head_outside_the_timeline_has_no_answer_stream():
    data = stream(0, 5, {5: [p]})
    assert answer_streams(LOOK_AHEAD, data, 5) == []  # @_6 q cannot hold on [0,5]
    assert answer_streams(LOOK_AHEAD, data, 4) == [frozenset()]


def test_constant_at_head_and_at_body():
    prog = program(Rule(AtAtom(Number(4), y), (pos(p),)),
                   Rule(x, (pos(AtAtom(Number(4), y)),)))
    assert answer_streams(prog, stream(0, 4, {1: [p]}), 1) == only((x, 1), (y, 4))
    assert answer_streams(prog, stream(0, 3, {1: [p]}), 1) == []  # 4 is not a time point


def test_pull_trigger_reads_the_current_time():
    prog = program(Rule(Atom("trigger"), (pos(WindowAtom(TimeWindow(0), At(T), TRUE)),
                                          pos(Comparison("=", BinaryOp("%", T, Number(2)), Number(0))))))
    data = stream(0, 3, {})
    assert [answer_streams(prog, data, t) for t in range(4)] == [
        only((Atom("trigger"), 0)), [frozenset()], only((Atom("trigger"), 2)), [frozenset()]]


# --------------------------------------------------------------------------------------------
# Tuple windows
# --------------------------------------------------------------------------------------------

TUPLE_RULE = program(Rule(Atom("x", (X,)), (pos(WindowAtom(TupleWindow(2), DIAMOND, Atom("p", (X,)))),)))


@pytest.mark.parametrize(("arrival", "kept", "dropped"), [
    pytest.param((a, b), b, a, id="b-arrives-last"),
    pytest.param((b, a), a, b, id="a-arrives-last"),
])
def test_tuple_window_keeps_the_latest_arrival_at_its_earliest_point(arrival, kept, dropped):
    data = stream(0, 3, {1: [Atom("p", (v,)) for v in arrival], 2: [Atom("q", (a,))]})
    result = answer_streams(TUPLE_RULE, data, 2)
    assert result == only((Atom("x", (kept,)), 2))
    assert (Atom("x", (dropped,)), 2) not in result[0]


def test_tuple_window_ignores_derived_atoms_and_future_input():
    prog = program(Rule(Atom("z", (a,)), (pos(p),)),
                   Rule(x, (pos(WindowAtom(TupleWindow(1), DIAMOND, Atom("z", (a,)))),)),
                   Rule(y, (pos(WindowAtom(TupleWindow(1), DIAMOND, p)),)))
    data = stream(0, 3, {1: [p], 2: [q]})
    assert answer_streams(prog, data, 1) == only((Atom("z", (a,)), 1), (y, 1))  # z(a) is derived: no x
    assert answer_streams(prog, data, 2) == [frozenset()]  # the latest atom is q


def test_tuple_window_box_and_at():
    prog = program(
        Rule(x, (pos(WindowAtom(TupleWindow(2), BOX, Atom("g"))),)),
        Rule(AtAtom(T, y), (pos(WindowAtom(TupleWindow(2), At(T), p)),)),
        Rule(Atom("w"), (pos(WindowAtom(TupleWindow(2), BOX, p)),)),
    )
    data = stream(0, 4, {1: [p], 3: [p, q]})
    # ⊞^{#2} at 3 selects p@3, q@3 (timeline [3,3]): □ g by background, y at 3, □ p holds
    assert answer_streams(prog, data, 3, frozenset({Atom("g")})) == \
        only((x, 3), (y, 3), (Atom("w"), 3))
    # at 4 the same atoms, timeline [3,4]: □ p fails at 4
    assert answer_streams(prog, data, 4, frozenset({Atom("g")})) == only((x, 4), (y, 3))


def test_tuple_window_short_stream_reaches_the_timeline_start():
    prog = program(Rule(x, (pos(WindowAtom(TupleWindow(3), BOX, Atom("g"))),)),
                   Rule(y, (pos(WindowAtom(TupleWindow(3), At(Number(0)), TRUE)),)))
    result = answer_streams(prog, stream(0, 4, {2: [p]}), 3, frozenset({Atom("g")}))
    assert result == only((x, 3), (y, 3))


# --------------------------------------------------------------------------------------------
# Output form, guards
# --------------------------------------------------------------------------------------------

def test_answers_are_canonical_and_formatted():
    prog = program(Rule(AtAtom(T, Atom("z", (X,))), (pos(WindowAtom(TimeWindow(None), At(T), Atom("p", (X,)))),)))
    data = stream(0, 2, {0: [Atom("p", (b,)), Atom("p", (String("s"),))], 2: [Atom("p", (a,))]})
    assert format_answers(answer_streams(prog, data, 2)) == [['z(b)@0', 'z("s")@0', 'z(a)@2']]


def test_unsafe_program_is_refused():
    with pytest.raises(InputError):
        answer_streams(program(Rule(Atom("x", (X,)), (neg(Atom("p", (X,))),))), stream(0, 1, {}), 0)


def test_too_many_candidates_raise_too_large():
    prog = program(Rule(AtAtom(T, Atom("z", (X,))), (pos(WindowAtom(TimeWindow(None), At(T), Atom("p", (X,)))),)))
    data = stream(0, 3, {s: [Atom("p", (Number(v),)) for v in range(2)] for s in range(2)})
    with pytest.raises(TooLarge):
        answer_streams(prog, data, 3, max_candidates=3)
    assert len(answer_streams(prog, data, 3)[0]) == 4


# --------------------------------------------------------------------------------------------
# Properties of the semantics, on generated scenarios
# --------------------------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(deadline=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TRIGGER = Atom("trigger")


def with_trigger(prog: Program, trigger_rules: list[Rule]) -> Program:
    """``trigger(P)`` plus ``trigger_rules`` (SPEC section 6)."""
    triggered = [Rule(rule.head, rule.body + (pos(TRIGGER),)) if rule.body else rule for rule in prog]
    return Program(tuple(triggered + trigger_rules))


def without(pairs_atom: Atom, answers: list[frozenset]) -> list[frozenset]:
    return sorted((frozenset(pair for pair in answer if pair[0] != pairs_atom) for answer in answers),
                  key=lambda answer: sorted((s, repr(atom)) for atom, s in answer))


def no_facts(prog: Program) -> bool:
    return all(rule.body for rule in prog)


@PROPERTY_SETTINGS
@given(scenario())
def test_answer_streams_are_minimal_and_canonical(case):
    prog, data, background, t = case
    result = oracle_answers(prog, data, t, background)
    assert result == sorted(set(result), key=lambda answer: sorted((s, repr(atom)) for atom, s in answer))
    for answer in result:
        assert all(s in data.timeline for _, s in answer)
        assert not any(other < answer for other in result)  # minimality: an antichain


@PROPERTY_SETTINGS
@given(scenario())
def test_stratified_programs_have_one_answer_stream_unless_a_head_leaves_the_timeline(case):
    prog, data, background, t = case
    if not is_stratified(prog):
        return
    result = oracle_answers(prog, data, t, background)
    assert len(result) <= 1
    if not any(isinstance(rule.head, AtAtom) for rule in prog):
        assert len(result) == 1


@PROPERTY_SETTINGS
@given(scenario())
def test_input_after_t_is_not_read(case):
    prog, data, background, t = case
    visible_only = Stream(data.timeline, tuple(item for item in data.items if item[0] <= t))
    assert oracle_answers(prog, data, t, background) == oracle_answers(prog, visible_only, t, background)


def push_trigger_rules() -> list[Rule]:
    names = [Variable(f"V{i}") for i in range(3)]
    return [Rule(TRIGGER, (pos(WindowAtom(TimeWindow(0), DIAMOND, Atom(name, tuple(names[:arity])))),))
            for name, arity in INPUT_SIGNATURES]


@PROPERTY_SETTINGS
@given(scenario())
def test_proposition_1_push(case):
    prog, data, background, t = case
    background = frozenset(g for g in background if g.signature in STATIC_SIGNATURES)
    if not no_facts(prog):
        return
    plain = oracle_answers(prog, data, t, background)
    pushed = oracle_answers(with_trigger(prog, push_trigger_rules()), data, t, background)
    if data.at(t):
        assert all((TRIGGER, t) in answer for answer in pushed)
        assert without(TRIGGER, pushed) == plain
    else:
        assert pushed == [frozenset()]


@PROPERTY_SETTINGS
@given(scenario(), st.integers(1, 3))
def test_proposition_1_pull(case, period):
    prog, data, background, t = case
    if not no_facts(prog):
        return
    trigger_rule = Rule(TRIGGER, (pos(WindowAtom(TimeWindow(0), At(T), TRUE)),
                                  pos(Comparison("=", BinaryOp("%", T, Number(period)), Number(0)))))
    pulled = oracle_answers(with_trigger(prog, [trigger_rule]), data, t, background)
    if t % period == 0:
        assert without(TRIGGER, pulled) == oracle_answers(prog, data, t, background)
    else:
        assert pulled == [frozenset()]
