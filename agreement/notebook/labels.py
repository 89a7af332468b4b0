"""Short, unique labels for atoms and answer rows in tables and plots.

Answer atoms of translated queries hold full IRIs, which make labels 100 characters wide. A
label here writes an IRI as ``prefix:local``: with the query's prefixes or ``xsd``, ``rdf``,
``rdfs`` where they cover it, else with an obvious prefix made from the namespace's last path
segment (``http://knoesis.wright.edu/ssw/`` → ``ssw:``), which :meth:`Labeller.note` lists.
Numeric literals show their lexical form; a term that is still too long loses part of its middle
(``Observat…C0837_2004_08_08_07_15_00``: the end of a name tells more than its start), and so does
a label. Labels that would collide are widened (:meth:`Labeller.labels`).

>>> labeller = Labeller((("", "http://ex.org/"),))
>>> labeller.label('(<http://ex.org/b>, "25"^^<http://www.w3.org/2001/XMLSchema#integer>)')
'(:b, 25)'
>>> labeller.label("<http://knoesis.wright.edu/ssw/Observation_AirTemperature_C0837_2004_08_08_07_15_00>")
'ssw:Observat…C0837_2004_08_08_07_15_00'
>>> labeller.note()
'ssw: = <http://knoesis.wright.edu/ssw/>'
>>> middle_ellipsis("abcdefghij", 5)
'a…hij'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

Prefixes = Sequence[tuple[str, str]]
"""``(prefix, namespace)`` pairs, e.g. ``(("om-owl", "http://knoesis.wright.edu/ssw/ont/…#"),)``."""

XSD = "http://www.w3.org/2001/XMLSchema#"
WELL_KNOWN: tuple[tuple[str, str], ...] = (
    ("xsd", XSD),
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
)
NUMERIC = ("integer", "decimal", "double", "float", "int", "long", "short", "byte",
           "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger")
NUMERIC_LITERAL = re.compile(r'"([^"\\]*)"\^\^<' + re.escape(XSD) + r"(" + "|".join(NUMERIC) + r")>")
IRI = re.compile(r"<([^<>\s]*)>")
LOCAL_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")
PREFIX_NAME = re.compile(r"[A-Za-z][\w-]*\Z")
SPLIT = re.compile(r"\A(.*[/#])([^/#]*)\Z")

TERM_WIDTH = 38
"""The widest a single term may be in a label before it loses part of its middle."""
LABEL_WIDTH = 64
"""The widest a whole label may be."""


def middle_ellipsis(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` characters, else a third of them from its start and the
    rest from its end, around ``…``."""
    if len(text) <= width or width < 3:
        return text
    keep = width - 1
    head = keep // 3
    return text[:head] + "…" + text[len(text) - (keep - head):]


def made_up_prefix(namespace: str) -> str | None:
    """An obvious prefix for ``namespace``: its last path segment, else its host's first label.

    >>> made_up_prefix("http://knoesis.wright.edu/ssw/"), made_up_prefix("http://ex.org/")
    ('ssw', 'ex')
    """
    parts = urlsplit(namespace)
    segments = [s for s in parts.path.split("/") if s]
    host = [label for label in (parts.hostname or "").split(".") if label != "www"]
    for candidate in (segments[-1:] or host[:1]):
        candidate = candidate.split("#")[0]
        if PREFIX_NAME.match(candidate):
            return candidate
    return None


class Labeller:
    """Makes labels with a fixed set of declared prefixes, remembering the prefixes it made up."""

    def __init__(self, prefixes: Prefixes = ()) -> None:
        self.prefixes = sorted((*prefixes, *WELL_KNOWN), key=lambda p: -len(p[1]))
        self.made_up: dict[str, str] = {}

    def iri(self, iri: str, width: int = TERM_WIDTH) -> str:
        """One IRI (without ``<>``) as ``prefix:local``, or ``<iri>`` when no prefix fits."""
        for prefix, namespace in self.prefixes:
            local = iri[len(namespace):]
            if namespace and iri.startswith(namespace) and (local == "" or LOCAL_NAME.match(local)):
                return middle_ellipsis(f"{prefix}:{local}", width)
        split = SPLIT.match(iri)
        if split and LOCAL_NAME.match(split.group(2)):
            namespace, local = split.groups()
            prefix = made_up_prefix(namespace)
            declared = {p for p, _ in self.prefixes}
            if prefix and prefix not in declared and self.made_up.get(prefix, namespace) == namespace:
                self.made_up[prefix] = namespace
                return middle_ellipsis(f"{prefix}:{local}", width)
        return "<" + middle_ellipsis(iri, width - 2) + ">"

    def label(self, text: str, width: int = LABEL_WIDTH, term_width: int = TERM_WIDTH) -> str:
        """A label for ``text`` (an atom or an answer row in N-Triples form)."""
        text = NUMERIC_LITERAL.sub(lambda m: m.group(1), text)
        text = IRI.sub(lambda m: self.iri(m.group(1), term_width), text)
        return middle_ellipsis(text, width)

    def labels(self, texts: Iterable[str], width: int = LABEL_WIDTH) -> list[str]:
        """:meth:`label` of each text; texts whose labels collide get wider ones (or stay whole)."""
        texts = list(texts)
        labels = [self.label(t, width) for t in texts]
        term_width = TERM_WIDTH
        while len(set(labels)) < len(labels) and term_width < 4 * LABEL_WIDTH:
            term_width *= 2
            width = max(width, 2 * term_width)
            clashing = {label for label in labels if labels.count(label) > 1}
            labels = [self.label(t, width, term_width) if label in clashing else label
                      for t, label in zip(texts, labels)]
        return [label if labels.count(label) == 1 else text for text, label in zip(texts, labels)]

    def note(self) -> str:
        """The prefixes made up so far, ``p: = <namespace>``, for a caption (``""`` if none)."""
        return "; ".join(f"{p}: = <{ns}>" for p, ns in sorted(self.made_up.items()))
