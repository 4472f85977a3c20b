#!/usr/bin/env bash
# Sets everything up, then asks "best move?" for RolldownBeta's built-in example position.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/dicetree best rolldown --example "$@"
