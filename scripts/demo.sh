#!/usr/bin/env bash
# Set up (if needed) and run the main job on the bundled example data: the paper's running
# example, a LARS program over a stream of coupon offers, printing its answer stream.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/lars run examples/coupons/program.lars \
  --stream examples/coupons/stream.txt --background examples/coupons/background.lars "$@"
