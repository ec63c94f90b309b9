#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds tilec, runs the
# whole test suite through ctest (lit + Catch2 + fuzz regressions), then the
# sanitizer stage (scripts/sanitize.sh: an ASan + UBSan build in build-asan/ runs the fuzz
# corpus replay, the differential fuzzer's smoke run and the lit suite; TILEC_SANITIZE=0
# skips it), then the style check of the changed lines (scripts/lint.sh --tidy; its base is
# $TILEC_LINT_BASE, e.g. origin/main in CI, else the merge base with main).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" all
# Tests run two at a time (one per core of the CI machine): 530 s of tests take about 300 s.
(cd "${TILEC_BUILD_DIR:-$root/build}" && ctest --output-on-failure -j"${TILEC_CTEST_JOBS:-$(nproc)}")
if [ "${TILEC_SANITIZE:-1}" != 0 ]; then
  "$root/scripts/sanitize.sh"
fi
"$root/scripts/lint.sh" --tidy
