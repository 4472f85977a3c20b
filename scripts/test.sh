#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (extra arguments go to pytest), on two worker
# processes (DICETREE_TEST_WORKERS=N for another number, 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
.venv/bin/python -m pytest -n "${DICETREE_TEST_WORKERS:-2}" "$@"
