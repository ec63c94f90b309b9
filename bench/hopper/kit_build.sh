#!/usr/bin/env bash
# Builds the consolidated sm_90a GEMM kit (issue #6) into $1 (default build/hopper-kit/,
# ignored by git; carried to the GPU machine, where bench/hopper/kit.sh runs it):
#   fp16, bf16: examples/gemm/gemm.tile (B K x N, M dynamic) with -D tile constants, every
#               configuration of CONFIGS16 at the benchmark's (N, K) and at N=200, K=136
#               (ragged N and K tiles): gemm_<dtype>_<N>_<K>_<config>.so
#   fp8:        examples/gemm/gemm_fp8.tile (e4m3 -> bf16, B N x K, M dynamic), CONFIGS8 at the
#               same (N, K) and at N=200, K=400: fp8_e4m3_bf16_<N>_<K>_<config>.so
#   fp8p:       examples/gemm/gemm_fp8_promoted.tile (the same GEMM with the k tiles' sums promoted
#               to f32 registers, tile-lang's DeepGEMM form), CONFIGS8P (names prom-*) at the same
#               (N, K): fp8prom_e4m3_bf16_<N>_<K>_<config without prom->.so
#   one cubin per configuration for the HGMMA / QGMMA count: <family>_<config>.cubin
#   split-K:    examples/gemm/gemm_splitk.tile (fp16/bf16, B K x N, M dynamic, 3-D grid, atomic adds
#               into C), CONFIGSK (names sk<split>-*, family fp16) at the same (N, K) and at N=200,
#               K=512: splitk_<dtype>_<N>_<K>_<config>.so
# ONLY=fp8 builds the fp8 and fp8p families alone (kit.sh then checks and times fp8 alone);
# ONLY=fp16 builds fp16/bf16 alone (plain and split-K).
# Usage: [ONLY=fp8] bench/hopper/kit_build.sh [outdir] [tilec binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/hopper-kit}
tilec=${2:-$root/build/bin/tilec}
# name:block_M:block_N:threads:num_stages[:panel] (block_K = 64 for fp16/bf16, 128 for fp8).
# The first entry of each list is the source file's own defaults (the "default" column).
CONFIGS16=${CONFIGS16:-"m128n128w1s3:128:128:128:3 m128n256w2s4:128:256:256:4 m64n128w1s4:64:128:128:4 m64n64w1s6:64:64:128:6 m64n256w1s4:64:256:128:4"}
# fp8: panel = T.use_swizzle panel size (the file's default is 8; p1 = plain raster order,
# kept to measure what the rasterisation buys at N = 28672).
CONFIGS8=${CONFIGS8:-"m128n256w2s4:128:256:256:4:8 m128n256w2s4p16:128:256:256:4:16 m128n256w2s4p1:128:256:256:4:1 m128n128w2s5:128:128:256:5:8 m64n128w1s6:64:128:128:6:8 m64n256w1s4:64:256:128:4:8"}
# fp8p: two accumulators (C_local, C_acc) of block_M / warpgroups x block_N / 128 f32 registers
# per thread each: 64 x 128 per warpgroup (128 registers of accumulators) and 64 x 192 (192) do
# not spill under ptxas; 64 x 256 per warpgroup (256) does, so no n256 config here.
# split-K (family fp16, names sk<split>-*): examples/gemm/gemm_splitk.tile, grid (N / block_N,
# M / block_M, split), T.atomic_add into C (red.global.add.noftz.f16x2 / .bf16x2 on sm_90a; the
# caller zeroes C: kit.py times C.zero_() with every call). For M = 128, where the plain kernel has
# too few blocks (64 of m64n128 at N = 4096 on 132 SMs). name:block_M:block_N:threads:num_stages:split
# (K of every shape, and the ragged check's 512, is a multiple of split x 64).
CONFIGSK=${CONFIGSK:-"sk2-m64n128w1s4:64:128:128:4:2 sk4-m64n128w1s4:64:128:128:4:4 sk2-m128n128w1s4:128:128:128:4:2 sk2-m128n256w2s4:128:256:256:4:2 sk4-m128n256w2s4:128:256:256:4:4 sk8-m128n256w2s4:128:256:256:4:8"}
CONFIGS8P=${CONFIGS8P:-"prom-m128n128w2s5:128:128:256:5:8 prom-m128n128w2s6:128:128:256:6:8 prom-m64n128w1s6:64:128:128:6:8 prom-m128n192w2s4:128:192:256:4:8"}
ONLY=${ONLY:-}
case "$ONLY" in
  "") ;;
  fp8) CONFIGS16="" CONFIGSK="" ;;
  fp16) CONFIGS8="" CONFIGS8P="" ;;  # fp16 and bf16 (plain and split-K) alone
  *) echo "kit_build: ONLY=$ONLY: only ONLY=fp8 and ONLY=fp16 are known" >&2; exit 2 ;;
