"""Limits that protect the machine (SPEC section 11), importable without loading the solver.

The ``lars`` command shows their defaults in its options (``--max-facts``); the solver
(:mod:`solver.reference` and every strategy) enforces them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from lars.errors import LimitError

DEFAULT_MAX_FACTS = 5_000_000
DEFAULT_MAX_MODELS = 10_000
"""Answer streams (clingo's models) one time point may have: 30 independent even loops have 2^30,
which clingo would enumerate for hours."""
DEFAULT_MAX_DERIVED = 1_000_000
"""Atoms the rules may derive at one time point, in every strategy (``--max-ground`` or
``LARS_MAX_DERIVED`` overrides it; clingo's strategies count the atoms it grounds beyond the
facts given):
the closure of a property path over a chain of 3,000 edges is 4.5 million atoms, which took
over two minutes and 4 GB; two million took 73 s CPU and 2 GB (issue 28)."""
MAX_PARTITIONS = 10_000
"""The most ranges ``--partitions`` cuts a timeline into: each range is a task (a Spark task or a
worker process) and, for a stream file, a few seeks into it; 10^18 of them would never end."""


@dataclass
class Limits:
    """Limits that protect the machine (SPEC section 11); raise them with ``--max-facts`` and
    ``--max-models``."""

    max_facts: int = DEFAULT_MAX_FACTS
    max_models: int = DEFAULT_MAX_MODELS
    max_derived: int = field(default_factory=lambda: max_derived_default())


def max_derived_default() -> int:
    """``LARS_MAX_DERIVED`` if set (a positive integer), else :data:`DEFAULT_MAX_DERIVED`."""
    text = os.environ.get("LARS_MAX_DERIVED", "").strip()
    if not text:
        return DEFAULT_MAX_DERIVED
    if not text.isdigit() or int(text) < 1:
        raise LimitError(f"LARS_MAX_DERIVED must be a positive integer, not {text!r}")
    return int(text)


def too_many_derived(t: int, limit: int) -> LimitError:
    """The refusal of time point ``t``, at which the rules derive more than ``limit`` atoms."""
    return LimitError(f"time point {t} derives more than {limit:,} atoms",
                      hint="raise it with --max-ground N (or LARS_MAX_DERIVED=N)")


def ground_beyond_facts(control: object, facts: str) -> int:
    """The atoms clingo grounded for a text beyond its ``facts`` (one fact a line): what its
    rules may derive, counted before solving, so a grounding past the limit is refused before
    clingo searches it."""
    return len(control.symbolic_atoms) - facts.count("\n") - 1


def too_many_models(t: int, limit: int) -> LimitError:
    """The refusal of time point ``t``, which has more than ``limit`` answer streams."""
    return LimitError(f"time point {t} has more than {limit:,} answer streams (models)",
                      hint="raise it with --max-models")


def too_many_facts(t: int, count: int, limit: int) -> LimitError:
    """The refusal of time point ``t``, whose windows reach ``count`` input facts, over ``limit``
    (one message for every strategy)."""
    return LimitError(f"time point {t} would ground {count} input facts (limit {limit})",
                      hint="raise it with --max-facts")
