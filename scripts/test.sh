#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds tilec, runs the
# whole test suite through ctest (lit + Catch2 + fuzz regressions), then the
# style check of the changed lines (scripts/lint.sh --tidy; its base is
# $TILEC_LINT_BASE, e.g. origin/main in CI, else the merge base with main).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" all
(cd "${TILEC_BUILD_DIR:-$root/build}" && ctest --output-on-failure)
"$root/scripts/lint.sh" --tidy
