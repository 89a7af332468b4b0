"""The incremental engine: window state kept up to date, rules maintained by deltas (SPEC 7).

Read first: :mod:`solver.incremental.engine` (:class:`Engine`, the loop over time points). A body
atom whose relation depends on the input alone is *fed* (:mod:`~solver.incremental.bodyatoms`):
its state in a time window (:mod:`~solver.incremental.windowstate`) or tuple window
(:mod:`~solver.incremental.tuplestate`) changes by deltas of tuples
(:mod:`~solver.incremental.relations`); rules over fed atoms are join plans
(:mod:`~solver.incremental.joins`). Rules that read derived predicates form the *residual*:
solved by clingo (:mod:`~solver.incremental.residual`, in a child process:
:mod:`~solver.incremental.clingoprocess`) or, for stratified programs, bottom-up in Python
(:mod:`~solver.incremental.bottomup`).

Callers use :func:`solver.evaluate`, never this package directly. Imports: :mod:`lars` and
:mod:`solver`'s own modules (encode, symbols, answers, reference).
"""
