"""A program prepared once (:class:`solver.strategies.Prepared`) and evaluated over many streams
gives, each time, what a fresh :func:`solver.strategies.evaluate` gives: nothing of one
evaluation leaks into the next through the shared :class:`~solver.incremental.engine.EnginePlan`
(``lars agree`` checks thousands of witness sets with one)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.streams import Timeline
from solver.strategies import Prepared, evaluate, slices_of
from tests.strategies import backgrounds, programs, streams, timelines


@settings(max_examples=60, deadline=None, derandomize=True)
@given(programs(), backgrounds(), st.sampled_from(["stratified", "incremental", "auto"]),
       timelines(), st.data())
def test_a_prepared_program_answers_each_stream_as_a_fresh_evaluation(program, background, strategy,
                                                                     line, data):
    try:
        prepared = Prepared(program, background, strategy)
    except Exception as error:  # the same refusal as evaluate's (a non-stratified program, ...)
        try:
            evaluate(program, [], line, background, strategy)
        except Exception as fresh:
            assert type(fresh) is type(error) and str(fresh) == str(error)
            return
        raise
    for _ in range(3):  # several streams and timelines in a row, each against a fresh run
        line = data.draw(timelines())
        stream = data.draw(streams(line))
        assert list(prepared.answers(slices_of(stream), line)) == \
            list(evaluate(program, slices_of(stream), line, background, strategy))


def test_a_prepared_program_forgets_the_previous_stream():
    """The same program over a stream with input, then over an empty one: no answer of the
    first evaluation survives into the second (states are made per evaluation)."""
    from lars.parser import parse_program
    from lars.parser import parse_atom
    program = parse_program("q(X) :- [3] <> p(X).")
    prepared = Prepared(program, strategy="stratified")
    first = list(prepared.answers([(0, [parse_atom("p(1)")])], Timeline(0, 2)))
    second = list(prepared.answers([], Timeline(0, 2)))
    assert any(answer.streams[0] for answer in first)
    assert all(not answer.streams[0] for answer in second)
