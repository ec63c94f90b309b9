#!/usr/bin/env bash
# The sanitizer stage of scripts/test.sh (and so of CI): an ASan + UBSan build of tilec,
# tilec-opt and the frontend fuzz target in build-asan/ ($TILEC_ASAN_BUILD_DIR), every
# library of ours instrumented (LLVM/MLIR are the system's, not instrumented), then with zero
# sanitizer reports allowed (UBSan does not recover, LeakSanitizer is on):
#   1. the fuzz corpus replay (test/fuzz/corpus, what ctest fuzz-regressions runs),
#   2. the differential fuzzer's seeded smoke run on the host (what ctest fuzz/diff-smoke runs),
#   3. the lit suite (lit, FileCheck and --verify-diagnostics tests; those that need
#      tilec-vk-run are unsupported there).
# -O0: a sanitized -O0 object compiles in about half the CPU time of a plain -O3 one (the
# optimizer, not the instrumentation, is the cost), and every test above runs in seconds.
# Cold (no ccache): about 960 s of CPU for the build and 200 s for the tests, i.e. about 10
# minutes on two cores; with a warm ccache about two minutes. docs/testing.md has the figures.
# The fuzz target here only replays the corpus, so its libraries are not built a second time
# with coverage instrumentation (TILEC_FUZZ_INSTRUMENT_LIBS=OFF; test/fuzz/CMakeLists.txt).
# Usage: scripts/sanitize.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_ASAN_BUILD_DIR:-$root/build-asan}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O0 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/build/utils/lit/lit.py \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DTILEC_FUZZ_INSTRUMENT_LIBS=OFF
fi
ninja -C "$build" tilec tilec-opt tilec-fuzz-frontend
# allow_user_poisoning=0: LLVM's header-inline BumpPtrAllocator poisons a slab from our
# (instrumented) code that uninstrumented libMLIR then allocates from (scripts/fuzz.sh).
# abort_on_error: a report is a SIGABRT, which `not` and the fuzzer count as a crash (an exit
# status of 1 would pass a `not %tilec` test). log_path: every report also lands in
# $build/sanitizer-logs, checked at the end, so none can be swallowed by a test's redirection.
logs=$build/sanitizer-logs
rm -rf "$logs" && mkdir -p "$logs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=1:log_path=$logs/asan}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1:log_path=$logs/ubsan}
echo "sanitize: fuzz corpus replay"
"$build/bin/tilec-fuzz-frontend" -runs=0 "$root/test/fuzz/corpus"
echo "sanitize: differential fuzzer smoke run (host)"
rm -rf "$build/fuzz-failures"
python3 "$root/test/fuzz/difffuzz.py" --tilec "$build/bin/tilec" --seed 1 --count 20 --targets host \
  --mem-limit-gb 0 --out "$build/fuzz-failures"
echo "sanitize: lit"
lit=$(command -v lit || echo /usr/lib/llvm-22/bin/lit)
"$lit" -q "$build/test"
if [ -n "$(ls -A "$logs")" ]; then
  echo "sanitize: sanitizer reports in $logs:"
  head -n 40 "$logs"/*
  exit 1
fi
echo "sanitize: no sanitizer reports"
