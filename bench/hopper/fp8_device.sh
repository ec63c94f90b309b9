#!/usr/bin/env bash
# GPU machine, repository root: QGMMA count per configuration, then
# numerics + timing (bench/hopper/fp8_run.py) under a timeout.
# Usage: bash bench/hopper/fp8_device.sh [LIBDIR]
set -u
libs=${1:-build-hopper-fp8}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
for cfg in $(cat "$libs/configs.txt"); do
  echo "$cfg: QGMMA in SASS: $(cuobjdump --dump-sass "$libs/fp8_$cfg.cubin" | grep -c QGMMA)"
done
timeout 200 python3 bench/hopper/fp8_run.py "$libs" 2>&1
echo "rc $?"
