#!/usr/bin/env bash
# Installs every package tilec needs to build and test (Debian 12). Idempotent; quick when all is present.
set -euo pipefail

PKGS=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22 libclang-rt-22-dev
  cmake ninja-build ccache g++ python3
  libcli11-dev libfmt-dev libspdlog-dev catch2
  mesa-vulkan-drivers libvulkan-dev vulkan-tools vulkan-validationlayers spirv-tools glslang-tools
  libspirv-cross-c-shared-dev spirv-cross
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