esac
NK="4096x4096 8192x8192 28672x8192 8192x28672"
rm -rf "$out"
mkdir -p "$out"
log=$out/build-errors.txt
: >"$log"
build() { # output, then tilec arguments; a failure is recorded with its diagnostics
  local o=$1 e; shift
  e=$(mktemp)
  if ! "$tilec" "$@" -o "$o" 2>"$e"; then { echo "FAILED: tilec $* -o $o"; cat "$e"; } >>"$log"; fi
  rm -f "$e"
}
jobs=${JOBS:-2}
n=0
throttle() { n=$((n + 1)); if ((n % jobs == 0)); then wait; fi; }
src16=$root/examples/gemm/gemm.tile
for cfg in $CONFIGS16; do
  IFS=: read -r name bm bn th st <<<"$cfg"
  flags=(-target=sm_90a -D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st)
  for dt in float16 bfloat16; do
    for nk in $NK 200x136; do
      build "$out/gemm_${dt}_${nk%x*}_${nk#*x}_${name}.so" "$src16" "${flags[@]}" -D dtype=T.$dt -D N=${nk%x*} -D K=${nk#*x} -shared &
      throttle
    done
  done
  build "$out/gemm_${name}.cubin" "$src16" "${flags[@]}" --emit=cubin &
  throttle
done
srcsk=$root/examples/gemm/gemm_splitk.tile
for cfg in $CONFIGSK; do
  IFS=: read -r name bm bn th st split <<<"$cfg"
  flags=(-target=sm_90a -D 'M=T.dynamic("M")' -D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st -D split_k=$split)
  for dt in float16 bfloat16; do
    for nk in $NK 200x512; do
      build "$out/splitk_${dt}_${nk%x*}_${nk#*x}_${name}.so" "$srcsk" "${flags[@]}" -D dtype=T.$dt -D N=${nk%x*} -D K=${nk#*x} -shared &
      throttle
    done
  done
  build "$out/gemm_${name}.cubin" "$srcsk" "${flags[@]}" -D N=4096 -D K=4096 --emit=cubin &
  throttle
done
# fp8 families: family_fp8 SOURCE SO-PREFIX CUBIN-PREFIX CONFIGS (the .so names drop a "prom-" of the config name).
family_fp8() {
  local src=$1 soprefix=$2 cubinprefix=$3 cfgs=$4 cfg name bm bn th st panel nk
  for cfg in $cfgs; do
    IFS=: read -r name bm bn th st panel <<<"$cfg"
    local flags=(-target=sm_90a -D 'M=T.dynamic("M")' -D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st -D panel=$panel)
    for nk in $NK 200x400; do
      build "$out/${soprefix}_e4m3_bf16_${nk%x*}_${nk#*x}_${name#prom-}.so" "$src" "${flags[@]}" -D N=${nk%x*} -D K=${nk#*x} -shared &
      throttle
    done
    build "$out/${cubinprefix}_${name}.cubin" "$src" "${flags[@]}" -D N=4096 -D K=4096 --emit=cubin &
    throttle
  done
}
src8p=$root/examples/gemm/gemm_fp8_promoted.tile
family_fp8 "$root/examples/gemm/gemm_fp8.tile" fp8 fp8 "$CONFIGS8"
family_fp8 "$src8p" fp8prom fp8p "$CONFIGS8P"
wait
rm -f "$out"/*.h
{
  for c in $CONFIGS16 $CONFIGSK; do echo "fp16 $c"; done
  for c in $CONFIGS8; do echo "fp8 $c"; done
  for c in $CONFIGS8P; do echo "fp8p $c"; done
} >"$out/configs.txt"
# Which compiler made the kit: the binary's time and the tree it was built in.
echo "tilec binary of $(date -u -r "$tilec" '+%F %T UTC'), tree HEAD $(git -C "$root" log -1 --format=%h) with" \
  "$(git -C "$root" status --porcelain -- lib include tools | wc -l) uncommitted lib/include/tools files" >"$out/built-from.txt"
# Register use and spills of the promoted configs (two accumulators per thread), by ptxas -v
# here when the toolkit is at hand (the device run repeats it from the cubins, cuobjdump).
if command -v ptxas >/dev/null; then
  for cfg in $CONFIGS8P; do
    IFS=: read -r name bm bn th st panel <<<"$cfg"
    "$tilec" "$src8p" -target=sm_90a -D 'M=T.dynamic("M")' -D block_M=$bm -D block_N=$bn -D threads=$th \
      -D num_stages=$st -D panel=$panel -D N=4096 -D K=4096 --emit=ptx -o "$out/usage.ptx" 2>>"$log" || continue
    echo "$name $(ptxas -v -arch=sm_90a "$out/usage.ptx" -o /dev/null 2>&1 | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)' | paste -sd, -)"
  done >"$out/ptxas-usage.txt"
  rm -f "$out/usage.ptx"
  sed 's/^/kit_build: ptxas /' "$out/ptxas-usage.txt"
fi
if [ -s "$log" ]; then cat "$log"; echo "kit_build: $(wc -l <"$log") builds FAILED" >&2; exit 1; fi
rm -f "$log"
echo "kit_build: $(ls "$out"/*.so | wc -l) .so, $(ls "$out"/*.cubin | wc -l) cubins, $(du -sh "$out" | cut -f1) in $out"
