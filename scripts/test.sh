#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds tilec and runs the
# whole test suite through ctest (lit + Catch2 + fuzz regressions).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" all
cd "${TILEC_BUILD_DIR:-$root/build}"
ctest --output-on-failure
