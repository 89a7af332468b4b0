"""``lars check`` warns when a recording's time labels cannot be times of the stream.

CSRBench labels are milliseconds from the stream's start. A recording labelled in seconds put
every relation on time point 0, one in microseconds far past the timeline, and under the default
comparison (relations placed by order, labels not compared) both were judged CORRECT without a
word (newcomer finding). Now a warning names the likely unit, on stderr and in JSON's notes; the
verdict itself is unchanged (it never read the labels).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from agreement.check.labels import label_warning
from agreement.recorded import RecordedRelation
from lars.streams import Timeline
from tests.badinput.clirun import lars

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
WARNING = "warning: the recording's time labels cannot be times of this stream"


def rescaled(source: Path, target: Path, scale) -> Path:
    """``source``'s recording with every relation's timestamp passed through ``scale``."""
    document = json.loads(source.read_text())
    for relation in document["relations"]:
        relation["timestamp"] = scale(relation["timestamp"])
    target.write_text(json.dumps(document))
    return target


def check(query: str, answers: Path, profile: str, *options: str) -> tuple[int, str, str]:
    return lars("check", CSRBENCH / "queries" / query, "--stream", CSRBENCH / "stream",
                "--answers", answers, "--profile", profile, *options)


@pytest.mark.parametrize(("query", "recording", "profile", "scale", "said"), [
    pytest.param("q1-csparql.rq", "csparql-answer-1.json", "csparql", lambda ms: ms // 1000,
                 "its 4 relations all fall on time point 0 (labels 10–40 ms), while the stream's "
                 "input spans time points 0–33; read as seconds (label × 1000 = ms) they fall at "
                 "10–40: the recording is likely in seconds", id="csparql-in-seconds"),
    pytest.param("q1-cqels.rq", "cqels-answer-1.json", "cqels", lambda ms: ms // 1000,
                 "its 15 relations all fall on time point 0 (labels 12–33 ms)", id="cqels-in-seconds"),
    pytest.param("q1-csparql.rq", "csparql-answer-1.json", "csparql", lambda ms: ms * 1000,
                 "all 4 of its relations fall at time points 10000–40000 (labels 10000000–40000000 "
                 "ms), far outside the timeline [0,53]; read as microseconds (label ÷ 1000 = ms) "
                 "they fall at 10–40", id="csparql-in-microseconds"),
])
def test_a_recording_in_another_unit_is_warned_about(tmp_path, query, recording, profile, scale, said):
    answers = rescaled(CSRBENCH / "engine-answers" / recording, tmp_path / "a.json", scale)
    status, out, err = check(query, answers, profile)
    assert status == 0, err  # labels are not compared: the verdict is the same
    [line] = [line for line in err.splitlines() if line.startswith(WARNING)]
    assert said in line
    status, out, err = check(query, answers, profile, "--format", "json")
    assert any(note.startswith(WARNING) and said in note for note in json.loads(out)["notes"])


@pytest.mark.parametrize(("query", "recording", "profile"), [
    pytest.param("q1-csparql.rq", "csparql-answer-1.json", "csparql", id="csparql"),
    pytest.param("q1-cqels.rq", "cqels-answer-1.json", "cqels", id="cqels"),
])
def test_a_recording_in_milliseconds_is_not(query, recording, profile):
    status, out, err = check(query, CSRBENCH / "engine-answers" / recording, profile)
    assert status == 0 and WARNING not in err, err


TIMELINE = Timeline(0, 60)
INPUTS = range(0, 41)


@st.composite
def recordings(draw):
    """Relations labelled in whole seconds' worth of milliseconds inside the timeline, on at
    least two time points (a plausible recording of the stream)."""
    ticks = draw(st.lists(st.integers(1, TIMELINE.end), min_size=3, max_size=12))
    if len(set(ticks)) < 2:
        ticks.append(ticks[0] % TIMELINE.end + 1)
    return [RecordedRelation(t * 1000 + draw(st.sampled_from([0, 0, 47])), ()) for t in sorted(ticks)]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(recordings())
def test_the_unit_named_is_the_unit_written(relations):
    """In ms: no warning; the same labels in seconds or microseconds: a warning naming that unit."""
    assert label_warning(relations, 1000, 0, TIMELINE, INPUTS) is None
    seconds = [RecordedRelation(r.timestamp // 1000, ()) for r in relations]
    micro = [RecordedRelation(r.timestamp * 1000, ()) for r in relations]
    assert "likely in seconds" in label_warning(seconds, 1000, 0, TIMELINE, INPUTS)
    assert "likely in microseconds" in label_warning(micro, 1000, 0, TIMELINE, INPUTS)


def test_many_relations_at_one_tick_alone_are_no_warning():
    """CQELS reports one relation per result: many at one tick of a long stream is plausible
    when no other unit spreads them over the timeline."""
    at_twelve = [RecordedRelation(12_047 + k, ()) for k in range(5)]
    assert label_warning(at_twelve, 1000, 0, TIMELINE, INPUTS) is None
