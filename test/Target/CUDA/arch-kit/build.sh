#!/bin/bash
# Builds the multi-arch device kit into build/arch-kit (ignored): the GEMM example as
# shared libraries for -target=sm_80,sm_90a and sm_90a,sm_80, plus the single-arch
# sm_80 and sm_90a builds as speed references, and run.py. On the GPU machine:
#   carry: ["build/arch-kit"]   command: python3 build/arch-kit/run.py   (about 15 s)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=$root/build/arch-kit
rm -rf "$out" && mkdir -p "$out"
gemm=$root/examples/gemm/gemm.tile
"$tilec" "$gemm" -target=sm_80,sm_90a -shared -o "$out/gemm_sm80_sm90a.so"
"$tilec" "$gemm" -target=sm_90a,sm_80 -shared -o "$out/gemm_sm90a_sm80.so"
"$tilec" "$gemm" -target=sm_80 -shared -o "$out/gemm_sm80.so" 2>/dev/null
"$tilec" "$gemm" -target=sm_90a -shared -o "$out/gemm_sm90a.so" 2>/dev/null
cp "$root/test/Target/CUDA/arch-kit/run.py" "$out/"
ls -la "$out"
