"""The solver on the papers' examples and on every window × modality pair (SPEC sections 3, 10).

Each grid case states, for a fixed stream, the exact set of time points at which ``x`` holds;
the helper checks presence and absence at every time point of the timeline.
"""

import pytest

from tests.helpers import assert_holds_exactly, problem, solve_texts

COUPON_RULE = ('ans(Sh,Pr,Pe) ← ⊞^30 ◇ offer(Sh,Pr,Pe), ⊞^5 ◇ isNear(Sh), g_classify(Pr,Ge), '
               'Pe ≥ 20, Ge ≠ 1.')
COUPON_STREAM = {10: 'offer(a,"mbt",30)', 15: 'offer(b,"rayban",25)', 18: "isNear(a); isNear(b)"}
COUPON_BACKGROUND = 'g_classify("mbt",1). g_classify("rayban",0).'


def test_running_example_at_18_adds_exactly_the_rayban_coupon():
    prob = problem(COUPON_RULE, (0, 50), COUPON_STREAM, COUPON_BACKGROUND)
    assert solve_texts(prob, 18) == [['ans(b,"rayban",25)']]
    assert solve_texts(prob, 17) == [[]]
    assert solve_texts(prob, 9) == [[]]


def test_running_example_over_the_whole_timeline():
    prob = problem(COUPON_RULE, (0, 50), COUPON_STREAM, COUPON_BACKGROUND)
    assert_holds_exactly(prob, {'ans(b,"rayban",25)': set(range(18, 24))})


def test_lars_paper_window_example_derives_x_exactly_on_11_to_13():
    prob = problem("x ← ⊞^5 ◇ tr(d,p2), ⊞^5 ◇ bus(e,p2).", (0, 13),
                   {2: "tr(a,p1); bus(c,p1)", 8: "tr(d,p2)", 11: "bus(e,p2)"})
    assert_holds_exactly(prob, {"x": {11, 12, 13}})


# p at 2, 5, 6 and q at 1, 4 on [0, 9]; arrival order: q1 p2 q4 p5 p6.
GRID_STREAM = {1: "q", 2: "p", 4: "q", 5: "p", 6: "p"}


@pytest.mark.parametrize("rule, holds", [
    pytest.param("x :- [2] <> p.", {2, 3, 4, 5, 6, 7, 8}, id="time-diamond"),
    pytest.param("x :- [1] [] p.", {6}, id="time-box"),
    pytest.param("x :- [2] @5 p.", {5, 6, 7}, id="time-at-constant"),
    pytest.param("x :- [3] @T p, T >= 5.", {5, 6, 7, 8, 9}, id="time-at-variable"),
    pytest.param("x :- [0] <> p.", {2, 5, 6}, id="now-diamond"),
    pytest.param("x :- [inf] <> q, not [0] <> p.", {1, 3, 4, 7, 8, 9}, id="unbounded-and-negated-now"),
    pytest.param("x :- [3] <> q, not [1] <> p.", {1, 4}, id="time-diamond-negated"),
    pytest.param("x :- [3] <> q, not [2] [] q.", {1, 2, 3, 4, 5, 6, 7}, id="time-box-negated"),
    pytest.param("x :- [2,0,3] <> p.", {3, 4, 5, 6, 7, 8}, id="hopping-diamond"),
    pytest.param("x :- [0,2,1] <> p.", {2, 5, 6}, id="ahead-sees-no-future-input"),
    pytest.param("x :- [#1] <> q.", {1, 4}, id="tuple-diamond"),
    pytest.param("x :- [#2] [] p.", {6}, id="tuple-box"),
    pytest.param("x :- [#3] @T p, T >= 5.", {5, 6, 7, 8, 9}, id="tuple-at-variable"),
    pytest.param("x :- [#2] <> p, not [#1] <> p.", {4}, id="tuple-negated"),
    pytest.param("x :- @5 p.", {5, 6, 7, 8, 9}, id="at-outside-window"),
    pytest.param("x :- p.", {2, 5, 6}, id="plain-atom"),
    pytest.param("x :- not p.", {0, 1, 3, 4, 7, 8, 9}, id="plain-negated"),
    pytest.param("x :- [0] @T true, T % 3 = 0.", {0, 3, 6, 9}, id="pull-condition"),
])
def test_window_modality_grid(rule, holds):
    assert_holds_exactly(problem(rule, (0, 9), GRID_STREAM), {"x": holds})


def test_background_holds_at_every_point_of_every_window():
    prob = problem("x :- [2] [] g, [#1] [] g, [0] <> g, @3 g.", (0, 5), {}, "g.")
    assert_holds_exactly(prob, {"x": {0, 1, 2, 3, 4, 5}})


def test_at_head_derives_at_another_time_point_and_a_window_ahead_sees_it():
    prob = problem("@U y :- [0] @T p, U = T + 1.\nx :- [0,1,1] <> y.", (0, 9), GRID_STREAM)
    assert solve_texts(prob, 5) == [["x", "y@6"]]
    assert solve_texts(prob, 4) == [[]]


def test_plain_head_derived_earlier_is_not_remembered():
    prob = problem("x :- p.\ny :- [3] <> x.", (0, 9), GRID_STREAM)
    assert solve_texts(prob, 3) == [[]]
    assert solve_texts(prob, 2) == [["x", "y"]]


def test_at_head_off_the_timeline_leaves_no_answer_stream():
    prob = problem("@U y :- [0] @T p, U = T + 5.", (0, 9), GRID_STREAM)
    assert solve_texts(prob, 5) == []
    assert solve_texts(prob, 4) == [[]]
    assert solve_texts(prob, 2) == [["y@7"]]


def test_even_loop_has_two_answer_streams_at_every_time_point():
    prob = problem("x :- not y.\ny :- not x.", (0, 4))
    for t in range(5):
        assert solve_texts(prob, t) == [["x"], ["y"]]


def test_odd_loop_has_no_answer_stream():
    prob = problem("x :- not x.", (0, 2))
    assert all(solve_texts(prob, t) == [] for t in range(3))


def test_box_over_an_empty_window_holds_for_every_value_of_the_active_domain():
    prob = problem("x(X) :- [0,0,5] [] p(X), q(X).", (3, 6), {3: "q(a)"})
    assert solve_texts(prob, 4) == [[]]
    assert solve_texts(prob, 3) == [["x(a)"]]
