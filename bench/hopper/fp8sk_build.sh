#!/usr/bin/env bash
# fp8 split-K device kit (issue #6, decode-like M = 128): builds into OUTDIR (default
# build/fp8sk, ignored by git; carry it to the GPU machine) tilec -shared launchers, M dynamic,
# e4m3 -> bf16, B N x K:
#   plain:   examples/gemm/gemm_fp8.tile, CONFIGS8 at every (N, K) of SHAPES: fp8_<N>_<K>_<cfg>.so
#   split-K: examples/gemm/gemm_fp8_splitk.tile (3-D grid, T.atomic_add into C, which the caller
#            zeroes), CONFIGSK at every (N, K): fp8sk_<N>_<K>_<cfg>.so
#   ragged numerics builds of every config: N = 200 (ragged against every block_N) with K = 400
#            (plain: ragged K tile) or K = 1024 (split-K: K must be a multiple of split x 128):
#            fp8_ragged_<cfg>.so, fp8sk_ragged_<cfg>.so
# plus fp8sk.py (the device half), timing.py, and regs.txt (wgmma instruction, red count, ptxas
# registers / spills of every config). On the device (carry build/fp8sk), from the repository root:
#   timeout 150 python3 build/fp8sk/fp8sk.py    (~1.5 MB kit; the run takes well under 2 minutes;
#                                                ROUNDS, FP8SK_M, GRAPHS=0; log in $OUT/fp8sk.txt)
# TARGET=host builds the same kit for the host target (test/gpu/dryrun.py; SHAPES small then).
# Usage: bench/hopper/fp8sk_build.sh [OUTDIR] [TILEC]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/fp8sk}
tilec=${2:-$root/build/bin/tilec}
target=${TARGET:-sm_90a}
# N x K of the M = 128 shapes (bench/RESULTS.md: 128x4096x4096, 128x8192x8192, 128x8192x28672).
SHAPES=${SHAPES:-"4096x4096 8192x8192 8192x28672"}
# name:block_M:block_N:threads:num_stages (block_K = 128, panel = 8). The first is gemm_fp8.tile's
# own defaults; the others as kit_build.sh's CONFIGS8.
CONFIGS8=${CONFIGS8:-"default-m128n256w2s4:128:256:256:4 m64n128w1s6:64:128:128:6 m64n256w1s4:64:256:128:4"}
# name:block_M:block_N:threads:num_stages:split_k. Every K of SHAPES is a multiple of 4 x 128.
# Blocks at M = 128, N = 4096: m64n128 64 x split, m64n256 and m128n128 32 x split (132 SMs).
CONFIGSK=${CONFIGSK:-"sk2-m64n128w1s4:64:128:128:4:2 sk4-m64n128w1s4:64:128:128:4:4 sk2-m64n256w1s4:64:256:128:4:2 sk4-m64n256w1s4:64:256:128:4:4 sk2-m128n128w2s5:128:128:256:5:2 sk4-m128n128w2s5:128:128:256:5:4"}
rm -rf "$out" && mkdir -p "$out"
cp "$root/bench/hopper/fp8sk.py" "$root/test/gpu/timing.py" "$out/"
log=$out/build-errors.txt
: >"$log"
build() { # output, then tilec arguments; a failure is recorded with its diagnostics
  local o=$1 e
  shift
  e=$(mktemp)
  if ! "$tilec" "$@" -target="$target" -D 'M=T.dynamic("M")' -shared -o "$o" 2>"$e"; then
    { echo "FAILED: tilec $* -o $o"; cat "$e"; } >>"$log"
  fi
  rm -f "$e"
}
jobs=${JOBS:-4}
n=0
throttle() { n=$((n + 1)); if ((n % jobs == 0)); then wait; fi; }
# One family: configs (name:bm:bn:threads:stages[:split]), source file, .so prefix and the
# ragged build's K.
family() {
  local configs=$1 src=$2 prefix=$3 raggedK=$4 cfg name bm bn th st split nk
  for cfg in $configs; do
    IFS=: read -r name bm bn th st split <<<"$cfg"
    flags=(-D block_M=$bm -D block_N=$bn -D threads=$th -D num_stages=$st ${split:+-D split_k=$split})
    for nk in $SHAPES ragged; do
      if [ $nk = ragged ]; then dims=(-D N=200 -D K=$raggedK); else dims=(-D N=${nk%x*} -D K=${nk#*x}); fi
      build "$out/${prefix}_${nk/x/_}_$name.so" "$src" "${flags[@]}" "${dims[@]}" &
      throttle
    done
  done
}
family "$CONFIGS8" "$root/examples/gemm/gemm_fp8.tile" fp8 400
family "$CONFIGSK" "$root/examples/gemm/gemm_fp8_splitk.tile" fp8sk 1024
wait
rm -f "$out"/*.h
echo "tilec binary of $(date -u -r "$tilec" '+%F %T UTC'), tree HEAD $(git -C "$root" log -1 --format=%h) with" \
  "$(git -C "$root" status --porcelain -- lib include tools | wc -l) uncommitted lib/include/tools files, target $target" \
  >"$out/built-from.txt"
# Path (wgmma + red.global.add or not) and ptxas registers / spills of every config at the first
# shape, when the toolkit is at hand: regs.txt.
if [ "$target" = sm_90a ] && command -v ptxas >/dev/null; then
  nk=${SHAPES%% *}
  for cfg in $CONFIGS8 $CONFIGSK; do
    IFS=: read -r name bm bn th st split <<<"$cfg"
    src=$root/examples/gemm/gemm_fp8.tile flags=()
    [ -n "$split" ] && src=$root/examples/gemm/gemm_fp8_splitk.tile flags=(-D split_k=$split)
    "$tilec" "$src" -target=sm_90a -D 'M=T.dynamic("M")' -D N=${nk%x*} -D K=${nk#*x} -D block_M=$bm -D block_N=$bn \
      -D threads=$th -D num_stages=$st "${flags[@]}" --emit=ptx -o "$out/usage.ptx" 2>>"$log" || continue
    echo "$name $(grep -om1 'wgmma.mma_async[.a-z0-9]*' "$out/usage.ptx" || echo no-wgmma)" \
      "$(grep -c red.global.add "$out/usage.ptx") red.global.add" \
      "$(ptxas -v -arch=sm_90a "$out/usage.ptx" -o /dev/null 2>&1 | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)' | paste -sd, -)"
  done >"$out/regs.txt"
  rm -f "$out/usage.ptx"
  sed 's/^/fp8sk_build: /' "$out/regs.txt"
fi
if [ -s "$log" ]; then cat "$log"; echo "fp8sk_build: $(grep -c ^FAILED "$log") builds FAILED" >&2; exit 1; fi
rm -f "$log"
echo "fp8sk_build: $(ls "$out"/*.so | wc -l) .so, $(du -sh "$out" | cut -f1) in $out"
