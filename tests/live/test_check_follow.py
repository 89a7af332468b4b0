"""``lars check --follow`` (issue 31): one engine's answers judged as they arrive, every admissible
t0 side by side.

Differential: on CSRBench's recordings (examples/csrbench, Dell'Aglio et al. 2013) and the 2023
study's (examples/csrbench-2023), the live check of the files, their lines followed as they
would be written (the stream as timestamped N-Triples, the answers as JSON lines, one relation
a line, as ``lars replay`` publishes them), ends with batch ``lars check``'s verdict and t0;
shuffled within ``D`` it ends the same with ``--max-delay D``. Late lines are reported, a bad
line is refused before any verdict it could change, and nothing read is exit 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agreement.cli.app import main
from tests.live.conftest import CSRBENCH, ROOT

STUDY = ROOT / "examples" / "csrbench-2023"
SLOW = pytest.mark.slow

CASES = [  # name, query, recording, profile, options
    pytest.param(CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-1.json",
                 "csparql", (), id="csrbench-csparql-q1-correct"),
    pytest.param(CSRBENCH / "queries" / "q5-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-5.json",
                 "csparql", (), id="csrbench-csparql-q5-incorrect", marks=SLOW),
    pytest.param(CSRBENCH / "queries" / "q4-cqels.rq", CSRBENCH / "engine-answers" / "cqels-answer-4.json",
                 "cqels", (), id="csrbench-cqels-q4-incorrect", marks=SLOW),
    pytest.param(CSRBENCH / "queries" / "q3-cqels.rq", CSRBENCH / "engine-answers" / "cqels-answer-3.json",
                 "cqels", ("--merge-same-time",), id="csrbench-cqels-q3-merged-correct", marks=SLOW),
    pytest.param(STUDY / "queries" / "q3.rspql", STUDY / "answers" / "yasper-answer-3.json", "yasper",
                 ("--select", "sensor,obs,value"), id="2023-yasper-q3-correct-t0-2", marks=SLOW),
    pytest.param(STUDY / "queries" / "q5.rspql", STUDY / "answers" / "yasper-answer-5.json", "yasper",
                 (), id="2023-yasper-q5-incorrect", marks=SLOW),
    pytest.param(STUDY / "queries" / "q3.rspql", STUDY / "answers" / "csparql2-answer-3.json", "csparql2",
                 ("--select", "sensor,obs,value"), id="2023-csparql2-q3-correct-t0-1", marks=SLOW),
]


def answer_lines(path: Path, target: Path) -> Path:
    """A CSRBench answer document as JSON lines, one relation a line."""
    relations = json.loads(path.read_text(encoding="utf-8"))["relations"]
    target.write_text("".join(json.dumps(r) + "\n" for r in relations), encoding="utf-8")
    return target


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def batch(capsys, query, recording, profile, options) -> tuple[int, int | None]:
    status, out, err = run(capsys, ["check", str(query), "--stream", str(CSRBENCH / "stream"),
                                    "--answers", str(recording), "--profile", profile, "--csrbench",
                                    "--no-suggest", "--format", "json", *options])
    assert status in (0, 1), err
    return status, json.loads(out)["t0"] if status == 0 else None


def live(capsys, query, stream, answers, profile, options, *extra) -> tuple[int, list[dict], str]:
    status, out, err = run(capsys, ["check", str(query), "--stream", str(stream), "--answers",
                                    str(answers), "--profile", profile, "--csrbench", "--follow",
                                    "--idle", "0.2", "--format", "jsonl", *options, *extra])
    return status, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize(("query", "recording", "profile", "options"), CASES)
def test_the_live_check_ends_with_the_batch_verdict_and_t0(capsys, tmp_path, stream_file, query,
                                                           recording, profile, options):
    expected = batch(capsys, query, recording, profile, options)
    answers = answer_lines(recording, tmp_path / "answers.jsonl")
    status, events, err = live(capsys, query, stream_file, answers, profile, options)
    summary = events[-1]
    assert summary["kind"] == "summary", err
    assert (status, summary["t0"]) == expected, (summary, err)
    assert [e["index"] for e in events if e["kind"] == "relation"] == list(range(1, summary["relations"] + 1))


def shuffled(lines: list[str], time_of, delay: int, seed: int) -> list[str]:
    """``lines`` out of order by at most ``delay`` ticks: each put at its time plus a random
    part of ``delay`` (so no line comes after one more than ``delay`` later than it)."""
    chance = random.Random(seed)
    return [line for _, line in sorted(((time_of(line) + chance.uniform(0, delay), line)
                                        for line in lines), key=lambda pair: pair[0])]


@SLOW
def test_shuffled_within_d_the_verdict_is_the_same_with_max_delay_d(capsys, tmp_path, stream_file):
    """CQELS's Q3 merged per tick (correct at t0 = 0), stream and answers shuffled within 3 s."""
    query, recording = CSRBENCH / "queries" / "q3-cqels.rq", CSRBENCH / "engine-answers" / "cqels-answer-3.json"
    stream = tmp_path / "stream.nt"
    stream.write_text("\n".join(shuffled(stream_file.read_text().splitlines(),
                                         lambda line: int(line.rsplit(" ", 1)[1]), 3, 1)) + "\n")
    relations = answer_lines(recording, tmp_path / "in-order.jsonl").read_text().splitlines()
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(shuffled(relations, lambda line: json.loads(line)["timestamp"] // 1000,
                                          3, 2)) + "\n")
    assert answers.read_text().splitlines() != relations  # the shuffle moved something
    options = ("--merge-same-time",)
    status, events, err = live(capsys, query, stream, answers, "cqels", options, "--max-delay", "3s")
    summary = events[-1]
    assert (status, summary["t0"], summary["late_relations"], summary["late_triples"]) == (0, 0, 0, 0), err
    in_order_status, in_order, _ = live(capsys, query, stream_file, tmp_path / "in-order.jsonl",
                                        "cqels", options)
    assert judged(events) == judged(in_order)


