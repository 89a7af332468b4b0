"""LARS program + stream → answer streams per time point, with clingo (SPEC section 7).

Read first: :func:`evaluate` (:mod:`solver.strategies`), the one interface every caller uses; it
yields a :class:`TimePointAnswer` per time point of the timeline. Then the reference strategy
(:mod:`solver.reference`: a fresh clingo grounding per time point over the encoding of
:mod:`solver.encode`), the yardstick the faster :mod:`solver.incremental` engine is tested against.

* :mod:`solver.answers` — what every strategy returns; :mod:`solver.intervals` — the compact
  intervals view of an answer sequence;
* :mod:`solver.encode`, :mod:`solver.symbols` — LARS → ASP text, constants ↔ clingo symbols;
* :mod:`solver.formats`, :mod:`solver.sinks`, :mod:`solver.progress` — writing answers as they
  come; :mod:`solver.partition`, :mod:`solver.spark` — time ranges solved on Spark executors.

Imports: :mod:`lars` only (clingo; pyspark only inside :mod:`solver.spark`, when a session
starts). Never ``translate``, ``ingest`` or ``agreement``.
"""

from lars.lazy import lazy_names

_HOMES = {
    "AnswerStream": "solver.answers", "TimePointAnswer": "solver.answers",
    "canonical": "solver.answers", "Limits": "solver.limits", "STRATEGIES": "solver.strategies",
    "Slice": "solver.strategies", "evaluate": "solver.strategies",
}
__all__ = sorted(_HOMES)
# The façade's names, imported on first use: importing a module of ``solver`` (as the clingo
# child process does, :mod:`solver.incremental.clingoprocess`) does not load the engine.
lazy_names(__name__, _HOMES)
