#!/usr/bin/env bash
# Compile time, median of 5 wall-clock runs each (this machine):
#   tilec examples/gemm/gemm.tile -target=sm_90a -o gemm.o   (end to end: PTX, ptxas, fatbinary, launcher object)
#   nvcc -cubin -arch=sm_90a bench/gemm_mma.cu                (the hand-written CUDA C++ equivalent)
# Usage: bench/compile_time.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { # command...
  local ts=()
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    ts+=("$(echo "$e - $s" | bc)")
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n 3p
}
t1=$(median "$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90a -o "$tmp/gemm.o")
t2=$(median "$nvcc" -cubin -arch=sm_90a "$root/bench/gemm_mma.cu" -o "$tmp/gemm_mma.cubin")
echo "tilec examples/gemm/gemm.tile -target=sm_90a -o gemm.o: ${t1} s (median of 5)"
echo "nvcc -cubin -arch=sm_90a bench/gemm_mma.cu: ${t2} s (median of 5)"
