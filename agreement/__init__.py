"""Do engines agree? The comparison of answer streams, and the façade the CLI and notebooks call.

Read first: the façade (:mod:`agreement.facade`), one function per ``lars`` subcommand, re-exported
here so a notebook writes ``from agreement import run, check``:

* :func:`translate_query` — a query → its LARS program (``lars translate``);
* :func:`run` — a program or query over a stream → the answer stream (``lars run``);
* :func:`check` — do C-SPARQL and CQELS agree, interval by pulling interval (``lars agree``);
* :func:`analyze_query` — the paper's sufficient conditions, from the query alone;
* :func:`search_witness` — the smallest stream on which they disagree (``lars witness``).
* :func:`translate_event_query`, :func:`run_events`, :func:`compare_events` — RSEP-QL event
  queries under engine profiles (``docs/events.md``).

The comparison itself (SPEC section 9): :mod:`~agreement.compare` (verdicts per interval),
:mod:`~agreement.explain` and :mod:`~agreement.conditions` (which condition failed, with
witnesses), :mod:`~agreement.check` (one call per mode: computed or recorded answers),
:mod:`~agreement.recorded` (CSRBench answer files), :mod:`~agreement.report` (text and JSON),
:mod:`~agreement.analyze` (``--analyze``). Witnesses (SPEC section 13): :mod:`~agreement.witness`
(profiles, the search end to end), :mod:`~agreement.witnesssearch` (the clingo program),
:mod:`~agreement.vocabulary` (what is guessed), :mod:`~agreement.witnessreport` (text and JSON). Sub-rooms: :mod:`agreement.cli` (the ``lars`` command)
and :mod:`agreement.notebook` (views and plots).

Imports: every other package (:mod:`lars`, :mod:`translate`, :mod:`ingest`, :mod:`solver`);
nothing imports this one.
"""

from lars.lazy import lazy_names

__all__ = ["analyze_query", "check", "check_variants", "compare_events", "prepare_run", "run",
           "run_events", "search_witness", "translate_event_query", "translate_query",
           "translate_variants"]
# The façade's names, imported on first use: the ``lars`` command (:mod:`agreement.cli`) loads
# only what its subcommand needs, not the façade's every module.
lazy_names(__name__, dict.fromkeys(__all__, "agreement.facade"))
