"""Rules and programs (SPEC section 3).

A rule ``α ← β1,…,βj, not βj+1,…, not βn`` has a head ``a`` or ``@_T a`` and a body of
literals; each literal is an extended atom or a built-in comparison, possibly negated. A rule
with an empty body is a fact that holds at every reference time. Rules carry the position they
were parsed from (not part of equality) so that later errors can point at them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from lars.atoms import Atom, Comparison
from lars.errors import Position
from lars.formulas import AtAtom, ExtendedAtom, Fold

Head = Union[Atom, AtAtom]
BodyFormula = Union[ExtendedAtom, Comparison, Fold]


@dataclass(frozen=True)
class Literal:
    """A body element: ``formula`` or ``not formula``."""

    formula: BodyFormula
    negated: bool = False

    def variables(self) -> frozenset[str]:
        return self.formula.variables()


@dataclass(frozen=True)
class Rule:
    """``head ← body``; ``position`` is where the rule starts in its source text, if parsed."""

    head: Head
    body: tuple[Literal, ...] = ()
    position: Position | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def positive_body(self) -> tuple[Literal, ...]:
        return tuple(lit for lit in self.body if not lit.negated)

    @property
    def negative_body(self) -> tuple[Literal, ...]:
        return tuple(lit for lit in self.body if lit.negated)

    def variables(self) -> frozenset[str]:
        names = self.head.variables()
        for literal in self.body:
            names |= literal.variables()
        return names


@dataclass(frozen=True)
class Program:
    """An ordered tuple of rules (order is kept so that printing and parsing round-trip)."""

    rules: tuple[Rule, ...] = ()

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)
