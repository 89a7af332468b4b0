"""The names the ``lars`` options offer, as plain data: building the parser loads no module
behind them (start-up cost, issue 17: the engines alone load rdflib's SPARQL parser).

Each tuple repeats the keys of the table that implements it, and ``tests/cli/test_choices.py``
fails when the two differ; a name outside the table is refused by the table itself too (for
instance :func:`translate.engines.engine`), so a stale list can only hide a choice, never let a
wrong one through.
"""

ENGINES = ("csparql", "cqels", "rspql", "sparql")
"""The query languages: :data:`translate.engines.ENGINES`."""
READINGS = ("closed", "left-open", "right-open")
"""``[RANGE L]`` as ``[t-L,t]``, ``(t-L,t]`` or ``[t-L,t)``: :data:`translate.rspwindows.READINGS`."""
RESULT_FORMATS = ("sparql-json", "sparql-csv", "sparql-tsv")
"""The SPARQL 1.1 results formats: :data:`translate.results.FORMATS`."""
STRATEGIES = ("auto", "reference", "incremental", "stratified")
"""How to solve: :data:`solver.strategies.STRATEGIES`."""
SINKS = ("jsonl", "csv", "parquet")
"""``--output-format``: :data:`solver.sinks.SINKS`."""
COMPARISONS = ("bindings", "csrbench", "strict")
"""``lars check --compare``: :data:`agreement.check.judge.COMPARISONS`."""
