#!/usr/bin/env bash
# The GPU kit's entry on the GPU machine (repository root, the kit folder carried along):
#   bash bench/device.sh [KIT] [kit.py all options, e.g. --suites gemm,fp8]
# GPU state, then `kit.py all` (SASS check, numerics, compute-sanitizer, timing; a summary
# last), its log in $OUT/kit-log.txt, its figures in $OUT/kit-results.json and the
# sanitizer reports in $OUT/sanitizer.txt. Exits non-zero when anything failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kit=${1:-$root/build/gpu-kit}
shift || true
out=${OUT:-/tmp/gpu-kit-out}
mkdir -p "$out"
export OUT=$out PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  date -u '+%F %T UTC'
  python3 "$root/bench/kit.py" all --kit "$kit" "$@"
  rc=$?
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv
  exit $rc
} 2>&1 | tee "$out/kit-log.txt"
