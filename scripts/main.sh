#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds tilec and compiles
# every example for every target that takes it: tile IR, the host object +
# header, an sm_80/sm_90a fatbin object + header, Vulkan SPIR-V + header,
# Metal MSL + header, WebGPU WGSL + header and Ascend C + header (examples a
# target does not support are listed with its diagnostic).
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
  for t in tile host cuda; do
    case $t in
      tile) args=(--emit=tile -o "$out/$name.mlir") ;;
      host) args=(-target=host -o "$out/$name.host.o") ;;
      cuda) args=(-target=sm_80,sm_90a -o "$out/$name.cuda.o") ;;
    esac
    if "$tilec" "$f" "${defs[@]}" "${args[@]}"; then
      echo "compiled ${f#$root/} [$t] -> ${args[-1]#$root/}"
    else
      echo "FAILED: ${f#$root/} [$t]"; status=1
    fi
  done
  for t in vulkan metal webgpu ascend; do
    case $t in vulkan) ext=spv ;; metal) ext=metal ;; webgpu) ext=wgsl ;; ascend) ext=ascend.cpp ;; esac
    if msg=$("$tilec" "$f" "${defs[@]}" -target=$t -o "$out/$name.$ext" 2>&1); then
      echo "compiled ${f#$root/} [$t] -> out/examples/$name.$ext"
    else
      echo "not for $t: ${f#$root/}: $(grep -m1 'error:' <<<"$msg" | sed 's/.*error: //')"
    fi
  done
done
exit $status
