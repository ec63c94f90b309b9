#!/usr/bin/env bash
# Builds, into $1 (default build-hopper-int8/, ignored by git; carried to the
# GPU machine): the sm_90a int8 GEMM (examples/gemm/gemm_int8.tile, M dynamic,
# default config 128x256x128, 2 consumer warpgroups, 4 stages) at (N, K) in
# {4096^2, 8192^2} and ragged N=200, K=400 (also block 64x128, 1 warpgroup),
# a cubin for the SASS check; and the fp8 default config
# (examples/gemm/gemm_fp8.tile, e4m3 -> bf16) at (N, K) = (28672, 8192),
# (8192, 28672).
# Usage: bench/hopper/int8_build.sh [outdir] [tilec binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-hopper-int8}
tilec=${2:-$root/build/bin/tilec}
mkdir -p "$out"
dyn=(-D 'M=T.dynamic("M")')
for nk in 4096x4096 8192x8192 200x400; do
  n=${nk%x*}; k=${nk#*x}
  "$tilec" "$root/examples/gemm/gemm_int8.tile" -target=sm_90a "${dyn[@]}" -D N=$n -D K=$k -shared -o "$out/int8_${n}_${k}_m128n256w2s4.so" &
done
"$tilec" "$root/examples/gemm/gemm_int8.tile" -target=sm_90a "${dyn[@]}" -D N=200 -D K=400 -D block_M=64 -D block_N=128 \
  -D threads=128 -D num_stages=6 -shared -o "$out/int8_200_400_m64n128w1s6.so" &
"$tilec" "$root/examples/gemm/gemm_int8.tile" -target=sm_90a "${dyn[@]}" -D N=4096 -D K=4096 --emit=cubin -o "$out/int8_m128n256w2s4.cubin" &
for nk in 28672x8192 8192x28672; do
  n=${nk%x*}; k=${nk#*x}
  "$tilec" "$root/examples/gemm/gemm_fp8.tile" -target=sm_90a "${dyn[@]}" -D N=$n -D K=$k -shared -o "$out/fp8_e4m3_bf16_${n}_${k}_m128n256w2s4.so" &
done
wait
rm -f "$out"/*.h
du -sh "$out"
