#!/usr/bin/env bash
# Builds the performance kit for the issue-4 goal check (one device call):
# softmax/layernorm tile-config variants with the current lowering, the
# previous lowering's default builds as "before" (from build/bw-kit when it
# is there), mma.sync GEMM tile-config variants (-target=sm_90: the mma.sync
# path; sm_90a takes wgmma for matching GEMMs) in fp16 (gemm.tile) and bf16
# (gemm_bf16.tile, 4096^3 and a ragged 1000^3 build each), and the
# hand-written CUDA C++ equivalent (bench/gemm_mma.cu, nvcc) as a reference.
# With --bw only the bandwidth half (softmax/layernorm variants, default
# outdir build/bw-kit2). perf_kit.py times everything with timing.py.
# Usage: test/gpu/perf_kit.sh [--bw] [outdir] (default build/perf-kit); on the
# device: cd build/perf-kit && python3 perf_kit.py
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bw_only=0
if [ "${1:-}" = --bw ]; then bw_only=1; shift; fi
if [ $bw_only = 1 ]; then out=${1:-$root/build/bw-kit2}; else out=${1:-$root/build/perf-kit}; fi
tilec=${TILEC:-$root/build/bin/tilec}
# KIT_TARGET=host (with --bw): the same kernels as host -shared builds, for
# test/gpu/dryrun.py (the kit's Python run on the CPU, no GPU).
target=${KIT_TARGET:-sm_90a}
rm -rf "$out" && mkdir -p "$out/src"
cp "$root/test/gpu/perf_kit.py" "$root/test/gpu/timing.py" "$out/"
for f in softmax_4_128 layernorm_2_256; do
  [ "$target" = sm_90a ] && [ -f "$root/build/bw-kit/$f.so" ] && cp "$root/build/bw-kit/$f.so" "$out/before_$f.so"
done
# softmax with the division written as a multiplication by the row's reciprocal
python3 -c '
import sys
s = open(sys.argv[1]).read()
old = "            x[i, j] = x[i, j] / row_sum[i]\n"
assert old in s
s = s.replace("        T.reduce_sum(x, row_sum, dim=1)\n",
              "        T.reduce_sum(x, row_sum, dim=1)\n        for i in T.Parallel(block_M):\n            row_sum[i] = 1.0 / row_sum[i]\n")
s = s.replace(old, "            x[i, j] = x[i, j] * row_sum[i]\n")
print(s, end="")' "$root/examples/softmax/softmax.tile" >"$out/src/softmax_rcp.tile"
for v in 4_128 2_64 1_32 8_256 16_512 2_128 4_256 8_128; do
  IFS=_ read -r bm th <<<"$v"
  "$tilec" "$root/examples/softmax/softmax.tile" -target=$target -shared -D block_M=$bm -D threads=$th -o "$out/softmax_$v.so"
done
for v in 4_128 8_256; do
  IFS=_ read -r bm th <<<"$v"
  "$tilec" "$out/src/softmax_rcp.tile" -target=$target -shared -D block_M=$bm -D threads=$th -o "$out/softmaxrcp_$v.so"
done
for v in 2_256 1_128 1_256 2_512 1_512 4_512 2_128 1_64 1_32; do
  IFS=_ read -r bm th <<<"$v"
  "$tilec" "$root/examples/layernorm/layernorm.tile" -target=$target -shared -D block_M=$bm -D threads=$th -o "$out/layernorm_$v.so"
done
# Registers of every bandwidth variant (ptxas of the PTX each .so embeds).
[ "$target" = sm_90a ] && for so in "$out"/softmax*.so "$out"/layernorm*.so; do
  b=$(basename "$so" .so); IFS=_ read -r k bm th <<<"$b"
  case $k in softmax) src=$root/examples/softmax/softmax.tile ;; softmaxrcp) src=$out/src/softmax_rcp.tile ;;
    layernorm) src=$root/examples/layernorm/layernorm.tile ;; *) continue ;; esac
  "$tilec" "$src" -target=sm_90a --emit=ptx -D block_M=$bm -D threads=$th -o "$out/src/$b.ptx"
  echo "$b $(ptxas -arch=sm_90a -v "$out/src/$b.ptx" -o /dev/null 2>&1 | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | tr '\n' ' ')"
done | tee "$out/bw_regs.txt"
if [ $bw_only = 1 ]; then
  rm -f "$out"/src/*.ptx
  du -sh "$out"
  exit 0
fi
# GEMM (mma.sync): name MxNxK_stages_threads
for v in 128x128x64_3_128 128x128x64_3_256 128x256x64_3_256 256x128x64_3_256 128x128x64_2_128 \
         128x128x32_4_128 128x256x32_4_256 256x128x32_4_256 128x128x32_5_256 64x128x64_4_128; do
  IFS=x_ read -r bm bn bk st th <<<"$v"
  flags=(-D block_M=$bm -D block_N=$bn -D block_K=$bk -D num_stages=$st -D threads=$th)
  "$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 -shared "${flags[@]}" -o "$out/gemmf16_$v.so" ||
    echo "gemm fp16 $v rejected"
  "$tilec" "$root/examples/gemm/gemm_bf16.tile" -target=sm_90 -shared -D M=4096 -D N=4096 -D K=4096 "${flags[@]}" \
    -o "$out/gemmbf16_$v.so" || echo "gemm bf16 $v rejected"
  "$tilec" "$root/examples/gemm/gemm_bf16.tile" -target=sm_90 -shared -D M=1000 -D N=1000 -D K=1000 "${flags[@]}" \
    -o "$out/gemmbf16r_$v.so" || echo "gemm bf16 ragged $v rejected"
  "$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 --emit=ptx "${flags[@]}" -o "$out/src/gemmf16_$v.ptx"
  echo "$v $(ptxas -arch=sm_90 -v "$out/src/gemmf16_$v.ptx" -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers')"
done | tee "$out/gemm_regs.txt"
nvcc -cubin -arch=sm_90 -O3 "$root/bench/gemm_mma.cu" -o "$out/gemm_mma.cubin"
# Occupancy experiment: the 8-warp 128x128x64 fp16 kernel (158 registers: 1 block per SM) with
# .minnctapersm 2 added to its PTX (128 registers, no spills: 2 blocks per SM); the unchanged PTX
# as the control. perf_kit.py launches both cubins through the driver API.
"$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 --emit=ptx -D threads=256 -o "$out/src/t256.ptx"
sed 's/^\.maxntid 256, 1, 1/.maxntid 256, 1, 1\n.minnctapersm 2/' "$out/src/t256.ptx" >"$out/src/t256m.ptx"
ptxas -arch=sm_90 -O3 "$out/src/t256.ptx" -o "$out/tilec_t256.cubin"
ptxas -arch=sm_90 -O3 -v "$out/src/t256m.ptx" -o "$out/tilec_t256_minct2.cubin" 2>&1 | grep -E "Used|spill"
rm -f "$out"/src/*.ptx
du -sh "$out"
