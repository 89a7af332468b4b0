"""Modalities ◇ □ @ and extended atoms (SPEC section 3).

Extended atoms are ``a`` (an :class:`~lars.atoms.Atom`), ``@_t a`` (:class:`AtAtom`) and window
atoms ``⊞◇a``, ``⊞□a``, ``⊞@_t a`` (:class:`WindowAtom`). Inside a window, ``◇a`` holds if ``a``
holds at some point of the window, ``□a`` if at every point of the window's timeline, and
``@_t a`` if ``t`` is in the window and ``a`` holds at ``t``; ``t`` is a time constant or a
variable that the window binds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from lars.atoms import Atom
from lars.terms import Constant, Number, Variable
from lars.windows import Window

TimeTerm = Union[Number, Variable]


@dataclass(frozen=True)
class Diamond:
    """``◇``: at some time point of the window."""


@dataclass(frozen=True)
class Box:
    """``□``: at every time point of the window's timeline."""


@dataclass(frozen=True)
class At:
    """``@_t``: at time point ``t`` (a number or a variable)."""

    time: TimeTerm

    def variables(self) -> frozenset[str]:
        return self.time.variables()


Modality = Union[Diamond, Box, At]
DIAMOND = Diamond()
BOX = Box()


@dataclass(frozen=True)
class AtAtom:
    """``@_t a`` outside a window: ``t`` is in the timeline and ``a`` holds at ``t``."""

    time: TimeTerm
    atom: Atom

    def variables(self) -> frozenset[str]:
        return self.time.variables() | self.atom.variables()


@dataclass(frozen=True)
class WindowAtom:
    """``⊞ M a``: modality ``M`` evaluated on the substream the window selects."""

    window: Window
    modality: Modality
    atom: Atom

    def variables(self) -> frozenset[str]:
        time_vars = self.modality.variables() if isinstance(self.modality, At) else frozenset()
        return time_vars | self.atom.variables()


ExtendedAtom = Union[Atom, AtAtom, WindowAtom]


@dataclass(frozen=True)
class Fold:
    """``R = fold{f, A, V : a}``: ``R`` is the fold ``f`` of the values ``V`` of the instances of
    the atom ``a`` that agree on its other variables (the group), taken in the order of ``A``.

    ``A`` and ``V`` are local to the fold; the other variables of ``a`` and ``R`` are bound by it,
    once per group with at least one instance. The fold calls the external functions
    ``@agg_start(f,V)``, ``@agg_step(f,S,V)`` and ``@agg_result(f,S)`` (:mod:`lars.folds`
    has its meaning and its expansion into plain rules).
    """

    result: Variable
    function: Constant
    element: Variable
    value: Variable
    atom: Atom

    def variables(self) -> frozenset[str]:
        return self.result.variables() | self.groups()

    def groups(self) -> frozenset[str]:
        """The variables of the atom that name the group (all but ``A`` and ``V``)."""
        return self.atom.variables() - {self.element.name, self.value.name}


def base_atom(formula: ExtendedAtom) -> Atom:
    """The ordinary atom inside an extended atom."""
    return formula if isinstance(formula, Atom) else formula.atom
