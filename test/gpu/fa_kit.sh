#!/usr/bin/env bash
# FlashAttention example kit (examples/flash_attention): builds flash_attn.tile for the H200
# (-target=sm_90a -shared) at the timed shape (batch 4, heads 32, seq 4096, dim 128) and at a
# small shape for the numerics (batch 2, heads 4, seq 512, dim 128), into OUTDIR; on the device:
# python3 OUTDIR/fa_bench.py (numerics against torch in float32, then timing against
# torch.nn.functional.scaled_dot_product_attention with the kits' method, test/gpu/timing.py).
# Usage: test/gpu/fa_kit.sh [outdir] (default build/fa-kit)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/fa-kit}
tilec=${TILEC:-$root/build/bin/tilec}
rm -rf "$out" && mkdir -p "$out"
cp "$root/test/gpu/fa_bench.py" "$root/test/gpu/timing.py" "$out/"
src=$root/examples/flash_attention/flash_attn.tile
"$tilec" "$src" -target=sm_90a -shared -o "$out/fa_big.so"
"$tilec" "$src" -target=sm_90a -shared -D batch=2 -D heads=4 -D seq_len=512 -o "$out/fa_small.so"
"$tilec" "$src" -target=sm_90a --emit=ptx -o "$out/fa.ptx"
"${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a -v "$out/fa.ptx" -o "$out/fa.cubin" 2>&1 | grep -E "Used|spill" | tee "$out/regs.txt"
rm -f "$out"/*.h "$out/fa.ptx"
