"""Reading input: stream files and static data → slices and background (SPEC sections 2, 8, 11).

One room for every reader, all following one :class:`~ingest.policy.ReadPolicy` (what to do
with a bad line, how strict time order is) and filling one :class:`~ingest.policy.ReadReport`.
Read first: :mod:`ingest.options` (:class:`ReadOptions`, what a caller chooses), then

* :mod:`ingest.larsfile` — LARS atom stream files (``t: a(1), b(2)``);
* :mod:`ingest.rdffiles` — timestamped N-Triples, Turtle folders, static RDF data;
* :mod:`ingest.staticdata` — static N-Triples and N-Quads files read as a stream (Oxigraph),
  keeping only the triples a query can read;
* :mod:`ingest.slicing` — stream files → per-instant slices, in process or on Spark;
* :mod:`ingest.timeorder` — time order per source and per stream, the merge of interleaved streams;
* :mod:`ingest.lazy` — an RDF stream read lazily, one slice at a time (``lars run``);
* :mod:`ingest.eager` — a query's stream held whole (``lars agree``), and its static graphs.

Imports: :mod:`lars`, :mod:`translate` (RDF terms → LARS atoms) and :mod:`solver` (the Spark
session); never :mod:`agreement`.
"""
