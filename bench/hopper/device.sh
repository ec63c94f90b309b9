#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: SASS check, numerics of
# each tile configuration in its own process under a timeout (a pipeline
# deadlock or a launch failure must not eat the session or the other
# configurations), then the sweep over the configurations that passed.
# Usage: bash bench/hopper/device.sh LIBDIR [LOGDIR]
set -u
libs=${1:-build-hopper-libs}
log=${2:-${OUT:-/tmp}}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
pass=()
for cfg in $(tr ' ' '\n' <"$libs/configs.txt" | cut -d: -f1); do
  echo "$cfg: HGMMA in SASS: $(cuobjdump --dump-sass "$libs/gemm_$cfg.cubin" | grep -c HGMMA)"
  if timeout 120 python3 bench/hopper/run.py "$libs" check "$cfg" >"$log/check-$cfg.txt" 2>&1; then
    pass+=("$cfg")
  else
    echo "$cfg: numerics FAILED or hung (rc $?)"; grep -v " ok$" "$log/check-$cfg.txt" | tail -5
  fi
done
echo "passed: ${pass[*]}"
timeout 420 python3 bench/hopper/run.py "$libs" bench "${pass[@]}" 2>&1 | tee "$log/bench.txt"
