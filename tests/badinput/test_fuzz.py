"""Fuzzing the readers through the command line (issue 18): valid inputs, mangled at random
(cut, spliced, characters from an unkind alphabet, lines swapped or repeated, numbers made huge
or negative), fed to ``lars``. Whatever the input, the outcome is exit 0, or exit 2 with one
error line naming the file; never a traceback, and never a partial output file: ``--output``
is either the complete new answers or the old file untouched.

The number of examples is bounded (:data:`FUZZ`: 30 per reader, ``LARS_FUZZ_EXAMPLES`` for a
longer hunt) so that the whole module runs in CI in well under a minute; ``@example`` pins
cases that once failed.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.badinput.clirun import assert_clean, lars

FUZZ = settings(max_examples=int(os.environ.get("LARS_FUZZ_EXAMPLES", 30)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
EX = "http://ex.org/"
QUERY = (f"PREFIX : <{EX}>\nSELECT ?x ?v WHERE {{\n  STREAM :s [RANGE 3s] {{ ?x :p ?v . }}\n"
         "  FILTER (?v >= 2 && !(?v < 1))\n}\n")
STREAM = "".join(f'<{EX}a{t}> <{EX}p> "{t}"^^<http://www.w3.org/2001/XMLSchema#integer> <{EX}s> {t}\n'
                 for t in (1, 2, 2, 5, 9))
PROGRAM = "x(X) :- [3] <> p(X), not q(X).\nq(X) :- [#2] [] p(X), X <= 2.\n"
ATOMS = "1: p(1), p(2)\n2: q(3)\n5: p(\"s\")\n9:\n"
RECORDED = json.dumps({"relations": [
    {"head": {"vars": ["x", "v"]}, "timestamp": t, "results": {"bindings": [
        {"timestamp": t, "binding": {"x": {"type": "uri", "value": f"{EX}a"},
                                     "v": {"type": "literal", "value": "3"}}}]}}
    for t in (1000, 12000, 25000)]})
ALPHABET = st.sampled_from(list('<>{}[]()"\'.,:;#?@^_\\ \t\n\r-+*/%=!&|0123456789aZé\ufeff\u2028\x00\x7f')
                           + ["\ud7ff", "9" * 25, "-" + "9" * 19, "<http://ex.org/q>", "STREAM", "UNION",
                              "OPTIONAL", "FILTER", "[RANGE", "NOW]", "not ", "[] ", "<> ", "@T "])


@st.composite
def mangled(draw, seed: str) -> str:
    """``seed`` after a few random edits."""
    text = seed
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "insert", "replace", "lines", "number"]))
        at = draw(st.integers(0, len(text)))
        if kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif kind in ("insert", "replace"):
            piece = "".join(draw(st.lists(ALPHABET, min_size=1, max_size=4)))
            text = text[:at] + piece + text[at + (len(piece) if kind == "replace" else 0):]
        elif kind == "lines":
            lines = text.split("\n")
            order = draw(st.permutations(range(len(lines))))
            text = "\n".join(lines[i] for i in order[: draw(st.integers(0, len(lines) + 1))])
        else:
            number = draw(st.sampled_from(["-5", "0", "10000000", str(10**18), "-" + str(10**18)]))
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = digits[draw(st.integers(0, len(digits) - 1))]
                text = text[:i] + number + text[i + 1:]
    return text


def check(files: dict[str, str], argv: list[str]) -> None:
    """Write ``files``, run ``lars`` with ``--output`` over an old file, check the outcome."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in files.items():
            (root / name).write_bytes(text.encode("utf-8", errors="surrogatepass"))
        output = root / "out.jsonl"
        output.write_text("old\n")
        status, _, err = lars(*(arg.replace("{dir}", folder) for arg in argv), "--output", output)
        assert_clean(status, err)
        leftovers = [p.name for p in root.iterdir() if p.name.endswith(".part")]
        assert not leftovers, err
        if status == 2:
            assert output.read_text() == "old\n"
            named = [name for name in files if name in err.splitlines()[0]]
            assert named or "--" in err.splitlines()[0] or "timeline" in err, err
        else:
            for line in output.read_text().splitlines():
                json.loads(line)


RUN_QUERY = ["run", "{dir}/q.rq", "--stream", "{dir}/s.nt", "--max-time-points", "100000"]
RUN_PROGRAM = ["run", "{dir}/p.lars", "--stream", "{dir}/s.txt", "--max-time-points", "100000"]


@FUZZ
@given(mangled(QUERY))
@example(QUERY.replace("PREFIX", "\ufeffPREFIX"))
@example(QUERY.replace(f"PREFIX : <{EX}>\n", ""))  # once: "unknown prefix 'None:'", no file
@example(QUERY.replace(">= 2", f">= {10**18}"))  # once: a number clingo cannot hold, no file
def test_fuzzed_queries(query):
    check({"q.rq": query, "s.nt": STREAM}, RUN_QUERY)


@FUZZ
@given(mangled(STREAM))
@example(STREAM + STREAM.splitlines()[0].replace(" 1", " -5"))
@example(STREAM.replace('"1"', f'"{10**18}"'))  # once: a number clingo cannot hold, no file
@example(STREAM.replace(f"<{EX}s> 5", "5"))  # once: a triple without stream IRI, no file
@example(STREAM.replace('"2"^^', '"x"^^'))  # once: rdflib printed a traceback (ill-typed literal)
def test_fuzzed_rdf_streams(stream):
    check({"q.rq": QUERY, "s.nt": stream}, RUN_QUERY)


@FUZZ
@given(mangled(PROGRAM))
def test_fuzzed_lars_programs(program):
    check({"p.lars": program, "s.txt": ATOMS}, RUN_PROGRAM)


@FUZZ
@given(mangled(ATOMS))
def test_fuzzed_lars_streams(atoms):
    check({"p.lars": PROGRAM, "s.txt": atoms}, RUN_PROGRAM)


@FUZZ
@given(mangled(RECORDED))
@example(RECORDED.replace(f'"{EX}a"', f'"<{EX}a"', 1))  # once: internal error on a bad IRI
def test_fuzzed_recorded_answers(recorded):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.json"
        path.write_text(recorded, encoding="utf-8", errors="surrogatepass")
        status, _, err = lars("agree", "--recorded-csparql", path, "--recorded-cqels", path,
                              "--period", "10s", "--max-time-points", "100000")
        assert_clean(0 if status == 1 else status, err)  # 1: they disagree
        if status == 2:
            assert "a.json" in err.splitlines()[0] or "timeline" in err, err
