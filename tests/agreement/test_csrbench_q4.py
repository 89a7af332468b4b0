"""CSRBench Q4 (AVG): τ1's answers equal the ones C-SPARQL recorded (issue 15, "Done when").

C-SPARQL reports when a window closes, every 4 s, over ``[t-4s, t)`` (``right-open``); it
gives one row per window, with 0 for a window without hot reading (AVG over an empty group,
the ``row`` reading of :mod:`translate.aggregates`). Its values are decimals with 24 digits
(``87.666666666666666666666666``), ours the doubles SPARQL 1.1 gives for AVG over doubles, so
they are compared to 3 decimals.
"""

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from rdflib import Literal

from agreement.cli import main
from agreement.check.expected import reports
from agreement.facade import prepare_run
from agreement.check.judge import variations
from ingest.eager import query_data, read_rdf_stream, static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport
from lars.streams import Timeline
from translate.api import parse_query
from translate.profiles import profile
from translate.reports import compile_profile

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"


def recorded() -> dict[int, list[Decimal]]:
    data = json.loads((CSRBENCH / "engine-answers" / "csparql-answer-4.json").read_text())
    return {relation["timestamp"] // 1000: [Decimal(b["binding"]["avg"]["value"])
                                            for b in relation["results"]["bindings"]]
            for relation in data["relations"]}


def computed(strategy: str, empty_group: str = "row") -> dict[int, list[Decimal]]:
    plan = prepare_run(str(CSRBENCH / "queries" / "q4-csparql.rq"),
                       stream=str(CSRBENCH / "stream"), mode="pull", period="4s",
                       window_bounds="right-open", strategy=strategy, end=36)
    found = {}
    for answer in plan.answers():
        (stream,) = answer.streams
        rows = plan.translation.rows([atom for atom, _ in stream], plan.encoder, chopped=True)
        if rows:
            found[answer.time] = sorted(Decimal(str(row["avg"].toPython())) for row in rows)
    return found


def rounded(answers: dict[int, list[Decimal]]) -> dict[int, list[Decimal]]:
    return {t: [round(v, 3) for v in values] for t, values in answers.items()}


@pytest.mark.parametrize("strategy", ["stratified", pytest.param("reference", marks=pytest.mark.slow)])
def test_q4_equals_the_recorded_csparql_answers(strategy: str) -> None:
    expected = rounded(recorded())
    assert expected[16] == [Decimal("87.667")] and expected[4] == [Decimal(0)]
    found = rounded(computed(strategy))
    assert found.pop(0) == [Decimal(0)]  # pulled at 0 over the empty window [-4, 0): C-SPARQL
    assert found == expected             # reports first when its first window closes, at 4 s


# --- the empty group per engine profile (translate.profiles, SPEC section 12) ------------------

def profile_relations(chosen, end: int = 16) -> dict[int, frozenset]:
    """The relations ``chosen`` reports for Q4 over CSRBench's stream, t0 = 0, up to ``end``."""
    query = parse_query((CSRBENCH / "queries" / "q4-csparql.rq").read_text())
    elements = [e for e in read_rdf_stream(CSRBENCH / "stream", ReadOptions(), ReadReport())[0]
                if e.time <= end]
    translation = compile_profile(query, chosen, 0)
    data = query_data([translation], elements, static_graphs([], query), Timeline(0, end))
    return {r.time: r.rows for r in reports(translation, data)}


@pytest.mark.parametrize(("empty_group", "rows"), [
    pytest.param("row", frozenset({(Literal(0),)}), id="csparql-row-with-0"),
    pytest.param("null", frozenset({(None,)}), id="sql-row-unbound"),
    pytest.param("none", frozenset(), id="no-row"),
])
def test_empty_windows_of_q4_follow_the_profiles_empty_group(empty_group, rows) -> None:
    """C-SPARQL's profile gives the row with 0 for the windows without a hot reading (4, 8 and
    12 s, as csparql-answer-4.json); a profile reading the empty group otherwise does not; the
    first window with hot readings (16 s: 87.667) is the same under every reading."""
    chosen = replace(profile("csparql"), empty_group=empty_group)
    if empty_group == "row":
        chosen = profile("csparql")
    found = profile_relations(chosen)
    assert {t: found[t] for t in (4, 8, 12)} == {4: rows, 8: rows, 12: rows}
    (avg,) = next(iter(found[16]))
    assert round(Decimal(str(avg.toPython())), 3) == Decimal("87.667")


def test_builtin_profiles_read_the_empty_group_as_their_engines() -> None:
    assert [profile(n).empty_group for n in ("csparql", "sparqlstream", "cqels", "rsp4j",
                                             "paper-pull")] == ["row", "null", "none", "row", "row"]


def test_lars_check_on_q4_still_judges_csparql_correct(capsys) -> None:
    """``lars check`` compiles the profile with its empty-group reading: C-SPARQL's recorded Q4
    (0 for the windows without a hot reading) is correct."""
    code = main(["check", str(CSRBENCH / "queries" / "q4-csparql.rq"), "--stream",
                 str(CSRBENCH / "stream"), "--answers",
                 str(CSRBENCH / "engine-answers" / "csparql-answer-4.json"), "--profile",
                 "csparql"])
    assert code == 0 and capsys.readouterr().out.startswith("CORRECT")


def test_lars_check_tries_the_other_empty_group_readings_for_q4_only() -> None:
    """``lars check``'s "accepted with" tries the other readings of the empty group for a
    query with aggregates over the whole solution set (Q4), not for others (Q1)."""
    def tried(number: int) -> list[str]:
        query = parse_query((CSRBENCH / "queries" / f"q{number}-csparql.rq").read_text())
        return [text for text, _ in variations(profile("csparql"), query) if "empty-group" in text]
    assert tried(4) == ['empty-group = "null"', 'empty-group = "none"'] and tried(1) == []
