"""docs/translation.md shows the rules τ produces for a property path, an expression, an
aggregate and a sliced subquery (issue 15): every rule of those examples is what the translation
prints today, so the page cannot rot."""

from pathlib import Path

import pytest

from lars.printer import print_program
from translate import parse_query, translate

DOC = (Path(__file__).resolve().parents[2] / "docs" / "translation.md").read_text(encoding="utf-8")
PREFIX = "PREFIX : <http://ex.org/>\n"


@pytest.mark.parametrize(("query", "spelling"), [
    pytest.param("SELECT ?name WHERE { :alice (:knows|^:knownBy)*/:name ?name }", "ascii",
                 id="property-path"),
    pytest.param('SELECT ?s (STRLEN(?name) + 1 AS ?n) WHERE { ?s :name ?name ; :age ?age '
                 'FILTER (?age >= 18 || LANGMATCHES(LANG(?name), "en")) }', "unicode",
                 id="expression"),
    pytest.param("SELECT ?k (AVG(?v) AS ?avg) WHERE { ?s :key ?k ; :value ?v } GROUP BY ?k",
                 "unicode", id="aggregate"),
    pytest.param("SELECT ?i WHERE { ?o :item ?i { SELECT DISTINCT ?o WHERE { ?o :item [] } "
                 "ORDER BY ?o LIMIT 2 } }", "unicode", id="slice"),
])
def test_the_rules_shown_are_the_rules_made(query: str, spelling: str) -> None:
    translation = translate(parse_query(PREFIX + query), "sparql")
    rules = [line for line in print_program(translation.program, spelling).splitlines()
             if line and not line.startswith("#")]
    if "GROUP BY" in query:  # the page leaves out the two BIND nodes above the group
        rules = [r for r in rules if not r.startswith(("ans_1(", "ans_2("))]
    missing = [rule for rule in rules if rule not in DOC]
    assert rules and not missing, missing
