"""``lars run --partitions N`` says how it split the run and where the ranges were solved
(issue 30: the default ``--spark auto`` ran worker processes without a word, while ``--help``
spoke of Spark tasks)."""

from __future__ import annotations

from pathlib import Path

from agreement.cli.app import main

WALK = Path(__file__).resolve().parents[2] / "examples" / "walkthrough"


def test_partitions_note_the_worker_processes(capsys):
    status = main(["run", str(WALK / "hot-rooms.rq"), "--stream", str(WALK / "readings.nt"),
                   "--static", str(WALK / "building.ttl"), "--partitions", "2", "--format", "csv"])
    out, err = capsys.readouterr()
    assert status == 0
    assert ("note: --partitions 2: 2 range(s) solved in worker processes on this machine, each "
            "reading its part of the file") in err.splitlines()
    uncut = main(["run", str(WALK / "hot-rooms.rq"), "--stream", str(WALK / "readings.nt"),
                  "--static", str(WALK / "building.ttl"), "--format", "csv"])
    assert uncut == 0
    uncut_out, uncut_err = capsys.readouterr()
    assert out == uncut_out
    assert "--partitions" not in uncut_err


def test_the_help_says_where_ranges_run(capsys):
    try:
        main(["run", "--help"])
    except SystemExit:
        pass
    text = " ".join(capsys.readouterr().out.split())
    assert "worker processes on this machine" in text and "--spark always" in text
