#!/usr/bin/env bash
# A/B kit for the mma.sync GEMM path (issue #4's 60%-of-cuBLAS goal): builds
# the fp16 example (gemm.tile, B K x N) and the bf16 example (gemm_bf16.tile,
# B N x K) with -target=sm_90 (the mma.sync path) for each given tilec binary
# and tile configuration, plus a ragged 1000^3 bf16 build for the checks.
# Usage: test/gpu/mma_ab.sh OUTDIR TAG=/path/to/tilec [TAG=...]  (configs from
# $CONFIGS, default "128x128x64_3_128 128x128x64_2_128"); on the device:
# python3 OUTDIR/mma_ab.py  (prints one table; log to $OUT when set).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1; shift
rm -rf "$out" && mkdir -p "$out"
cp "$root/test/gpu/mma_ab.py" "$root/test/gpu/timing.py" "$out/"
configs=${CONFIGS:-"128x128x64_3_128 128x128x64_2_128"}
for tv in "$@"; do
  tag=${tv%%=*} tilec=${tv#*=}
  for v in $configs; do
    IFS=x_ read -r bm bn bk st th <<<"$v"
    f=(-target=sm_90 -shared -D block_M=$bm -D block_N=$bn -D block_K=$bk -D num_stages=$st -D threads=$th)
    "$tilec" "$root/examples/gemm/gemm.tile" "${f[@]}" -o "$out/${tag}__f16_$v.so"
    "$tilec" "$root/examples/gemm/gemm_bf16.tile" "${f[@]}" -D M=4096 -D N=4096 -D K=4096 -o "$out/${tag}__bf16_$v.so"
    "$tilec" "$root/examples/gemm/gemm_bf16.tile" "${f[@]}" -D M=1000 -D N=1000 -D K=1000 -o "$out/${tag}__bf16r_$v.so"
    "$tilec" "$root/examples/gemm/gemm.tile" "${f[@]/-shared/--emit=ptx}" -o "$out/$tag.$v.ptx"
    echo "$tag $v fp16 $(ptxas -arch=sm_90 -v "$out/$tag.$v.ptx" -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers')"
    rm "$out/$tag.$v.ptx"
  done
done | tee "$out/regs.txt"
rm -f "$out"/*.h
