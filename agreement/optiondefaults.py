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
DEFAULT_MAX_T0 = 1_000
"""``lars check`` with a profile whose t0 is any tries every t0 in ``[0, L]`` (``L`` the widest
window, in ticks), each a whole run; a query whose window holds more t0 values is refused
(``--max-t0``): CSRBench Q1 at ``--unit 1ms`` would try 10,001 of them."""
