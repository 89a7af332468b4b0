"""A C-SPARQL query whose CQELS side cannot be derived is refused with advice the command
takes: every option the message names is one of the command's own (a newcomer was told to give
``--stream`` to ``lars witness``, which has no such option)."""

from __future__ import annotations

import re

import pytest

from tests.badinput.clirun import assert_refused, lars

TWO_STREAMS = """REGISTER QUERY q AS
PREFIX : <http://ex.org/>
SELECT ?a ?b
FROM STREAM <http://ex.org/s1> [RANGE 2s STEP 2s]
FROM STREAM <http://ex.org/s2> [RANGE 2s STEP 2s]
WHERE { ?a :at ?place . ?b :at ?place FILTER(?a != ?b) }
"""


@pytest.mark.parametrize("command", [["witness"], ["agree", "--analyze"]], ids=["witness", "analyze"])
def test_the_advice_names_only_options_the_command_takes(tmp_path, command):
    query = tmp_path / "two.rq"
    query.write_text(TWO_STREAMS, encoding="utf-8")
    status, _, err = lars(*command, query)
    assert "--csparql" in assert_refused(status, err, "cannot be told")
    _, help_text, _ = lars(command[0], "--help")
    named = set(re.findall(r"--[a-z][a-z-]*", err))
    assert named and all(option in help_text for option in named), (named, err)
