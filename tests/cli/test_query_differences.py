"""``lars agree QUERY --csparql FILE`` says which part of the two queries differs.

The warning "the C-SPARQL and CQELS queries do not describe the same abstract query (result
variables, pattern, dataset or stream windows differ)" listed every part it might be, never the
one that was (newcomer finding). Now it names each part that differs, with what each side has
(:func:`translate.querydiff.differences`). The property test writes both queries from the same
choices (window, triple patterns, filter, OPTIONAL, result variables, DISTINCT, LIMIT, FROM) and
checks that the parts named are exactly the choices that differ, and that nothing is named
exactly when ``cs(C-SPARQL) == cs(CQELS)``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from tests.badinput.clirun import lars
from translate.api import parse_query
from translate.querydiff import differences
from translate.variants import cs

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
STREAM = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/z> <http://ex.org/s> 1\n"

CHOICES = st.fixed_dictionaries({
    "length": st.sampled_from([5, 10]),
    "extra": st.sampled_from(["none", "joined", "optional"]),
    "filter": st.booleans(),
    "select": st.sampled_from(["?s ?o", "?o ?s", "?s"]),
    "distinct": st.booleans(),
    "limit": st.booleans(),
    "graph": st.booleans(),
})
PARTS = {"length": "window of", "filter": "filters only in", "select": "result variables",
         "distinct": "DISTINCT", "limit": "LIMIT", "graph": "FROM graphs"}
"""The choice → the words the difference it makes starts with."""


def body(choice: dict, triples: str) -> str:
    """The triple patterns of the query, with the extra one joined or OPTIONAL."""
    extra = {"none": "", "joined": " . ?s :q ?x", "optional": " OPTIONAL { ?s :q ?x }"}[choice["extra"]]
    return f"?s :p ?o{extra}" if triples == "inline" else f"{{ ?s :p ?o{extra} }}"


def csparql_text(choice: dict) -> str:
    return (f"PREFIX : <http://ex.org/>\nSELECT {'DISTINCT ' * choice['distinct']}{choice['select']}\n"
            + ("FROM <http://ex.org/g>\n" if choice["graph"] else "")
            + f"FROM STREAM <http://ex.org/s> [RANGE {choice['length']}s STEP 5s]\n"
            + f"WHERE {{ {body(choice, 'inline')} {'FILTER (?o != :y)' * choice['filter']} }}\n"
            + ("LIMIT 3\n" if choice["limit"] else ""))


def cqels_text(choice: dict) -> str:
    return (f"PREFIX : <http://ex.org/>\nSELECT {'DISTINCT ' * choice['distinct']}{choice['select']}\n"
            + ("FROM <http://ex.org/g>\n" if choice["graph"] else "")
            + f"WHERE {{ STREAM :s [RANGE {choice['length']}s SLIDE 5s] {body(choice, 'block')} "
            + f"{'FILTER (?o != :y)' * choice['filter']} }}\n"
            + ("LIMIT 3\n" if choice["limit"] else ""))


def expected_parts(a: dict, b: dict) -> set[str]:
    parts = {words for choice, words in PARTS.items() if a[choice] != b[choice]}
    if (a["extra"] == "none") != (b["extra"] == "none"):
        parts.add("triple patterns only in")
    elif a["extra"] != b["extra"]:  # the same triple patterns, joined in one, OPTIONAL in the other
        parts.add("the same triple patterns, combined differently")
    return parts


@settings(max_examples=80, derandomize=True, deadline=None)
@given(CHOICES, CHOICES)
def test_the_parts_named_are_the_parts_that_differ(first, second):
    csparql = parse_query(csparql_text(first), "c.rq", "csparql")
    cqels = parse_query(cqels_text(second), "q.rq", "cqels")
    found = differences(csparql, cqels)
    named = {words for words in [*PARTS.values(), "triple patterns only in",
                                 "the same triple patterns, combined differently",
                                 "the same filters, placed differently"]
             if any(part.startswith(words) for part in found)}
    assert named == expected_parts(first, second), found
    assert (found == []) == (cs(csparql) == cs(cqels))
    assert len(found) == len(named), found  # one phrase per part


def test_the_warning_names_the_window_pattern_and_filter(tmp_path):
    (tmp_path / "c.rq").write_text(
        "PREFIX : <http://ex.org/>\nSELECT ?s ?o\nFROM STREAM <http://ex.org/s> [RANGE 10s STEP 5s]\n"
        "WHERE { ?s :p ?o . FILTER (?o != :y) }\n")
    (tmp_path / "q.rq").write_text(
        "PREFIX : <http://ex.org/>\nSELECT ?s ?o\n"
        "WHERE { STREAM :s [RANGE 5s SLIDE 5s] { ?s :p ?o . ?s :q ?x } }\n")
    (tmp_path / "s.nt").write_text(STREAM)
    status, out, err = lars("agree", tmp_path / "q.rq", "--csparql", tmp_path / "c.rq",
                            "--stream", tmp_path / "s.nt")
    assert status in (0, 1), err
    [warning] = [line for line in err.splitlines() if "same abstract query" in line]
    assert warning == (
        "warning: the C-SPARQL and CQELS queries do not describe the same abstract query: "
        "window of :s: [RANGE 10s STEP 5s] in C-SPARQL, [RANGE 5s SLIDE 5s] in CQELS; "
        "triple patterns only in CQELS: ?s :q ?x; filters only in C-SPARQL: ?o != :y")


def test_the_papers_queries_with_another_window_name_it(tmp_path):
    """Paper example Q2 with C-SPARQL's window on s2 lengthened from 5 to 6 minutes."""
    other = tmp_path / "other.rq"
    other.write_text((COUPONS / "csparql.rq").read_text().replace("RANGE 5m", "RANGE 6m"))
    status, out, err = lars("agree", COUPONS / "cqels.rq", "--stream", COUPONS / "stream.nt",
                            "--static", COUPONS / "static.ttl", "--unit", "1m", "--period", "10m",
                            "--csparql", other)
    assert status in (0, 1), err
    assert ("do not describe the same abstract query: window of :s2: [RANGE 6m] in C-SPARQL, "
            "[RANGE 5m] in CQELS\n") in err


def test_a_filter_moved_into_optional_is_named_as_placed_differently():
    """The same triple patterns and filter, the filter inside OPTIONAL on one side (where it
    keeps rows without a match) and over the whole group on the other (where it drops them)."""
    csparql = parse_query("PREFIX : <http://ex.org/>\nSELECT ?s FROM STREAM :s [RANGE 5s STEP 5s] "
                          "WHERE { ?s :p ?o OPTIONAL { ?s :q ?x FILTER (?x != :y) } }", "c.rq", "csparql")
    cqels = parse_query("PREFIX : <http://ex.org/>\nSELECT ?s WHERE { STREAM :s [RANGE 5s SLIDE 5s] "
                        "{ ?s :p ?o OPTIONAL { ?s :q ?x } } FILTER (?x != :y) }", "q.rq", "cqels")
    [part] = differences(csparql, cqels)
    assert part.startswith("the same filters, placed differently: ") and " in C-SPARQL, " in part
