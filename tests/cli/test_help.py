"""Every subcommand's ``--help`` has examples and shows its defaults (issue 16)."""

import pytest

from agreement.cli.app import main


@pytest.mark.parametrize("command", ["translate", "run", "agree"])
def test_help_has_an_example_and_shows_defaults(capsys, command):
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0
    assert "examples" in out and f"lars {command} " in out.split("examples", 1)[1]
    assert "(default: 1s)" in out  # --unit
    assert "(default: None)" not in out


def test_agree_help_says_how_step_period_and_mode_relate(capsys):
    with pytest.raises(SystemExit):
        main(["agree", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "STEP, --period and --mode" in out and "by default the windows' STEP" in out
