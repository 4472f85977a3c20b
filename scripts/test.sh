#!/usr/bin/env bash
# Sets everything up, checks the code with ruff and mypy, then runs the whole test suite (extra arguments go to pytest), on two worker
# processes (DICETREE_TEST_WORKERS=N for another number, 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
# lint and types first (settings in pyproject.toml): each a few seconds, and a finding stops the run
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest -n "${DICETREE_TEST_WORKERS:-2}" "$@"
