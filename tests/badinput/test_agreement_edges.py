"""The last pulling interval of a profile pair, and answers outside every compared interval
(issue 28): never a silent AGREE.

With ``--profiles csparql,cqels`` the pulling side's intervals are right-open, ``[k·U,
(k+1)·U)``: a CQELS answer at the last tick, a multiple of U, belongs to an interval whose pull
lay past the timeline, and was never compared (AGREE, no note). Now the default timeline runs
to that pull, so the interval is judged; an answer that a cut timeline (``--to``) or a profile
leaves outside every compared interval is counted in a note.
"""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

EX = "http://ex.org/"
QUERY = f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 5s STEP 5s] {{ ?x <{EX}p> ?y }} }}\n"


def recorded(*times_ms: int) -> str:
    return json.dumps({"relations": [
        {"head": {"vars": ["x"]}, "timestamp": t,
         "results": {"bindings": [{"binding": {"x": {"type": "uri", "value": f"{EX}a"}}}]}}
        for t in times_ms]})


@pytest.fixture
def files(tmp_path):
    (tmp_path / "pull.json").write_text(recorded(5000))
    (tmp_path / "push.json").write_text(recorded(3000, 10000))
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text("".join(f"<{EX}a> <{EX}p> <{EX}b> <{EX}s> {t}\n" for t in (3, 10)))
    return tmp_path


def test_recorded_the_last_tick_of_a_right_open_pair_is_judged(files):
    status, out, err = lars("agree", "--recorded-csparql", files / "pull.json", "--recorded-cqels",
                            files / "push.json", "--period", "5s", "--profiles", "csparql,cqels")
    assert status == 1 and out.startswith("DISAGREE"), out + err  # before: AGREE, [10,15) never judged
    assert "timeline [0,15]" in out and "inside the pulling interval [10,15)" in out


def test_recorded_answers_outside_every_compared_interval_are_counted(files):
    status, out, err = lars("agree", "--recorded-csparql", files / "pull.json", "--recorded-cqels",
                            files / "push.json", "--period", "5s", "--profiles", "csparql,cqels", "--to", "12")
    assert status == 0, out + err  # the one interval compared, [0,5), agrees
    assert ("\nnote: not compared: 1 CQELS answer in no pulling interval of the timeline [0,12] (10)"
            in out), out


def test_computed_the_last_tick_of_a_right_open_pair_is_judged(files):
    status, out, err = lars("agree", files / "q.rq", "--stream", files / "s.nt", "--period", "5s",
                            "--profiles", "csparql,cqels")
    assert status in (0, 1), err
    assert "3 pulling intervals" in out and "timeline [0,15]" in out, out  # before: 2, [0,10]


@pytest.mark.parametrize("profiles, tail", [
    pytest.param(["--profiles", "csparql,cqels"], "[10,15) whose pull at 15 lies past it: the answers in [10,12]",
                 id="right-open"),
    pytest.param([], "(10,15] whose pull at 15 lies past it: the answers in (10,12]", id="paper"),
])
def test_computed_a_timeline_cut_inside_an_interval_says_what_is_not_compared(files, profiles, tail):
    status, out, err = lars("agree", files / "q.rq", "--stream", files / "s.nt", "--period", "5s", "--to", "12",
                            *profiles)
    assert status in (0, 1), err
    assert f"note: the timeline ends at 12, inside the pulling interval {tail} are not compared" in out, out
