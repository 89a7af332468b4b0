"""``--spark``: its choices, and the input size from which ``auto`` reads with Spark.

Names only, so that the ``lars`` command's parser shows them without loading the readers
(start-up cost, issue 17); :func:`ingest.lazy.uses_spark` decides with them.
"""

SPARK_CHOICES = ("auto", "always", "never")

SPARK_THRESHOLD_BYTES = 256 * 2**20
"""``--spark auto`` with a cluster ``--master`` reads inputs larger than this with Spark, smaller
ones in process (the environment variable ``LARS_SPARK_THRESHOLD_MIB`` sets another, in MiB).
Spark's session takes 4-10 s to start and, in local mode on a 2-core machine, its job sliced 3x
slower than the in-process reader at 10^5, 10^6 and 10^7 triples (benchmarks/bench_ingest.py),
so ``auto`` never uses it with a ``local[...]`` master."""

THRESHOLD_VARIABLE = "LARS_SPARK_THRESHOLD_MIB"
