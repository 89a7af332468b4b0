#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite, in one worker process per core (pytest-xdist;
# a file's tests stay in one worker; the longest files first, by tests/durations.txt: conftest.py),
# printing the 25 slowest tests. Extra arguments go to
# pytest, e.g.
#   bash scripts/test.sh -m "not spark and not slow"     # skip the Spark and slow tests
#   LARS_TEST_WORKERS=0 bash scripts/test.sh -x          # in this process, stop at the first failure
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -n "${LARS_TEST_WORKERS:-auto}" --dist loadfile --no-loadscope-reorder \
    --durations=25 "$@"
