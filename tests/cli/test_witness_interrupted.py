"""Ctrl-C during ``lars witness`` says what the search had ruled out (newcomer finding D4: after a
minute of searching, ``interrupted while searching for a witness`` did not say whether any size
was settled). The search's exception carries it (agreement/witness/child.py ``interrupted``) and
the command's line says it after the activity (agreement/cli/interrupt.py)."""

from __future__ import annotations

import pickle

import pytest

from agreement.cli.interrupt import interrupted_line
from agreement.witness.child import interrupted, ruled_text
from agreement.witness.search import Attempt, Bounds


def stopped_attempt(bound: int) -> Attempt:
    """An attempt stopped by Ctrl-C after clingo's lower bound reached ``bound`` triples over
    the whole search space (what :meth:`Attempt.__call__` records as it solves)."""
    attempt = Attempt(control=None, last=10, order=None, start=0.0, time_limit=None)
    attempt.stopped, attempt.bound = True, bound
    return attempt


@pytest.mark.parametrize(("bound", "said"), [
    pytest.param(3, "none with ≤ 2 triple(s) exists within [1, 10] over 2 fresh constants, but larger "
                    "ones were not ruled out", id="two-triples-ruled-out"),
    pytest.param(1, "none with ≤ 0 triple(s) exists within [1, 10] over 2 fresh constants, but larger "
                    "ones were not ruled out", id="the-empty-stream-ruled-out"),
    pytest.param(0, "none ruled out", id="nothing-yet"),
])
def test_a_search_stopped_by_ctrl_c_carries_what_it_ruled_out(bound, said):
    with pytest.raises(KeyboardInterrupt) as stopped:
        stopped_attempt(bound).refuse_if_stopped(Bounds(max_triples=5, horizon=10, fresh=2, earliest=1))
    assert stopped.value.established == said
    assert type(stopped.value) is KeyboardInterrupt  # still Ctrl-C: exit 130, as before


def test_what_was_ruled_out_crosses_from_the_child_process():
    crossed = pickle.loads(pickle.dumps(interrupted(ruled_text(3, "within [0, 4]"))))
    assert crossed.established == "none with ≤ 2 triple(s) exists within [0, 4], but larger ones were not ruled out"


def raised_in_the_search(interrupt: KeyboardInterrupt) -> KeyboardInterrupt:
    """``interrupt`` raised in a frame of the witness search's module, as the command meets it."""
    space = {"__name__": "agreement.witness.child", "interrupt": interrupt}
    exec("def run_in_child():\n    raise interrupt\n", space)  # noqa: S102
    try:
        space["run_in_child"]()
    except KeyboardInterrupt as caught:
        return caught
    raise AssertionError("not raised")


def test_the_line_names_the_activity_then_what_was_ruled_out():
    interrupt = raised_in_the_search(interrupted(ruled_text(2, "within [0, 4] over 1 fresh constants")))
    assert interrupted_line(interrupt, wrote=False) == (
        "interrupted while searching for a witness: none with ≤ 1 triple(s) exists within [0, 4] "
        "over 1 fresh constants, but larger ones were not ruled out")


def test_a_plain_interrupt_keeps_its_line():
    assert interrupted_line(KeyboardInterrupt(), wrote=False) == "interrupted"
