"""Event queries (RSEP-QL) under engine profiles: ``lars run``/``lars translate`` of an event
query and the comparison of two event profiles (``docs/events.md``).

Read first: :mod:`~agreement.events.pipeline` (read, translate under a profile, solve, collect
events); :mod:`~agreement.events.compare` compares two profiles on one query and one stream.

Imports: what all commands share (:mod:`agreement.sources`) and the floors below.
"""
