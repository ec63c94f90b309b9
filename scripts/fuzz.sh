#!/usr/bin/env bash
# Fuzzes the frontend (lexer, parser, Sema, TileGen) with libFuzzer + ASan + UBSan.
# Usage: scripts/fuzz.sh [seconds=300]. Seeds: the examples and every .tile test.
# Crashers land in build-fuzz/crashers; copy each (minimised) into
# test/fuzz/corpus/ once fixed, where ctest replays it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-300}
build=$root/build-fuzz
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DCMAKE_C_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link" \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
fi
flock /tmp/tilec-build.lock ninja -C "$build" tilec-fuzz-frontend
seeds=$build/seeds
mkdir -p "$seeds" "$build/crashers" "$build/work"
find "$root/examples" "$root/test" -name '*.tile' -exec cp {} "$seeds/" \;
cp "$root"/test/fuzz/corpus/* "$seeds/" 2>/dev/null || true
"$build/bin/tilec-fuzz-frontend" "$build/work" "$seeds" -max_total_time="$secs" -max_len=4096 \
  -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$build/crashers/" -print_final_stats=1
