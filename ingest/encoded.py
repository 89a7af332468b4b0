"""Timestamped N-Triples lines read straight into ``striple`` atoms, each term encoded once.

``lars run QUERY --stream FILE`` used to read a line into a :class:`~ingest.rdffiles.StreamTriple`
of rdflib terms and encode it afterwards (:func:`translate.api.input_atoms`): per triple an
rdflib term of each part (a ``Literal`` of a double converts its value), then four
:func:`~translate.rdf.to_constant` calls that check each IRI's text twice and make a frozen
constant. On CSRBench replayed to 10^5 triples that was 9 µs a triple, more than reading and
parsing (6 µs) and more than solving. :class:`EncodedLines` is a line parser with the contract
of :func:`~ingest.rdffiles.parse_ntriples_line` (so :func:`ingest.policy.parse_lines` applies the
reading policy and counts as before) that gives the atoms instead: a line of the common shape
is cut by the same regular expression, and each term's text is looked up in a dictionary of
the constants met lately; a text met for the first time is encoded as before (the rdflib term
the parser would make, then the encoder), so the constants are the same by construction. Every
other line (escapes, blank nodes in unusual forms, errors, a line naming no stream) takes the
general route, rdflib terms then :func:`~translate.api.input_atoms`, with the same results and
the same errors.

>>> from translate.rdf import RdfTermEncoder
>>> lines = EncodedLines(RdfTermEncoder(), URIRef("http://ex.org/s"))
>>> time, [atom] = lines('<http://ex.org/a> <http://ex.org/p> "7"^^<http://www.w3.org/2001/XMLSchema#integer> 3', "s.nt", 1)
>>> time, str(atom.predicate), atom.args[2]
(3, 'striple', Number(value=7))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rdflib.term import BNode, Literal, URIRef

from ingest.policy import Runs
from ingest.rdffiles import FAST_LINE, FastRow, StreamTriple, fast_runs, parse_ntriples_line
from ingest.rdfterms import iri_term
from lars.atoms import Atom
from lars.errors import InputError, LarsError
from lars.terms import Constant
from translate.api import input_atoms
from translate.rdf import STRIPLE, RdfTermEncoder, remembered

MEMO_SIZE = 1 << 16
"""Constants remembered per kind of term and generation: when a memo is full it becomes the
previous generation and starts empty (:func:`ingest.rdfterms.remembered`; a replayed stream has
fresh IRIs all the time, so memory stays bounded), and the constants of terms met in each
generation stay the same objects."""


class EncodedLines:
    """A line parser ``(line, source, number) -> (t, [striple atom]) | None``.

    Args:
        encoder: encodes a term met for the first time (the translation's encoder).
        default_stream: the stream of lines that name none (``--stream-iri``), or ``None``.
        assigned: the stream given to lines that name none when ``default_stream`` is ``None``
            (the query's only stream); ``noted`` is called at each such line.
    """

    def __init__(self, encoder: RdfTermEncoder, default_stream: URIRef | None = None,
                 assigned: URIRef | None = None, noted: Callable[[], None] = lambda: None):
        self.encoder = encoder
        self.default_stream = default_stream
        self.assigned, self.noted = assigned, noted
        self.iris: dict[str, Constant] = {}
        self.blanks: dict[str, Constant] = {}
        self.literals: dict[tuple[str, str | None, str | None], Constant] = {}
        self.old_iris: dict[str, Constant] = {}  # the previous generations
        self.old_blanks: dict[str, Constant] = {}
        self.old_literals: dict[tuple[str, str | None, str | None], Constant] = {}

    def __call__(self, line: str, source: str, number: int) -> tuple[int, list[Atom]] | None:
        match = FAST_LINE.fullmatch(line)
        if match is not None:
            s, sb, p, o, ob, lit, lang, dt, g, t = match.groups()
            if g is None and self.default_stream is None and self.assigned is not None:
                self.noted()
            unnamed = self.default_stream or self.assigned
            if g is not None or unnamed is not None:
                try:
                    return int(t), [Atom.unchecked(STRIPLE, (
                        self.iri(s) if s is not None else self.blank(sb), self.iri(p),
                        self.iri(o) if o is not None else self.blank(ob) if ob is not None
                        else self.literal(lit, lang, dt),
                        self.iri(g if g is not None else unnamed)))]
                except LarsError:
                    pass  # the general route below raises it, placed at its line
        return self.general(line, source, number)

    def block(self, text: str, source: str, first: int) -> Runs | None:
        """The runs of a block of lines (:class:`~ingest.policy.BlockParser`) when each line is
        blank, a comment or taken by :data:`~ingest.rdffiles.FAST_LINES`, all naming one stream
        (or all none, with a stream to give them) and every term encoded; else ``None``. A
        line's atom is the one :meth:`__call__` makes of it."""
        iri, blank, literal = self.iri, self.blank, self.literal

        def atom(row: FastRow, time: int, stream: Constant, number: int) -> Atom:
            s, sb, p, o, ob, lit, lang, dt, _, _ = row
            obj = iri(o) if o else blank(ob) if ob else literal(lit, lang or None, dt or None)
            return Atom.unchecked(STRIPLE, (iri(s) if s else blank(sb), iri(p), obj, stream))
        try:
            return fast_runs(text, first, self.stream, atom)
        except LarsError:
            return None  # the line by line route raises it, placed at its line

    def stream(self, text: str) -> Constant:
        """The stream of lines naming the IRI ``text`` (``""``: none; then ``noted`` is called
        if the query's stream is given them, as :meth:`__call__` does).

        Raises:
            InputError: no IRI named and none to give (the line by line route names the line).
        """
        if not text and self.default_stream is None and self.assigned is not None:
            self.noted()
        named = text or self.default_stream or self.assigned
        if named is None:
            raise InputError("no stream IRI")
        return self.iri(named)

    def general(self, line: str, source: str, number: int) -> tuple[int, list[Atom]] | None:
        """Any line: rdflib's terms (:func:`~ingest.rdffiles.parse_ntriples_line`), the query's
        stream for a triple that names none, then :func:`~translate.api.input_atoms`."""
        parsed = parse_ntriples_line(line, source, number, default_stream=self.default_stream)
        if parsed is None:
            return None
        return parsed[0], self.encode(*parsed)

    def encode(self, time: int, elements: Iterable[StreamTriple]) -> list[Atom]:
        """The ``striple`` atoms of elements read at ``time`` by another reader (Spark, Turtle):
        the query's stream for those that name none, then :func:`~translate.api.input_atoms`."""
        if self.assigned is not None and any(e.stream is None for e in elements):
            self.noted()
            elements = [StreamTriple(e.time, e.stream or self.assigned, e.triple, e.position)
                        for e in elements]
        return input_atoms(elements, self.encoder).get(time, [])

    def iri(self, text: str) -> Constant:
        found = self.iris.get(text)
        if found is None:
            found = remembered(self.iris, self.old_iris, text, self.new_iri, MEMO_SIZE)
        return found

    def blank(self, label: str) -> Constant:
        found = self.blanks.get(label)
        if found is None:
            found = remembered(self.blanks, self.old_blanks, label, self.new_blank, MEMO_SIZE)
        return found

    def literal(self, text: str, lang: str | None, datatype: str | None) -> Constant:
        key = (text, lang, datatype)
        found = self.literals.get(key)
        if found is None:
            found = remembered(self.literals, self.old_literals, key, self.new_literal, MEMO_SIZE)
        return found

    def new_iri(self, text: str) -> Constant:
        return self.encoder.encode(iri_term(text))

    def new_blank(self, label: str) -> Constant:
        return self.encoder.encode(BNode(label))

    def new_literal(self, key: tuple[str, str | None, str | None]) -> Constant:
        text, lang, datatype = key
        return self.encoder.encode(Literal(text, lang, iri_term(datatype) if datatype else None))
