"""``--spark always`` reads the stream with the Spark job; the answers equal ``--spark never``."""

import pytest

from agreement.cli import main
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
