#!/usr/bin/env bash
# GPU machine, repository root: IGMMA count of the int8 cubin, then int8 numerics
# + int8/fp8 timing (bench/hopper/int8_run.py) under a timeout.
# Usage: bash bench/hopper/int8_device.sh [LIBDIR]
set -u
libs=${1:-build-hopper-int8}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
echo "int8 m128n256w2s4: IGMMA in SASS: $(cuobjdump --dump-sass "$libs/int8_m128n256w2s4.cubin" | grep -c IGMMA)"
timeout 100 python3 bench/hopper/int8_run.py "$libs" 2>&1
echo "rc $?"
