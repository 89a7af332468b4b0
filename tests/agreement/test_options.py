"""The façade's options (agreement/options.py): fields named flat land in their group, a call with
an :class:`Options` and the same call with keyword fields are the same call."""

from dataclasses import FrozenInstanceError, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement import Options, check_agreement, run, translate_query
from agreement.options import GROUPS, option_names

ROOT = Path(__file__).resolve().parents[2]
RDF = ROOT / "examples" / "coupons" / "rdf"
NAMES = sorted(option_names())


@settings(max_examples=50, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(NAMES), unique=True, max_size=6), st.integers())
def test_each_field_lands_in_its_group_and_nowhere_else(names, value):
    changed = Options.of(**{name: value for name in names})
    for group, kind in GROUPS.items():
        for field in fields(kind):
            expected = value if field.name in names else getattr(kind(), field.name)
            assert getattr(getattr(changed, group), field.name) == expected


def test_options_are_frozen_and_replace_copies():
    base = Options.of(unit="1m")
    changed = base.replace(mode="push")
    assert (base.evaluation.mode, changed.evaluation.mode, changed.query.unit) == ("none", "push", "1m")
    with pytest.raises(FrozenInstanceError):
        base.query.unit = "1s"


def test_keywords_and_options_are_the_same_call():
    data = {"stream": RDF / "stream.nt", "static": [str(RDF / "static.ttl")], "unit": "1m", "end": 30}
    by_keywords = run(RDF / "cqels.rq", **data)
    by_options = run(RDF / "cqels.rq", Options.of(**data))
    assert [a.streams for a in by_keywords] == [a.streams for a in by_options]
    both = check_agreement(RDF / "cqels.rq", Options.of(**data), period="30m")
    assert both.verdicts == check_agreement(RDF / "cqels.rq", period="30m", **data).verdicts


def test_keywords_change_the_options_given():
    options = Options.of(unit="1m", mode="pull")
    view = translate_query(RDF / "csparql.rq", options, period="10m")
    assert view.translation.period == 10
