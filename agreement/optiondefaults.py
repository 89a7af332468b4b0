"""Default values of the façade's options that the ``lars`` command shows too.

The command line's parser (:mod:`agreement.cli.app`) and the façade's signatures
(:mod:`agreement.facade`) read them here, so that building the parser loads neither the
agreement check nor the witness search (:mod:`agreement.witness.find`, :mod:`agreement.witness.search`,
clingo): a command loads what it runs (start-up cost, issue 17).
"""

DEFAULT_MAX_EXPLANATIONS = 20
"""Disagreeing intervals explained by default (``lars agree``); the others are listed without
reasons."""
PAPER_PAIR = ("paper-pull", "paper-push")
"""The profiles ``lars witness`` compares by default: the paper's C-SPARQL (pull) and CQELS
(push)."""
DEFAULT_MAX_GROUND = 3_000_000
"""A witness search whose ground program is estimated larger is refused."""
