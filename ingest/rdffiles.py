"""RDF stream readers and static data (SPEC sections 2 and 11).

Two stream formats, both read into :class:`StreamTriple` elements in arrival order, plus static
datasets. Every reader follows :class:`ingest.policy.ReadPolicy` and never reaches the network.

**Timestamped N-Triples** (one element per line; ``WS`` is spaces and tabs)::

    line      ::= WS* subject WS* predicate WS* object WS* (stream WS*)? ("." WS*)? timestamp WS* comment?
    stream    ::= IRIREF                                   (the stream the triple arrives on)
    timestamp ::= "-"? [0-9]+                              (an integer in ticks, followed by WS, "#" or the end)
    comment   ::= "#" anything

So an N-Triples line (``s p o .``) or an N-Quads line (``s p o g .``) followed by a timestamp is
accepted, and so is the same without the dot. The terms are read as rdflib's
:class:`W3CNTriplesParser` reads them (IRIs must be absolute, without the characters N-Triples
forbids): common lines by one regular expression, the others by that parser.
Blank lines and lines starting with ``#`` are skipped. Blank node labels are kept as written, so
``_:b`` is the same node on every line. Lines end with LF or CRLF and must be UTF-8.

>>> parse_ntriples_line("<http://ex.org/a> <http://ex.org/offers> <http://ex.org/c1> . 10", "s.nt", 1)
(10, [StreamTriple(time=10, stream=None, triple=(rdflib.term.URIRef('http://ex.org/a'), \
rdflib.term.URIRef('http://ex.org/offers'), rdflib.term.URIRef('http://ex.org/c1')), \
position=Position(source='s.nt', line=1, column=None))])

**A folder of Turtle files named by timestamp** (the CSRBench layout): every entry not starting
with ``.`` must be a file ``<prefix>_<int>.ttl`` or ``<int>.ttl`` (``data_12.ttl`` holds the
triples at time 12); files are read in the order of their integers, and two files with the same
integer are an error. rdflib graphs are unordered, so the arrival order within one file is fixed
as the order of the triples' N-Triples text; blank nodes get deterministic labels (rdflib's
canonical labelling, prefixed by the file's time) so that two runs, or Spark and a local run,
give the same elements. All triples arrive on one stream, :data:`CSRBENCH_STREAM` by default.
Files of the common shape (no blank nodes) are parsed by Oxigraph, giving rdflib's terms
(:mod:`ingest.turtlefast`); the others, and every error, by rdflib.

Time units are the caller's business: timestamps here are integers in ticks.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from xml.sax import SAXParseException

import rdflib
from rdflib.compare import to_canonical_graph
from rdflib.exceptions import ParserError as RdflibParserError
from rdflib.plugins.parsers import notation3
from rdflib.plugins.parsers.notation3 import BadSyntax
from rdflib.plugins.parsers.ntriples import W3CNTriplesParser, r_wspace
from rdflib.term import BNode, Node, URIRef

from lars.errors import InputError, LarsError, ParseError, Position
from translate.iris import resolve
from ingest.rdfterms import literal_term
from ingest.turtlefast import fast_turtle_triples
from ingest.xmlguard import check_xml_entities
from translate.documents import LONE_SURROGATE
from translate.rdf import remembered  # its import also keeps literals as written (no rdflib normalising)
from ingest.policy import (
    ReadPolicy, ReadReport, Runs, handle, parse_blocks, read_blocks, read_lines, read_text, require_report,
)

notation3.join = lambda base, reference: resolve(reference, base)
"""rdflib's Turtle parser resolves relative IRI references with its own ``join``, which is not
RFC 3986 (``<?q>``, ``<#a:b>``, a base without a slash; :mod:`translate.iris`): it resolves them
by RFC 3986 instead, and leaves absolute IRIs as written, as before."""

CSRBENCH_STREAM = URIRef("http://ex.org/streams/test")
"""The stream IRI of the CSRBench queries, the default for Turtle folders."""

Triple = tuple[Node, Node, Node]


class StreamTriple(NamedTuple):
    """One element of an RDF stream: ``triple`` arriving on ``stream`` at ``time`` (in ticks).

    ``stream`` is ``None`` when the input did not name one and the caller gave no default.
    ``position`` is where it was read (file and line; a Turtle file has no per-triple line).

    A named tuple, as :class:`~lars.errors.Position` is (equal and hashed by value, immutable,
    ``e._replace(stream=...)`` for a changed copy): the readers make one per line, and the
    fast paths build both with ``tuple.__new__`` (:func:`_element`), about a quarter of the CPU
    of two frozen dataclasses (issue 29).
    """

    time: int
    stream: URIRef | None
    triple: Triple
    position: Position

    __reduce__ = object.__reduce__  # pickled as a tuple of its class: see Position.__reduce__


_tuple_new = tuple.__new__


def _element(time: int, stream: URIRef | None, triple: Triple, source: str, number: int) -> StreamTriple:
    """``StreamTriple(time, stream, triple, Position(source, number))``, built as the tuples
    they are (a named tuple's own constructor is Python code that checks its arguments)."""
    return _tuple_new(StreamTriple, (time, stream, triple, _tuple_new(Position, (source, number, None))))


class _KeepLabels(dict):
    """A blank node context for rdflib's N-Triples parser that keeps labels as written."""

    def get(self, key, default=None):
        return key


_TIMESTAMP = re.compile(r"-?[0-9]+")
MAX_TIMESTAMP_DIGITS = 19
"""A timestamp's digits at most (a 64-bit integer holds up to 9.2·10^18): a longer one is
refused at its line and column, never converted (Python refuses integers of over 4,300 digits
with an internal error, and no timeline reaches that far)."""
_BAD_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\]')
_SURROGATE = re.compile("[\ud800-\udfff]")
_TERMS = (("subject", "an IRI or a blank node"), ("predicate", "an IRI"),
          ("object", "an IRI, a blank node or a literal"))


def _found(rest: str) -> str:
    token = rest.split(None, 1)[0] if rest.strip() else ""
    return f"'{token[:40]}'" if token else "end of line"


class _LineReader:
    """Reads one timestamped N-Triples line with rdflib's N-Triples term parser."""

    def __init__(self, line: str, source: str, number: int):
        self.text, self.source, self.number = line, source, number
        self.terms = W3CNTriplesParser(bnode_context=_KeepLabels())
        self.terms.line = line

    @property
    def rest(self) -> str:
        return self.terms.line

    def error(self, expected: str) -> ParseError:
        column = len(self.text) - len(self.rest) + 1
        return ParseError(f"expected {expected} but found {_found(self.rest)}",
                          Position(self.source, self.number, column))

    def skip_space(self) -> None:
        self.terms.eat(r_wspace)

    def term(self, read: Callable[[], Node], expected: str) -> Node:
        """A term read by rdflib; rdflib's IRI pattern lets ``<a> <b:c>`` through, so check it."""
        self.skip_space()
        start = self.rest
        try:
            term = read()
        except RdflibParserError:
            term = None
        if term is None or term is False or (isinstance(term, URIRef) and _BAD_IRI.search(term)):
            self.terms.line = start
            raise self.error(expected)
        if _SURROGATE.search(str(term)) or _SURROGATE.search(str(getattr(term, "datatype", "") or "")):
            self.terms.line = start
            column = len(self.text) - len(self.rest) + 1
            raise ParseError(LONE_SURROGATE, Position(self.source, self.number, column))
        return term

    def triple(self) -> Triple:
        return tuple(self.term(getattr(self.terms, role), f"{expected} as {role}")
                     for role, expected in _TERMS)

    def stream(self) -> URIRef | None:
        self.skip_space()
        return self.term(self.terms.uriref, "a stream IRI") if self.rest.startswith("<") else None

    def timestamp(self) -> int:
        self.skip_space()
        if self.rest.startswith(".") and self.rest[1:2] in ("", " ", "\t"):  # not ``.5`` (issue 28)
            self.terms.line = self.rest[1:]
            self.skip_space()
        match = _TIMESTAMP.match(self.rest)
        if match is None or self.rest[match.end():match.end() + 1] not in ("", " ", "\t", "#"):
            raise self.error("a timestamp (an integer)")
        if len(match.group().lstrip("-")) > MAX_TIMESTAMP_DIGITS:
            raise self.error(f"a timestamp of at most {MAX_TIMESTAMP_DIGITS} digits (this one has "
                             f"{len(match.group().lstrip('-'))})")
        self.terms.line = self.rest[match.end():]
        self.skip_space()
        if self.rest and not self.rest.startswith("#"):
            raise self.error("end of line after the timestamp")
        return int(match.group())


# The fast path: one regular expression for the common line shape, building the terms as
# rdflib's parser would. It takes only IRIs without backslashes and without the characters of
# _BAD_IRI or white space (for these, rdflib's IRI pattern matches the same text and its unquote
# and uriquote leave it as it is), blank node labels by rdflib's own pattern, and literals without
# backslashes or line feeds (so nothing to unquote). Every term and space is atomic (possessive
# or ``(?>...)``), so the line cannot be split otherwise than the term-by-term reader splits it.
# Any line it does not match (escapes, unusual characters, blank, comment or bad lines) goes to
# the slow path, which gives the same result for the lines both read, and every error message
# and position.
_WHITE = r"\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""The white space (``str.isspace``, the same as ``\\s``) above ``\\x20``, listed: a class of
ranges is a table look-up where ``\\s`` asks Unicode about each character (a third of the
match's time on CSRBench lines)."""
_FAST_IRI = rf'[^\x00-\x20{_WHITE}<>"{{}}|^`\\:]++:[^\x00-\x20{_WHITE}<>"{{}}|^`\\]*+'  # no _BAD_IRI character
_ASCII_IRI = r'[!#-9;=?-\[\]_a-z~\x7f]++:[!#-;=?-\[\]_a-z~\x7f]*+'
"""The IRIs of :data:`_FAST_IRI` written in ASCII alone, as a class of the characters they may
hold (a look-up in one bitmap, where the class of the characters they may not hold runs through
the ranges of Unicode's white space: a quarter of a CSRBench line's match)."""
_FAST_LABEL = r"(?>[A-Za-z0-9_:](?:[-A-Za-z0-9_:.]*[-A-Za-z0-9_:])?)"  # rdflib's r_nodeid, atomic


def _fast_terms(iri: str) -> str:
    """A line of the common shape up to its comment, its IRIs those ``iri`` takes."""
    return (
        r"[ \t]*+"
        rf"(?:<(?P<s>{iri})>|_:(?P<sb>{_FAST_LABEL}))[ \t]*+"
        rf"<(?P<p>{iri})>[ \t]*+"
        rf"(?:<(?P<o>{iri})>|_:(?P<ob>{_FAST_LABEL})"
        rf'|"(?P<lit>[^"\\\n]*+)"(?:@(?P<lang>[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)|\^\^<(?P<dt>{iri})>)?+)'
        rf"[ \t]*+(?:<(?P<g>{iri})>[ \t]*+)?+"
        r"(?:\.[ \t]++)?+"
        r"(?P<t>-?[0-9]{1,19}+)[ \t]*+")


def _fast_lines(iri: str) -> re.Pattern:
    """Each line of a block that the common shape with ``iri`` takes, or blank, or a comment."""
    return re.compile(rf"^(?:{_fast_terms(iri)}|[ \t]*+)(?:#[^\n]*)?\r?$", re.MULTILINE)


FAST_LINE = re.compile(_fast_terms(_FAST_IRI) + r"(?:#.*)?", re.DOTALL)
"""A line of the common shape (up to its comment, taken whole): its groups are ``s, sb, p, o,
ob, lit, lang, dt, g, t``."""
FAST_LINES = _fast_lines(_FAST_IRI)
"""Each line of a block (lines joined by LF, each may end in CR) that :data:`FAST_LINE` takes
(the groups are the same; unmatched ones are ``""`` in ``findall``), or that is blank or a
comment (all groups ``""``): no class takes a line feed, so a match is one whole line, and a
block is all such lines when ``findall`` gives one match per line (:class:`NTriplesLines`)."""
ASCII_LINES = _fast_lines(_ASCII_IRI)
""":data:`FAST_LINES` for blocks whose IRIs are ASCII (nearly all): the same rows where it
takes every line of a block, tried first (:func:`fast_runs`)."""


def _parse_ntriples_line_slow(line: str, source: str, line_number: int, *,
                              default_stream: URIRef | None = None) -> tuple[int, list[StreamTriple]] | None:
    """:func:`parse_ntriples_line` term by term with rdflib's parser: any line, and every error."""
    reader = _LineReader(line, source, line_number)
    reader.skip_space()
    if not reader.rest or reader.rest.startswith("#"):
        return None
    triple = reader.triple()
    stream = reader.stream() or default_stream
    time = reader.timestamp()
    return time, [StreamTriple(time, stream, triple, Position(source, line_number))]


def parse_ntriples_line(line: str, source: str, line_number: int, *,
                        default_stream: URIRef | None = None) -> tuple[int, list[StreamTriple]] | None:
    """One timestamped N-Triples line: ``(t, [element])``, or ``None`` if blank or a comment.

    It has the contract of :func:`lars.parser.parse_stream_line`, so it plugs into the shared
    readers and the Spark slicing job (bind ``default_stream`` with :func:`functools.partial`).
    Common lines are read by one regular expression; the others (and every error) term by term
    by rdflib's parser, with the same result.

    >>> parse_ntriples_line('<http://ex.org/a> <http://ex.org/p> "x" 1.5', "s.nt", 4)
    Traceback (most recent call last):
    lars.errors.ParseError: s.nt:4:41: error: expected a timestamp (an integer) but found '1.5'

    Raises:
        ParseError: with file, line and the column where the line stops making sense.
    """
    match = _fullmatch(line)
    if match is None:
        return _parse_ntriples_line_slow(line, source, line_number, default_stream=default_stream)
    s, sb, p, o, ob, lit, lang, dt, g, t = match.groups()
    known = _IRIS.get  # an IRI's term is never false (it holds a colon)
    if o is not None:
        obj = known(o) or _new_iri(o)
    elif ob is not None:
        obj = BNode(ob)
    else:
        obj = literal_term(lit, lang, dt)
    time = int(t)
    triple = (known(s) or _new_iri(s) if s is not None else BNode(sb), known(p) or _new_iri(p), obj)
    stream = (known(g) or _new_iri(g)) if g else default_stream
    return time, [_element(time, stream, triple, source, line_number)]


_fullmatch = FAST_LINE.fullmatch
_IRIS: dict[str, URIRef] = {}
"""The terms of the IRIs the fast path met lately, by text: a plain dictionary is looked up
in half the time of :func:`ingest.rdfterms.iri_term`'s LRU cache, and a line has three or four
IRIs, nearly all met before (predicates, classes, the stream)."""
_OLD_IRIS: dict[str, URIRef] = {}
"""The previous generation of :data:`_IRIS` (:func:`ingest.rdfterms.remembered`)."""
IRIS_KEPT = 1 << 16
"""IRIs kept in :data:`_IRIS`; when full, it becomes :data:`_OLD_IRIS` and starts empty (a
replayed stream has fresh subject IRIs all the time, so memory stays bounded), and the IRIs
met in each generation keep their terms."""


def _new_iri(text: str) -> URIRef:
    """The term of an IRI not in :data:`_IRIS`, remembered there (every caller has it from a
    match of :data:`FAST_LINE` or :data:`FAST_LINES`)."""
    return remembered(_IRIS, _OLD_IRIS, text, _matched_iri, IRIS_KEPT)


def _matched_iri(text: str) -> URIRef:
    """The term of an IRI the fast patterns took: it holds none of the characters rdflib's
    ``URIRef`` warns about (``_BAD_IRI``), so it is made as the string it is, without the
    constructor's checks again (a replayed stream brings a fresh subject IRI on every line)."""
    return str.__new__(URIRef, text)


class NTriplesLines:
    """The reader of timestamped N-Triples lines naming ``default_stream`` where they name none:
    a :class:`~ingest.policy.BlockParser`, one line at a time (:func:`parse_ntriples_line`) or a
    block of lines at a time (:meth:`block`), with the same elements."""

    def __init__(self, default_stream: URIRef | None = None):
        self.default_stream = default_stream

    def __call__(self, line: str, source: str, number: int) -> tuple[int, list[StreamTriple]] | None:
        return parse_ntriples_line(line, source, number, default_stream=self.default_stream)

    def block(self, text: str, source: str, first: int) -> Runs | None:
        """The runs of a block of lines (:class:`~ingest.policy.BlockParser`) when each line is
        blank, a comment or taken by :data:`FAST_LINES`, all naming one stream (or all none);
        else ``None``. A line's element is the one :func:`parse_ntriples_line` makes of it."""
        known = _IRIS.get

        def element(row: FastRow, time: int, stream: URIRef | None, number: int) -> StreamTriple:
            s, sb, p, o, ob, lit, lang, dt, _, _ = row
            obj = ((known(o) or _new_iri(o)) if o else BNode(ob) if ob
                   else literal_term(lit, lang or None, dt or None))
            return _element(time, stream, ((known(s) or _new_iri(s)) if s else BNode(sb),
                                           known(p) or _new_iri(p), obj), source, number)
        return fast_runs(text, first, self.stream, element)

    def stream(self, text: str) -> URIRef | None:
        """The stream of a line naming the IRI ``text`` (``""``: none)."""
        return (_IRIS.get(text) or _new_iri(text)) if text else self.default_stream


FastRow = tuple[str, str, str, str, str, str, str, str, str, str]
"""The groups of one line in :data:`FAST_LINES`'s ``findall``: ``s, sb, p, o, ob, lit, lang,
dt, g, t``, ``""`` where a group did not take part (all of them on a blank or comment line)."""


def fast_runs(text: str, first: int, stream: Callable[[str], Any],
              element: Callable[[FastRow, int, Any, int], Any]) -> Runs | None:
    """The :class:`~ingest.policy.Runs` of a block of lines numbered from ``first`` when each
    line is blank, a comment or taken by :data:`FAST_LINES`, all naming the same stream IRI (or
    all none); else ``None``. ``stream(g)`` is the stream of lines naming the IRI ``g`` (``""``:
    none); ``element(row, t, stream, number)`` the element of line ``number`` at ``t``, from its
    groups ``row``. What either raises is the caller's to handle."""
    lines = text.count("\n") + 1
    rows = ASCII_LINES.findall(text)
    if len(rows) != lines:
        rows = FAST_LINES.findall(text)
        if len(rows) != lines:
            return None
    runs, on, last_t, named, last = [], None, None, None, 0
    for number, row in enumerate(rows, first):
        t = row[9]
        if not t:  # a blank or comment line
            continue
        if t != last_t:
            if last_t is None:
                named = row[8]
                on = stream(named)
            time, run, last_t = int(t), [], t
            runs.append((time, number, run))
        if row[8] != named:
            return None
        run.append(element(row, time, on, number))
        last = number
    return Runs(on, runs, last)


def read_timestamped_ntriples(path: str | Path, *, default_stream: URIRef | None = None,
                              policy: ReadPolicy = ReadPolicy(),
                              report: ReadReport | None = None) -> Iterator[StreamTriple]:
    """The elements of a timestamped N-Triples file, in arrival order (or by time, if sorting).

    Args:
        path: the file.
        default_stream: the stream of lines that name none.
        policy: bad lines and backwards timestamps (see :mod:`ingest.policy`).
        report: where skipped and reordered lines are counted (needed unless stop/strict).

    Raises:
        InputError: an unreadable file; a timestamp going back in time, naming both lines.
        ParseError: a bad line, with file, line and column.
    """
    report = require_report(policy, report)
    entries = parse_blocks(read_blocks(path), str(path), NTriplesLines(default_stream), policy, report)
    return itertools.chain.from_iterable(entry.elements for entry in entries)


_FILE_NAME = re.compile(r"(?:.*_)?([0-9]+)\.ttl")


def file_time(path: str | Path) -> int:
    """The time point in a Turtle file's name: ``data_12.ttl`` and ``12.ttl`` → 12.

    Raises:
        InputError: the name is not ``<prefix>_<int>.ttl`` or ``<int>.ttl``.
    """
    match = _FILE_NAME.fullmatch(Path(path).name)
    if match is None:
        raise InputError("the file name is not a timestamp (expected <prefix>_<int>.ttl or <int>.ttl)",
                         Position(str(path)))
    return int(match.group(1))


def turtle_files(folder: str | Path, *, policy: ReadPolicy = ReadPolicy(),
                 report: ReadReport | None = None) -> list[str]:
    """The Turtle files of a stream folder, sorted by the time in their names.

    Entries starting with ``.`` are ignored; any other entry not named by a timestamp is a bad
    record (raised, or skipped and counted under ``on_error="skip"``).

    Raises:
        InputError: the folder cannot be listed, a bad name, or two files for one time point.
    """
    report = require_report(policy, report)
    try:
        names = sorted(entry for entry in os.listdir(folder) if not entry.startswith("."))
    except OSError as exc:
        raise InputError(f"cannot read the folder: {exc.strerror or exc}", Position(str(folder))) from None
    timed: dict[int, str] = {}
    for name in names:
        path = os.path.join(folder, name)
        try:
            time = file_time(path)
        except InputError as error:
            report.records += 1
            handle(error, policy, report)
            continue
        if time in timed:
            raise InputError(f"two files for time point {time}: {timed[time]} and {path}", Position(path))
        timed[time] = path
    return [timed[time] for time in sorted(timed)]


def _syntax_error(exc: Exception, source: str) -> ParseError:
    """A syntax error of rdflib (Turtle, TriG, N3), expat (RDF/XML) or json (JSON-LD) as ours."""
    if isinstance(exc, BadSyntax):  # its line is 0-based; the column comes from its offset
        text = exc._str.decode("utf-8", "replace") if isinstance(exc._str, bytes) else str(exc._str)
        at = exc._i if exc._i >= 0 else len(text)  # -1: at the end of the text
        # the line from the text: rdflib's own count (exc.lines) runs ahead after a look-ahead
        where = (text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
        return ParseError(f"syntax error: {exc._why}", Position(source, *where))
    if isinstance(exc, SAXParseException):  # 0-based column
        where = (exc.getLineNumber(), exc.getColumnNumber() + 1)
        return ParseError(f"syntax error: {exc.getMessage()}", Position(source, *where))
    if isinstance(exc, json.JSONDecodeError):
        return ParseError(f"syntax error: {exc.msg}", Position(source, exc.lineno, exc.colno))
    return ParseError(f"syntax error: {exc}", Position(source))


def _ntriples_order(triples: list[Triple]) -> list[Triple]:
    """``triples`` in the order of their N-Triples text (an rdflib graph has no order).

    Each term object's text is computed once (terms repeat; keyed by identity, as two equal
    rdflib literals may be written differently, ``"x"@EN`` and ``"x"@en``).
    """
    terms = {id(term): term for triple in triples for term in triple}
    texts = {key: term.n3() for key, term in terms.items()}
    return sorted(triples, key=lambda triple: f"{texts[id(triple[0])]} {texts[id(triple[1])]} {texts[id(triple[2])]}")


def _canonical_triples(graph: rdflib.Graph, time: int) -> list[Triple]:
    """The triples of ``graph``, blank nodes labelled deterministically."""
    triples = list(graph)
    if any(isinstance(term, BNode) for triple in triples for term in triple):
        triples = [tuple(BNode(f"t{time}_{term}") if isinstance(term, BNode) else term for term in triple)
                   for triple in to_canonical_graph(graph)]
    return triples


def _rdflib_turtle_triples(text: str, source: str, base: str, time: int) -> list[Triple]:
    """The triples of a Turtle document read by rdflib (any document, and every error)."""
    graph = rdflib.Graph()
    try:
        with offline():
            graph.parse(data=text, format="turtle", publicID=base)
    except LarsError:
        raise
    except Exception as exc:  # rdflib raises several unrelated types; ours must not leak them
        raise _syntax_error(exc, source) from None
    check_iris(graph.triples((None, None, None)), source)
    return _canonical_triples(graph, time)


def parse_turtle_document(text: str, source: str, *,
                          stream: URIRef = CSRBENCH_STREAM) -> tuple[int, list[StreamTriple]]:
    """One Turtle file of a stream folder: its time (from the name) and its elements.

    The contract of a document parser of :mod:`ingest.slicing` (bind ``stream`` with
    :func:`functools.partial`). Documents of the common shape are read by Oxigraph
    (:mod:`ingest.turtlefast`), the others and every error by rdflib, with the same result.

    Raises:
        InputError: the file name is not a timestamp.
        ParseError: a Turtle syntax error, with file, line and column.
    """
    time = file_time(source)
    base = Path(os.path.abspath(source)).as_uri()
    triples = fast_turtle_triples(text, base)
    if triples is not None:
        try:
            check_iris(triples, source)
        except ParseError:  # rdflib's path raises it (Oxigraph refuses such IRIs anyway)
            triples = None
    if triples is None:
        triples = _rdflib_turtle_triples(text, source, base, time)
    position = Position(source)
    return time, [StreamTriple(time, stream, triple, position) for triple in _ntriples_order(triples)]


def read_turtle_folder(folder: str | Path, *, stream: URIRef = CSRBENCH_STREAM,
                       policy: ReadPolicy = ReadPolicy(),
                       report: ReadReport | None = None) -> Iterator[StreamTriple]:
    """The elements of a folder of timestamped Turtle files, file by file in time order.

    Args:
        folder: the folder (see the module docstring for the names it accepts).
        stream: the stream every triple arrives on.
        policy: bad files are skipped and counted under ``on_error="skip"``.
        report: where skipped files are counted.

    Raises:
        InputError: see :func:`turtle_files`; an unreadable file.
        ParseError: a Turtle syntax error (``on_error="stop"``).
    """
    report = require_report(policy, report)
    for path in turtle_files(folder, policy=policy, report=report):
        report.records += 1
        try:
            _, elements = parse_turtle_document(read_text(path), path, stream=stream)
        except (ParseError, InputError) as error:
            handle(error, policy, report)
            continue
        report.elements += len(elements)
        yield from elements



_OFFLINE = contextvars.ContextVar("lars_offline", default=False)
_NETWORK_EVENTS = frozenset({"urllib.Request", "socket.connect", "socket.getaddrinfo"})
_hook_installed = False


def _refuse_network(event: str, args: tuple) -> None:
    if _NETWORK_EVENTS is None or _OFFLINE is None:  # interpreter shutdown: globals are gone
        return
    if event in _NETWORK_EVENTS and _OFFLINE.get():
        target = str(args[0]) if args else "?"
        if not target.startswith("file:"):
            raise InputError(f"refusing to reach the network ({target})",
                             hint="the project never fetches data: give local files instead")


@contextmanager
def offline() -> Iterator[None]:
    """Inside this block, any attempt to reach the network raises :class:`InputError` (SPEC 11).

    rdflib fetches remote JSON-LD contexts and URLs by itself; an audit hook (installed once,
    inert outside these blocks) refuses ``urllib`` requests other than ``file:`` and sockets.
    """
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_refuse_network)
        _hook_installed = True
    token = _OFFLINE.set(True)
    try:
        yield
    finally:
        _OFFLINE.reset(token)


STATIC_FORMATS = {
    "ttl": "turtle", "turtle": "turtle", "nt": "nt", "n3": "n3", "trig": "trig", "nq": "nquads",
    "nquads": "nquads", "trix": "trix", "rdf": "xml", "xml": "xml", "owl": "xml",
    "jsonld": "json-ld", "json": "json-ld",
}
"""File extension → rdflib format, for static data."""
_QUAD_FORMATS = frozenset({"trig", "nquads", "trix"})
_XML_FORMATS = frozenset({"xml", "trix"})
LINE_FORMATS = {"nt": "N-Triples", "nquads": "N-Quads"}
_IRI_SPEC = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*:[^=\s]*)=(.+)")


def split_spec(spec: str) -> tuple[str | None, str]:
    """``IRI=FILE`` → ``(IRI, FILE)``; ``FILE`` → ``(None, FILE)`` (only an IRI may precede ``=``)."""
    match = _IRI_SPEC.fullmatch(spec)
    return (match.group(1), match.group(2)) if match else (None, spec)


def static_format(path: str, graph_iri: str | None) -> str:
    if Path(path).is_dir():
        raise InputError("a folder, not a file: --static takes RDF files", Position(path),
                         hint="give each file with its own --static")
    extension = Path(path).suffix.lstrip(".").lower()
    fmt = STATIC_FORMATS.get(extension)
    if fmt is None:
        known = ", ".join(f".{ext}" for ext in STATIC_FORMATS)
        raise InputError(f"cannot tell the RDF format from the extension {Path(path).suffix or '(none)'!r}",
                         Position(path), hint=f"use one of {known}")
    if graph_iri is not None and fmt in _QUAD_FORMATS:
        raise InputError(f"{graph_iri}={path}: a {fmt} file has graphs of its own",
                         Position(path), hint="load it without IRI=, or convert it to Turtle")
    return fmt


def _first_bad_line(path: str, fmt: str) -> int | None:
    """The first line rdflib's N-Triples/N-Quads parser refuses (its errors carry no line)."""
    parser = rdflib.plugin.get(fmt, rdflib.parser.Parser)()
    warnings.simplefilter("ignore", DeprecationWarning)  # inside the caller's catch_warnings
    for number, raw in enumerate(read_lines(path), start=1):
        if _refused(parser, raw):
            return number
    return None


def _refused(parser: rdflib.parser.Parser, raw: bytes) -> bool:
    try:
        parser.parse(rdflib.parser.create_input_source(data=raw + b"\n"), rdflib.Dataset())
    except Exception:  # noqa: BLE001 (any failure marks the line)
        return True
    return False


def line_refused(path: str, fmt: str, number: int) -> bool:
    """Whether rdflib's N-Triples/N-Quads parser (``fmt``: ``nt`` or ``nquads``) refuses line
    ``number`` of ``path`` (1-based; a line past the end is refused)."""
    raw = next(itertools.islice(read_lines(path), number - 1, None), None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return raw is None or _refused(rdflib.plugin.get(fmt, rdflib.parser.Parser)(), raw)


def check_iris(triples: Iterator[tuple[Node, ...]], source: str) -> None:
    """Refuse an IRI that rdflib let through (it only logs "does not look like a valid URI",
    a warning :mod:`translate.rdf` silences because this check reports it, naming the file),
    and a term holding a lone surrogate (a ``\\uD800`` escape, which no output can encode).

    Raises:
        ParseError: the first such IRI or term.
    """
    checked: set[Node] = set()  # terms repeat: check each once
    for triple in triples:
        for term in triple:
            if term in checked:
                continue
            checked.add(term)
            if _SURROGATE.search(term) or _SURROGATE.search(getattr(term, "datatype", None) or ""):
                raise ParseError(LONE_SURROGATE, Position(source))
            if isinstance(term, URIRef) and (not term or _BAD_IRI.search(term)):
                raise ParseError(f"the IRI <{term}> holds white space or a character IRIs may not "
                                 "hold (<, >, \", {, }, |, ^, `, \\)", Position(source))


def _load_one(dataset: rdflib.Dataset, graph_iri: str | None, path: str) -> None:
    fmt = static_format(path, graph_iri)
    if fmt in _XML_FORMATS:
        check_xml_entities(path)
    target = dataset if fmt in _QUAD_FORMATS else (
        dataset.graph(URIRef(graph_iri)) if graph_iri else dataset.default_graph)
    try:
        with open(path, "rb") as file, offline(), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's own ConjunctiveGraph use
            target.parse(source=file, format=fmt, publicID=Path(os.path.abspath(path)).as_uri())
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", Position(path)) from None
    except LarsError as error:
        raise (error if error.position else type(error)(error.message, Position(path), error.hint)) from None
    except RdflibParserError:
        with warnings.catch_warnings():
            line = _first_bad_line(path, fmt) if fmt in LINE_FORMATS else None
        raise ParseError(f"syntax error: not a valid {LINE_FORMATS.get(fmt, fmt)} line", Position(path, line)) from None
    except Exception as exc:  # rdflib raises several unrelated types; ours must not leak them
        raise _syntax_error(exc, path) from None
    check_iris(target.quads() if fmt in _QUAD_FORMATS else target.triples((None, None, None)), path)


def load_static(specs: Sequence[str]) -> rdflib.Dataset:
    """Static (background) data: each spec is ``FILE`` (default graph) or ``IRI=FILE``.

    The format comes from the extension (:data:`STATIC_FORMATS`). TriG, N-Quads and TriX files
    keep their own named graphs and take no ``IRI=``. Nothing is fetched from the network.

    >>> load_static(["missing.ttl"])
    Traceback (most recent call last):
    lars.errors.InputError: missing.ttl: error: cannot read the file: No such file or directory

    Raises:
        InputError: a missing file, an unknown extension, or a network access.
        ParseError: a syntax error, with line and column where the parser gives them.
    """
    dataset = rdflib.Dataset()
    for spec in specs:
        graph_iri, path = split_spec(spec)
        _load_one(dataset, graph_iri, path)
    return dataset
