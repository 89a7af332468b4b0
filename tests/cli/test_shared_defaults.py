"""Every command run on the same bundled query and stream, with no options beyond the inputs,
accepts the same stream and infers the same period and timeline (issue 25: one options model,
one set of defaults).

The input is CSRBench's Q1 in C-SPARQL (``[RANGE 10s STEP 10s]``) over ``examples/csrbench/stream``,
a folder of Turtle files whose triples name no stream: each command reads them as arriving on
the query's only stream and says so once, takes the pulling period from the STEP (10 ticks), and
starts the timeline at 0 with the last input at 33. Where the timeline ends is each command's
documented rule (``docs/options.md``): the last input (run), the end of the pulling interval
holding it (agree), the last input plus the widest window and step (check: every window holding
input closes), the period (witness's horizon).
"""

import json
import re
from pathlib import Path

import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
QUERY = str(CSRBENCH / "queries" / "q1-csparql.rq")
STREAM = str(CSRBENCH / "stream")
ANSWERS = str(CSRBENCH / "engine-answers" / "csparql-answer-1.json")
SOLE = ("warning: triples whose line names no stream are read as arriving on "
        "<http://ex.org/streams/test>, the only stream the query reads")
PERIOD, LAST = 10, 33


def lars(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_translate_pulls_every_step(capsys):
    status, out, _ = lars(capsys, "translate", QUERY, "--mode", "pull")
    assert status == 0 and f"pull ℘(P,{PERIOD})" in out.splitlines()[0]


@pytest.mark.parametrize("mode", ["none", "pull"])
def test_run_reads_the_stream_as_the_query_s(capsys, mode):
    status, out, err = lars(capsys, "run", QUERY, "--stream", STREAM, "--mode", mode)
    assert status == 0 and err.count(SOLE) == 1
    assert out.startswith(f"# timeline [0,{LAST}] (unit 1s)")


def test_agree_reads_the_same_stream_and_period(capsys):
    status, out, err = lars(capsys, "agree", QUERY, "--stream", STREAM)
    assert status in (0, 1) and err.count(SOLE) == 1
    end = -(-LAST // PERIOD) * PERIOD
    assert f"(period {PERIOD} × 1s, timeline [0,{end}])" in out.splitlines()[0]


def test_check_reads_the_same_stream_and_period(capsys):
    status, out, err = lars(capsys, "check", QUERY, "--stream", STREAM, "--answers", ANSWERS,
                            "--profile", "csparql")
    assert status == 0 and out.startswith("CORRECT") and err.count(SOLE) == 1
    assert re.search(rf"note: timeline \[0,{LAST + 10 + PERIOD}\] \(unit 1s\), period {PERIOD} × 1s", err)


def test_check_with_a_periodic_profile_needs_no_period(capsys):
    status, out, err = lars(capsys, "check", QUERY, "--stream", STREAM, "--answers", ANSWERS,
                            "--profile", "paper-pull")
    assert status in (0, 1) and "period_ticks" not in err and f"period {PERIOD} × 1s" in err


def test_witness_takes_the_c_sparql_query_and_its_period(capsys):
    status, out, err = lars(capsys, "witness", QUERY, "--format", "json")
    document = json.loads(out)
    assert status == 1 and document["bounds"]["horizon"] == PERIOD
    assert "--period" not in document["check"] and "--engine" not in err


def test_an_event_query_reads_a_stream_naming_none_as_its_own(capsys, tmp_path):
    """Event queries share the stream-IRI default (before: refused)."""
    events = ROOT / "examples" / "events"
    lines = (events / "figure1.nt").read_text().splitlines()
    stripped = tmp_path / "figure1.nt"
    stripped.write_text("\n".join(re.sub(r" <http://ex.org/S> (\d+)$", r" \1", line)
                                  for line in lines) + "\n")
    argv = ["run", str(events / "figure1.rq"), "--profile", "epsparql-recent", "--at", "8,10",
            "--format", "json"]
    status, named, _ = lars(capsys, *argv, "--stream", str(events / "figure1.nt"))
    status_stripped, unnamed, err = lars(capsys, *argv, "--stream", str(stripped))
    assert status == status_stripped == 0 and json.loads(unnamed) == json.loads(named)
    assert "<http://ex.org/S>, the only stream the query reads" in err


def test_a_warning_is_printed_once_per_run(capsys):
    """Two variants read the stream twice; the warning comes once."""
    status, _, err = lars(capsys, "agree", str(CSRBENCH / "queries" / "q1-cqels.rq"),
                          "--stream", STREAM, "--variant", "all")
    assert status in (0, 1) and err.count(SOLE) == 1
