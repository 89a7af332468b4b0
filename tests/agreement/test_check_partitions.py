"""``lars check --partitions N`` (issue 30): every expected run the judge asks for (each t0, each
single-parameter variation a suggestion tries) solved range by range as ``lars run --partitions``
solves, in worker processes or as Spark tasks: the same verdict, t0, first mismatch and
suggestion as without, and one note saying how it split.

Inputs: CSRBench's recorded answers (Dell'Aglio et al., "On correctness in RDF stream processor
benchmarking", ISWC 2013; bundled in ``examples/csrbench``): Q5's C-SPARQL recording is
INCORRECT with a suggestion (``startup = "partial"``), Q3's CQELS recording CORRECT once merged
per tick, Q1's CQELS recording judged over every t0 of its window (profile ``cqels``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agreement.cli.app import main

CSRBENCH = Path(__file__).resolve().parents[2] / "examples" / "csrbench"


def judged(capsys, *argv) -> tuple[int, str, list[str]]:
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err.splitlines()


def same_judgement(capsys, number: int, engine: str, cut: tuple, *extra: str) -> str:
    """The judgement with and without ``cut``: the same output and exit status; the note."""
    base = ["check", CSRBENCH / "queries" / f"q{number}-{engine}.rq", "--stream", CSRBENCH / "stream",
            "--answers", CSRBENCH / "engine-answers" / f"{engine}-answer-{number}.json",
            "--profile", engine, *extra]
    status, out, err = judged(capsys, *base)
    cut_status, cut_out, cut_err = judged(capsys, *base, *cut)
    assert (cut_status, cut_out) == (status, out)
    notes = [line for line in cut_err if line.startswith("note: --partitions")]
    assert len(notes) == 1 and [line for line in cut_err if line not in notes] == err
    return out


def test_incorrect_with_a_suggestion(capsys):
    out = same_judgement(capsys, 5, "csparql", ("--partitions", "3"))
    assert "INCORRECT" in out and 'startup = "partial"' in out


def test_correct_merged_per_tick(capsys):
    assert "CORRECT" in same_judgement(capsys, 3, "cqels", ("--partitions", "2"), "--merge-same-time")


@pytest.mark.spark
def test_as_spark_tasks(capsys, spark_master):
    same_judgement(capsys, 1, "cqels", ("--partitions", "2", "--spark", "always", "--master", spark_master))
