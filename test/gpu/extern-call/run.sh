#!/usr/bin/env bash
# Builds the T.call_extern GPU check here (main.c): bash test/gpu/extern-call/run.sh [OUTDIR]
# (default build/gpu-extern); on the GPU machine run OUTDIR/extcheck.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/build/gpu-extern}
tilec=${TILEC:-$root/build/bin/tilec}
tl=${TILELANG_SRC:-/work/tilelang-src}
mkdir -p "$out"
"$tilec" "$root/test/Target/CUDA/extern-call.tile" -target=sm_90a -o "$out/ext.o"
"$tilec" "$tl/examples/bitnet-1.58b/kernel_benchmark/tilelang_bitnet_158_int8xint2_decode.py" \
  --kernel bitnet_158_int8xint2_decode -D M=3 -D N=100 -D K=1024 -D in_dtype=T.int8 -D out_dtype=T.int32 \
  -D accum_dtype=T.int32 -D fast_decoding=True -target=sm_90a -o "$out/bit.o"
cuda=${CUDA_PATH:-/usr/local/cuda}
clang-22 -O1 -I"$out" -I"$cuda/include" "$(dirname "$0")/main.c" "$out/ext.o" "$out/bit.o" \
  -L"$cuda/lib64/stubs" -lcuda -o "$out/extcheck"
