"""The fast path of :func:`lars.parser.parse_stream_line` reads a line exactly as the parser does,
or leaves it to the parser (differential, on lines made from the grammar and mutated)."""

from hypothesis import example, given
from hypothesis import strategies as st

from lars.errors import ParseError
from lars.parser import _parse_stream_line_fast, _parse_stream_line_slow

SPACE = st.sampled_from(["", " ", "\t", "  "])
VALUES = st.one_of(st.integers(-10**12, 10**12).map(str), st.from_regex(r"[a-z][A-Za-z0-9_]{0,4}", fullmatch=True),
                   st.sampled_from(["not", "007", "-0", '"s"', "<http://x>", "X", "_y", "1a", "", "- 3"]))


@st.composite
def lines(draw) -> str:
    atoms = []
    for _ in range(draw(st.integers(0, 4))):
        predicate = draw(st.one_of(st.from_regex(r"[a-z][a-z0-9_]{0,3}", fullmatch=True),
                                   st.sampled_from(["not", "P", "p q"])))
        args = draw(st.lists(VALUES, max_size=3))
        inner = draw(SPACE).join(a + "," for a in args).rstrip(",") if args else None
        atoms.append(predicate if inner is None and draw(st.booleans()) else f"{predicate}({inner or ''})")
    text = f"{draw(SPACE)}{draw(st.sampled_from(['3', '-2', '007', 'x', '']))}{draw(SPACE)}:{draw(SPACE)}" \
        + (draw(SPACE) + "," + draw(SPACE)).join(atoms) + draw(st.sampled_from(["", " ", " # c", "\r"]))
    cut = draw(st.integers(0, len(text)))
    return text if draw(st.booleans()) else text[:cut] + text[cut + 1:]


@given(lines())
@example("3: p(1), q(a,b), r")
@example("3: p(not)")
@example("5:")
def test_the_fast_path_reads_a_line_as_the_parser_does_or_not_at_all(line):
    fast = _parse_stream_line_fast(line)
    try:
        slow = _parse_stream_line_slow(line, "s", 1)
    except ParseError:
        assert fast is None
        return
    assert fast is None or fast == slow
