#!/usr/bin/env bash
# Builds the mma.sync ceiling kit into $1 (default build/peak-kit): the
# register-only mma.sync kernel (nvcc) and run.py with test/gpu/timing.py.
# On the device: python3 build/peak-kit/run.py (carry build/peak-kit; ~7 s).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/peak-kit}
rm -rf "$out" && mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
"$nvcc" -arch=sm_90 -O3 -cubin "$root/bench/mma_peak/mma_peak.cu" -o "$out/mma_peak.cubin"
cp "$root/bench/mma_peak/run.py" "$root/test/gpu/timing.py" "$out/"
echo "built $out"
