"""Differential test: ``lars agree`` against an independent checker that evaluates every window
snapshot with rdflib's SPARQL engine (``benchmarks/window_oracle.py``, which shares no code
with the solver), on CSRBench Q1 over the real stream, for several pulling periods."""

import functools
import importlib.util
import json
from pathlib import Path

import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
SPEC = importlib.util.spec_from_file_location("window_oracle", ROOT / "benchmarks" / "window_oracle.py")
ORACLE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(ORACLE)
QUERIES = CSRBENCH / "queries" / "q1-cqels.rq", CSRBENCH / "queries" / "q1-csparql.rq"


@functools.cache
def oracle_verdicts(period: int, prepare: bool = False) -> list[dict]:
    """The checker's verdicts on CSRBench Q1 (each computed once: both tests need period 10's)."""
    return list(ORACLE.verdicts(*(q.read_text() for q in QUERIES), CSRBENCH / "stream", period,
                                prepare=prepare))


@pytest.mark.slow
@pytest.mark.parametrize("period", [5, 10, 15])
def test_lars_agree_gives_the_verdicts_of_rdflib_on_every_window_snapshot(capsys, period):
    cqels, csparql = QUERIES
    main(["agree", str(cqels), "--csparql", str(csparql), "--stream", str(CSRBENCH / "stream"),
          "--period", f"{period}s", "--format", "json"])
    report = json.loads(capsys.readouterr().out)

    def text(answer: dict) -> str:
        return "(" + ", ".join(answer["binding"][v] for v in report["variables"]) + ")"
    ours = [(i["start"], i["end"], i["agree"], sorted(map(text, i["only_cqels"])),
             sorted(map(text, i["only_csparql"]))) for i in report["intervals"]]
    theirs = [(v["start"], v["end"], v["agree"], v["only_cqels"], v["only_csparql"])
              for v in oracle_verdicts(period)]
    assert ours == theirs


@pytest.mark.slow
def test_the_checker_gives_the_same_verdicts_with_its_queries_prepared():
    """``--prepare`` (each query parsed once) changes the checker's cost, not its verdicts."""
    assert oracle_verdicts(10, prepare=True) == oracle_verdicts(10)
