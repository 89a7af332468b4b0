#!/usr/bin/env bash
# Long local runs of the differential fuzzer (tests/fuzz/): random (not derandomized) examples
# until MINUTES have passed, in rounds of LARS_FUZZ_EXAMPLES (default 500) per test.
#   scripts/fuzz.sh 10          # ten minutes
# A failing round stops the loop and leaves hypothesis' shrunk case on the screen; pin it in
# tests/fuzz/test_pinned.py.
set -euo pipefail
minutes="${1:?usage: scripts/fuzz.sh MINUTES}"
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
[ -x "$python" ] || python="$(command -v python3)"
deadline=$(( $(date +%s) + 60 * minutes ))
round=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  round=$((round + 1))
  echo "fuzz round $round" >&2
  LARS_FUZZ_RANDOM=1 LARS_FUZZ_EXAMPLES="${LARS_FUZZ_EXAMPLES:-500}" PYTHONPATH="$root" \
    "$python" -m pytest "$root/tests/fuzz/test_fuzz.py" "$root/tests/fuzz/test_profiles.py" \
    -q -x -s -p no:cacheprovider
done
