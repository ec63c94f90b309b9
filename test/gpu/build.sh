#!/usr/bin/env bash
# Builds the GPU kit here (tilec runs only on this machine): every example as
# a -shared library for the H200 (sm_90a fatbin, PTX included), ragged-shape
# variants of the factory kernels, and the host-target references.
# Usage: test/gpu/build.sh [outdir]   (default build/gpu-kit)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/gpu-kit}
tilec=${TILEC:-$root/build/bin/tilec}
arch=${GPU_ARCH:-sm_90a}
mkdir -p "$out"
cp "$root/test/gpu/run.py" "$out/"
build() { # name source [tilec args...]
  local name=$1 src=$2; shift 2
  "$tilec" "$root/$src" -target=$arch -shared -o "$out/$name.so" "$@"
}
build gemm examples/gemm/gemm.tile
build gemm_bf16_4096 examples/gemm/gemm_bf16.tile -D M=4096 -D N=4096 -D K=4096
build gemm_bf16_ragged examples/gemm/gemm_bf16.tile -D M=1000 -D N=1000 -D K=1000
build softmax examples/softmax/softmax.tile
build layernorm examples/layernorm/layernorm.tile
build row_sum examples/reduction/row_sum.tile
build scale_bias_gelu examples/elementwise/scale_bias_gelu.tile
ls -la "$out"
