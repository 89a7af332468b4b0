"""An item stamped at a window boundary falls on one side of it for every window (``lars check``).

Under a window-close profile with jitter (``csparql``) an item stamped exactly at a window
boundary may fall in the window closing at its time (early) or in the one starting there
(late), but not in both and not in neither. For a query that does not grow with its windows
``lars check`` accepts each relation as the exact one or as one of the relations with the
boundary items out or in; read one by one, a newcomer's recording of a COUNT over OPTIONAL
(two streams) with a group deleted at 12 s was CORRECT: the relation at 12 s then needs the item
at 6 s out of the window [6, 12), so early, while the relation at 6 s had it out of [0, 6), so
late. The verdict is INCORRECT now (judge.placed); the recordings that place every item on one
side stay CORRECT.

``placed`` against a brute force: over generated reports (windows of two lengths, the exact
relation and the two boundary choices) and recordings, a recording has a placement of every
boundary item that fits all its relations exactly when ``boundary_conflict`` finds none, and
the conflict it names is the first relation no placement of the ones before it fits.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.check.expected import Report
from agreement.check.judge import boundary_conflict
from agreement.recorded import RecordedRelation
from tests.badinput.clirun import lars

DATA = Path(__file__).parent / "data" / "boundary_sides"


NEWCOMER11 = ["<http://ex.org/o%d> <http://ex.org/sensor> <http://ex.org/%s> <http://ex.org/str> %d" % line
              for line in ((1, "a", 1), (2, "a", 2), (3, "b", 4), (4, "a", 4), (5, "a", 5), (6, "b", 6),
                           (7, "a", 8), (8, "b", 8), (9, "b", 9), (10, "a", 10))]
COUNT = """REGISTER QUERY cnt AS
PREFIX : <http://ex.org/>
SELECT ?s (COUNT(?o) AS ?n)
FROM STREAM <http://ex.org/str> [RANGE 4s STEP 2s]
WHERE { ?o :sensor ?s }
GROUP BY ?s
"""


def counts(time: int, a: int, b: int) -> str:
    integer = "http://www.w3.org/2001/XMLSchema#integer"
    bindings = [{"s": {"type": "uri", "value": f"http://ex.org/{name}"},
                 "n": {"type": "literal", "value": str(n), "datatype": integer}}
                for name, n in (("a", a), ("b", b)) if n]
    return json.dumps({"time": time, "results": {"head": {"vars": ["s", "n"]},
                                                  "results": {"bindings": bindings}}}) + "\n"


@pytest.mark.parametrize("relations, verdict", [
    (((4, 2, 0), (6, 3, 1), (8, 2, 2), (10, 1, 3)), 0),  # lars run's: [0,4) [2,6) [4,8) [6,10)
    (((4, 2, 0), (6, 2, 2), (8, 2, 2), (10, 1, 2)), 0),  # the items at 2 s and 6 s early: (2,6]
    (((4, 3, 1), (6, 3, 1), (8, 2, 2), (10, 1, 3)), 0),  # the items at 4 s and at 8 s early
    (((4, 2, 0), (6, 3, 1), (8, 1, 1), (10, 1, 3)), 1),  # the items at 4 s in neither window
    (((4, 2, 0), (6, 3, 1), (8, 2, 2), (10, 1, 4)), 1),  # a count no race gives
])
def test_a_sliding_windows_races(tmp_path, relations, verdict):
    """A newcomer's COUNT over RANGE 4s STEP 2s: a window's first and last items may both be
    early (the reading (t-4, t], neither open nor closed), and that is a race too."""
    (tmp_path / "q.rq").write_text(COUNT)
    (tmp_path / "s.nt").write_text("\n".join(NEWCOMER11) + "\n")
    (tmp_path / "r.jsonl").write_text("".join(counts(*relation) for relation in relations))
    status, out, err = lars("check", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", "--answers",
                            tmp_path / "r.jsonl", "--profile", "csparql", "--no-suggest")
    assert status == verdict, (out, err)


@pytest.mark.parametrize("recording, verdict", [
    ("rec6.jsonl", 0),   # lars run's own recording
    ("rec6d.jsonl", 1),  # (a, 0, 1) deleted at 12: the item at 6 s out of [0,6) and of [6,12)
    ("rec6b.jsonl", 0),  # (b, 0, 1) deleted at 9: the item at 3 s early, in the window closing
                         # at 3 (not reported) and so not in [3, 9): one side, a possible run
])
def test_a_newcomers_count_over_optional(tmp_path, recording, verdict):
    for name in ("q6.rq", "s.nt", recording):
        shutil.copy(DATA / name, tmp_path / name)
    status, out, err = lars("check", tmp_path / "q6.rq", "--stream", tmp_path / "s.nt",
                            "--answers", tmp_path / recording, "--profile", "csparql", "--no-suggest")
    assert status == verdict, (out, err)
    if verdict:
        assert "window boundary that an earlier relation placed on the other side" in out
    status, out, err = lars("check", tmp_path / "q6.rq", "--stream", tmp_path / "s.nt", "--answers",
                            tmp_path / recording, "--profile", "csparql", "--no-suggest", "--follow",
                            "--idle", "0.2")
    assert status == verdict, (out, err)  # the live check the same (it read them one by one too)


S = URIRef("http://ex.org/s")
R = URIRef("http://ex.org/r")


@st.composite
def sequences(draw):
    """Reports at 0, 2, 4, ... over windows of length 2 on ``s`` and 4 on ``r``, each with an
    exact relation and up to three choices (the open, closed and other half-open readings; rows:
    small sets of one-tuples), and a recording of one relation per report: mostly one of that
    report's relations."""
    windows = [(S, 2), (R, 4)][:draw(st.integers(1, 2))]
    reading = draw(st.sampled_from(["right-open", "left-open"]))
    relations = st.frozensets(st.sampled_from([(1,), (2,), (3,)]), max_size=2)
    pairs = []
    for t in range(0, 2 * draw(st.integers(1, 6)), 2):
        def sides(first_early, last_early):
            return (tuple(((s, t - length), first_early) for s, length in windows)
                    + tuple(((s, t), last_early) for s, _ in windows))
        left = reading == "left-open"
        choices = draw(st.lists(relations, max_size=3))
        choice_sides = [sides(True, False), sides(False, True), sides(not left, not left)][:len(choices)]
        report = Report(t, draw(relations), choices=tuple(choices),
                        sides=sides(reading == "left-open", reading == "left-open"),
                        choice_sides=tuple(choice_sides))
        rows = draw(st.one_of(st.sampled_from((report.rows, *choices)), relations))
        pairs.append((report, RecordedRelation(t * 1000, tuple(rows))))
    return pairs


