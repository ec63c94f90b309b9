#!/usr/bin/env bash
# Configures (once) and builds tilec in build/ with clang-22, Ninja, ccache and lld.
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  CC=${CC:-clang-22} CXX=${CXX:-clang++-22} cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/build/utils/lit/lit.py
fi
ninja -C "$build" "$@"
