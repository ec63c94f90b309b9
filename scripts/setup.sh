#!/usr/bin/env bash
# Installs every package tilec needs to build and test (Debian 12). Idempotent; quick when all is present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

PKGS=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22 libclang-rt-22-dev
  clang-format-22 clang-tidy-22
  cmake ninja-build ccache g++ python3 python3-numpy debootstrap curl
  libcli11-dev libfmt-dev libspdlog-dev catch2
  mesa-vulkan-drivers libvulkan-dev vulkan-tools vulkan-validationlayers spirv-tools glslang-tools
  libspirv-cross-c-shared-dev spirv-cross
  libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
)
# Node.js and npm run the WebGPU tests; a machine with its own Node.js (with
# npm) keeps it (Debian's npm would conflict with it).
command -v npm >/dev/null 2>&1 || PKGS+=(nodejs npm)

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

# The WebGPU tests' npm packages, project-local in .cache/npm-tools: Dawn's
# Node bindings (Tint validation, runs on Dawn's OpenGL ES backend) and Deno
# (WebGPU with shader-f16 on lavapipe).
npm_tools="$root/.cache/npm-tools"
have_npm_package() {
  node -e "process.exit(require('$npm_tools/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null
}
if ! have_npm_package webgpu 0.6.2 || ! have_npm_package deno 2.9.6; then
  echo "setup: installing npm packages webgpu@0.6.2 deno@2.9.6 into $npm_tools"
  mkdir -p "$npm_tools"
  # Quiet when it works; npm's own output when it fails, and setup fails (CI
  # must run the WebGPU tests, so a missing package is an error there too).
  if ! npm_log=$(npm install --prefix "$npm_tools" --no-audit --no-fund --no-save --no-progress \
                   webgpu@0.6.2 deno@2.9.6 2>&1); then
    echo "setup: npm install webgpu@0.6.2 deno@2.9.6 failed:" >&2
    printf '%s\n' "$npm_log" >&2
    exit 1
  fi
else
  echo "setup: npm packages present"
fi
