"""``lars`` takes no abbreviated option, and a misspelt command or choice is answered with the
closest name (newcomer finding D7: argparse took ``--hori 5`` for ``--horizon 5`` silently, and
``lars rn`` listed the commands without saying which was meant)."""

from __future__ import annotations

import argparse

import pytest

from agreement.cli.app import build_parser
from tests.badinput.clirun import assert_refused, lars


def parsers(parser: argparse.ArgumentParser):
    """``parser`` and every sub-command parser below it."""
    yield parser
    for action in parser._actions:  # noqa: SLF001 (argparse keeps them there)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for command in action.choices.values():
                yield from parsers(command)


def test_no_parser_takes_abbreviations():
    found = list(parsers(build_parser()))
    assert len(found) > 5
    assert [parser.prog for parser in found if parser.allow_abbrev] == []


@pytest.mark.parametrize(("argv", "said"), [
    pytest.param(["witness", "q.rq", "--hori", "5"], "unrecognized arguments: --hori 5; did you mean --horizon?",
                 id="witness-hori"),
    pytest.param(["run", "q.rq", "--per=10s"], "unrecognized arguments: --per=10s; did you mean --period?",
                 id="run-per-equals"),
    pytest.param(["agree", "q.rq", "--max-expl", "3"], "did you mean --max-explanations?", id="agree-max-expl"),
    pytest.param(["run", "q.rq", "--st", "x"], "did you mean one of --static, --strategy, --stream, --stream-iri?",
                 id="several-options-start-so"),
])
def test_an_abbreviated_option_is_refused_with_the_options_it_abbreviates(argv, said):
    status, out, err = lars(*argv)
    line = assert_refused(status, err)
    assert out == "" and said in line, err


@pytest.mark.parametrize(("argv", "said"), [
    pytest.param(["rn", "q.rq"], "invalid choice: 'rn'", id="rn"),
    pytest.param(["witnes", "q.rq"], "invalid choice: 'witnes'", id="witnes"),
    pytest.param(["agre"], "invalid choice: 'agre'", id="agre-abbreviated"),
])
def test_a_misspelt_command_gets_the_closest_command(argv, said):
    meant = {"rn": "run", "witnes": "witness", "agre": "agree"}[argv[0]]
    status, _, err = lars(*argv)
    line = assert_refused(status, err)
    assert said in line and line.endswith(f"; did you mean {meant}? (see 'lars --help')"), line


@pytest.mark.parametrize(("argv", "said"), [
    pytest.param(["run", "q.rq", "--format", "jsn"], "; did you mean json?", id="format-jsn"),
    pytest.param(["run", "q.rq", "--format", "sparql"], "; did you mean one of sparql-json, sparql-csv, sparql-tsv?",
                 id="format-sparql"),
    pytest.param(["translate", "q.rq", "--engine", "cqles"], "; did you mean cqels?", id="engine-cqles"),
])
def test_a_misspelt_choice_gets_the_closest_choice(argv, said):
    status, _, err = lars(*argv)
    line = assert_refused(status, err)
    assert said in line and line.endswith(f"(see 'lars {argv[0]} --help')"), line


def test_nothing_close_suggests_nothing():
    status, _, err = lars("zzzz")
    line = assert_refused(status, err)
    assert "did you mean" not in line and "invalid choice: 'zzzz'" in line
