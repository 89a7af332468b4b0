"""RSP query text → the query model ``Q`` → LARS programs (SPEC sections 4–6).

The façade names one function per stage; everything else lives in the modules below.

* :func:`parse_query` — C-SPARQL, CQELS or plain SPARQL text → :class:`RspQuery`;
* :func:`translate` — ``Q`` → :class:`Translation` (τ1(cs(Q)) for C-SPARQL, τ2 of a ``cq(Q)``
  variant for CQELS, τ for SPARQL; optionally push or pull);
* :func:`background_atoms`, :func:`query_background`, :func:`input_atoms`, :func:`lars_stream` —
  RDF data → LARS atoms and streams; :meth:`Translation.rows` — answers → rows.

Read first: :mod:`translate.api` (the façade), then :mod:`translate.rsp` (the query model),
:mod:`translate.tau` (τ), :mod:`translate.streamrules` (τ1, τ2), :mod:`translate.rspwindows`
(τ(ω)) and :mod:`translate.triggers` (℘ push and pull). RSEP-QL event queries (paper 001,
``docs/events.md``): :mod:`translate.events` (model), :mod:`translate.eventreader`,
:mod:`translate.eventtree` and :mod:`translate.eventrules` (→ LARS), :mod:`translate.eventprofiles`.

Imports: :mod:`lars` only (rdflib for SPARQL parsing and RDF terms); never ``ingest``,
``solver`` or ``agreement``.
"""

from lars.lazy import lazy_names

_HOMES = {
    "AnswerSpec": "translate.api", "Translation": "translate.api",
    "background_atoms": "translate.api", "input_atoms": "translate.api",
    "lars_stream": "translate.api", "parse_query": "translate.api",
    "query_background": "translate.api", "translate": "translate.api",
    "RdfTermEncoder": "translate.rdf", "chop": "translate.rdf", "RspQuery": "translate.rsp",
    "cq": "translate.variants", "cq_variant": "translate.variants", "cs": "translate.variants",
}
__all__ = sorted(_HOMES)
# The façade's names, imported on first use: a module of ``translate`` that needs no SPARQL
# (e.g. the engine profiles' names for ``lars --help``) does not load rdflib's parser.
lazy_names(__name__, _HOMES)
