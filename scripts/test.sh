#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite. Extra arguments go to pytest, e.g.
#   bash scripts/test.sh -m "not spark and not slow"     # skip the Spark and slow tests
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
