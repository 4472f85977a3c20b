#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (extra arguments go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
.venv/bin/python -m pytest "$@"