def fits(pair, placement) -> bool:
    """Whether one of the report's relations equal to the recorded one assumes ``placement``."""
    report, recorded = pair
    return any(rows == frozenset(recorded.rows) and all(placement[item] == early for item, early in sides)
               for rows, sides in zip((report.rows, *report.choices),
                                      (report.sides, *report.choice_sides)))


def first_misfit(pairs) -> int | None:
    """The brute force: every placement of every item, the longest prefix one of them fits."""
    items = sorted({item for report, _ in pairs for sides in (report.sides, *report.choice_sides)
                    for item, _ in sides}, key=str)
    longest = 0
    for flags in itertools.product((False, True), repeat=len(items)):
        placement = dict(zip(items, flags))
        fitted = next((i for i, pair in enumerate(pairs) if not fits(pair, placement)), len(pairs))
        longest = max(longest, fitted)
    return None if longest == len(pairs) else longest


@settings(max_examples=300, deadline=None)
@given(sequences())
def test_the_first_conflict_is_the_brute_forces(pairs):
    assert boundary_conflict(pairs, "bindings") == first_misfit(pairs)


def test_an_item_in_both_windows_is_a_conflict():
    """Tumbling windows of 4 (right-open), an item at 4: in [0,4] (closed choice at 4) and in
    [4,8) (the exact relation at 8) is the item twice."""
    def sides(t, first_early, last_early):
        return (((S, t - 4), first_early), ((S, t), last_early))
    at_four = Report(4, frozenset({(10,)}), choices=(frozenset({(10,)}), frozenset({(15,)})),
                     sides=sides(4, False, False), choice_sides=(sides(4, True, False), sides(4, False, True)))
    at_eight = Report(8, frozenset({(25,)}), choices=(frozenset({(30,)}), frozenset({(25,)})),
                      sides=sides(8, False, False), choice_sides=(sides(8, True, False), sides(8, False, True)))
    recorded = [RecordedRelation(4000, ((15,),)), RecordedRelation(8000, ((25,),))]
    assert boundary_conflict(list(zip([at_four, at_eight], recorded)), "bindings") == 1
    recorded[1] = RecordedRelation(8000, ((30,),))
    assert boundary_conflict(list(zip([at_four, at_eight], recorded)), "bindings") is None
