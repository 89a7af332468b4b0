"""A query whose STREAM blocks read one stream through one window (a CQELS query with
OPTIONALs over one stream) is explained with that window once: ``lars agree`` listed it once
per block in the windows of an explanation, repeated the window-boundary reason per block,
and ``--analyze`` counted condition (iii) per block (newcomer: 51 copies for 50 OPTIONALs)."""

from __future__ import annotations

import json

import pytest

from tests.badinput.clirun import lars

EX = "http://ex.org/"
WINDOW = "[RANGE 4s SLIDE 1s]"
STREAM = "".join(f"<{EX}{s}> <{EX}{p}> {o} <{EX}s> {t}\n" for s, p, o, t in [
    ("x", "p", f"<{EX}o>", 1), ("x", "a", '"1"', 2), ("y", "p", f"<{EX}o>", 5), ("y", "b", '"2"', 7)])


def query(optionals: int) -> str:
    blocks = "".join(f"  OPTIONAL {{ STREAM :s {WINDOW} {{ ?s :o{i} ?v{i} }} }}\n" for i in range(optionals))
    return (f"PREFIX : <{EX}>\nSELECT * WHERE {{\n  STREAM :s {WINDOW} {{ ?s :p ?o }}\n"
            f"  OPTIONAL {{ STREAM :s {WINDOW} {{ ?s :a ?a }} }}\n{blocks}}}\n")


@pytest.fixture
def files(tmp_path):
    def write(optionals: int):
        (tmp_path / "q.rq").write_text(query(optionals))
        (tmp_path / "s.nt").write_text(STREAM)
        return tmp_path / "q.rq", tmp_path / "s.nt"
    return write


@pytest.mark.parametrize("optionals", [0, 5])
def test_each_window_is_named_once(files, optionals):
    q, s = files(optionals)
    status, out, err = lars("agree", q, "--stream", s, "--period", "3s", "--format", "json")
    assert status == 1, err
    reasons = [(e["condition"], e["message"]) for interval in json.loads(out)["intervals"]
               for side in ("only_cqels", "only_csparql") for answer in interval[side]
               for e in answer["explanations"]]
    texts = [text for _, text in reasons]
    assert any(f"[RANGE 4s] of <{EX}s>" in text for text in texts), texts
    assert all(text.count(f"of <{EX}s> at") <= 2 for text in texts), texts  # the push's and the pull's
    boundaries = [r for r in reasons if r[0] == "window-boundary"]
    assert len(boundaries) == len(set(boundaries)), reasons
    # (x, :a "1") at 2 lies at the edge of the pull's [2,6] but decides nothing: C-SPARQL lacks
    # (x, :p :o) at 1 with the edge in or out, so it is no window-boundary reason
    assert not boundaries, reasons


def test_analyze_counts_the_window_once(files):
    q, _ = files(5)
    status, out, err = lars("agree", q, "--analyze", "--period", "3s")
    assert status == 0, err
    assert out.count("(iii) window [RANGE 4s]") == 1 and "of 2 sufficient conditions" in out, out
