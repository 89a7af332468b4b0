"""The live check against the batch one (issue 31): engines' answers arriving shuffled by at
most ``D`` give, with ``--max-delay D``, the verdicts :func:`agreement.agree.modes.check_recorded`
gives on the same answers as files (an independent path: the whole files read, then compared);
an answer later than that is reported as late in the interval it belongs to, with whether it
would have changed the verdict, and the intervals are those of the files without it."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from agreement.agree.live import LateAnswers, LiveCheck
from agreement.agree.modes import check_recorded
from agreement.compare import IntervalVerdict

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None)
PERIOD = 5
VALUES = [f"http://e/{name}" for name in "abc"]


def relation(ms: int, values: list[str]) -> dict:
    return {"head": {"vars": ["x"]}, "timestamp": ms,
            "results": {"bindings": [{"binding": {"x": {"type": "uri", "value": v}}}
                                     for v in values]}}


@st.composite
def recordings(draw) -> tuple[list[dict], list[dict]]:
    """C-SPARQL relations at every pull up to ``n·U``; CQELS relations at some time points of
    ``(0, n·U]``, a few ms after the tick (as CQELS reports at wall-clock times)."""
    pulls = draw(st.integers(1, 6))
    values = st.lists(st.sampled_from(VALUES), max_size=2, unique=True)
    csparql = [relation(k * PERIOD * 1000, draw(values)) for k in range(1, pulls + 1)]
    times = draw(st.lists(st.integers(1, pulls * PERIOD), min_size=1, max_size=10, unique=True))
    cqels = [relation(t * 1000 + draw(st.integers(0, 999)), draw(values).copy() or [VALUES[0]])
             for t in sorted(times)]
    return csparql, cqels


def batch(tmp_path, csparql: list[dict], cqels: list[dict]) -> list[IntervalVerdict]:
    files = []
    for name, relations in (("csparql", csparql), ("cqels", cqels)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"relations": relations}), encoding="utf-8")
        files.append(path)
    return check_recorded(*files, PERIOD, 1000).verdicts


def live(lines: list[tuple[str, dict]], delay: int) -> tuple[list[IntervalVerdict], list[LateAnswers]]:
    check = LiveCheck(PERIOD, 1000, delay)
    events = [event for number, (side, document) in enumerate(lines, 1)
              for event in check.line(side, side, number, json.dumps(document))]
    events += list(check.finish())
    return ([e for e in events if isinstance(e, IntervalVerdict)],
            [e for e in events if isinstance(e, LateAnswers)])


def tick(document: dict) -> int:
    return document["timestamp"] // 1000


def shuffled(csparql: list[dict], cqels: list[dict], jitters: list[int]) -> list[tuple[str, dict]]:
    """Both sides' lines in the order they arrive when each is delayed by its jitter (ticks)."""
    lines = sorted([("csparql", d) for d in csparql] + [("cqels", d) for d in cqels],
                   key=lambda line: line[1]["timestamp"])
    return [line for _, line in sorted(enumerate(lines), key=lambda item: (
        tick(item[1][1]) + jitters[item[0] % len(jitters)], item[0]))]


@SETTINGS
@given(recordings(), st.integers(0, 12), st.lists(st.integers(0, 12), min_size=1, max_size=8))
def test_answers_shuffled_within_d_give_the_batch_verdicts(tmp_path_factory, recorded, delay, jitters):
    csparql, cqels = recorded
    jitters = [j % (delay + 1) for j in jitters]
    verdicts, late = live(shuffled(csparql, cqels, jitters), delay)
    assert late == []
    assert verdicts == batch(tmp_path_factory.mktemp("b"), csparql, cqels)


@SETTINGS
@given(recordings(), st.integers(0, 4), st.data())
def test_an_answer_later_than_d_is_reported_late_in_its_interval(tmp_path_factory, recorded,
                                                                   delay, data):
    csparql, cqels = recorded
    if len(cqels) < 2:
        return
    moved = data.draw(st.integers(0, len(cqels) - 2))  # not the last: some later line passes it
    held = cqels[moved]
    t = tick(held)
    rest = [d for i, d in enumerate(cqels) if i != moved]
    lines = shuffled(csparql, rest, [0])
    end = -(-t // PERIOD) * PERIOD
    passed: dict[str, int] = {}  # each side's largest tick so far: the watermark is their least
    passing = [i for i, (side, d) in enumerate(lines)
               if passed.update({side: max(tick(d), passed.get(side, 0))}) is None
               and len(passed) == 2 and min(passed.values()) > end + delay]
    if not passing:
        return
    lines.insert(passing[0] + 1, ("cqels", held))  # after the watermark passed its interval
    verdicts, late = live(lines, delay)
    expected = batch(tmp_path_factory.mktemp("b"), csparql, rest)
    assert verdicts == expected
    [report] = late
    assert (report.start, report.end, report.side, report.times) == (end - PERIOD, end, "cqels", (t,))
    [judged] = [v for v in expected if v.end == end]
    seen = {str(row[0]) for row in (*judged.only_cqels, *judged.both)}
    given_late = {b["binding"]["x"]["value"] for b in held["results"]["bindings"]}
    assert report.changes == bool(given_late - seen)
