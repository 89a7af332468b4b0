"""Relations of body atoms: keys for constants, patterns that match atoms, relations with deltas.

The *relation* of a body atom at ``t`` is the set of tuples of its variables' values for which it
holds (the auxiliary predicate ``__a<r>_<j>`` of :mod:`solver.encode`). Columns are the atom's
variables (with ``T`` of ``@_T``) in alphabetical order, as in
:func:`solver.encode.auxiliary_head`. Values are *keys* (:mod:`solver.keys`). A relation reports
what entered and left it since it was last asked (its *delta*).

>>> from lars.parser import parse_atom
>>> pattern = Pattern(parse_atom("p(Y,a,X)"), ("X", "Y"))
>>> pattern.match(parse_atom('p(1,a,"s")')), pattern.match(parse_atom("p(1,b,2)"))
(('"s', 1), None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import repeat

from lars.atoms import Atom
from lars.terms import Variable
from solver.keys import Key, KeyedSlice, Tuple, key_of

Delta = tuple[list[Tuple], list[Tuple]]
RangeFunction = Callable[[int], tuple[int, int]]
NO_CHANGE: Delta = ([], [])


class Pattern:
    """Matches ground atoms against a body atom and returns the tuple of its variables' keys.

    Args:
        atom: the body atom (constants and variables; a variable may repeat).
        columns: the relation's columns, variable names in order.
        time_variable: the ``T`` of ``@_T``, whose value is the time point (given to :meth:`match`).
    """

    def __init__(self, atom: Atom, columns: tuple[str, ...], time_variable: str | None = None):
        self.atom = atom
        self.columns = columns
        self.time_variable = time_variable
        self.slots = [(arg.name, None) if isinstance(arg, Variable) else (None, key_of(arg))
                      for arg in atom.args]
        names = [name for name, _ in self.slots if name is not None]
        self.identity = (time_variable is None and len(names) == len(atom.args)
                         and tuple(names) == columns)
        first: dict[str, int] = {}
        self.constant_keys = [(i, constant) for i, (name, constant) in enumerate(self.slots)
                              if name is None]
        self.repeats = [(i, first.setdefault(name, i)) for i, (name, _) in enumerate(self.slots)
                        if name is not None and first.setdefault(name, i) != i]
        self.picks = [first.get(name, -1) for name in columns]  # -1: the time variable

    def match_keys(self, keys: Tuple, time: int | None = None) -> Tuple | None:
        """:meth:`match` for an atom given by the keys of its arguments (``keys_of(atom)``):
        several body atoms over one derived predicate key its atoms once."""
        if self.identity:
            return keys
        for i, constant in self.constant_keys:
            if keys[i] != constant:
                return None
        for i, j in self.repeats:
            if keys[i] != keys[j]:
                return None
        return tuple([keys[i] if i >= 0 else time for i in self.picks])

    def match(self, atom: Atom, time: int | None = None) -> Tuple | None:
        """The column keys if ``atom`` (at ``time``, for ``@_T``) matches, else ``None``."""
        if self.identity:
            return tuple([key_of(arg) for arg in atom.args])
        binding: dict[str, Key] = {}
        if self.time_variable is not None:
            binding[self.time_variable] = time
        for (name, constant), arg in zip(self.slots, atom.args):
            value = key_of(arg)
            if name is None:
                if value != constant:
                    return None
            else:
                bound = binding.get(name)
                if bound is None:
                    binding[name] = value
                elif bound != value:
                    return None
        return tuple([binding[name] for name in self.columns])

    def matches(self, atoms: Iterable[Atom] | KeyedSlice, time: int | None = None) -> list[Tuple]:
        """The tuples of the atoms that match (atoms of the pattern's signature only); from a
        :class:`KeyedSlice`, only its atoms with the pattern's first constant are looked at."""
        if type(atoms) is KeyedSlice:
            if self.identity:
                return atoms.keys()
            candidates = (atoms.having(*self.constant_keys[0]) if self.constant_keys
                          else atoms.keys())
            match = self.match_keys
            return [values for values in (match(keys, time) for keys in candidates)
                    if values is not None]
        if self.identity:
            return [tuple([key_of(arg) for arg in atom.args]) for atom in atoms]
        found = (self.match(atom, time) for atom in atoms)
        return [values for values in found if values is not None]


class Counted:
    """A multiset of tuples whose support (the relation) reports its changes as a delta."""

    def __init__(self) -> None:
        self.tuples: dict[Tuple, int] = {}
        self._flipped: dict[Tuple, bool] = {}

    def enter(self, time: int, tuples: list[Tuple]) -> None:
        """The tuples of a slice that entered the window (:class:`Latest`'s interface)."""
        self.add_all(tuples)

    def leave(self, time: int, tuples: list[Tuple]) -> None:
        """The tuples of a slice that left the window."""
        self.remove_all(tuples)

    def add(self, values: Tuple) -> None:
        self.add_all((values,))

    def remove(self, values: Tuple) -> None:
        self.remove_all((values,))

    def add_all(self, tuples: Iterable[Tuple]) -> None:
        """One more occurrence of each of ``tuples`` (a tuple listed twice counts twice)."""
        counts, flipped = self.tuples, self._flipped
        find = counts.get
        for values in tuples:
            count = find(values)
            if count is None:
                counts[values] = 1
                if values not in flipped:
                    flipped[values] = False
            else:
                counts[values] = count + 1

    def remove_all(self, tuples: Iterable[Tuple]) -> None:
        """One occurrence less of each of ``tuples`` (each occurs)."""
        counts, flipped = self.tuples, self._flipped
        for values in tuples:
            count = counts[values]
            if count == 1:
                del counts[values]
                if values not in flipped:
                    flipped[values] = True
            else:
                counts[values] = count - 1

    def delta(self) -> Delta:
        """Tuples that entered and left the support since the last call."""
        if not self._flipped:
            return NO_CHANGE
        added = [v for v, was in self._flipped.items() if not was and v in self.tuples]
        removed = [v for v, was in self._flipped.items() if was and v not in self.tuples]
        self._flipped = {}
        return added, removed


class Latest:
    """A set of tuples, each with the latest time point it occurred at (``tuples``), for ``◇``
    over a window that slides forward: a tuple leaves when the slice of its latest occurrence
    leaves, unless it is *pinned* (background). Reports its changes as a delta, like
    :class:`Counted`, with less work per tuple: a slice enters with one ``dict.update``.

    Slices enter in time order, and at each step before the older ones leave (so a tuple
    that leaves and comes back in one step does not change).

    >>> latest = Latest()
    >>> latest.enter(0, [(1,), (2,), (1,)]); latest.delta()
    ([(1,), (2,)], [])
    >>> latest.enter(1, [(2,)]); latest.leave(0, [(1,), (2,), (1,)]); latest.delta()
    ([], [(1,)])
    """

    def __init__(self) -> None:
        self.tuples: dict[Tuple, int | None] = {}
        self.pinned: set[Tuple] = set()
        self._added: list[Tuple] = []
        self._removed: list[Tuple] = []

    def enter(self, time: int, tuples: list[Tuple]) -> None:
        """The tuples of the slice at ``time`` (later than every slice before)."""
        latest = self.tuples
        self._added += [values for values in tuples if values not in latest]
        latest.update(zip(tuples, repeat(time)))

    def leave(self, time: int, tuples: list[Tuple]) -> None:
        """The tuples of the slice at ``time``, which left the window."""
        latest, pinned = self.tuples, self.pinned
        gone = dict.fromkeys([values for values in tuples if latest.get(values) == time
                              and values not in pinned] if pinned else
                             [values for values in tuples if latest.get(values) == time])
        for values in gone:
            del latest[values]
        self._removed += gone

    def pin(self, tuples: list[Tuple]) -> None:
        """Tuples that never leave."""
        self.pinned.update(tuples)
        self._added += [values for values in tuples if values not in self.tuples]
        self.tuples.update(dict.fromkeys(tuples))

    def delta(self) -> Delta:
        """Tuples that entered and left since the last call."""
        if not self._added and not self._removed:
            return NO_CHANGE
        delta = list(dict.fromkeys(self._added)), self._removed
        self._added, self._removed = [], []
        return delta


class Computed:
    """A relation recomputed when its inputs change; the delta is a set difference."""

    def __init__(self) -> None:
        self.tuples: frozenset[Tuple] | set[Tuple] = frozenset()

    def replace(self, new: set[Tuple] | frozenset[Tuple]) -> Delta:
        old, self.tuples = self.tuples, new
        if old == new:
            return NO_CHANGE
        return list(new - old), list(old - new)
