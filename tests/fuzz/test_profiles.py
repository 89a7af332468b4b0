"""The fuzzer under four engine profiles (SPEC section 12): ``lars run --profile`` against
:mod:`tests.fuzz.profiles` on random one-window queries and streams (``LARS_FUZZ_EXAMPLES``
scales the count, as in :mod:`tests.fuzz.test_fuzz`)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import drive, model
from tests.fuzz.oracle import invalid, variables
from tests.fuzz.profiles import PROFILES, profile_answers
from tests.fuzz.strategies import queries, statics, streams

EXAMPLES = int(os.environ.get("LARS_FUZZ_EXAMPLES", "300")) // 15
"""Cases per profile (20 in CI: 80 in all)."""
RANDOM = os.environ.get("LARS_FUZZ_RANDOM") == "1"
SPELLING = {"rsp4j": model.rspql, "csparql": model.csparql, "sparqlstream": model.csparql,
            "cqels": model.cqels}


@st.composite
def profile_cases(draw):
    query = draw(queries(max_streams=1, tuples=False))
    return query, tuple(draw(streams(query))), tuple(draw(statics))


@pytest.mark.parametrize("name", PROFILES)
def test_lars_run_under_an_engine_profile_matches_the_oracle(name):
    counts: Counter[str] = Counter()

    @settings(max_examples=EXAMPLES, derandomize=not RANDOM, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(profile_cases())
    def one(case) -> None:
        query, items, static = case
        end = max(i.time for i in items) + query.windows[0].length + query.windows[0].step
        got = drive.run_profile(SPELLING[name](query), items, query.streams, static, name, end,
                                variables(query))
        if isinstance(got, drive.Refused):
            counts["refused"] += 1
            return
        assert not invalid(query), f"lars run answers a query SPARQL 1.1 rejects:\n{SPELLING[name](query)}"
        expected = profile_answers(name, query, items, static, end)
        assert got == expected, f"profile {name}, timeline [0,{end}]\n{SPELLING[name](query)}\n" \
            f"{items}\n{static}\ntool:   {got}\noracle: {expected}"
        counts["checked"] += 1

    one()
    print(dict(counts))
    if EXAMPLES >= 10:
        assert counts["checked"], dict(counts)
