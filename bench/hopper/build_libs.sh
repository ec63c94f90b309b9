#!/usr/bin/env bash
# Builds the sm_90a GEMM variants of examples/gemm/gemm.tile as shared
# libraries into $1 (default build-hopper-libs/, ignored by git; carried to
# the GPU machine): every tile configuration of CONFIGS at every (N, K) of the
# benchmark and at N=200, K=136 (ragged tiles), for fp16 and bf16, plus one
# cubin per configuration for the SASS check.
# Usage: bench/hopper/build_libs.sh [outdir] [tilec binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-hopper-libs}
tilec=${2:-$root/build/bin/tilec}
src=$root/examples/gemm/gemm.tile
# name:block_M:block_N:threads:num_stages (block_K = 64 throughout)
CONFIGS=${CONFIGS:-"m128n128w1s3:128:128:128:3 m128n256w2s4:128:256:256:4 m128n128w2s3:128:128:256:3 m64n128w1s4:64:128:128:4 m64n64w1s6:64:64:128:6 m64n256w1s4:64:256:128:4"}
mkdir -p "$out"
for cfg in $CONFIGS; do
  IFS=: read -r name bm bn th st <<<"$cfg"
  flags="-D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st"
  for dt in float16 bfloat16; do
    for nk in 4096x4096 8192x8192 28672x8192 8192x28672 200x136; do
      n=${nk%x*}; k=${nk#*x}
      "$tilec" "$src" -target=sm_90a -D dtype=T.$dt -D N=$n -D K=$k $flags -shared \
        -o "$out/gemm_${dt}_${n}_${k}_${name}.so" &
    done
    wait
  done
  "$tilec" "$src" -target=sm_90a $flags --emit=cubin -o "$out/gemm_${name}.cubin"
done
echo "$CONFIGS" >"$out/configs.txt"
rm -f "$out"/*.h
du -sh "$out"
