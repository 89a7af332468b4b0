"""Ctrl-C before any output says what it interrupted (``interrupted while reading the stream``),
exit 130; it said ``interrupted`` alone (newcomer). The activity is read from where the
interrupt landed (:mod:`agreement.cli.interrupt`): the table's rules on made-up stacks, and the
whole command interrupted in place by a function of the phase that raises ``KeyboardInterrupt``
(the Ctrl-C of a search in a child process: tests/cli/test_witness_time_limit.py)."""

from __future__ import annotations

import pytest

from agreement.cli.interrupt import activity, interrupted_line
from tests.badinput.clirun import lars

QUERY = "SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 3s] { ?s ?p ?o } }\n"
TRIPLE = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/s> 1\n"


def interrupted_in(*frames: tuple[str, str]) -> KeyboardInterrupt:
    """A KeyboardInterrupt raised under the calls ``(module, function)``, outermost first."""
    def innermost():
        raise KeyboardInterrupt

    call = innermost
    for module, function in reversed(frames):
        space = {"__name__": module, "inner": call}
        exec(f"def {function}():\n    return inner()\n", space)  # a frame of that module  # noqa: S102
        call = space[function]
    try:
        call()
    except KeyboardInterrupt as interrupt:
        return interrupt
    raise AssertionError("not interrupted")


@pytest.mark.parametrize(("frames", "expected"), [
    pytest.param([("agreement.cli.commands", "command_run"), ("solver.strategies", "run"),
                  ("ingest.lazy", "slices"), ("translate.rdf", "encode")], "reading the stream",
                 id="stream-read-as-solved"),
    pytest.param([("agreement.cli.commands", "command_agree"), ("agreement.agree.derivation", "produces"),
                  ("solver.strategies", "evaluate"), ("clingo.control", "ground")],
                 "explaining a disagreeing interval", id="explaining-before-grounding"),
    pytest.param([("solver.evaluate", "run"), ("clingo.control", "ground")], "grounding", id="grounding"),
    pytest.param([("solver.evaluate", "run"), ("clingo.control", "solve")], "solving", id="solving"),
    pytest.param([("agreement.cli.app", "implementation"), ("importlib._bootstrap", "_find_and_load"),
                  ("solver.strategies", "run")], "loading the command", id="loading"),
    pytest.param([("agreement.facade", "check_agreement"), ("ingest.staticdata", "read_static"),
                  ("rdflib.plugins.parsers.notation3", "parse")], "reading the static data",
                 id="static-data"),
    pytest.param([("agreement.cli.witness", "command_witness"), ("agreement.witness.child", "run_in_child")],
                 "searching for a witness", id="witness"),
    pytest.param([("translate.api", "translate"), ("translate.tau", "tau")], "translating the query",
                 id="translating"),
    pytest.param([("agreement.cli.commands", "command_run")], None, id="none-known"),
])
def test_the_activity_is_that_of_the_first_rule_a_frame_matches(frames, expected):
    assert activity(interrupted_in(*frames).__traceback__) == expected


def test_after_output_or_with_notes_the_line_is_as_before():
    interrupt = interrupted_in(("ingest.lazy", "slices"))
    assert interrupted_line(interrupt, wrote=False) == "interrupted while reading the stream"
    assert interrupted_line(interrupt, wrote=True) == "interrupted"
    interrupt.add_note("out.jsonl: left as it was")
    assert interrupted_line(interrupt, wrote=False) == "interrupted (out.jsonl: left as it was)"


def stop(*_args, **_kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_while_reading_the_stream(tmp_path, monkeypatch):
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY)
    stream.write_text(TRIPLE)
    monkeypatch.setattr("ingest.lazy.parse_ntriples_line", stop)
    assert lars("run", query, "--stream", stream) == (130, "", "interrupted while reading the stream\n")


def test_ctrl_c_while_reading_the_static_data(tmp_path, monkeypatch):
    query, stream, static = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "static.ttl"
    query.write_text(QUERY)
    stream.write_text(TRIPLE)
    static.write_text("<http://ex.org/a> <http://ex.org/q> <http://ex.org/c> .\n")
    monkeypatch.setattr("ingest.staticdata.static_parts", stop)
    assert lars("agree", query, "--stream", stream, "--static", static, "--period", "2s") == (
        130, "", "interrupted while reading the static data\n")