def judged(events: list[dict]) -> list[dict]:
    """The relations' verdicts, without their labels: a relation merged from one tick's is
    labelled with the first of them to arrive, which a shuffle changes."""
    return [{key: value for key, value in e.items() if key != "timestamp"}
            for e in events if e["kind"] == "relation"]


def test_late_lines_are_reported_not_dropped(capsys, tmp_path, stream_file):
    """C-SPARQL's Q1 (relations at 10, 20, 30, 40 s): the relation at 20 s moved after the one
    at 30 s, past ``D`` = 2 s."""
    query, recording = CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-1.json"
    relations = answer_lines(recording, tmp_path / "a.jsonl").read_text().splitlines()
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join([relations[0], relations[2], relations[1], relations[3]]) + "\n")
    status, events, err = live(capsys, query, stream_file, answers, "csparql", (), "--max-delay", "2s")
    late = [e for e in events if e["kind"] == "late"]
    assert {"kind": "late", "what": "relation", "timestamp": 20000, "time": 20, "rows": 5,
            "before": 2} in late, events
    summary = events[-1]
    assert summary["late_relations"] == 1, summary
    # without the relation at 20 s, the one at 30 s is read against the relation expected at 20 s
    # and fails; the late relation was left out, so the verdict is not given (UNDECIDED)
    assert status == 2 and summary["correct"] is None
    assert summary["summary"].startswith("UNDECIDED: after relation 2 no admissible t0 fits")


def test_a_late_triple_is_noted_with_the_relations_its_windows_reach(capsys, tmp_path, stream_file):
    """C-SPARQL's Q1: a triple at 12 s held to the end of the stream reaches the relation at
    20 s (its window (10, 20]) but not the one at 30 s. The relations fit without it, but the
    triple was left out of the judgement: UNDECIDED, exit 2, never CORRECT (a newcomer met a
    live CORRECT where batch, with every line, says INCORRECT)."""
    query, recording = CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-1.json"
    lines = stream_file.read_text().splitlines()
    held = next(line for line in lines if line.endswith(" 12") and "time#Instant>" in line)
    stream = tmp_path / "stream.nt"
    stream.write_text("\n".join([line for line in lines if line != held] + [held]) + "\n")
    answers = answer_lines(recording, tmp_path / "answers.jsonl")
    status, events, err = live(capsys, query, stream, answers, "csparql", ())
    notes = [e for e in events if e["kind"] == "late"]
    assert notes == [{"kind": "late", "what": "triples", "relation": 2, "times": [12]}], events
    summary = events[-1]
    assert (status, summary["late_triples"], summary["correct"]) == (2, 1, None)
    assert summary["summary"].startswith("UNDECIDED: the 4 recorded relation(s) judged")


