#!/usr/bin/env bash
# System packages the test suite needs: Debian's Chromium (browser end-to-end tests; no
# browser download), Node.js (runs the browser's ES modules in tests/web) and a C compiler
# for the limit.c yardstick. Idempotent.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v cc >/dev/null 2>&1 || need+=(gcc)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "please install: ${need[*]} (needs root)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
