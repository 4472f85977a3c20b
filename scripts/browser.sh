#!/usr/bin/env bash
# Installs what the explorer's browser tests need, where the machine allows (scripts/test.sh runs it;
# the example does not need a browser).
set -euo pipefail
# The explorer's browser tests drive Debian's chromium through its chromedriver (nothing is downloaded
# at run time); without them those tests are skipped and say why.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) >/dev/null 2>&1 \
      || echo "note: could not install Debian's chromium; the browser tests will be skipped" >&2
  else
    echo "note: chromium or chromedriver is missing (Debian: apt-get install chromium chromium-driver); the browser tests will be skipped" >&2
  fi
fi
