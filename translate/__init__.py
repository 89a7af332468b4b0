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

from translate.api import (
    AnswerSpec, Translation, background_atoms, input_atoms, lars_stream, parse_query,
    query_background, translate,
)
from translate.rdf import RdfTermEncoder, chop
from translate.rsp import RspQuery
from translate.variants import cq, cq_variant, cs

__all__ = [
    "AnswerSpec", "RdfTermEncoder", "RspQuery", "Translation", "background_atoms", "chop", "cq",
    "cq_variant", "cs", "input_atoms", "lars_stream", "parse_query", "query_background",
    "translate",
]
