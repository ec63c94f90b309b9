#!/usr/bin/env bash
# Profiling kit for the mma.sync GEMM (issue #4): builds the fp16 example on the
# mma.sync path (-target=sm_90) for each TAG=/path/to/tilec[:flags] given, into
# OUTDIR; on the device, `bash OUTDIR/mma_prof_run.sh` runs ncu (full set, one
# launch each, cuBLAS too) and a clock/power soak, writing reports to $OUT.
# Usage: test/gpu/mma_prof.sh OUTDIR TAG=/path/to/tilec[:"-D x=y ..."] ...
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1; shift
rm -rf "$out" && mkdir -p "$out"
cp "$root/test/gpu/mma_prof.py" "$root/test/gpu/mma_prof_run.sh" "$out/"
for tv in "$@"; do
  tag=${tv%%=*} rest=${tv#*=}
  tilec=${rest%%:*} flags=""
  [ "$rest" != "$tilec" ] && flags=${rest#*:}
  # shellcheck disable=SC2086
  "$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 -shared $flags -o "$out/$tag.so"
  # shellcheck disable=SC2086
  "$tilec" "$root/examples/gemm/gemm.tile" -target=sm_90 --emit=ptx $flags -o "$out/$tag.ptx"
  echo "$tag $(ptxas -arch=sm_90 -v "$out/$tag.ptx" -o "$out/$tag.cubin" 2>&1 | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | tr '\n' ' ')"
done | tee "$out/regs.txt"
rm -f "$out"/*.h
