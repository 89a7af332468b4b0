"""Lines of one predicate, one arity and integer arguments (:func:`lars.parser.uniform_stream_line`,
the reader's fastest path) against the parser (:func:`lars.parser.parse_stream_line`).

Differential, on lines made to be of that shape and then spoilt now and then (another
predicate, another arity, a name, a long number, a cut character): the fast path gives the
parser's time point and atoms, in order, or leaves the line to the parser; and every line that
really has the shape is taken by it (else the path would silently never run).
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from lars.errors import ParseError
from lars.parser import parse_stream_line, uniform_stream_line
from lars.terms import Number

SPACE = st.sampled_from(["", " ", "\t", "  "])
NUMBERS = st.one_of(st.integers(-10**9 + 1, 10**9 - 1).map(str), st.sampled_from(["007", "-0", "0"]))
SPOILT = st.sampled_from(["a", "not", "10000000000", "1.5", "", "- 3", '"s"', "1a"])
PREDICATES = st.sampled_from(["p", "pp", "p2", "q_x", "not"])


@st.composite
def lines(draw) -> tuple[str, bool]:
    """A stream line and whether it has the uniform shape (one predicate other than ``not``,
    one arity, integers of at most 9 digits)."""
    predicate, arity = draw(PREDICATES), draw(st.integers(1, 3))
    uniform = predicate != "not"
    atoms = []
    for _ in range(draw(st.integers(1, 5))):
        name, width = predicate, arity
        if draw(st.integers(0, 9)) == 0:
            name, width = draw(PREDICATES), draw(st.integers(1, 3))
        arguments = [draw(NUMBERS) for _ in range(width)]
        if draw(st.integers(0, 19)) == 0:
            arguments[0] = draw(SPOILT)
        uniform = uniform and name == predicate and width == arity and \
            all(not text.startswith("-") and text.isdigit() and len(text) <= 9 or
                text.startswith("-") and text[1:].isdigit() and len(text) <= 10 for text in arguments)
        inner = (draw(SPACE) + "," + draw(SPACE)).join(arguments)
        atoms.append(f"{name}({draw(SPACE)}{inner}{draw(SPACE)})")
    text = (f"{draw(SPACE)}{draw(st.sampled_from(['3', '-2', '0']))}{draw(SPACE)}:{draw(SPACE)}"
            + (draw(SPACE) + "," + draw(SPACE)).join(atoms) + draw(st.sampled_from(["", " ", "\r"])))
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(text) - 1))
        return text[:cut] + text[cut + 1:], False
    return text, uniform


@settings(max_examples=400, derandomize=True)
@given(lines())
@example(("3: p(1, -2), p(3,4)", True))
@example(("3: pp(1), p(2)", False))
@example(("3: p(1), pp(2)", False))
@example(("3: p(1), p(2) , p(3)\r", True))
@example(("3: p(1), p(1,2)", False))
@example(("3: p(1,2), p(1)", False))
@example(("3: p(007), p(-0)", True))
@example(("3: not(1)", False))
@example(("3: p(1) # comment", False))
def test_the_uniform_path_reads_a_line_as_the_parser_does(case) -> None:
    line, uniform = case
    fast = uniform_stream_line(line)
    try:
        parsed = parse_stream_line(line, "s", 1)
    except ParseError:
        assert fast is None
        return
    if uniform:
        assert fast is not None, "a line of the uniform shape left to the parser"
    if fast is None:
        return
    time, predicate, arity, values = fast
    assert parsed is not None and parsed[0] == time
    assert [(atom.predicate, atom.args) for atom in parsed[1]] == \
        [(predicate, tuple(Number(v) for v in values[i:i + arity])) for i in range(0, len(values), arity)]
