"""A misspelt option is answered with the closest option of the command given, and the help to
read is that command's (newcomer finding: argparse of Python 3.11 suggests nothing)."""

from __future__ import annotations

import pytest

from agreement.cli import main


@pytest.mark.parametrize(("argv", "said"), [
    (["run", "--perod", "10s", "q.rq"], "did you mean --period? (see 'lars run --help')"),
    (["run", "q.rq", "--profiles", "csparql,cqels"], "did you mean --profile? (see 'lars run --help')"),
    (["check", "q.rq", "--stream", "s", "--answers", "a", "--profile", "csparql", "--max-t00", "3"],
     "did you mean --max-t0? (see 'lars check --help')"),
])
def test_closest_option_of_the_command(capsys, argv, said):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and len(err.splitlines()) == 1
    assert err.startswith("lars: error: unrecognized arguments: ") and err.endswith(said), err


def test_nothing_close_suggests_nothing(capsys):
    with pytest.raises(SystemExit):
        main(["run", "q.rq", "--zzz"])
    err = capsys.readouterr().err.strip()
    assert "did you mean" not in err and err.endswith("(see 'lars run --help')")


