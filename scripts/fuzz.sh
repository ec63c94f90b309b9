#!/usr/bin/env bash
# Fuzzes the frontend (lexer, parser, the meta interpreter, Sema, TileGen) with
# libFuzzer + ASan + UBSan.
# Usage: scripts/fuzz.sh [seconds=300] [extra libFuzzer flags, e.g. -jobs=1]
# Seeds: the examples and every .tile / .py file under test/ (a test's
# `# RUN:` line gives the fuzz target its -D and --kernel options), with the
# dictionary test/fuzz/meta.dict. Crashers land in build-fuzz/crashers; once
# fixed, copy each (minimised) into test/fuzz/corpus/, where ctest replays it.
# build-fuzz/ instruments every library of ours (-fsanitize=fuzzer-no-link in the global
# flags), so the target links the plain libraries; the normal build instead links coverage-
# instrumented copies of them (test/fuzz/CMakeLists.txt). libFuzzer's first lines say how much
# it sees: "Loaded N modules (M inline 8-bit counters)".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-300}
shift || true
build=$root/build-fuzz
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DCMAKE_C_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link" \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
fi
flock /tmp/tilec-build.lock ninja -C "$build" -j2 tilec-fuzz-frontend
seeds=$build/seeds
mkdir -p "$seeds" "$build/crashers" "$build/work"
# Seeds keep their directory in their name: many tests share a file name.
find "$root/examples" "$root/test" \( -name '*.tile' -o -name '*.py' \) -not -path '*/compat/*' -size -16k |
  while read -r f; do
    rel=${f#"$root"/}
    cp "$f" "$seeds/${rel//\//_}"
  done
cp "$root"/test/fuzz/corpus/* "$seeds/" 2>/dev/null || true
# Only our code is instrumented: LLVM's header-inline BumpPtrAllocator poisons a new slab from our
# code that uninstrumented libMLIR then allocates from without unpoisoning, so reads of MLIR's own
# storage showed as use-after-poison (after thousands of runs, never on replay). Manual poisoning
# is off; ASan still checks every heap, stack and global access of ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0}
"$build/bin/tilec-fuzz-frontend" "$build/work" "$seeds" -max_total_time="$secs" -max_len=8192 \
  -dict="$root/test/fuzz/meta.dict" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$build/crashers/" \
  -print_final_stats=1 "$@"
