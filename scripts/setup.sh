#!/usr/bin/env bash
# Sets up dicetree from a fresh checkout: a virtual environment in .venv with the package and its
# test, plotting, lint and documentation extras, and (where this machine allows) Debian's graphviz for
# the `dot` program and Debian's chromium with its chromedriver for the explorer's browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install --quiet -e '.[test,plot,lint,docs]'

# `dot` renders decision trees; without it dicetree still writes .dot files and says how to render them.
if ! command -v dot >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz) >/dev/null 2>&1 \
      || echo "note: could not install Debian's graphviz; trees will be written as .dot files" >&2
  else
    echo "note: the Graphviz 'dot' program is missing (Debian: apt-get install graphviz); trees will be written as .dot files" >&2
  fi
fi
