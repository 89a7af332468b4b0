"""Do engines agree? The comparison of answer streams, and the façade the CLI and notebooks call.

Read first: the façade (:mod:`agreement.facade`), one function per ``lars`` subcommand, re-exported
here so a notebook writes ``from agreement import run, check_agreement``:

* :func:`translate_query` — a query → its LARS program (``lars translate``);
* :func:`run` — a program or query over a stream → the answer stream (``lars run``);
* :func:`check_agreement` — do C-SPARQL and CQELS agree, interval by pulling interval (``lars agree``);
* :func:`analyze_query` — the paper's sufficient conditions, from the query alone;
* :func:`search_witness` — the smallest stream on which they disagree (``lars witness``).
* :func:`check_recording` — is an engine's recorded answer stream correct (``lars check``)?
* :class:`~agreement.options.Options` — the options every function takes, in a few groups
  (``Options.of(stream=..., unit="1m")``; or the same fields as keyword arguments).
* :func:`translate_event_query`, :func:`run_events`, :func:`compare_events` — RSEP-QL event
  queries under engine profiles (``docs/events.md``).

One room per command, with what every command shares here at the top:

* shared: :mod:`~agreement.facade` (the calls), :mod:`~agreement.options` (their options), :mod:`~agreement.answers` (the one answer
  model), :mod:`~agreement.compare` (answer series and the verdict per pulling interval, SPEC
  section 9), :mod:`~agreement.defaults` and :mod:`~agreement.optiondefaults` (what a command
  takes when an option is left out), :mod:`~agreement.recorded` (answers recorded from engines),
  :mod:`~agreement.sources` (arguments given as text or path), :mod:`~agreement.spans`
  (intervals and ranges);
* :mod:`agreement.run` — ``lars run`` and ``lars translate``;
* :mod:`agreement.agree` — ``lars agree``: the check, its explanations and report;
* :mod:`agreement.check` — ``lars check``: recorded answers judged under an engine profile;
* :mod:`agreement.witness` — ``lars witness`` (SPEC section 13);
* :mod:`agreement.events` — RSEP-QL event queries and the comparison of event profiles;
* :mod:`agreement.cli` — the ``lars`` command; :mod:`agreement.notebook` — views and plots.

Imports: every other package (:mod:`lars`, :mod:`translate`, :mod:`ingest`, :mod:`solver`);
nothing imports this one.
"""

from lars.lazy import lazy_names

__all__ = ["Options", "analyze_query", "check_agreement", "check_recording", "check_variants",
           "compare_events", "prepare_run", "run", "run_events", "search_witness",
           "translate_event_query", "translate_query", "translate_variants"]
# The façade's names, imported on first use: the ``lars`` command (:mod:`agreement.cli`) loads
# only what its subcommand needs, not the façade's every module.
lazy_names(__name__, dict.fromkeys(__all__, "agreement.facade") | {"Options": "agreement.options"})
