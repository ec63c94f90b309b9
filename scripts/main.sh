#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds tilec and compiles
# every example as far as the pipeline goes today (the verified tile IR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" tilec tilec-opt
tilec="${TILEC_BUILD_DIR:-$root/build}/bin/tilec"
out="$root/out/examples"
mkdir -p "$out"
status=0
for f in "$root"/examples/*/*.tile; do
  name=$(basename "$f" .tile)
  defs=()
  case "$name" in gemm_bf16) defs=(-D M=4096 -D N=4096 -D K=4096) ;; esac
  if "$tilec" "$f" "${defs[@]}" --emit=tile -o "$out/$name.mlir"; then
    echo "compiled examples/${f#$root/examples/} -> out/examples/$name.mlir"
  else
    echo "FAILED: $f"; status=1
  fi
done
exit $status
