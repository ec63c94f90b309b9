#!/bin/sh
# wgsl-run.sh NPM_TOOLS JOB.json: runs wgsl-run.mjs on the job's WGSL with
# Node.js and Dawn's OpenGL ES backend (llvmpipe), or with Deno (lavapipe)
# when the WGSL enables f16, which Dawn's GL backend does not have.
set -e
tools=$1
job=$2
here=$(dirname "$0")
wgsl=$(sed -n 's/.*"wgsl": "\([^"]*\)".*/\1/p' "$job")
if grep -q '^enable f16;' "$wgsl"; then
  export DENO_NO_UPDATE_CHECK=1 DENO_DIR="$(dirname "$job")/deno-cache"
  exec "$tools/node_modules/.bin/deno" run -A --quiet "$here/wgsl-run.mjs" "$job"
fi
export EGL_PLATFORM=surfaceless TILEC_WEBGPU_MODULE="$tools/node_modules/webgpu"
exec node "$here/wgsl-run.mjs" "$job"
