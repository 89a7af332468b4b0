"""Limits that protect the machine (SPEC section 11), importable without loading the solver.

The ``lars`` command shows their defaults in its options (``--max-facts``); the solver
(:mod:`solver.reference` and every strategy) enforces them.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_FACTS = 5_000_000


@dataclass
class Limits:
    """Limits that protect the machine (SPEC section 11); raise them with ``--max-facts``."""

    max_facts: int = DEFAULT_MAX_FACTS
