#!/usr/bin/env bash
# Builds the GPU kit here (tilec runs only on this machine): every example as
# a -shared library for the H200 (sm_90a fatbin, PTX included), ragged-shape
# variants of the factory kernels, GEMM tile-shape variants for timing, and
# every kernel of the host suite (test/run) for both -target=host -shared and
# -target=sm_90a -shared with its header (a CUDA rejection is kept as
# suite/<name>.cuda.err). Usage: test/gpu/build.sh [outdir] (default build/gpu-kit)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/gpu-kit}
tilec=${TILEC:-$root/build/bin/tilec}
arch=${GPU_ARCH:-sm_90a}
rm -rf "$out"
mkdir -p "$out/suite" "$out/cubin"
cp "$root/test/gpu/run.py" "$root/test/gpu/run_suite.py" "$root/test/gpu/timing.py" "$out/"
build() { # name source [tilec args...]
  local name=$1 src=$2; shift 2
  "$tilec" "$root/$src" -target=$arch -shared -o "$out/$name.so" "$@"
  "$tilec" "$root/$src" -target=$arch --emit=cubin -o "$out/cubin/$name.cubin" "$@"
}
build gemm examples/gemm/gemm.tile
build gemm_bf16_4096 examples/gemm/gemm_bf16.tile -D M=4096 -D N=4096 -D K=4096
# The fp16 example on the mma.sync path (sm_90: TMA loads, ldmatrix, mma.sync; sm_90a takes wgmma).
"$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 -shared -o "$out/gemm_mma.so"
"$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 --emit=cubin -o "$out/cubin/gemm_mma.cubin"
build gemm_bf16_ragged examples/gemm/gemm_bf16.tile -D M=1000 -D N=1000 -D K=1000
build softmax examples/softmax/softmax.tile
build layernorm examples/layernorm/layernorm.tile
build row_sum examples/reduction/row_sum.tile
build scale_bias_gelu examples/elementwise/scale_bias_gelu.tile
# Tile-shape variants of the bf16 GEMM (timing only; name: MxNxK_stages_threads).
for v in 128x256x32_3_256 128x256x64_3_256 128x128x32_4_128 256x128x32_3_256 128x128x64_4_128; do
  IFS=x_ read -r bm bn bk st th <<<"$v"
  build "gemmv_$v" examples/gemm/gemm_bf16.tile -D M=4096 -D N=4096 -D K=4096 -D block_M=$bm -D block_N=$bn \
    -D block_K=$bk -D num_stages=$st -D threads=$th
done
# The host suite.
python3 "$root/test/gpu/suite_list.py" "$root" "$out/suite" >"$out/suite/list.tsv"
while IFS=$'\t' read -r name tile flags; do
  # The flags are shlex-quoted by suite_list.py (e.g. -D 'M=T.dynamic("M")').
  eval "fl=($flags)"
  cfl=()  # the CUDA build takes no -j
  for ((i = 0; i < ${#fl[@]}; i++)); do
    if [ "${fl[i]}" = -j ]; then i=$((i + 1)); else cfl+=("${fl[i]}"); fi
  done
  "$tilec" "$tile" -target=host -shared "${fl[@]}" -o "$out/suite/$name.host.so"
  "$tilec" "$tile" -target=host --emit=header "${fl[@]}" -o "$out/suite/$name.h"
  if ! "$tilec" "$tile" -target=$arch -shared "${cfl[@]}" -o "$out/suite/$name.cuda.so" 2>"$out/suite/$name.cuda.err"; then
    echo "suite: $name rejected by the CUDA target: $(head -c 300 "$out/suite/$name.cuda.err")"
  else
    rm -f "$out/suite/$name.cuda.err"
  fi
done <"$out/suite/list.tsv"
rm -rf "$out/suite/src"
du -sh "$out"
