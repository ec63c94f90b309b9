#!/usr/bin/env bash
# Builds softmax/layernorm tile-configuration variants (-D block_M, threads)
# for the bandwidth study run by bw_variants.py on the device.
# Usage: test/gpu/bw_variants.sh [outdir] (default build/bw-kit)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/bw-kit}
tilec=${TILEC:-$root/build/bin/tilec}
rm -rf "$out" && mkdir -p "$out"
cp "$root/test/gpu/bw_variants.py" "$out/"
for bm in 2 4 8 16; do for th in 128 256 512; do
  "$tilec" "$root/examples/softmax/softmax.tile" -target=sm_90a -shared -D block_M=$bm -D threads=$th \
    -o "$out/softmax_${bm}_${th}.so" 2>/dev/null || echo "softmax block_M=$bm threads=$th rejected"
done; done
for bm in 1 2 4; do for th in 128 256 512; do
  "$tilec" "$root/examples/layernorm/layernorm.tile" -target=sm_90a -shared -D block_M=$bm -D threads=$th \
    -o "$out/layernorm_${bm}_${th}.so" 2>/dev/null || echo "layernorm block_M=$bm threads=$th rejected"
done; done
ls "$out" | wc -l
