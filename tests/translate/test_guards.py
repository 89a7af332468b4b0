"""Type guards in translations read as named predicates (issue 16): ``Percent < null`` is
``is_numeric(Percent)`` in the comment above the rule."""

from pathlib import Path

from agreement.facade import translate_query
from lars.atoms import Comparison
from lars.terms import Variable
from translate.rdf import kind_guards, guard_readings, GUARD_NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_running_example_names_its_guards():
    text = translate_query(ROOT / "examples" / "coupons" / "rdf" / "cqels.rq", unit="1m").text()
    assert "Percent < null: is_numeric(Percent)" in text
    assert "is_iri_or_blank(Gender)" in text
    assert "docs/translation.md#type-guards" in text


def test_every_guard_disjunct_has_a_name():
    x = Variable("X")
    for kind, disjuncts in kind_guards(x).items():
        for disjunct in disjuncts:
            readings = guard_readings(disjunct)
            assert readings and all("(X)" in r for r in readings), (kind, disjunct)


def test_plain_comparisons_are_no_guards():
    from lars.terms import Number
    assert guard_readings([Comparison(">=", Variable("X"), Number(20))]) == []


def test_iri_guard_reads_is_iri():
    x = Variable("X")
    [both] = [d for d in kind_guards(x)["iri"] if len(d) == 2]
    assert guard_readings(both) == [f"X >= <!>, X < <_:>: {GUARD_NAMES['iri']}(X)"]
