"""τ(ω): RSP windows as LARS window operators (paper Table 1, SPEC section 4).

| RSP window | closed (default) | left-open ``(t-L, t]`` | right-open ``[t-L, t)`` |
|---|---|---|---|
| ``[RANGE L]`` | ``⊞^L`` | ``⊞^{L-1}`` | ``⊞^L @_T a``, ``T < now`` |
| ``[RANGE L STEP D]``, ``[RANGE L SLIDE D]`` | ``⊞^{L,0,D}`` | ``⊞^{L-1,0,D}`` | ``⊞^{L,0,D} @_T a``, ``T < t'`` |
| ``[RANGE L TUMBLING]`` | ``⊞^{L,0,L}`` | ``⊞^{L-1,0,L}`` | ``⊞^{L,0,L} @_T a``, ``T < t'`` |
| ``[TRIPLES N]``, ``[ROWS N]`` on stream ``s`` | ``⊞^{#N, striple(_,_,_,s)}`` | same | same |
| ``[NOW]`` | ``⊞^0`` | same | same |
| ``[ALL]``, ``[RANGE UNBOUNDED]`` | ``⊞^∞`` | same | same |

A triple window counts the triples of its own stream only (RSP-QL, CSRBench): ``⊞^{#N}`` over
the whole LARS stream would let a later triple of another stream push them out, so it counts
the substream ``striple(_,_,_,s)`` (:class:`lars.windows.TupleWindow`).

``⊞^L`` covers the ``L+1`` points ``[t-L, t]``. The half-open readings cover ``L`` points.
``(t-L, t]`` is ``⊞^{L-1}``. ``[t-L, t)`` ends one tick before the window's pivot
``t' = floor(t/D)*D``, which a LARS window cannot say (its ``ahead`` is at least 0). So the atom is
read with ``@_T`` instead of ``◇`` and compared with the pivot, which ``⊞^{0,0,D} @_N true``
binds: ``⊞^{L,0,D} ◇ a`` becomes ``⊞^{L,0,D} @_T a, ⊞^{0,0,D} @_N true, T < N``.
``[RANGE 0]`` selects nothing under a half-open reading and is refused.

>>> window_literals(RangeWindow(30), Atom("p"), "closed")
(Literal(formula=WindowAtom(window=TimeWindow(length=30, ahead=0, step=1), modality=Diamond(), atom=Atom(predicate='p', args=())), negated=False),)
>>> tau_window(RangeWindow(10, 5), "left-open")
TimeWindow(length=9, ahead=0, step=5)
>>> from lars.terms import Iri, Variable
>>> window_literals(TriplesWindow(2), Atom("striple", (*map(Variable, "SPO"), Iri("s"))))[0].formula.window
TupleWindow(size=2, substream=Atom(predicate='striple', args=(Variable(name='_'), Variable(name='_'), Variable(name='_'), Iri(value='s'))))
"""

from __future__ import annotations

from collections.abc import Sequence

from lars.atoms import TRUE_PREDICATE, Atom, Comparison
from lars.errors import InputError, UnsupportedError
from lars.formulas import DIAMOND, At, WindowAtom
from lars.rules import Literal
from lars.terms import CONSTANT_TYPES
from lars.windows import ANY, NOW, UNBOUNDED, TimeWindow, TupleWindow, Window
from translate.rdf import STRIPLE
from translate.names import internal_variable
from translate.rsp import AllWindow, NowWindow, RangeWindow, RspWindow, TriplesWindow

READINGS = ("closed", "left-open", "right-open")
"""Boundary readings of ``[RANGE L]``: the paper's ``[t-L, t]``, C-SPARQL/RSP-QL's ``(t-L, t]``,
the CSRBench oracle's and RSP4J's ``[t-L, t)``."""


def check_reading(reading: str) -> str:
    if reading not in READINGS:
        raise InputError(f"unknown window boundary reading '{reading}'",
                         hint="use one of " + ", ".join(READINGS))
    return reading


def tau_window(window: RspWindow, reading: str = "closed", atom: Atom | None = None) -> Window:
    """The LARS window that reads ``window`` (for ``right-open``: the one before the cut-off);
    a triple window needs the ``atom`` it reads (:func:`triples_window`)."""
    check_reading(reading)
    if isinstance(window, TriplesWindow):
        return triples_window(window, atom)
    if isinstance(window, NowWindow):
        return NOW
    if isinstance(window, AllWindow):
        return UNBOUNDED
    if reading != "closed" and window.length == 0:
        raise InputError(f"[RANGE 0] selects nothing under the {reading} boundary reading")
    length = window.length - 1 if reading == "left-open" else window.length
    return TimeWindow(length, 0, window.step)


def triples_window(window: TriplesWindow, atom: Atom | None) -> TupleWindow:
    """``⊞^{#N, striple(_,_,_,s)}``: the latest ``N`` triples of the stream ``s`` that ``atom``
    (``striple(S,P,O,s)``) reads.

    Raises:
        UnsupportedError: ``atom`` is not a ``striple`` atom of a constant stream, so the
            substream to count is unknown (counting every stream would be a wrong answer).
    """
    if atom is None or atom.predicate != STRIPLE or len(atom.args) != 4 \
            or not isinstance(atom.args[3], CONSTANT_TYPES):
        raise UnsupportedError("a triple window [TRIPLES n] over anything but one named stream")
    return TupleWindow(window.count, Atom(STRIPLE, (ANY, ANY, ANY, atom.args[3])))


def needs_cutoff(window: RspWindow, reading: str) -> bool:
    """Whether the window is read with ``@_T`` and ``T < N`` (right-open range windows)."""
    return reading == "right-open" and isinstance(window, RangeWindow)


def cutoff_literal(window: RangeWindow) -> Literal:
    """``⊞^{0,0,D} @_N true``: binds ``_N`` to the pivot ``floor(t/D)*D``."""
    return Literal(WindowAtom(TimeWindow(0, 0, window.step), At(internal_variable("N")),
                              Atom(TRUE_PREDICATE)))


def window_literals(window: RspWindow, atoms: Atom | Sequence[Atom],
                    reading: str = "closed") -> tuple[Literal, ...]:
    """Body literals saying that each atom holds in ``τ(ω)`` under ``reading``.

    One window atom ``τ(ω) ◇ a`` per atom; right-open range windows use ``τ(ω) @_Tk a`` with
    ``Tk < _N`` and one shared :func:`cutoff_literal`.
    """
    atoms = [atoms] if isinstance(atoms, Atom) else list(atoms)
    if not needs_cutoff(window, reading):
        return tuple(Literal(WindowAtom(tau_window(window, reading, atom), DIAMOND, atom))
                     for atom in atoms)
    lars_window = tau_window(window, reading)
    literals = [cutoff_literal(window)]
    for k, atom in enumerate(atoms, start=1):
        time = internal_variable("T", k)
        literals.append(Literal(WindowAtom(lars_window, At(time), atom)))
        literals.append(Literal(Comparison("<", time, internal_variable("N"))))
    return tuple(literals)
