"""A misspelt option is named even where a required option is missing because of it.

argparse checks required options before it reports the words it does not know, so ``lars check
q.rq --stream s --answers a --profle csparql`` said only ``the following arguments are required:
--profile`` (newcomer finding): the misspelling was never named, and ``--profile`` looked given.
Now the unknown option comes first, with the option meant, and the required options missing
besides it follow; one line, exit 2.
"""

from __future__ import annotations

import pytest

from agreement.cli.options import unknown_options
from tests.badinput.clirun import assert_refused, lars

CHECK = ["check", "q.rq", "--stream", "s.nt", "--answers", "a.json"]


@pytest.mark.parametrize(("argv", "said"), [
    pytest.param([*CHECK, "--profle", "csparql"],
                 "lars check: error: unrecognized arguments: --profle; did you mean --profile? "
                 "(see 'lars check --help')", id="profle"),
    pytest.param([*CHECK, "--profle=csparql"],
                 "lars check: error: unrecognized arguments: --profle=csparql; did you mean "
                 "--profile? (see 'lars check --help')", id="profle-equals"),
    pytest.param(["check", "q.rq", "--profle", "csparql"],
                 "lars check: error: unrecognized arguments: --profle; did you mean --profile?; "
                 "the following arguments are required too: --stream, --answers "
                 "(see 'lars check --help')", id="profle-and-two-missing"),
    pytest.param([*CHECK, "--zzz", "1"],
                 "lars check: error: unrecognized arguments: --zzz; the following arguments are "
                 "required too: --profile (see 'lars check --help')", id="nothing-close"),
    pytest.param(["check", "q.rq", "--stream", "s.nt", "--anwsers", "a.json", "--profile", "csparql"],
                 "lars check: error: unrecognized arguments: --anwsers; did you mean --answers? "
                 "(see 'lars check --help')", id="anwsers"),
    pytest.param(["--debgu"],
                 "lars: error: unrecognized arguments: --debgu; did you mean --debug?; the "
                 "following arguments are required too: COMMAND (see 'lars --help')",
                 id="no-command"),
])
def test_the_unknown_option_is_named_before_the_required_ones(argv, said):
    status, out, err = lars(*argv)
    assert assert_refused(status, err) == said and out == "" and len(err.splitlines()) == 1


def test_a_missing_required_option_alone_is_still_named_so():
    status, out, err = lars(*CHECK)
    assert assert_refused(status, err) == ("lars check: error: the following arguments are "
                                           "required: --profile (see 'lars check --help')")


def test_words_after_a_lone_double_dash_are_no_options():
    """After ``--`` every word is a value (a query file may be called ``--q.rq``)."""
    status, out, err = lars(*CHECK, "--", "--q.rq")
    line = assert_refused(status, err)
    assert "unrecognized" not in line and "required: --profile" in line
    assert unknown_options(["--x", "--", "--y"], set()) == ["--x"]
