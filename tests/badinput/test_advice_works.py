"""The advice of a refusal for a limit works when followed as written (newcomer finding D2:
``lars agree --period 10000000s --to 150`` was told to "give a longer --to", and the longer
``--to`` was refused for the timeline's length; ``lars witness`` was told to "lower --horizon"
where no lower horizon held a pull, when only a shorter ``--period`` helped).

Each case runs the refused command, reads every alternative of its hint (``give --to 30, or
--period 10m (or shorter)``), runs the command again with each alternative's options in place
of the old values, and expects a verdict (exit 0 or 1), never the same kind of refusal. The
limits are small (``--max-time-points 25``) so that every alternative runs in a moment.
"""

from __future__ import annotations

import re

import pytest

from tests.badinput.clirun import ROOT, assert_refused, lars

COUPONS = ROOT / "examples" / "coupons" / "rdf"
AGREE = ["agree", COUPONS / "cqels.rq", "--stream", COUPONS / "stream.nt", "--static",
         COUPONS / "static.ttl", "--unit", "1m"]
"""The coupons example: its last input is at 18 (minutes)."""
WITNESS = ["witness", ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"]
OPTION = re.compile(r"(--[a-z-]+) ([^\s,()]+)")
RUN = ["run", COUPONS / "cqels.rq", "--stream", COUPONS / "stream.nt", "--static", COUPONS / "static.ttl",
       "--unit", "1m"]


def alternatives(line: str) -> list[dict[str, str]]:
    """The options of each alternative the hint of refusal ``line`` offers (those that name
    values; ``raise --max-ground`` names none)."""
    hint = line[line.index(" (") + 2:]
    found = [dict(OPTION.findall(way)) for way in hint.split(", or ")]
    return [options for options in found if options]


def replaced(argv: list, options: dict[str, str]) -> list:
    """``argv`` with each option of ``options`` set to its value (added when absent)."""
    argv = [str(word) for word in argv]
    for name, value in options.items():
        if name in argv:
            argv[argv.index(name) + 1] = value
        else:
            argv += [name, value]
    return argv


@pytest.mark.parametrize(("argv", "refused", "offered"), [
    pytest.param([*AGREE, "--period", "30m", "--to", "10", "--max-time-points", "25"],
                 "holds no pulling interval of period 30",
                 [{"--period": "10m"}, {"--max-time-points": "31", "--to": "30"}], id="no-pull-within-the-limit"),
    pytest.param([*AGREE, "--period", "30m", "--to", "10"], "holds no pulling interval of period 30",
                 [{"--to": "30"}, {"--period": "10m"}], id="no-pull-before-to"),
    pytest.param([*AGREE, "--period", "30m", "--max-time-points", "25"], "puts the end of its pulling interval at 30",
                 [{"--period": "7m"}, {"--max-time-points": "31"}], id="extension-no-to-helps"),
    pytest.param([*AGREE, "--period", "10m", "--max-time-points", "19"], "puts the end of its pulling interval at 20",
                 [{"--period": "1m"}, {"--to": "10"}, {"--max-time-points": "21"}], id="extension-to-helps"),
    pytest.param([*RUN, "--max-time-points", "10"], "has 19 time points, more than the limit of 10",
                 [{"--max-time-points": "19"}, {"--to": "9"}], id="run-timeline-too-long"),
    pytest.param([*WITNESS, "--period", "10s", "--horizon", "5"], "holds no pulling instant",
                 [{"--horizon": "10"}, {"--period": "5s"}], id="witness-horizon-short"),
    pytest.param([*WITNESS, "--period", "10s", "--max-ground", "3000"], "would ground about",
                 [{"--period": "3s", "--horizon": "3"}], id="witness-one-pull-too-big"),
    pytest.param([*WITNESS, "--period", "1s", "--horizon", "40", "--max-ground", "3000"], "would ground about",
                 [{"--horizon": "3"}], id="witness-fewer-pulls"),
])
def test_following_the_advice_as_written_succeeds(argv, refused, offered):
    status, _, err = lars(*argv)
    line = assert_refused(status, err)
    assert refused in line, line
    assert alternatives(line) == offered, line
    for options in offered:
        again = replaced(argv, options)
        status, _, err = lars(*again)
        assert status in (0, 1), f"lars {' '.join(again[:1] + again[2:])}\n{err}"
