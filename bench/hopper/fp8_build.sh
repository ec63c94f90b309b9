#!/usr/bin/env bash
# Builds the sm_90a fp8 GEMM variants of examples/gemm/gemm_fp8.tile (M
# dynamic) as shared libraries into $1 (default build-hopper-fp8/, ignored by
# git; carried to the GPU machine): every configuration of CONFIGS at the
# benchmark's (N, K) and at N=200, K=400 (ragged N and K tiles), e4m3 with
# bf16 C; the default configuration also e5m2 and f32 C; one cubin per
# configuration for the SASS check.
# Usage: bench/hopper/fp8_build.sh [outdir] [tilec binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-hopper-fp8}
tilec=${2:-$root/build/bin/tilec}
src=$root/examples/gemm/gemm_fp8.tile
# name:block_M:block_N:threads:num_stages (block_K = 128 fp8 = 128 bytes)
CONFIGS=${CONFIGS:-"m128n256w2s4:128:256:256:4 m128n128w2s5:128:128:256:5 m64n128w1s6:64:128:128:6 m64n256w1s4:64:256:128:4"}
mkdir -p "$out"
for cfg in $CONFIGS; do
  IFS=: read -r name bm bn th st <<<"$cfg"
  flags=(-D 'M=T.dynamic("M")' -D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st)
  for nk in 4096x4096 8192x8192 200x400; do
    n=${nk%x*}; k=${nk#*x}
    "$tilec" "$src" -target=sm_90a "${flags[@]}" -D N=$n -D K=$k -shared -o "$out/fp8_e4m3_bf16_${n}_${k}_${name}.so" 2>/dev/null &
  done
  "$tilec" "$src" -target=sm_90a "${flags[@]}" -D N=4096 -D K=4096 --emit=cubin -o "$out/fp8_${name}.cubin" 2>/dev/null &
  wait
done
first=${CONFIGS%% *}
IFS=: read -r name bm bn th st <<<"$first"
flags=(-D 'M=T.dynamic("M")' -D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st)
for nk in 4096x4096 200x400; do
  n=${nk%x*}; k=${nk#*x}
  "$tilec" "$src" -target=sm_90a "${flags[@]}" -D N=$n -D K=$k -D dtype=T.float8_e5m2 -shared -o "$out/fp8_e5m2_bf16_${n}_${k}_${name}.so" 2>/dev/null
  "$tilec" "$src" -target=sm_90a "${flags[@]}" -D N=$n -D K=$k -D out_dtype=T.float32 -shared -o "$out/fp8_e4m3_f32_${n}_${k}_${name}.so" 2>/dev/null
done
echo "$CONFIGS" | tr ' ' '\n' | cut -d: -f1 >"$out/configs.txt"
rm -f "$out"/*.h
du -sh "$out"
