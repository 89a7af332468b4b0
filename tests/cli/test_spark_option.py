"""``--spark always`` reads the stream with the Spark job and ``--partitions N`` solves ranges of
the timeline apart (as Spark tasks, or in process with ``--spark never``): the answers are those
of ``--spark never`` without ``--partitions``."""

import pytest

from agreement.cli.app import main
from tests.cli.test_run import ROOT

Q1 = ["run", str(ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"), "--stream",
      str(ROOT / "examples" / "csrbench" / "stream"), "--format", "json"]


@pytest.mark.spark
def test_spark_and_in_process_reading_give_the_same_answer_stream(spark_master, capsys):
    assert main([*Q1, "--spark", "never"]) == 0
    local = capsys.readouterr().out
    assert main([*Q1, "--spark", "always", "--master", spark_master]) == 0
    assert capsys.readouterr().out == local


def test_unknown_spark_choice_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main([*Q1, "--spark", "sometimes"])
    assert stop.value.code == 2
    assert "invalid choice: 'sometimes'" in capsys.readouterr().err


# Q1's 10 s window cut at the range boundaries: 4 ranges over ~60 time points.
@pytest.mark.parametrize("query", ["q1-cqels", "q1-csparql"])
def test_partitions_in_process_give_the_same_answer_stream(query, capsys):
    argv = [*Q1, "--spark", "never"]
    argv[1] = str(ROOT / "examples" / "csrbench" / "queries" / f"{query}.rq")
    assert main(argv) == 0
    whole = capsys.readouterr().out
    assert main([*argv, "--partitions", "4"]) == 0
    assert capsys.readouterr().out == whole


@pytest.mark.spark
def test_partitions_on_spark_give_the_same_answer_stream(spark_master, capsys):
    assert main([*Q1, "--spark", "never"]) == 0
    whole = capsys.readouterr().out
    assert main([*Q1, "--spark", "always", "--master", spark_master, "--partitions", "3"]) == 0
    assert capsys.readouterr().out == whole


@pytest.mark.parametrize("strategy", ["stratified", "reference"])
def test_partitions_in_processes_give_the_same_answer_stream(strategy, capsys):
    """Two ranges solved in two worker processes, by a fast strategy or the reference."""
    assert main([*Q1, "--spark", "never"]) == 0
    whole = capsys.readouterr().out
    assert main([*Q1, "--spark", "never", "--partitions", "2", "--strategy", strategy]) == 0
    assert capsys.readouterr().out == whole


@pytest.mark.parametrize("options, message", [
    (["--partitions", "-1"], "lars run: error: argument --partitions: expected a whole number "
                             "of 1 or more but found '-1' (see 'lars run --help')"),
    (["--partitions", "0"], "lars run: error: argument --partitions: expected a whole number "
                            "of 1 or more but found '0' (see 'lars run --help')"),
])
def test_bad_partitions_are_refused(options, message, capsys):
    with pytest.raises(SystemExit) as refused:
        main([*Q1, "--spark", "never", *options])
    assert refused.value.code == 2
    assert capsys.readouterr().err.strip() == message
