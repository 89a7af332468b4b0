"""``lars witness``: the smallest stream on which two engines disagree (SPEC section 13).

Read first: :mod:`~agreement.witness.find` (the search end to end: both sides, the bounds, the
result).

* :mod:`~agreement.witness.vocabulary` — the finite vocabulary stream triples are guessed from;
* :mod:`~agreement.witness.search` — the one clingo program that guesses a stream and evaluates
  both sides on it, and its solving;
* :mod:`~agreement.witness.report` — the witness as text (timestamped N-Triples) and JSON;
* :mod:`~agreement.witness.child` — the search in a child process, so that ``--time-limit``
  holds while clingo grounds.

Imports: what all commands share, the agreement check's verdicts and report
(:mod:`agreement.agree.modes`, :mod:`agreement.agree.report`), and the floors below.
"""
