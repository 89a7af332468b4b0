"""The child process of ``lars witness`` (:mod:`agreement.witness.child`, issue 28): the parent
owns the clock, a child that cannot be stopped is killed, and what the child raises arrives as
itself. The tasks run in the child (pickled by name, from a module that imports little, so
the child starts within the limits below on a loaded machine)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from agreement.witness.child import ChildFailed, Watch, run_in_child
from agreement.witness.search import deepen
from lars.errors import InputError, LimitError
from tests.agreement.test_witnesssearch import BOUNDS, HARD
from tests.agreement.witness_tasks import answer, deaf, fail, obedient, refuse
from tests.cli.test_witness_time_limit import alive, children


def test_the_result_and_the_progress_come_back():
    seen = []
    value, pid = run_in_child(answer, (7,), on_progress=lambda *step: seen.append(step))
    assert value == 7 and pid != os.getpid() and seen == [(1, [7, 0])]


def test_an_error_of_ours_arrives_as_itself_with_its_position():
    with pytest.raises(InputError) as raised:
        run_in_child(refuse, ())
    assert str(raised.value) == "q.rq:3:7: error: bad number (write another)"


def test_an_exception_that_cannot_be_pickled_is_an_internal_failure_with_the_traceback():
    with pytest.raises(ChildFailed, match="Unpicklable"):
        run_in_child(fail, ())


def test_a_child_that_cannot_be_stopped_is_killed_at_the_limit_and_says_what_it_ruled_out():
    began = time.monotonic()
    with pytest.raises(LimitError) as raised:
        run_in_child(deaf, (60,), time_limit=2)
    assert time.monotonic() - began < 2 + 2
    assert str(raised.value).startswith("error: no witness found within the time limit of 2 s (stopped "
                                        "while clingo was grounding the search program")
    assert "none with ≤ 2 triple(s) exists within the bounds" in str(raised.value)


def test_a_child_that_stops_when_asked_delivers_its_result():
    assert run_in_child(obedient, (), time_limit=0.5) == "stopped for time"


def test_a_stop_request_without_any_witness_is_the_time_limit_error_not_a_verdict():
    """The deepening in the child, stopped by its parent (the watch) rather than by its own clock."""
    began = time.monotonic()
    watch = Watch(lambda: "time" if time.monotonic() > began + 1 else None, lambda k: None,
                  lambda s: None)
    with pytest.raises(LimitError, match="within the time limit of 30 s, and none ruled out"):
        deepen(HARD, BOUNDS, 11, time_limit=30, watch=watch)
    assert time.monotonic() - began < 15


def test_a_relayed_ctrl_c_without_any_witness_is_an_interruption():
    watch = Watch(lambda: "interrupt", lambda k: None, lambda s: None)
    with pytest.raises(KeyboardInterrupt):
        deepen(HARD, BOUNDS, 11, watch=watch)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_dies_with_its_parent_even_when_the_parent_is_killed():
    """SIGKILL leaves the parent no chance to kill the child: the kernel does (a grounding child
    would otherwise run to its end, alone)."""
    parent = subprocess.Popen([sys.executable, "-c", "from agreement.witness.child import run_in_child; "
                               "from tests.agreement.witness_tasks import deaf; run_in_child(deaf, (60,))"],
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    deadline = time.monotonic() + 30
    while not (found := children(parent.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, "no child started"
    parent.kill()
    parent.wait()
    while alive(found[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(found[0])
