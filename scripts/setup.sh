#!/usr/bin/env bash
# Create .venv (if missing) and install the project with its test tools into it.
# Needs only Python 3.11+ and pip; Java 17 is needed only by the Spark pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ -d .venv ] && ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  # an interrupted first setup leaves a .venv without pip: start it again
  echo "setup: .venv is incomplete (no pip in it): creating it again" >&2
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(cat pyproject.toml | cksum | cut -d' ' -f1)
if [ ! -f "$stamp" ]; then
  echo "setup: installing the project and its dependencies (first run takes a few minutes)" >&2
  log=.venv/install.log
  if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -e '.[test,spark,notebook,kafka]'; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "setup: installation failed; the full log is $log" >&2
    exit 1
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
fi
# The project is installed editable, so pip compiles none of its modules; where
# PYTHONDONTWRITEBYTECODE is set (as on our CI machines) Python would compile them again at every
# start (~0.15 s of each lars command). Compile them once here; stale files are recompiled.
.venv/bin/python -m compileall -q -j 0 lars translate solver ingest agreement >/dev/null
