"""Bad input by category (issue 18): malformed queries, programs, streams, static files,
recorded answers and options, pipes; each refused in one line that names the file (and the
line where there is one), with exit 2, and no traceback.

Each case is ``(files, argv, expected)``: files written to a temporary folder (``{dir}`` in
``argv`` is that folder), the ``lars`` arguments, and a piece of the error line.
"""

from __future__ import annotations

import pytest

from tests.badinput.clirun import ROOT, assert_refused, child, lars

EX = "http://ex.org/"
Q = f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n"
LINE = f"<{EX}a> <{EX}p> <{EX}b> <{EX}s> "
RUN_Q = ["run", "{dir}/q.rq", "--stream", "{dir}/s.nt"]
PROGRAM = "x :- [2] <> p.\n"
RUN_P = ["run", "{dir}/p.lars", "--stream", "{dir}/s.txt"]
RECORDED = ROOT / "examples" / "csrbench" / "engine-answers" / "cqels-answer-1.json"

CASES = [
    # queries
    pytest.param({"q.rq": "SELECT ?x WHERE { ?x <p> }"}, ["translate", "{dir}/q.rq"], "q.rq:1:", id="query-syntax"),
    pytest.param({"q.rq": "\ufeff" + Q}, ["translate", "{dir}/q.rq"], None, id="query-bom-accepted"),
    pytest.param({"q.rq": b"SELECT ?x WHERE { ?x <http://ex.org/p> \"caf\xe9\" }"}, ["translate", "{dir}/q.rq"],
                 "q.rq:1:44: error: the file is not UTF-8 text", id="query-latin1"),
    pytest.param({"q.rq": ""}, ["translate", "{dir}/q.rq"], "q.rq", id="query-empty"),
    pytest.param({"q.rq": b"\x00\x01\x02"}, ["translate", "{dir}/q.rq"], "q.rq", id="query-binary"),
    pytest.param({"q.rq": Q.replace("2s", "2 parsecs")}, ["translate", "{dir}/q.rq"], "q.rq:1:", id="query-unit"),
    pytest.param({"q.rq": Q.replace("2s", "1500ms")}, ["translate", "{dir}/q.rq", "--unit", "1s"], "q.rq:1:",
                 id="query-duration-not-whole-ticks"),
    pytest.param({"q.rq": "SELECT (NOW() AS ?a) WHERE { ?x <http://ex.org/p> ?y }"},
                 ["translate", "{dir}/q.rq"], "unsupported", id="query-unsupported"),
    pytest.param({"q.rq": "PREFIX : <http://ex.org/a b>\n" + Q}, ["translate", "{dir}/q.rq"], "q.rq:1:",
                 id="query-bad-prefix-iri"),
    pytest.param({}, ["translate", "{dir}/missing.rq"], "missing.rq", id="query-missing"),
    pytest.param({}, ["translate", "{dir}"], "", id="query-is-a-folder"),
    # LARS programs and atom streams
    pytest.param({"p.lars": "x :- [2 <> p.", "s.txt": "1: p\n"}, RUN_P, "p.lars:1:", id="program-syntax"),
    pytest.param({"p.lars": "x(X) :- not p(X).", "s.txt": "1: p\n"}, RUN_P, "p.lars:1:", id="program-unsafe"),
    pytest.param({"p.lars": PROGRAM, "s.txt": "1: p\nx: q\n"}, RUN_P, "s.txt:2:", id="stream-bad-time"),
    pytest.param({"p.lars": PROGRAM, "s.txt": "3: p\n1: p\n"}, RUN_P, "s.txt:2:", id="stream-back-in-time"),
    pytest.param({"p.lars": PROGRAM, "s.txt": b"1: p\n2: q(\xff)\n"}, RUN_P, "s.txt:2:", id="stream-latin1"),
    pytest.param({"p.lars": PROGRAM, "s.txt": "1: p(\n"}, RUN_P, "s.txt:1:", id="stream-unclosed"),
    pytest.param({"p.lars": PROGRAM, "s.txt": f"{10**18}: p\n"}, RUN_P, "--max-time-points", id="stream-outlier"),
    pytest.param({"p.lars": "x(Y) :- p(X), Y = " + "(" * 3000 + "X" + "+1)" * 3000 + ".", "s.txt": "1: p(1)\n"},
                 RUN_P, "nested too deeply", id="program-deep-arithmetic"),
    pytest.param({"p.lars": PROGRAM, "s.txt": "1: p\n", "b.lars": "q(X)."},
                 [*RUN_P, "--background", "{dir}/b.lars"], "b.lars", id="background-not-ground"),
    # RDF streams
    pytest.param({"q.rq": Q, "s.nt": LINE + "x\n"}, RUN_Q, "s.nt:1:", id="nt-bad-time"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1.5\n"}, RUN_Q, "s.nt:1:", id="nt-fraction"),
    pytest.param({"q.rq": Q, "s.nt": f"<{EX}a b> <{EX}p> <{EX}c> 1\n"}, RUN_Q, "s.nt:1:", id="nt-bad-iri"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "5\n" + LINE + "3\n"}, RUN_Q, "s.nt:2:", id="nt-last-line-back"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "5\n" + LINE + "-5\n"}, RUN_Q, "s.nt:2:", id="nt-last-line-negative"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n\x00\n"}, RUN_Q, "s.nt:2:", id="nt-nul"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1"}, RUN_Q, None, id="nt-no-final-newline"),
    pytest.param({"q.rq": Q, "s.nt": "\ufeff" + LINE + "1\n"}, RUN_Q, None, id="nt-bom-accepted"),
    pytest.param({"q.rq": Q, "s.nt": ""}, RUN_Q, None, id="nt-empty"),
    pytest.param({"q.rq": Q, "s.nt/data_x.ttl": ""}, RUN_Q, "data_x.ttl", id="turtle-folder-bad-name"),
    pytest.param({"q.rq": Q, "s.nt/data_1.ttl": "<a> <b"}, RUN_Q, "data_1.ttl:1:", id="turtle-folder-syntax"),
    pytest.param({"q.rq": Q, "s.nt/data_1.ttl": f"<{EX}a b> <{EX}p> <{EX}c> ."}, RUN_Q, "data_1.ttl",
                 id="turtle-folder-bad-iri"),
    # static files
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n", "d.ttl": "<a> <b"}, [*RUN_Q, "--static", "{dir}/d.ttl"],
                 "d.ttl:1:", id="static-syntax"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n", "d.ttl": f"<{EX}a b> <{EX}p> <{EX}c> ."},
                 [*RUN_Q, "--static", "{dir}/d.ttl"], "d.ttl", id="static-bad-iri"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n", "d.xyz": ""}, [*RUN_Q, "--static", "{dir}/d.xyz"],
                 "d.xyz", id="static-extension"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n", "d/x.ttl": ""}, [*RUN_Q, "--static", "{dir}/d"],
                 "a folder, not a file", id="static-folder"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n",
                  "d.jsonld": '{"@context": "http://example.org/remote-context.jsonld", "@id": "x"}'},
                 [*RUN_Q, "--static", "{dir}/d.jsonld"], "network", id="static-remote-jsonld-context"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n", "d.nt": f"<{EX}a> <{EX}p> .\n"},
                 [*RUN_Q, "--static", "{dir}/d.nt"], "d.nt:1", id="static-nt-syntax"),
    # recorded answers
    pytest.param({"a.json": "{"}, ["agree", "--recorded-csparql", "{dir}/a.json", "--recorded-cqels",
                                   str(RECORDED), "--period", "10s"], "a.json", id="recorded-json-syntax"),
    pytest.param({"a.json": '{"relations": 3}'}, ["agree", "--recorded-csparql", "{dir}/a.json",
                                                  "--recorded-cqels", str(RECORDED), "--period", "10s"],
                 "a.json", id="recorded-json-shape"),
    pytest.param({"a.json": '{"relations": [{"timestamp": 1e30, "results": {"bindings": []}}]}'},
                 ["agree", "--recorded-csparql", "{dir}/a.json", "--recorded-cqels", str(RECORDED),
                  "--period", "10s"], "", id="recorded-json-huge-timestamp"),
    # options
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--from", "5", "--to", "2"], "--from is after --to",
                 id="option-from-after-to"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--from", "5"], "--from 5 is after",
                 id="option-from-after-input"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--unit", "0s"], "--unit", id="option-unit-zero"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--max-time-points", "0"], "--max-time-points",
                 id="option-max-time-points-zero"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--partitions", "-1"], "--partitions",
                 id="option-partitions-negative"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--output", "{dir}/no/such/folder/a.jsonl"],
                 "a.jsonl", id="option-output-folder-missing"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, ["agree", "{dir}/q.rq", "--stream", "{dir}/s.nt",
                                                    "--period", "1.5s"], "--period", id="option-period-fraction"),
    pytest.param({"q.rq": Q, "s.nt": LINE + "1\n"}, [*RUN_Q, "--to", "x"], "--to", id="option-to-not-a-number"),
]


