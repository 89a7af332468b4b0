"""How far back in time the answer at ``t`` reads its input (SPEC 8), for shipping each range of
a split timeline its history (:mod:`solver.partition`) and for bounding the input facts a time
point holds in its windows whatever the strategy (:func:`solver.strategies.evaluate`).

A plain atom reads ``[t, t]``; a time window ``⊞^{l,u,d}`` starts at
``floor(t/d)*d - l >= t - (d - 1) - l``; ``⊞^∞`` and ``@_s a`` outside windows read the whole
timeline; a tuple window ``⊞^{#n}`` the latest ``n`` input atoms.

>>> from lars.parser import parse_program
>>> history_needed(parse_program("x :- [3,0,5] <> p. y :- [#4] <> q."))
Lookback(ticks=7, tuples=4, masks=frozenset(), substreams=frozenset())
"""

from __future__ import annotations

from dataclasses import dataclass

from lars.analysis import Signature, derived_predicates
from lars.atoms import Comparison
from lars.formulas import At, AtAtom, WindowAtom
from lars.rules import Program, Rule
from lars.terms import Variable
from lars.windows import TimeWindow, TupleWindow


@dataclass(frozen=True)
class Lookback:
    """How much history the answer at ``t`` needs.

    Attributes:
        ticks: input from ``[t - ticks, t]``; ``None`` means from the start of the timeline.
        tuples: the largest tuple window ``n`` (0 without tuple windows): the latest ``n``
            input atoms before a range are shipped with it.
        substreams: the tuple windows on a substream: for each, the latest ``n`` input atoms
            of its substream before a range are shipped with it too.
        masks: derived predicates whose input atoms are shipped from the whole history, because
            a head can derive them at a time point before the shipped history (see the module
            docstring); empty for most programs.
    """

    ticks: int | None
    tuples: int = 0
    masks: frozenset[Signature] = frozenset()
    substreams: frozenset[TupleWindow] = frozenset()

    @property
    def unbounded(self) -> bool:
        """Whether every range needs the whole history (``⊞^∞``, ``@_s a`` outside windows)."""
        return self.ticks is None


def formula_ticks(formula: object) -> int | None:
    """How far back one body formula reads input (``None``: the whole history)."""
    if isinstance(formula, AtAtom):
        return None
    if isinstance(formula, WindowAtom) and isinstance(formula.window, TimeWindow):
        window = formula.window
        return None if window.length is None else window.step - 1 + window.length
    return 0


def window_bound_times(rule: Rule) -> frozenset[str]:
    """Time variables a positive ``⊞ @_T a`` with a bounded window binds in ``rule``."""
    bound = set()
    for literal in rule.positive_body:
        formula = literal.formula
        if isinstance(formula, WindowAtom) and isinstance(formula.modality, At) \
                and isinstance(formula.modality.time, Variable) \
                and formula_ticks(formula) is not None:
            bound.add(formula.modality.time.name)
    return frozenset(bound)


def head_escapes(rule: Rule) -> bool:
    """Whether a head ``@_T a`` may put its atom before the window history of its body."""
    if not isinstance(rule.head, AtAtom):
        return False
    time = rule.head.time
    return not (isinstance(time, Variable) and time.name in window_bound_times(rule))


def history_needed(program: Program) -> Lookback:
    """The history each range must be shipped with (see the module docstring).

    Args:
        program: a LARS program.

    Returns:
        The widest lookback in ticks over all body atoms (``None`` if one reads the whole
        history), the largest tuple window, the tuple windows on a substream, and the masked
        derived predicates.
    """
    ticks: int | None = 0
    tuples = 0
    substreams: set[TupleWindow] = set()
    for rule in program:
        for literal in rule.body:
            formula = literal.formula
            if isinstance(formula, Comparison):
                continue
            if isinstance(formula, WindowAtom) and isinstance(formula.window, TupleWindow):
                tuples = max(tuples, formula.window.size)
                if formula.window.substream is not None:
                    substreams.add(formula.window)
                continue
            reach = formula_ticks(formula)
            ticks = None if ticks is None or reach is None else max(ticks, reach)
    escapes = ticks is not None and any(head_escapes(rule) for rule in program)
    masks = derived_predicates(program) if escapes else frozenset()
    return Lookback(ticks, tuples, masks, frozenset(substreams))
