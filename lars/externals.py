"""External functions: Python code that computes a term's value at grounding time.

A :class:`~lars.terms.Function` term ``@name(t1,...,tn)`` has the value that the function
registered under ``name`` returns for the values of its arguments. clingo calls it while
grounding (its ``@name(...)`` external functions, through :class:`solver.symbols.Context`) and the
Python strategies call the same function through :func:`lars.terms.evaluate`, so every strategy
computes the same values. Functions take and return constants (:data:`lars.terms.Constant`);
they must be total and deterministic: an operation that fails returns a constant saying so (the
RDF functions of :mod:`translate.sparqlfunctions` return ``error``), never raises.

A process that solves a program must have imported the modules that register its functions;
:func:`modules_of` names them so that a child process can import them (:func:`load`).

>>> @external("twice_demo")
... def _twice(x):
...     from lars.terms import Number
...     return Number(2 * x.value)
>>> from lars.terms import Function, Number, evaluate
>>> evaluate(Function("twice_demo", (Number(4),)), {})
Number(value=8)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from lars.errors import UnsupportedError

_FUNCTIONS: dict[str, Callable] = {}
_MODULES: dict[str, str] = {}
_VALUES: dict[tuple, object] = {}

VALUES_KEPT = 1 << 14
"""Values of :func:`call` remembered; the memory is emptied when it grows past this. A filter
such as ``FILTER(?value > 80)`` is called once per candidate binding, and on a sensor stream the
same few values come back all day: on CSRBench Q1 replayed to 10^5 triples the comparison (rdflib's
operator behind it) was a sixth of the solving time."""


LONG_VALUE = 1 << 12
"""A value with a longer text is not remembered by :func:`call` (the memory counts entries, and a
GROUP_CONCAT over 10^4 literals of 1 KB makes a new 10 MB value at each time point, issue 29)."""


def external(name: str) -> Callable[[Callable], Callable]:
    """Register the decorated function as the external function ``@name``."""
    def register(function: Callable) -> Callable:
        _FUNCTIONS[name] = function
        _MODULES[name] = function.__module__
        _VALUES.clear()  # values remembered may be another function's
        return function
    return register


def lookup(name: str) -> Callable:
    """The function registered as ``@name``.

    Raises:
        UnsupportedError: no imported module registers ``@name``.
    """
    try:
        return _FUNCTIONS[name]
    except KeyError:
        raise UnsupportedError(f"unknown external function @{name}",
                               hint="import the module that registers it") from None


def is_registered(name: str) -> bool:
    """Whether an imported module registers ``@name``."""
    return name in _FUNCTIONS


def call(name: str, args: tuple):
    """The value of ``@name(*args)``, remembered (unless its text is longer than
    :data:`LONG_VALUE`): external functions are deterministic (see the module docstring), so a
    call with the same constants gives the same constant.

    Raises:
        UnsupportedError: no imported module registers ``@name``.
    """
    key = (name, args)
    try:
        return _VALUES[key]
    except KeyError:
        pass
    value = lookup(name)(*args)
    if type(getattr(value, "value", None)) is str and len(value.value) > LONG_VALUE:
        return value
    if len(_VALUES) >= VALUES_KEPT:
        _VALUES.clear()
    _VALUES[key] = value
    return value


def modules_of(names: Iterable[str]) -> tuple[str, ...]:
    """The modules that register the functions ``names`` (those known here), sorted."""
    return tuple(sorted({_MODULES[name] for name in names if name in _MODULES}))


def load(modules: Iterable[str]) -> None:
    """Import ``modules`` (named by :func:`modules_of`) so that their functions are registered."""
    for module in modules:
        importlib.import_module(module)
