"""Semi-naive evaluation of recursive strata (:meth:`PythonResidual.fixpoint`, issue 28):
on generated recursive programs — linear and non-linear closure, mutual recursion, recursion
through windows, ``□``, ``@T`` and heads at other times, negation over a completed recursive
stratum — the stratified and incremental strategies give the reference's answers (clingo's
grounding and solving, an independent implementation). A seeded round that missed a join
partner, or a relation not grown, would drop an atom here.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from lars.parser import parse_program
from tests.helpers import make_stream
from tests.solver.test_strategies import assert_same_as_reference

# ``{w}``: how a rule looks at the recursive atom (now, a time window's ◇, □ or @T).
LOOKS = ("", "[1] <> ", "[2] <> ", "[1] [] ", "[#2] <> ")
CORES = (
    "tc(X,Y) :- {w1}e(X,Y).\ntc(X,Z) :- {w2}tc(X,Y), e(Y,Z).",
    "tc(X,Y) :- {w1}e(X,Y).\ntc(X,Z) :- {w2}tc(X,Y), {w1}tc(Y,Z).",
    "o(X,Y) :- {w1}e(X,Y).\nv(X,Z) :- {w2}o(X,Y), e(Y,Z).\no(X,Z) :- v(X,Y), {w1}e(Y,Z).\n"
    "tc(X,Y) :- o(X,Y).\ntc(X,Y) :- v(X,Y).",
    "@T tc(X,Y) :- [2] @T e(X,Y).\n@T tc(X,Z) :- [3] @T tc(X,Y), {w2}e(Y,Z).",
    "tc(X,1) :- {w1}e(X,X).\ntc(X,N) :- {w2}tc(X,M), N = M + 1, M < 4.",
)
EXTRAS = ("", "\nloop(X) :- tc(X,X).", "\nfree(X) :- e(X,Y), not tc(Y,X).",
          "\nlate(X,Y) :- [3] <> tc(X,Y), not [1] <> e(X,Y).")

edges = st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=5)


@settings(deadline=None, max_examples=80, derandomize=True)
@given(st.sampled_from(CORES), st.sampled_from(LOOKS), st.sampled_from(LOOKS),
       st.sampled_from(EXTRAS), st.lists(edges, min_size=1, max_size=5))
def test_recursive_strata_agree_with_the_reference(core, w1, w2, extra, points):
    program = parse_program(core.format(w1=w1, w2=w2) + extra)
    contents = {t: "; ".join(f"e({a},{b})" for a, b in pairs) for t, pairs in enumerate(points)}
    assert_same_as_reference(program, make_stream((0, len(points) - 1), contents))


def test_a_cycle_closed_in_one_time_point_needs_every_gained_tuple():
    """Non-linear closure of a 3-cycle: the second round gains several tuples at once."""
    program = parse_program("tc(X,Y) :- e(X,Y).\ntc(X,Z) :- tc(X,Y), tc(Y,Z).")
    assert_same_as_reference(program, make_stream((0, 1), {0: "e(1,2); e(2,3); e(3,1)", 1: "e(1,1)"}))
