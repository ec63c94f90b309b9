#!/usr/bin/env bash
# Runs on the device (from the repo root): numerics + timing, then
# compute-sanitizer memcheck and racecheck on the small shapes.
cd "$(dirname "$0")/../../build/gpu-kit" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 run.py 2>&1 | tee "$OUT/run.txt"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "== compute-sanitizer --tool $tool"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 240 "$san" --tool $tool --print-limit 5 python3 run.py --sanitize 2>&1 | tail -8 | tee "$OUT/$tool.txt"
done
