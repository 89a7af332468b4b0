"""The RSEP-QL event query model (paper 001, Dell'Aglio et al., sections 3.2–3.4).

Frozen values only; :mod:`translate.eventreader` builds them, :mod:`translate.eventrules`
translates them to LARS, and the oracle in ``tests/oracles/events.py`` evaluates them directly.

* windows (Definition 3): :class:`~translate.rsp.RangeWindow` is the time-based ``W^τ(α, β)``,
  which the paper defines left-open, ``t' − α < t_i ≤ t'`` with ``t' = ⌊t/β⌋·β``;
  :class:`LandmarkWindow` is ``W^λ(t0)``, ``t0 ≤ t_i ≤ t``; :class:`~translate.rsp.AllWindow` is
  the identity window ``W^id`` (read as a stream reasoner reads it: input up to ``t``);
* :class:`NamedWindow` — ``(w_j, W_j(S_ℓ))`` of the dataset (Definition 4);
* event patterns (section 3.3): :class:`Basic` ``EVENT w P``, :class:`First`, :class:`Last`,
  :class:`Seq` with a selection policy (section 4.3): ``unrestricted`` (equation 7), ``naive``
  (``SEQ^n``, equation 9), ``chronological`` (``SEQ^c``, equation 10), ``recent`` (``SEQ^r``,
  equation 11);
* :class:`EventQuery` — ``SELECT … WHERE { MATCH { E } }`` (equation 8) with its windows.

Event mappings ``(μ, t1, t2)`` are compared with the interval order the paper leaves open
("a partial order ≺ is given"): ``(t1, t2) ≺ (t3, t4)`` iff ``t2 < t3``, the event ends before the
other starts. It is the order SEQ itself uses (``E1`` must end before ``t3``), and on the
point events of basic patterns it is ``t < t'``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from rdflib import URIRef

from translate.rsp import BGP, AllWindow, RangeWindow, Var

SELECTIONS = ("unrestricted", "naive", "chronological", "recent")
"""Selection policies of SEQ, in the order of the paper's equations (7), (9), (10), (11)."""

SEQ_KEYWORDS = {"SEQ": "unrestricted", "SEQ^N": "naive", "SEQ^C": "chronological",
                "SEQ^R": "recent"}
"""The ASCII spellings of the SEQ variants (also ``SEQN``, ``SEQC``, ``SEQR``)."""


@dataclass(frozen=True)
class LandmarkWindow:
    """``[LND t0]``: ``W^λ(t0)``, the stream from time point ``t0`` (in ticks) up to now."""

    start: int


EventWindow = Union[RangeWindow, LandmarkWindow, AllWindow]


@dataclass(frozen=True)
class NamedWindow:
    """``FROM NAMED <stream> WIN [window] AS <name>``."""

    name: URIRef
    stream: URIRef
    window: EventWindow


@dataclass(frozen=True)
class Basic:
    """``EVENT ON <window> { BGP } AS label``: a basic event pattern (equation 4)."""

    window: URIRef
    pattern: BGP
    label: str = field(default="", compare=False)


@dataclass(frozen=True)
class First:
    """``FIRST E`` (equation 5): the events of ``E`` that no event of ``E`` precedes."""

    operand: EventPattern


@dataclass(frozen=True)
class Last:
    """``LAST E`` (equation 6): the events of ``E`` that precede no event of ``E``."""

    operand: EventPattern


@dataclass(frozen=True)
class Seq:
    """``E1 SEQ E2`` with a selection policy of :data:`SELECTIONS` (equations 7, 9–11)."""

    left: EventPattern
    right: EventPattern
    selection: str = "unrestricted"

    def __post_init__(self) -> None:
        if self.selection not in SELECTIONS:
            raise ValueError(f"unknown selection policy {self.selection!r}")


EventPattern = Union[Basic, First, Last, Seq]


@dataclass(frozen=True)
class EventQuery:
    """An RSEP-QL query ``SELECT V … WHERE { MATCH { E } }`` (Definition 5 without ``ET``,
    which the execution profile gives).

    Attributes:
        variables: the result variables in SELECT order.
        windows: the named windows, by name.
        pattern: the event pattern ``E`` of MATCH.
        engine: ``rsep`` (the event syntax) or ``csparql`` (the ``timestamp()`` idiom).
        every: a C-SPARQL ``COMPUTED EVERY`` period in ticks, or the step of its window.
        unit_ms: the length of one tick in milliseconds.
        prefixes: ``(prefix, namespace)`` pairs, for printing.
    """

    variables: tuple[Var, ...]
    windows: tuple[NamedWindow, ...]
    pattern: EventPattern
    engine: str = field(default="rsep", compare=False)
    every: int | None = field(default=None, compare=False)
    unit_ms: int = field(default=1000, compare=False)
    prefixes: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)

    def window(self, name: URIRef) -> NamedWindow:
        return next(w for w in self.windows if w.name == name)


def pattern_variables(pattern: EventPattern) -> frozenset[str]:
    """``var(E)``: the variables of every basic pattern in ``E``."""
    if isinstance(pattern, Basic):
        return frozenset(t.name for triple in pattern.pattern.triples for t in triple.terms()
                         if isinstance(t, Var))
    if isinstance(pattern, (First, Last)):
        return pattern_variables(pattern.operand)
    return pattern_variables(pattern.left) | pattern_variables(pattern.right)


def with_selection(pattern: EventPattern, selection: str) -> EventPattern:
    """``pattern`` with every *unrestricted* SEQ read as ``selection`` (an engine setting:
    EP-SPARQL's query does not change, its chronological or recent setting does, paper §2)."""
    if isinstance(pattern, Basic):
        return pattern
    if isinstance(pattern, (First, Last)):
        return type(pattern)(with_selection(pattern.operand, selection))
    chosen = selection if pattern.selection == "unrestricted" else pattern.selection
    return Seq(with_selection(pattern.left, selection), with_selection(pattern.right, selection),
               chosen)


def pattern_text(pattern: EventPattern) -> str:
    """The pattern in the concrete syntax, basic patterns by label.

    >>> e1, e2 = Basic(URIRef("w1"), BGP(), "E1"), Basic(URIRef("w2"), BGP(), "E2")
    >>> pattern_text(First(Seq(e1, e2, "recent")))
    'FIRST (E1 SEQ^r E2)'
    """
    if isinstance(pattern, Basic):
        return pattern.label or f"EVENT ON <{pattern.window}>"
    if isinstance(pattern, (First, Last)):
        inner = pattern_text(pattern.operand)
        inner = f"({inner})" if isinstance(pattern.operand, Seq) else inner
        return f"{type(pattern).__name__.upper()} {inner}"
    keyword = {v: k for k, v in SEQ_KEYWORDS.items()}[pattern.selection].replace("^N", "^n")
    keyword = keyword.replace("^C", "^c").replace("^R", "^r")
    left = pattern_text(pattern.left)
    right = pattern_text(pattern.right)
    right = f"({right})" if isinstance(pattern.right, Seq) else right
    return f"{left} {keyword} {right}"