def test_a_late_repeated_relation_leaves_the_verdict_undecided(capsys, tmp_path, stream_file):
    """(newcomer) C-SPARQL's Q1 with its relation at 10 s written once more after the one at
    30 s: batch says INCORRECT; live, the late copy is left out, so no CORRECT is given."""
    query, recording = CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-1.json"
    relations = answer_lines(recording, tmp_path / "a.jsonl").read_text().splitlines()
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join([*relations[:3], relations[0], relations[3]]) + "\n")
    status, events, err = live(capsys, query, stream_file, answers, "csparql", ())
    assert status in (1, 2) and events[-1]["correct"] is not True, events[-1]


@pytest.mark.parametrize("where", ["answers", "stream"])
def test_a_bad_line_is_refused_before_any_verdict_it_could_change(capsys, tmp_path, stream_file, where):
    query, recording = CSRBENCH / "queries" / "q1-csparql.rq", CSRBENCH / "engine-answers" / "csparql-answer-1.json"
    relations = answer_lines(recording, tmp_path / "a.jsonl").read_text().splitlines()
    answers, stream = tmp_path / "answers.jsonl", tmp_path / "stream.nt"
    lines = stream_file.read_text().splitlines()
    if where == "answers":  # after the relation at 10 s, before the one at 20 s
        answers.write_text("\n".join([relations[0], '{"head": {"vars": ["sensor"]}, "timestamp": 15000}',
                                      *relations[1:]]) + "\n")
        stream.write_text("\n".join(lines) + "\n")
        at = f"{answers}:2:"
    else:  # among the triples of 13 s: the relation at 10 s waits for the report at 20 s
        cut = next(n for n, line in enumerate(lines) if line.endswith(" 13"))
        stream.write_text("\n".join([*lines[:cut], "<http://e/a> <http://e/p> 13", *lines[cut:]]) + "\n")
        answers.write_text("\n".join(relations) + "\n")
        at = f"{stream}:{cut + 1}:"
    status, out, err = run(capsys, ["check", str(query), "--stream", str(stream), "--answers",
                                    str(answers), "--profile", "csparql", "--follow", "--idle", "0.2"])
    assert status == 2 and out == ""
    assert err.startswith(at) and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_nothing_read_is_exit_2(capsys, tmp_path, stream_file):
    empty = tmp_path / "answers.jsonl"
    empty.write_text("")
    status, out, err = run(capsys, ["check", str(CSRBENCH / "queries" / "q1-csparql.rq"), "--stream",
                                    str(stream_file), "--answers", str(empty), "--profile", "csparql",
                                    "--follow", "--idle", "0.2"])
    assert status == 2 and out == "NOTHING JUDGED: no recorded relation was judged\n"
    assert "nothing to check" in err and len(err.strip().splitlines()) == 1
    status, out, err = run(capsys, ["check", str(CSRBENCH / "queries" / "q1-csparql.rq"), "--stream",
                                    str(stream_file), "--answers", str(empty), "--profile", "csparql",
                                    "--follow", "--idle", "0.2", "--format", "jsonl"])
    assert status == 2 and json.loads(out)["correct"] is None  # (newcomer: jsonl got nothing)


@pytest.mark.parametrize(("extra", "message"), [
    (["--follow", "--format", "json"], "--follow writes each relation's verdict as it is judged"),
    (["--max-delay", "2s"], "--max-delay, --idle and --kafka-time apply to --follow only"),
    (["--kafka-time", "timestamp"], "--max-delay, --idle and --kafka-time apply to --follow only"),
    (["--format", "jsonl"], "--format jsonl writes a live check as it runs: give --follow"),
])
def test_options_that_do_not_fit_are_refused_in_one_line(capsys, extra, message):
    status, out, err = run(capsys, ["check", str(CSRBENCH / "queries" / "q1-csparql.rq"), "--stream",
                                    "s.nt", "--answers", "a.jsonl", "--profile", "csparql", *extra])
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
