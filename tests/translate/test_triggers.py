"""Push and pull as rules (SPEC section 6): the shapes of ℘(P) and ℘(P, U)."""

from __future__ import annotations

import pytest

from lars.errors import InputError
from lars.parser import parse_program
from lars.printer import print_program
from translate import parse_query, translate
from translate.triggers import pull, push, with_trigger

PROGRAM = parse_program("""
fact.
q(X) :- [3] <> p(X), b(X), not r.
s :- [0] @T true, q(a).
""")


def text(program) -> list[str]:
    return print_program(program, "ascii").splitlines()


def test_trigger_leaves_facts_alone() -> None:
    assert text(with_trigger(PROGRAM)) == [
        "fact.", "q(X) :- [3] <> p(X), b(X), not r, trigger.", "s :- [0] @T true, q(a), trigger."]


def test_push_triggers_on_input_predicates_but_not_background_or_true() -> None:
    assert text(push(PROGRAM, background=[("b", 1)]))[3:] == [
        "trigger :- [0] <> p(X1).", "trigger :- [0] <> r."]


def test_pull_triggers_on_multiples_of_the_period() -> None:
    assert text(pull(PROGRAM, 5))[3:] == ["trigger :- [0] @T true, T % 5 = 0."]


def test_trigger_name_must_be_free() -> None:
    with pytest.raises(InputError, match="already uses the predicate 'trigger'"):
        push(parse_program("trigger :- p."))


@pytest.mark.parametrize("period", [0, -5])
def test_pull_period_must_be_positive(period: int) -> None:
    with pytest.raises(InputError, match="at least one tick"):
        pull(PROGRAM, period)


def test_translated_push_triggers_on_stream_triples_only() -> None:
    query = parse_query("SELECT * WHERE { STREAM <http://e/s> [NOW] { ?a ?p ?b } ?b ?q ?c }")
    translation = translate(query, "cqels", mode="push")
    assert text(translation.program)[-1] == "trigger :- [0] <> striple(X1,X2,X3,X4)."
    assert translation.comments[-1] == "push: input striple/4 arrived now"


def test_translated_pull_uses_computed_every() -> None:
    query = parse_query("REGISTER QUERY q COMPUTED EVERY 4s AS SELECT * "
                        "FROM STREAM <http://e/s> [RANGE 4s STEP 4s] WHERE { ?a ?p ?b }")
    translation = translate(query, "csparql", mode="pull")
    assert translation.period == 4
    assert text(translation.program)[-1] == "trigger :- [0] @T true, T % 4 = 0."
    assert translate(query, "csparql", mode="pull", period_ticks=2).period == 2


def test_pull_without_a_period_is_an_error() -> None:
    query = parse_query("SELECT * FROM STREAM <http://e/s> [NOW] WHERE { ?a ?p ?b }")
    with pytest.raises(InputError, match="pull mode needs a period"):
        translate(query, "csparql", mode="pull")
