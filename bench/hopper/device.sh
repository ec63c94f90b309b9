#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: SASS check, a quick
# numeric smoke test under a timeout (a pipeline deadlock must not eat the
# session), then the full check + benchmark.
set -u
libs=${1:-build-hopper-libs}
echo "HGMMA in SASS: $(cuobjdump --dump-sass $libs/gemm_sm90a.cubin | grep -c HGMMA)"
timeout 90 python3 bench/hopper/run.py $libs --quick || { echo "smoke test failed or hung"; exit 1; }
timeout 360 python3 bench/hopper/run.py $libs
