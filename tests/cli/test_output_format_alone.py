"""``lars run --output-format`` applies to ``--output`` only: given without it (a newcomer's
``--output-format jsonl`` printed the table, with no word) or with a SPARQL results ``--format``
(written to FILE as it is), it is refused, exit 2, saying what to give instead."""

from __future__ import annotations

from pathlib import Path

from tests.badinput.clirun import lars

ROOT = Path(__file__).resolve().parents[2]
QUERY = ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"
STREAM = ROOT / "examples" / "csrbench" / "stream"


def test_without_output_it_is_refused():
    status, out, err = lars("run", QUERY, "--stream", STREAM, "--output-format", "jsonl")
    assert (status, out) == (2, "")
    assert "no --output is given" in err and "--output -" in err


def test_with_a_results_format_it_is_refused(tmp_path):
    status, _, err = lars("run", QUERY, "--stream", STREAM, "--format", "sparql-json",
                          "--output", tmp_path / "a.json", "--output-format", "csv")
    assert status == 2 and "--output-format does not apply" in err
    assert not (tmp_path / "a.json").exists()


def test_with_output_it_writes_that_format(tmp_path):
    status, _, err = lars("run", QUERY, "--stream", STREAM, "--to", "20", "--output",
                          tmp_path / "a.csv", "--output-format", "csv", "--quiet")
    assert status == 0, err
    assert (tmp_path / "a.csv").read_text().startswith("time,")
