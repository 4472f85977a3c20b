#!/usr/bin/env bash
# Sets everything up, builds the documentation site strictly (any warning fails: a broken link, a
# missing page, an example the API pages cannot find) into a temporary folder, then runs the whole
# test suite (extra arguments go to pytest), on two worker processes (DICETREE_TEST_WORKERS=N for
# another number, 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site"
.venv/bin/python -m pytest -n "${DICETREE_TEST_WORKERS:-2}" "$@"
