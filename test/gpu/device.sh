#!/usr/bin/env bash
# Runs on the device (from the repo root): the examples' numerics + timing
# (run.py), the host suite against the host target (run_suite.py), then
# compute-sanitizer memcheck and racecheck on the small shapes of both, and
# the SASS of the GEMM kernels. Everything lands in $OUT too.
cd "$(dirname "$0")/../../build/gpu-kit" || exit 1
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
date -u | tee -a "$OUT/gpu.txt"
python3 run_suite.py 2>&1 | tee "$OUT/suite.txt" | tail -45
python3 run.py 2>&1 | tee "$OUT/run.txt"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "== compute-sanitizer --tool $tool"
  for s in run.py run_suite.py; do
    PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 200 "$san" --tool $tool --print-limit 5 python3 $s --sanitize >"$OUT/$tool-$s.txt" 2>&1
    echo "$s rc=$?: $(grep -E 'ERROR SUMMARY|hazard|FAIL' "$OUT/$tool-$s.txt" | tail -3 | tr '\n' ' ')"
  done
done
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" --dump-sass cubin/gemm.cubin >"$OUT/gemm.sass" 2>&1 && grep -cE "HMMA|LDSM" "$OUT/gemm.sass"
tar czf "$OUT/sass.tgz" -C "$OUT" gemm.sass && rm "$OUT/gemm.sass"
