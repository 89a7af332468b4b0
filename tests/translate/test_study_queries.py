"""The seven RSP-QL queries of the 2023 comparative study (ESWC 2023, "A Comparative Study of
Stream Reasoning Engines"; its ``srbench-queries.properties``, Apache-2.0), all with a FILTER
inside the WINDOW block (issue 26 item 1): each translates under every time-driven profile, and
Q1 runs on the CSRBench stream with the answers of the same query with its FILTER after the block
(equivalent there: the block is the only pattern of the group)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agreement.cli import main
from translate.api import parse_query
from translate.profiles import PROFILES, profile
from translate.reports import compile_profile

_ROOT = Path(__file__).resolve().parents[2]
QUERIES = _ROOT / "examples" / "csrbench-2023" / "settings" / "srbench-queries.properties"
"""The study's settings file, bundled (a copy of ../shared/data/csrbench-2023/settings)."""
STREAM = _ROOT / "examples" / "csrbench" / "stream"


def study_queries() -> dict[int, str]:
    """``srb.queryN.rspqlquery`` values (properties continuation lines joined); Q7's text has
    one ``}`` too many after its WHERE group, which RSP4J's parser ignores: it is dropped."""
    text = re.sub(r"\\\n\s*", " ", QUERIES.read_text(encoding="utf-8"))
    found = {int(m[1]): m[2] for m in re.finditer(r"^srb\.query(\d+)\.rspqlquery\s*=\s*(.*)",
                                                     text, re.M)}
    found[7] = re.sub(r"\}\s*\}\s*\}\s*$", "} }", found[7])
    return found


@pytest.mark.parametrize("name", sorted(p for p in PROFILES if PROFILES[p].tick == "time"))
def test_every_study_query_translates_under_every_profile(name) -> None:
    queries = study_queries()
    assert sorted(queries) == [1, 2, 3, 4, 5, 6, 7]
    for number, text in queries.items():
        query = parse_query(text, unit="1ms")
        assert "FILTER" in text.split("WINDOW <w1>")[-1], number
        assert compile_profile(query, profile(name), period=1000).program.rules


def test_q1_runs_on_the_csrbench_stream_as_with_its_filter_after_the_block(tmp_path, capsys):
    text = study_queries()[1]
    moved = re.sub(r"FILTER\(\?value > 80\)\s*\}", "} FILTER(?value > 80)", text)
    assert moved != text
    outputs = []
    for k, query in enumerate((text, moved)):
        path = tmp_path / f"q{k}.rspql"
        path.write_text(query, encoding="utf-8")
        assert main(["run", str(path), "--stream", str(STREAM), "--profile", "rsp4j"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "System_C1192" in outputs[0]  # the hot readings (CSRBench Q1's answers)
