#!/usr/bin/env bash
# Builds the sm_90a GEMM variants of examples/gemm/gemm.tile as shared
# libraries (and one cubin for the SASS check) into $1 (default
# build-hopper-libs/, ignored by git; carried to the GPU machine).
# Usage: bench/hopper/build_libs.sh [outdir] [tilec binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-hopper-libs}
tilec=${2:-$root/build/bin/tilec}
src=$root/examples/gemm/gemm.tile
mkdir -p "$out"
for dt in float16 bfloat16; do
  for nk in 4096x4096 8192x8192 28672x8192 8192x28672 200x136; do
    n=${nk%x*}; k=${nk#*x}
    "$tilec" "$src" -target=sm_90a -D dtype=T.$dt -D N=$n -D K=$k -shared -o "$out/gemm_${dt}_${n}_${k}.so"
  done
done
# The mma.sync path (sm_90, no wgmma) at one shape, for comparison.
"$tilec" "$src" -target=sm_90 -D N=4096 -D K=4096 -shared -o "$out/gemm_mmasync_float16_4096_4096.so"
"$tilec" "$src" -target=sm_90a --emit=cubin -o "$out/gemm_sm90a.cubin"
rm -f "$out"/*.h
ls -la "$out"
# Small-M tile configurations (more blocks for M = 128): block_M = 64 with
# block_N = 128 or 64.
for dt in float16 bfloat16; do
  for nk in 4096x4096 8192x8192 28672x8192 8192x28672; do
    n=${nk%x*}; k=${nk#*x}
    for bn in 128 64; do
      "$tilec" "$src" -target=sm_90a -D dtype=T.$dt -D N=$n -D K=$k -D block_M=64 -D block_N=$bn -shared \
        -o "$out/gemm_${dt}_${n}_${k}_bm64_bn${bn}.so"
    done
  done
done
rm -f "$out"/*.h
