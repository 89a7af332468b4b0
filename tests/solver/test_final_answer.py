"""``Prepared.answer_at_end`` (solver/strategies.py ``final_answer``): the last of the answers.

A witness check of ``lars agree`` asks a program's answer at one time point; ``final_answer``
steps the engine as ``run`` does but makes no answer for the quiet points before the end. On
generated programs, sparse streams (long quiet stretches) and every strategy, it must be the
last answer ``answers`` gives over the same timeline, whatever time point the timeline ends at.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.analysis import is_stratified
from lars.streams import Timeline
from solver.strategies import Prepared, slices_of
from tests.strategies import backgrounds, programs, streams, timelines


@settings(deadline=None, max_examples=300)
@given(programs(), st.data(), st.sampled_from(["reference", "stratified", "incremental"]))
def test_the_answer_at_the_end_is_the_last_answer(program, data, strategy):
    timeline = data.draw(timelines(12))
    stream = data.draw(streams(timeline, max_per_point=1))
    end = data.draw(st.sampled_from(tuple(timeline)))
    if strategy == "stratified" and not is_stratified(program):
        strategy = "incremental"
    prepared = Prepared(program, data.draw(backgrounds()), strategy)
    upto = Timeline(timeline.start, end)
    items = [item for item in slices_of(stream) if item[0] <= end]
    expected = list(prepared.answers(iter(items), upto))[-1]
    assert prepared.answer_at_end(iter(items), upto) == expected
