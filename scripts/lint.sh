#!/usr/bin/env bash
# Style check of the lines a change touches, so that untouched code written before
# .clang-format and .clang-tidy existed never fails it:
#   clang-format  (git clang-format against BASE: the changed lines of C++ files)
#   long-functions.py  (every function in lib/ at most 150 lines, every file at most 700)
#   clang-tidy    (--tidy: the changed lines of changed lib/ and tools/ .cpp files, with the
#                  build's compile_commands.json; slow, a few seconds of CPU per file)
# BASE: the first argument, else $TILEC_LINT_BASE, else the merge base with main (on main
# itself: HEAD, so that only uncommitted changes are checked). The working tree is compared
# with BASE, committed or not. Exit status 1 when lib/ is over a size limit, or a changed line
# needs reformatting or has a clang-tidy finding; the findings or the diff are printed.
# Usage: scripts/lint.sh [--tidy] [BASE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tidy=0
if [ "${1:-}" = --tidy ]; then tidy=1; shift; fi
base=${1:-${TILEC_LINT_BASE:-}}
if [ -z "$base" ]; then
  base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
fi
ver=${CLANG_VERSION:-22}
fmt=$(command -v "clang-format-$ver" || true)
gcf=$(command -v "git-clang-format-$ver" || true)
if [ -z "$fmt" ] || [ -z "$gcf" ]; then
  echo "lint: clang-format-$ver / git-clang-format-$ver not found (scripts/setup.sh installs them); skipped"
  exit 0
fi
status=0
# The size limits hold for the whole of lib/, not only the changed lines.
if ! python3 "$root/scripts/long-functions.py"; then
  status=1
fi
files=$(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.h' | grep -v '^test/' || true)
if [ -z "$files" ]; then
  echo "lint: no C++ changes against $(git rev-parse --short "$base")"
  exit $status
fi
# shellcheck disable=SC2086
out=$("$gcf" --binary "$fmt" --diff "$base" -- $files 2>&1 || true)
if [ -n "$out" ] && ! grep -qE '^(no modified files to format|clang-format did not modify any files)' <<<"$out"; then
  echo "$out"
  echo "lint: the changed lines above are not formatted as .clang-format says (fix: $gcf --binary $fmt $base)"
  status=1
else
  echo "lint: clang-format clean on the changed lines of $(wc -w <<<"$files") files against $(git rev-parse --short "$base")"
fi
if [ $tidy = 1 ]; then
  diffpy=$(command -v "clang-tidy-diff-$ver.py" || true)
  build=${TILEC_BUILD_DIR:-$root/build}
  if [ -z "$diffpy" ] || [ ! -f "$build/compile_commands.json" ]; then
    echo "lint: clang-tidy-diff-$ver.py or $build/compile_commands.json missing; clang-tidy skipped"
  else
    # shellcheck disable=SC2086
    if ! git diff -U0 "$base" -- $files | "$diffpy" -p1 -path "$build" -clang-tidy-binary "clang-tidy-$ver" \
        -iregex '(lib|tools)/.*\.cpp' -quiet -j "${JOBS:-2}"; then
      echo "lint: clang-tidy findings on the changed lines above (.clang-tidy)"
      status=1
    else
      echo "lint: clang-tidy clean on the changed lines"
    fi
  fi
fi
exit $status
