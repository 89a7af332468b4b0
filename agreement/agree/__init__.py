"""``lars agree``: do two engines agree on a query and a stream, interval by pulling interval?

Read first: :mod:`~agreement.agree.plan` (a check prepared from a query: both translations, the
timeline, the stream unread) and :mod:`~agreement.agree.streaming` (the computed check over a
stream read once, SPEC section 9).

* :mod:`~agreement.agree.modes` — the check as one call per mode: recorded or computed answers;
* :mod:`~agreement.agree.profiles` — the check under two engine profiles (``--profiles``, SPEC
  section 12);
* :mod:`~agreement.agree.explain`, :mod:`~agreement.agree.conditions`,
  :mod:`~agreement.agree.history` — why an interval disagrees: the paper's conditions, each with
  its witnesses, from the recent stream triples;
* :mod:`~agreement.agree.report`, :mod:`~agreement.agree.reportwriter` — the report as text and
  JSON, whole (notebooks) or written as intervals close (the command);
* :mod:`~agreement.agree.analyze` — the paper's sufficient conditions from the query alone
  (``--analyze``).

Imports: what all commands share (:mod:`agreement.answers`, :mod:`agreement.compare`,
:mod:`agreement.defaults`, :mod:`agreement.recorded`, :mod:`agreement.spans`), the expected
relations of a profile (:mod:`agreement.check.expected`), and the floors below.
"""
