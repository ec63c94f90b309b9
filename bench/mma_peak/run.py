#!/usr/bin/env python3
"""mma.sync ceiling on the H200 next to cuBLAS, one process (bench/mma_peak/README.md).
mma_peak.cubin (nvcc -arch=sm_90) launched through the driver API with 132 x k blocks of
128 or 256 threads; cuBLAS bf16 4096^3 (torch.matmul); both timed with test/gpu/timing.py
(back-to-back launches, rotated rounds)."""
import ctypes, os, sys
import torch
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import timing

cu = ctypes.CDLL("libcuda.so.1")
torch.zeros(1, device="cuda")
mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
assert cu.cuModuleLoad(ctypes.byref(mod), os.path.join(here, "mma_peak.cubin").encode()) == 0
assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"mma_peak") == 0
out = torch.empty(132 * 16 * 256, device="cuda")
ITERS = 4096
def launcher(blocks, threads):
    vals = [ctypes.c_void_p(out.data_ptr()), ctypes.c_int(ITERS)]
    ptrs = (ctypes.c_void_p * 2)(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
    def f():
        return cu.cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0,
                                 ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), ptrs, None)
    return f
conts = []
for per_sm, threads in ((2, 128), (1, 256), (4, 128), (2, 256), (4, 256)):
    blocks = 132 * per_sm
    flop = blocks * threads // 32 * ITERS * 8 * 2 * 16 * 8 * 16
    conts.append(timing.Contender(f"mma.sync peak: {per_sm} blocks/SM x {threads} threads ({per_sm * threads // 32} warps/SM)",
                                  launcher(blocks, threads), flop))
n = 4096
A = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
B = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
C = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
conts.append(timing.Contender("cuBLAS bf16 4096^3 (torch.matmul, wgmma)", lambda: torch.matmul(A, B.T, out=C), 2 * n ** 3))
timing.measure(conts, rounds=9, graphs=False)
cb = conts[-1].rate("b2b")
print("| kernel | TFLOP/s (b2b) | / cuBLAS |\n| --- | --- | --- |")
for c in conts:
    print(f"| {c.name} | {c.rate('b2b') / 1e12:.0f} | {c.rate('b2b') / cb:.2f} |")
