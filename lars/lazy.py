"""A package façade whose names are imported on first use (PEP 562).

Start-up cost (issue 17): ``import translate`` used to load rdflib's SPARQL parser, and
``import agreement`` every module of the comparison, the witness search and the notebook views,
even for a command that needs none of them. A package ``__init__`` keeps its public names but
says only where each lives; the module is imported when a name is first read::

    lazy_names(__name__, {"evaluate": "solver.strategies"})

A façade name may also be the name of a submodule (``agreement.agree.modes`` is both the function of
the façade and a module): importing the submodule must not replace the name, as it would with a
plain module ``__getattr__``, so the package's module class keeps façade names from being
rebound to a submodule.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> None:
    """Make the names of ``homes`` (name → the module defining it) attributes of ``package``
    (already in ``sys.modules``: call it from the package's ``__init__``) imported on first
    read; any other missing name is an :class:`AttributeError`, so ``from package import
    module`` still imports a submodule.

    >>> import types; sys.modules["made_up"] = types.ModuleType("made_up")
    >>> lazy_names("made_up", {"call_deep": "lars.deep"})
    >>> import made_up
    >>> "call_deep" in dir(made_up), "call_deep" in vars(made_up)  # listed, not yet imported
    (True, False)
    >>> made_up.call_deep = types.ModuleType("made_up.call_deep")  # importing a submodule does this
    >>> made_up.call_deep.__module__  # the façade's name stays
    'lars.deep'
    >>> made_up.nothing
    Traceback (most recent call last):
    ...
    AttributeError: module 'made_up' has no attribute 'nothing'
    >>> del sys.modules["made_up"]
    """

    class Facade(ModuleType):
        def __getattr__(self, name: str) -> Any:
            home = homes.get(name)
            if home is None:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            value = getattr(importlib.import_module(home), name)
            ModuleType.__setattr__(self, name, value)  # later reads are plain attribute reads
            return value

        def __dir__(self) -> list[str]:  # tab completion in notebooks lists the names too
            return sorted({*super().__dir__(), *homes})

        def __setattr__(self, name: str, value: Any) -> None:
            if name in homes and isinstance(value, ModuleType) and value.__name__ == f"{package}.{name}":
                return  # a submodule of the same name, bound by the import system
            ModuleType.__setattr__(self, name, value)

    sys.modules[package].__class__ = Facade
