"""Limits that protect the machine (SPEC section 11), importable without loading the solver.

The ``lars`` command shows their defaults in its options (``--max-facts``); the solver
(:mod:`solver.reference` and every strategy) enforces them.
"""

from __future__ import annotations

from dataclasses import dataclass

from lars.errors import LimitError

DEFAULT_MAX_FACTS = 5_000_000
DEFAULT_MAX_MODELS = 10_000
"""Answer streams (clingo's models) one time point may have: 30 independent even loops have 2^30,
which clingo would enumerate for hours."""
MAX_PARTITIONS = 10_000
"""The most ranges ``--partitions`` cuts a timeline into: each range is a task (a Spark task or a
worker process) and, for a stream file, a few seeks into it; 10^18 of them would never end."""


@dataclass
class Limits:
    """Limits that protect the machine (SPEC section 11); raise them with ``--max-facts`` and
    ``--max-models``."""

    max_facts: int = DEFAULT_MAX_FACTS
    max_models: int = DEFAULT_MAX_MODELS


def too_many_models(t: int, limit: int) -> LimitError:
    """The refusal of time point ``t``, which has more than ``limit`` answer streams."""
    return LimitError(f"time point {t} has more than {limit:,} answer streams (models)",
                      hint="raise it with --max-models")


def too_many_facts(t: int, count: int, limit: int) -> LimitError:
    """The refusal of time point ``t``, whose windows reach ``count`` input facts, over ``limit``
    (one message for every strategy)."""
    return LimitError(f"time point {t} would ground {count} input facts (limit {limit})",
                      hint="raise it with --max-facts")
