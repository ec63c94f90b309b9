#!/usr/bin/env python3
"""Bandwidth study on the device: every softmax/layernorm variant built by
bw_variants.sh is checked against torch (ragged M too) and timed against the
device copy rate measured in the same run. Usage: python3 bw_variants.py"""
import ctypes, glob, os
import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
dev = torch.device("cuda")
torch.manual_seed(0)


def bench(f, reps=50):
    for _ in range(5):
        f()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        s.record(); f(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    return sorted(times)[len(times) // 2]


P = lambda t: ctypes.c_void_p(t.data_ptr())
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
src = torch.empty(2 ** 29, device=dev, dtype=torch.float16)
dst = torch.empty_like(src)
copy = 2 * src.numel() * 2 / bench(lambda: dst.copy_(src), 20) / 1e9
print(f"device copy 1 GiB: {copy:.0f} GB/s")
print("| kernel | config | rel.err (ragged) | GB/s | % of copy |\n| --- | --- | --- | --- | --- |")
for path in sorted(glob.glob(os.path.join(here, "softmax_*.so"))):
    fn = ctypes.CDLL(path).softmax
    cfg = os.path.basename(path)[8:-3]
    Xr = torch.randn(1001, 1024, device=dev, dtype=torch.float16)
    Yr = torch.full_like(Xr, float("nan"))
    assert fn(P(Xr), P(Yr), ctypes.c_int64(1001), S()) == 0
    err = ((Yr.double() - torch.softmax(Xr.double(), -1)).norm() / torch.softmax(Xr.double(), -1).norm()).item()
    M = 65536
    X = torch.randn(M, 1024, device=dev, dtype=torch.float16)
    Y = torch.empty_like(X)
    t = bench(lambda: fn(P(X), P(Y), ctypes.c_int64(M), S()))
    gbs = 2 * X.numel() * 2 / t / 1e9
    print(f"| softmax 65536x1024 | block_M, threads = {cfg} | {err:.1e} | {gbs:.0f} | {gbs / copy * 100:.0f}% |")
for path in sorted(glob.glob(os.path.join(here, "layernorm_*.so"))):
    fn = ctypes.CDLL(path).layernorm
    cfg = os.path.basename(path)[10:-3]
    G = torch.randn(4096, device=dev, dtype=torch.float16)
    B = torch.randn(4096, device=dev, dtype=torch.float16)
    Xr = torch.randn(1001, 4096, device=dev, dtype=torch.float16)
    Yr = torch.full_like(Xr, float("nan"))
    assert fn(P(Xr), P(G), P(B), P(Yr), ctypes.c_int64(1001), S()) == 0
    ref = F.layer_norm(Xr.double(), (4096,), G.double(), B.double(), 1e-5)
    err = ((Yr.double() - ref).norm() / ref.norm()).item()
    M = 16384
    X = torch.randn(M, 4096, device=dev, dtype=torch.float16)
    Y = torch.empty_like(X)
    t = bench(lambda: fn(P(X), P(G), P(B), P(Y), ctypes.c_int64(M), S()))
    gbs = 2 * X.numel() * 2 / t / 1e9
    print(f"| layernorm 16384x4096 | block_M, threads = {cfg} | {err:.1e} | {gbs:.0f} | {gbs / copy * 100:.0f}% |")
