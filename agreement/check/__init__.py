"""``lars check``: is an answer stream recorded from a real engine correct for a query, a stream
and an engine profile?

Read first: :mod:`~agreement.check.pipeline` (the command as one call: read the query, the
stream and the recording, judge them).

* :mod:`~agreement.check.expected` — the relations a profile reports (also used by ``lars agree
  --profiles``);
* :mod:`~agreement.check.judge` — the comparison of recorded and expected relations, every t0
  tried, and the explanation of a mismatch;
* :mod:`~agreement.check.bags` — how many times an engine with bag semantics repeats a row
  (``--strict``);
* :mod:`~agreement.check.report` — the verdict as text and JSON.

Imports: what all commands share (:mod:`agreement.answers`, :mod:`agreement.compare`,
:mod:`agreement.recorded`) and the floors below; never another command's room.
"""