def write_files(folder, files: dict) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


@pytest.mark.parametrize("files, argv, expected", CASES)
def test_bad_input_is_refused_in_one_line(tmp_path, files, argv, expected):
    write_files(tmp_path, files)
    status, _, err = lars(*(arg.replace("{dir}", str(tmp_path)) for arg in argv))
    if expected is None:
        assert status == 0 and "Traceback" not in err, err
        return
    line = assert_refused(status, err)
    assert expected in line, err


AGREE_Q = ["agree", "{dir}/q.rq", "--stream", "{dir}/s.nt"]
WITNESS_Q = ["witness", "{dir}/q.rq", "--period", "2s"]
CHECK_Q = ["check", "{dir}/q.rq", "--stream", "{dir}/s.nt", "--answers", str(RECORDED), "--profile", "cqels"]


@pytest.mark.parametrize("argv, option, value", [
    *[(command, "--period", value) for command in (["translate", "{dir}/q.rq", "--mode", "pull"], RUN_Q, AGREE_Q,
                                                     ["witness", "{dir}/q.rq"], CHECK_Q)
      for value in ("1.5s", "10", "0s", "-1s", "10 parsecs")],
    *[(command, "--unit", value) for command in (["translate", "{dir}/q.rq"], RUN_Q, AGREE_Q, WITNESS_Q, CHECK_Q)
      for value in ("0s", "1sec", "1.5s")],
    *[(RUN_Q, option, value) for option in ("--max-time-points", "--max-facts") for value in ("0", "-3", "x", "1e3")],
    (RUN_Q, "--from", "1.5"),
    *[(WITNESS_Q, option, "-1") for option in ("--max-triples", "--earliest", "--constants", "--max-ground")],
    (WITNESS_Q, "--horizon", "1.5s"), (WITNESS_Q, "--time-limit", "0"), (WITNESS_Q, "--time-limit", "nan"),
])
def test_a_bad_option_value_is_refused_naming_the_option(tmp_path, argv, option, value):
    """Issue 18: ``--period 1.5s`` and its kind are refused by the option reader, which names the
    option (before, the error came later from the duration reader and named nothing)."""
    write_files(tmp_path, {"q.rq": Q, "s.nt": LINE + "1\n"})
    status, _, err = lars(*(arg.replace("{dir}", str(tmp_path)) for arg in argv), option, value)
    assert f"error: argument {option}: " in assert_refused(status, err), err
    assert len(err.strip().splitlines()) == 1, err  # no usage text first


def test_a_closed_pipe_ends_the_run_quietly(tmp_path):
    program = tmp_path / "p.lars"
    program.write_text("x(T) :- [0] @T true, T >= 0.\n")
    process = child("run", program, "--to", "1000000", "--quiet")
    process.stdout.readline()
    process.stdout.close()
    process.wait(timeout=60)
    err = process.stderr.read()
    assert process.returncode == 0 and "Traceback" not in err and "Exception" not in err, err
