"""The witness search's defaults (SPEC section 13), importable without loading the search.

``lars witness``'s options (:mod:`agreement.cli.witness`) and the façade's signature
(:func:`agreement.facade.search_witness`) show them; the search itself (:mod:`agreement.witness`,
:mod:`agreement.witnesssearch`, clingo and the time-indexed encoding) is loaded only when a
search runs (start-up cost, issue 17).
"""

PAPER_PAIR = ("paper-pull", "paper-push")
"""The profiles compared by default: the paper's C-SPARQL (pull) and CQELS (push)."""
DEFAULT_MAX_GROUND = 3_000_000
"""A search whose ground program is estimated larger is refused."""
