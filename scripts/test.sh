#!/usr/bin/env bash
# Sets everything up, checks the code with ruff and mypy, builds the documentation site strictly (any
# warning fails: a broken link, a missing page, an object the API pages cannot find) into a temporary
# folder, then runs the whole test suite (extra arguments go to pytest), on two worker processes
# (DICETREE_TEST_WORKERS=N for another number, 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
# lint and types first (settings in pyproject.toml): each a few seconds, and a finding stops the run
.venv/bin/ruff check .
.venv/bin/python scripts/import_root.py mypy   # mypy on the import root as it installs (no links to follow)
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site"
.venv/bin/python -m pytest -n "${DICETREE_TEST_WORKERS:-2}" "$@"
