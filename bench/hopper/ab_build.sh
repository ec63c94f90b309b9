#!/usr/bin/env bash
# A/B kit for the sm_90a wgmma path (HopperGemm.cpp): builds, for two tilec binaries (tags old
# and new), into OUTDIR:
#   f16, bf16: examples/gemm/gemm.tile (B K x N, M dynamic; -D dtype=T.bfloat16), each config of
#              CONFIGS at N = K = 4096 (timed, checked at M = 4096 and 1000) and at N = K = 1000
#              (ragged N and K, checked at M = 1000): <tag>__<kind>_<config>[__ragged].so
#   fp8:       examples/gemm/gemm_fp8.tile (e4m3 -> bf16, B N x K, M dynamic, the file's config)
#              at N = K = 4096 and at N = 1000, K = 1040 (ragged; K rows of 1040 bytes keep TMA's
#              16-byte stride rule)
#   bf16t:     examples/gemm/gemm_bf16.tile (B N x K, static shapes) at 4096^3 and 1000^3: bf16
#              with transpose_B takes the mma.sync path, the same code in both builds (a control:
#              its old/new difference is the noise of the run)
# plus ab.py (the device half) and timing.py; regs.txt lists the registers and spill bytes
# ptxas reports for every 4096 kernel. On the device: cd OUTDIR && python3 ab.py (log to
# $OUT/ab.txt when OUT is set; ROUNDS=n timing rounds, default 20).
# Usage: bench/hopper/ab_build.sh OUTDIR OLD_TILEC NEW_TILEC
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 old=$2 new=$3
# name:block_M:block_N:threads:num_stages (block_K = 64); the first is gemm.tile's own default.
CONFIGS=${CONFIGS:-"m128n128w1s3:128:128:128:3 m128n256w2s4:128:256:256:4"}
rm -rf "$out" && mkdir -p "$out"
cp "$root/bench/hopper/ab.py" "$root/test/gpu/timing.py" "$out/"
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)

# build TAG TILEC KIND NAME SOURCE FLAGS...: the 4096 launcher, its registers, the ragged one.
build() {
  local tag=$1 tilec=$2 kind=$3 name=$4 src=$5 big ragged
  shift 5
  case $kind in
    fp8) big=(-D 'M=T.dynamic("M")' -D N=4096 -D K=4096) ragged=(-D 'M=T.dynamic("M")' -D N=1000 -D K=1040) ;;
    bf16t) big=(-D M=4096 -D N=4096 -D K=4096) ragged=(-D M=1000 -D N=1000 -D K=1000) ;;
    *) big=() ragged=(-D N=1000 -D K=1000) ;;
  esac
  local so=$out/${tag}__${kind}_$name
  "$tilec" "$src" -target=sm_90a -shared "$@" "${big[@]}" -o "$so.so"
  "$tilec" "$src" -target=sm_90a -shared "$@" "${ragged[@]}" -o "${so}__ragged.so"
  "$tilec" "$src" -target=sm_90a --emit=ptx "$@" "${big[@]}" -o "$so.ptx"
  local path=mma.sync
  grep -q wgmma.mma_async "$so.ptx" && path=wgmma
  echo "$tag ${kind}_$name $path $("$ptxas" -arch=sm_90a -v "$so.ptx" -o /dev/null 2>&1 |
    grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | tr '\n' ' ')"
  rm "$so.ptx"
}

for tv in "old=$old" "new=$new"; do
  tag=${tv%%=*} tilec=${tv#*=}
  for c in $CONFIGS; do
    IFS=: read -r name bm bn th st <<<"$c"
    f=(-D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st)
    build "$tag" "$tilec" f16 "$name" "$root/examples/gemm/gemm.tile" "${f[@]}"
    build "$tag" "$tilec" bf16 "$name" "$root/examples/gemm/gemm.tile" -D dtype=T.bfloat16 "${f[@]}"
  done
  build "$tag" "$tilec" fp8 default "$root/examples/gemm/gemm_fp8.tile"
  build "$tag" "$tilec" bf16t default "$root/examples/gemm/gemm_bf16.tile"
done | tee "$out/regs.txt"
rm -f "$out"/*.h
du -sh "$out"
