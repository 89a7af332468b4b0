"""Consumption reports every event it consumes, and ``--at`` beyond the last input is evaluated.

Issue 27's case: stream ``a1 p b@1, a2 p b@2, b q c1@3, b q c2@4`` (one stream), the query of
``examples/events/figure1.rq`` (``E1 SEQ E2``), evaluations at 5 and 6. Chronological selection
(paper 001, equation (10)) picks ``a1 b c1 [1,3]`` at 5 and consumes its input; at 6 what is left
gives ``a2 b c2 [2,4]``, which a "new only" filter (``t2 = 4`` is not after 5) used to hide.
Recent (11) is the mirror image. Checked through the LARS translation, the paper oracle
(:mod:`tests.oracles.events`) and the command line, whose timeline ends at the last input (4)
unless the evaluation times reach further.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.badinput.clirun import lars
from tests.oracles.events import answers
from tests.translate.eventdata import EX, iri, short, solve
from translate.eventprofiles import EventProfile
from translate.eventreader import read_event_query
from translate.eventrules import Evaluation, translate_events
from translate.events import with_selection

EXAMPLES = Path(__file__).parents[2] / "examples" / "events"
QUERY = read_event_query((EXAMPLES / "figure1.rq").read_text(), "figure1.rq")
S = iri("S")
STREAM = [((iri(s), iri(p), iri(o)), t, S) for s, p, o, t in (
    ("a1", "p", "b", 1), ("a2", "p", "b", 2), ("b", "q", "c1", 3), ("b", "q", "c2", 4))]
AT_5_6 = Evaluation("at", (5, 6))
A1 = (("a1", "b", "c1"), 1, 3)
A2 = (("a2", "b", "c2"), 2, 4)
EXPECTED = {"epsparql-chronological": {5: {A1}, 6: {A2}},
            "epsparql-recent": {5: {A2}, 6: {A1}}}


@pytest.mark.parametrize("profile", sorted(EXPECTED))
def test_translation_reports_what_the_second_evaluation_consumes(profile):
    found = solve(translate_events(QUERY, profile, AT_5_6), STREAM, 6)
    assert {t: short(rows) for t, rows in found.items()} == EXPECTED[profile]


@pytest.mark.parametrize("profile", sorted(EXPECTED))
def test_the_paper_oracle_gives_the_same(profile):
    selection = profile.removeprefix("epsparql-")
    pattern = with_selection(QUERY.pattern, selection)
    oracle = answers(QUERY, [(tr, s, t) for tr, t, s in STREAM], (5, 6), True, "all", pattern)
    assert {t: short(rows) for t, rows in oracle.items() if rows} == EXPECTED[profile]


def test_unrestricted_still_reports_new_events_only():
    """Without consumption an event stays found at every later evaluation; it is reported once."""
    found = solve(translate_events(QUERY, "epsparql-unrestricted", AT_5_6), STREAM, 6)
    assert set(found) == {5} and len(found[5]) == 4


def test_a_consuming_profile_reporting_new_only_is_refused():
    with pytest.raises(ValueError, match="consuming profile"):
        EventProfile("x", "chronological", True, "new", "given", "")
    with pytest.raises(ValueError):
        answers(QUERY, [], (5,), True, "new")


@pytest.fixture
def stream_file(tmp_path):
    path = tmp_path / "s.nt"
    path.write_text("".join(f"<{s}> <{p}> <{o}> {t}\n" for (s, p, o), t, _ in STREAM))
    return path


@pytest.mark.parametrize("profile", sorted(EXPECTED))
def test_command_line_evaluates_at_times_after_the_last_input(stream_file, profile):
    status, out, err = lars("run", EXAMPLES / "figure1.rq", "--stream", stream_file, "--profile",
                            profile, "--at", "5,6", "--stream-iri", S, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert document["timeline"] == [0, 6]
    got = {}
    for event in document["events"]:
        values = tuple(v.strip("<>").removeprefix(EX) for v in event["values"])
        got.setdefault(event["time"], set()).add((values, event["start"], event["end"]))
    assert got == EXPECTED[profile]


def test_header_claims_only_evaluations_done(stream_file):
    status, out, _ = lars("run", EXAMPLES / "figure1.rq", "--stream", stream_file, "--profile",
                          "rsep", "--at", "5,6", "--stream-iri", S)
    assert status == 0 and out.splitlines()[0].endswith("evaluated at 5, 6; timeline [0,6]")
    status, out, err = lars("run", EXAMPLES / "figure1.rq", "--stream", stream_file, "--profile",
                            "rsep", "--at", "5,6", "--to", "5", "--stream-iri", S)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "--at 6 is outside the timeline given by --from/--to" in err
    status, _, err = lars("run", EXAMPLES / "figure1.rq", "--stream", stream_file, "--profile",
                          "rsep", "--at", "1,5", "--from", "2", "--stream-iri", S)
    assert status == 2 and "--at 1 is outside" in err


def test_agree_evaluates_at_times_after_the_last_input(stream_file):
    status, out, err = lars("agree", EXAMPLES / "figure1.rq", "--stream", stream_file, "--profiles",
                            "epsparql-chronological,epsparql-recent", "--at", "5,6",
                            "--stream-iri", S)
    assert status == 1, err
    assert "time 6:" in out and "consumed" in out
