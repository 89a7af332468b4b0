"""The fast path of ``parse_ntriples_line`` (ingest/rdffiles.py) against the slow path.

The fast path (one regular expression) must give exactly what rdflib's term-by-term reader gives
for every line it accepts, and leave every other line (with its error) to that reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef

from lars.errors import LarsError, ParseError
from ingest import encoded, rdffiles as rdfstreams
from ingest.encoded import EncodedLines
from translate.api import input_atoms
from translate.rdf import RdfTermEncoder
from ingest.rdffiles import (
    CSRBENCH_STREAM, _parse_ntriples_line_slow, parse_ntriples_line, read_turtle_folder,
)

CSRBENCH = Path(__file__).parents[2] / "examples" / "csrbench" / "stream"
XSD = "http://www.w3.org/2001/XMLSchema#"
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals


def same_term(fast, slow) -> None:
    assert type(fast) is type(slow)
    assert fast == slow
    assert str(fast) == str(slow)
    if isinstance(slow, Literal):
        assert type(fast.datatype) is type(slow.datatype)
        assert fast.datatype == slow.datatype
        assert fast.language == slow.language
        assert fast.n3() == slow.n3()


def outcome(parse, line: str):
    try:
        return "ok", parse(line, "s.nt", 7, default_stream=None)
    except ParseError as error:
        return "error", (type(error), str(error), error.position)


def assert_same(line: str) -> None:
    """``parse_ntriples_line`` (fast path and fallback) gives exactly what the slow path gives."""
    kind, fast = outcome(parse_ntriples_line, line)
    slow_kind, slow = outcome(_parse_ntriples_line_slow, line)
    assert kind == slow_kind, (line, fast, slow)
    if kind == "error" or slow is None:
        assert fast == slow
        return
    (time, elements), (slow_time, slow_elements) = fast, slow
    assert time == slow_time and type(time) is int
    assert len(elements) == len(slow_elements) == 1
    element, expected = elements[0], slow_elements[0]
    assert element == expected and type(element) is type(expected)  # a tuple equals a named tuple
    assert type(element.position) is type(expected.position)
    assert (element.time, element.position) == (expected.time, expected.position)
    assert type(element.stream) is type(expected.stream) and element.stream == expected.stream
    for term, slow_term in zip(element.triple, expected.triple, strict=True):
        same_term(term, slow_term)


# --- a grammar of lines: common pieces, tricky pieces and junk ------------------------------
# ``readable_lines`` are (nearly always) lines the slow path reads, with every piece sometimes
# unusual (escapes, non-ASCII, odd but accepted characters); ``mutated_lines`` are such lines
# with one character or piece inserted, replaced or deleted, so mostly near misses the slow path
# rejects. Lines the fast path takes are the common shape of both.

SPACE = st.sampled_from(["", " ", " ", "\t", "  \t "])
FAST_IRI_PIECES = st.sampled_from(["a", "b/", "Z9", "#", "-", "_", ".", "~", "%20", ":", "é", "😀", "?q=1&r"])
ODD_IRI_PIECES = st.sampled_from([  # read by the slow path only: escapes and unusual characters
    "\\u00e9", "\\U0001F600", "\\u0041", "\\u0068", "\x7f", "\xa0", "\u2028", "\x85", "\u3000"])
SCHEMES = st.sampled_from(["http://ex.org/", "urn:x:", "a:", "é:", "\xa0:", "\\u0068:"])


@st.composite
def fast_iris(draw):
    return "<" + draw(st.sampled_from(["http://ex.org/", "urn:x:", "a:"])) + "".join(
        draw(st.lists(FAST_IRI_PIECES, max_size=6))) + ">"


@st.composite
def odd_iris(draw):
    pieces = draw(st.lists(st.one_of(FAST_IRI_PIECES, ODD_IRI_PIECES), max_size=6))
    return f"<{draw(SCHEMES)}{''.join(pieces)}>"


iris = st.one_of(fast_iris(), odd_iris())
fast_blank_nodes = st.from_regex(r"_:[A-Za-z0-9_](?:[-A-Za-z0-9_.]{0,6}[-A-Za-z0-9_])?", fullmatch=True)
odd_blank_nodes = st.from_regex(r"_:[A-Za-z0-9_:][-A-Za-z0-9_:.]{0,6}", fullmatch=True)  # may end in '.'
blank_nodes = st.one_of(fast_blank_nodes, odd_blank_nodes)

LANGS = st.sampled_from(["en", "en-GB", "EN-gb-x1", "e", "de-1996", "x-a-b-c"])
DATATYPES = st.sampled_from([f"{XSD}double", f"{XSD}integer", f"{XSD}string", f"{XSD}dateTime",
                             f"{XSD}boolean", f"{XSD}decimal", "http://ex.org/dt"]).map(lambda iri: f"<{iri}>")
LIT_VALUES = st.sampled_from(["79.0", "30", "-0", "01", "x", "", "true", "2004-08-08T06:05:00", "NaN", "1e3"])
ODD_LIT_PIECES = st.sampled_from([  # the slow path reads escapes
    '\\"', "\\\\", "\\n", "\\t", "\\r", "\\u00e9", "\\U0001F600", "\\'", "\\b", "\\f"])


@st.composite
def literals(draw):
    text = draw(st.one_of(
        LIT_VALUES, st.text(st.characters(blacklist_characters='"\\'), max_size=8),
        st.lists(st.one_of(LIT_VALUES, ODD_LIT_PIECES), max_size=4).map("".join)))
    suffix = draw(st.one_of(st.just(""), LANGS.map(lambda lang: "@" + lang),
                            st.one_of(DATATYPES, odd_iris()).map(lambda iri: "^^" + iri)))
    return f'"{text}"{suffix}'


TIMES = st.one_of(st.integers(-10**12, 10**12).map(str), st.sampled_from(["0", "-0", "007"]))
TAILS = st.sampled_from(["", " ", "\t", "#", " # late", "\t#x#y", "# \r", "#\x00", "#\\u"])


@st.composite
def readable_lines(draw):
    """A line the slow path (nearly always) reads; each piece sometimes unusual."""
    subject = draw(st.one_of(iris, blank_nodes))
    obj = draw(st.one_of(iris, blank_nodes, literals()))
    stream = draw(st.one_of(st.just(""), iris))
    dot = draw(st.sampled_from(["", "."]))
    return "".join([draw(SPACE), subject, draw(SPACE), draw(iris), draw(SPACE), obj, draw(SPACE), stream,
                    draw(SPACE), dot, draw(SPACE), draw(TIMES), draw(TAILS)])


JUNK = st.sampled_from([
    " ", "\t", "\r", "\n", "\xa0", "\u2003", "\x0b", "\x00", "<", ">", '"', "\\", "{", "}", "|", "^", "`",
    ":", "_:", ".", "..", ",", ";", "#", "@", "@en", "^^", "-", "0", "1.5", "x", "é", "\\u00e9", "\\q",
    "<a:b>", '"x"', "_:b", "^^<a:b>", "<a b:", "a>b:", "\\x7f", "\\u0020",
])


@st.composite
def mutated_lines(draw):
    """A readable line with one piece inserted, replaced or deleted: mostly a near miss."""
    line = draw(readable_lines())
    at = draw(st.integers(0, len(line)))
    cut = draw(st.integers(0, 3))
    return line[:at] + draw(st.one_of(JUNK, st.just(""))) + line[at + cut:]


@st.composite
def fast_lines(draw):
    """A line the fast path reads itself."""
    space = st.sampled_from(["", " ", "\t", " \t "])
    subject = draw(st.one_of(fast_iris(), fast_blank_nodes))
    obj = draw(st.one_of(fast_iris(), fast_blank_nodes, st.builds(
        lambda text, suffix: f'"{text}"{suffix}',
        # a raw line feed in a literal is left to the slow path (the block reader's pattern
        # spans lines; the same result, test_fast_path_agrees_with_the_slow_path)
        st.one_of(LIT_VALUES, st.text(st.characters(blacklist_characters='"\\\n'), max_size=8)),
        st.one_of(st.just(""), LANGS.map(lambda lang: "@" + lang), DATATYPES.map(lambda iri: "^^" + iri)))))
    stream = draw(st.one_of(st.just(""), fast_iris()))
    dot = draw(st.sampled_from(["", "."]))
    time = str(draw(st.integers(-10**9, 10**9)))
    tail = draw(st.sampled_from(["", " ", "#", " # comment", "\t#x"]))
    after_dot = draw(st.sampled_from([" ", "\t", " \t "]) if dot else space)  # ".5" is refused (issue 28)
    text = [draw(space), subject, " ", draw(fast_iris()), draw(space), obj, draw(space), stream, " ",
            dot, after_dot, time, tail]
    return "".join(text)


@settings(max_examples=1000)
@given(st.one_of(readable_lines(), mutated_lines()))
@example('<http://ex.org/a> <http://ex.org/p> _:b.5')          # the label is b.5: no timestamp
@example('<http://ex.org/a> <http://ex.org/p> _:b. 5')         # the label is b, then the dot
@example('<http://ex.org/a> <http://ex.org/p> _:b.')
@example('<a> <b:c> <http://ex.org/o> 1')                       # rdflib reads the IRI 'a> <b:c'
@example('<http://ex.org/a><http://ex.org/p>"x"10')             # no white space is needed
@example('<http://ex.org/a> <http://ex.org/p> "x"@en10')        # the language tag stops at a digit
@example('<http://ex.org/a> <http://ex.org/p> "x"@en-1 5')
@example('<http://ex.org/a> <http://ex.org/p> "x"@EN-gb 5')        # the tag is kept as written
@example('<http://ex.org/a> <http://ex.org/p> "79.0"^^<http://www.w3.org/2001/XMLSchema#double> 5')
@example('<http://ex.org/a> <http://ex.org/p> "x"@en-GB^^<http://ex.org/dt> 5')
@example('<http://ex.org/a> <http://ex.org/p> "x"^^<a b:c> 5')  # rdflib does not check datatypes
@example('<http://ex.org/a> <http://ex.org/p> "x"^^<http://ex.org/\\u0041> 5')
@example('<http://ex.org/a> <http://ex.org/p> "x\\u00e9" 5')
@example('<http://ex.org/a> <http://ex.org/p> "" 5')
@example('<http://ex.org/a> <http://ex.org/p> "0"^^<http://www.w3.org/2001/XMLSchema#integer> 5')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o>')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> <http://ex.org/g>')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5 6')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5\r')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5\n')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o>\xa05')
@example('<http://ex.org/a\xa0b> <http://ex.org/p> <http://ex.org/o> 5')
@example('<ht\xa0tp://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5')
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> . . 5')
@example('_:a:b <http://ex.org/p> _:-x 5')
@example('   ')
@example('  # comment')
def test_fast_path_agrees_with_the_slow_path(line):
    event("fast path" if rdfstreams.FAST_LINE.fullmatch(line) else "slow path")
    event("error" if outcome(_parse_ntriples_line_slow, line)[0] == "error" else "read")
    assert_same(line)


@settings(max_examples=500)
@given(st.lists(st.sampled_from(list('<>_:"@^.#- \t\\ua0é9x') + ["http://e/", "\\u00e9", "<http://e/>"]),
                max_size=25).map("".join))
def test_fast_path_agrees_on_noise(line):
    assert_same(line)


@given(fast_lines())
def test_common_lines_take_the_fast_path(line):
    assert rdfstreams.FAST_LINE.fullmatch(line), line
    assert_same(line)


@pytest.mark.parametrize("with_stream", [True, False])
def test_csrbench_lines_take_the_fast_path_and_agree(with_stream):
    """Every CSRBench triple written as ``benchmarks/replay_csrbench.py`` writes it."""
    stream = f" {CSRBENCH_STREAM.n3()}" if with_stream else ""
    count = 0
    for element in read_turtle_folder(CSRBENCH):
        line = " ".join(term.n3() for term in element.triple) + f"{stream} {element.time}"
        assert rdfstreams.FAST_LINE.fullmatch(line), line
        assert_same(line)
        parsed = parse_ntriples_line(line, "s.nt", 7, default_stream=None)
        assert parsed[1][0].triple == element.triple
        assert parsed[1][0].stream == (CSRBENCH_STREAM if with_stream else None)
        count += 1
    assert count > 10_000


@pytest.mark.parametrize("line", [
    '<http://ex.org/a> <http://ex.org/p> "a \\"q\\"" 1',
    '<http://ex.org/\\u00e9> <http://ex.org/p> <http://ex.org/o> 1',
    '<http://ex.org/a> <http://ex.org/p> "x"@en^^<http://ex.org/dt> 1',
    '<a> <b:c> <http://ex.org/o> 1',
    '<http://ex.org/a> <http://ex.org/p> <http://ex.org/o>',
    '<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 1 junk',
    '',
    '# comment',
])
def test_unusual_and_bad_lines_go_to_the_slow_path(line):
    assert rdfstreams.FAST_LINE.fullmatch(line) is None
    assert_same(line)


def test_default_stream_and_typed_literal():
    line = f'_:b <http://ex.org/p> "79.0"^^<{XSD}double> . 3 # c'
    fast = parse_ntriples_line(line, "s.nt", 1, default_stream=CSRBENCH_STREAM)
    slow = _parse_ntriples_line_slow(line, "s.nt", 1, default_stream=CSRBENCH_STREAM)
    assert fast == slow
    assert fast[1][0].stream == CSRBENCH_STREAM
    same_term(fast[1][0].triple[2], Literal("79.0", datatype=f"{XSD}double"))


# --- lines straight to atoms (ingest/encoded.py) against reading then encoding -----------------

STREAM_CHOICES = st.sampled_from([None, "http://ex.org/s"])


def encoded_outcome(read) -> tuple:
    try:
        return "ok", read()
    except LarsError as error:
        return "error", (type(error), str(error), error.position)


def read_then_encode(line: str, default: URIRef | None, assigned: URIRef | None):
    """What ``lars run`` did before ingest/encoded.py: StreamTriples, the query's stream for those
    naming none, then ``input_atoms``."""
    parsed = parse_ntriples_line(line, "s.nt", 7, default_stream=default)
    if parsed is None:
        return None
    time, elements = parsed
    elements = [e._replace(stream=e.stream or assigned) for e in elements]
    return time, input_atoms(elements, RdfTermEncoder()).get(time, [])


@settings(max_examples=1000)
@given(st.one_of(readable_lines(), mutated_lines(), fast_lines()), STREAM_CHOICES, STREAM_CHOICES)
@example('<_:x> <http://ex.org/p> <http://ex.org/o> 5', None, "http://ex.org/s")  # an IRI like a blank node
@example('<http://ex.org/a> <http://ex.org/p> "a\x00b" 5', "http://ex.org/s", None)  # NUL
@example('<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5', None, None)  # no stream at all
@example('<http://ex.org/a> <http://ex.org/p> "9999999999"^^<http://www.w3.org/2001/XMLSchema#integer> 5',
         "http://ex.org/s", None)
def test_encoded_lines_give_what_reading_then_encoding_gives(line, default, assigned):
    default, assigned = (None if iri is None else URIRef(iri) for iri in (default, assigned))
    notes = []
    lines = EncodedLines(RdfTermEncoder(), default, assigned, lambda: notes.append(1))
    expected = encoded_outcome(lambda: read_then_encode(line, default, assigned))
    assert encoded_outcome(lambda: lines(line, "s.nt", 7)) == expected
    assert encoded_outcome(lambda: lines(line, "s.nt", 7)) == expected  # now from the memo
    if expected[0] == "ok" and expected[1] is not None and default is None and assigned is not None:
        named = parse_ntriples_line(line, "s.nt", 7)[1][0].stream is not None
        assert bool(notes) == (not named)


POOL_TERMS = ["<http://ex.org/a>", "_:a", "<_:a>", "<urn:a>", '"a"', '"a"@en', '"a"@EN', '"a"^^<urn:a>',
              f'"1"^^<{XSD}integer>', f'"01"^^<{XSD}integer>', f'"1"^^<{XSD}double>', '"1"', '"true"',
              f'"true"^^<{XSD}boolean>', '"x\\u0041"', '"xA"']
pooled_lines = st.builds(
    lambda s, o, g, t: f"{s} <urn:p> {o} {g} {t}", st.sampled_from(POOL_TERMS[:4]),
    st.sampled_from(POOL_TERMS), st.sampled_from(["", "<urn:a>", "<http://ex.org/a>"]), st.integers(0, 3))


@settings(max_examples=300)
@given(st.lists(pooled_lines, max_size=12), STREAM_CHOICES)
def test_one_encoder_over_many_lines(lines, default):
    """Terms met again (and texts shared by terms of different kinds) come from the memo right."""
    default = None if default is None else URIRef(default)
    reader = EncodedLines(RdfTermEncoder(), default, URIRef("urn:q"))
    for line in lines:
        assert encoded_outcome(lambda line=line: reader(line, "s.nt", 7)) == \
            encoded_outcome(lambda line=line: read_then_encode(line, default, URIRef("urn:q")))


def test_encoded_lines_forget_when_full(monkeypatch):
    """The memo is emptied when full; the constants stay the encoder's."""
    monkeypatch.setattr(encoded, "MEMO_SIZE", 3)
    lines = EncodedLines(RdfTermEncoder(), URIRef("http://ex.org/s"))
    for n in range(20):
        line = f'<http://ex.org/o{n % 7}> <http://ex.org/p> "{n % 5}" 5'
        assert lines(line, "s.nt", n) == read_then_encode(line, URIRef("http://ex.org/s"), None)
        assert len(lines.iris) <= 3 and len(lines.literals) <= 3
