"""Relations of body atoms: keys for constants, patterns that match atoms, relations with deltas.

The *relation* of a body atom at ``t`` is the set of tuples of its variables' values for which it
holds (the auxiliary predicate ``__a<r>_<j>`` of :mod:`solver.encode`). Columns are the atom's
variables (with ``T`` of ``@_T``) in alphabetical order, as in
:func:`solver.encode.auxiliary_head`. Values are *keys* (:func:`key_of`): a number is a Python
``int``, a name its text, a string or IRI its text behind ``"`` or ``<``. Keys hash and compare
in C, which the frozen dataclasses of :mod:`lars.terms` do not; they are decoded only for
comparisons and output (:func:`key_constant`). A relation reports what entered and left it since
it was last asked (its *delta*).

>>> from lars.parser import parse_atom
>>> pattern = Pattern(parse_atom("p(Y,a,X)"), ("X", "Y"))
>>> pattern.match(parse_atom('p(1,a,"s")')), pattern.match(parse_atom("p(1,b,2)"))
(('"s', 1), None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lars.atoms import Atom
from lars.terms import Constant, Iri, Name, Number, String, Variable

Key = int | str
Tuple = tuple[Key, ...]
Delta = tuple[list[Tuple], list[Tuple]]
RangeFunction = Callable[[int], tuple[int, int]]
NO_CHANGE: Delta = ([], [])

_NUMBERS: dict[int, Number] = {}


def number(value: int) -> Number:
    """``Number(value)``, shared (time points become constants of ``@_T`` tuples very often)."""
    found = _NUMBERS.get(value)
    if found is None:
        if len(_NUMBERS) > 1 << 12:
            _NUMBERS.clear()
        found = _NUMBERS[value] = Number(value)
    return found


def key_of(constant: Constant) -> Key:
    """The key of a constant (see the module docstring); distinct constants get distinct keys."""
    kind = type(constant)
    if kind is Number or kind is Name:
        return constant.value
    return ('"' if kind is String else "<") + constant.value


_CONSTANTS: dict[str, Constant] = {}


def key_constant(key: Key) -> Constant:
    """The constant of a key (inverse of :func:`key_of`), shared while it is recent: a head
    that copies stream atoms (C-SPARQL's ``triple``) rebuilds the same constants at every
    pull, and an ``Iri`` checks its text when made."""
    if type(key) is int:
        return number(key)
    found = _CONSTANTS.get(key)
    if found is None:
        if len(_CONSTANTS) > 1 << 14:
            _CONSTANTS.clear()
        mark = key[:1]
        found = _CONSTANTS[key] = (String(key[1:]) if mark == '"' else Iri(key[1:]) if mark == "<"
                                   else Name(key))
    return found


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
                return list(atoms.keys())
            candidates = (atoms.having(*self.constant_keys[0]) if self.constant_keys
                          else atoms.keys())
            match = self.match_keys
            return [values for values in (match(keys, time) for keys in candidates)
                    if values is not None]
        if self.identity:
            return [tuple([key_of(arg) for arg in atom.args]) for atom in atoms]
        found = (self.match(atom, time) for atom in atoms)
        return [values for values in found if values is not None]


def keys_of(atom: Atom) -> Tuple:
    """The keys of an atom's arguments."""
    return tuple([key_of(arg) for arg in atom.args])


class KeyedSlice:
    """The input atoms of one predicate at one time point, keyed once and indexed on demand for
    every body atom that reads them (:meth:`Pattern.matches`): a slice of 450 triples read by
    five ``striple`` patterns with constant predicates is keyed once, and each pattern looks at
    the triples with its predicate only.

    >>> from lars.parser import parse_atom
    >>> keyed = KeyedSlice([parse_atom("p(1,a)"), parse_atom("p(2,b)")])
    >>> Pattern(parse_atom("p(X,b)"), ("X",)).matches(keyed)
    [(2,)]
    """

    __slots__ = ("atoms", "_keys", "_indexes", "_keyed")

    def __init__(self, atoms: list[Atom]):
        self.atoms = atoms
        self._keys: list[Tuple] | None = None
        self._indexes: dict[int, dict[Key, list[Atom]]] = {}
        self._keyed: dict[tuple[int, Key], list[Tuple]] = {}

    def keys(self) -> list[Tuple]:
        if self._keys is None:
            self._keys = [tuple([key_of(arg) for arg in atom.args]) for atom in self.atoms]
        return self._keys

    def having(self, position: int, key: Key) -> list[Tuple]:
        """The keyed atoms with ``key`` at argument ``position``, in arrival order. Atoms are
        indexed by that argument's key alone and keyed whole only in the groups asked for (a
        query reads a few of a stream's predicates: CSRBench Q1 half of its triples)."""
        found = self._keyed.get((position, key))
        if found is None:
            index = self._indexes.get(position)
            if index is None:
                index = self._indexes[position] = {}
                for atom in self.atoms:
                    index.setdefault(key_of(atom.args[position]), []).append(atom)
            found = self._keyed[position, key] = [tuple([key_of(arg) for arg in atom.args])
                                                  for atom in index.get(key, ())]
        return found


class Counted:
    """A multiset of tuples whose support (the relation) reports its changes as a delta."""

    def __init__(self) -> None:
        self.tuples: dict[Tuple, int] = {}
        self._flipped: dict[Tuple, bool] = {}

    def add(self, values: Tuple) -> None:
        count = self.tuples.get(values, 0)
        if count == 0 and values not in self._flipped:
            self._flipped[values] = False
        self.tuples[values] = count + 1

    def remove(self, values: Tuple) -> None:
        count = self.tuples[values] - 1
        if count == 0:
            del self.tuples[values]
            if values not in self._flipped:
                self._flipped[values] = True
        else:
            self.tuples[values] = count

    def delta(self) -> Delta:
        """Tuples that entered and left the support since the last call."""
        if not self._flipped:
            return NO_CHANGE
        added = [v for v, was in self._flipped.items() if not was and v in self.tuples]
        removed = [v for v, was in self._flipped.items() if was and v not in self.tuples]
        self._flipped = {}
        return added, removed


class Computed:
    """A relation recomputed when its inputs change; the delta is a set difference."""

    def __init__(self) -> None:
        self.tuples: frozenset[Tuple] | set[Tuple] = frozenset()

    def replace(self, new: set[Tuple] | frozenset[Tuple]) -> Delta:
        old, self.tuples = self.tuples, new
        if old == new:
            return NO_CHANGE
        return list(new - old), list(old - new)
