#!/usr/bin/env python3
"""Issue-4 goal check on the device, one process: device copy rate and cuBLAS
(torch.matmul) first and again last; every softmax/layernorm/GEMM variant that
perf_kit.sh built is checked against torch on fresh random inputs (outputs
poisoned with NaN; ragged shapes) and timed (CUDA events, median of 50 after
5 warm-ups). Usage: python3 perf_kit.py  |  python3 perf_kit.py --one FILE.so
(one launch of one kernel, for ncu)."""
import ctypes, glob, os, sys
import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
dev = torch.device("cuda")
torch.manual_seed(0)
P = lambda t: ctypes.c_void_p(t.data_ptr())
I = lambda v: ctypes.c_int64(v)
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


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


def rel(out, ref):
    out = out.double(); ref = ref.double()
    if torch.isnan(out).any():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


def call(fn, *args):
    rc = fn(*args)
    torch.cuda.synchronize()
    assert rc == 0, f"launcher returned {rc}"


def kernel(path):
    base = os.path.basename(path)
    lib = ctypes.CDLL(path)
    for name in ("softmax", "layernorm", "gemm_bf16", "gemm"):
        if hasattr(lib, name):
            return getattr(lib, name)
    raise RuntimeError(base)


# Inputs shared by all variants.
SMX = torch.randn(65536, 1024, device=dev, dtype=torch.float16) * 4
SMY = torch.empty_like(SMX)
LNX = torch.randn(16384, 4096, device=dev, dtype=torch.float16)
LNY = torch.empty_like(LNX)
LNG = torch.randn(4096, device=dev, dtype=torch.float16)
LNB = torch.randn(4096, device=dev, dtype=torch.float16)
n = 4096
GA = torch.randn(n, n, device=dev, dtype=torch.float16)
GB = torch.randn(n, n, device=dev, dtype=torch.float16)
GC = torch.empty(n, n, device=dev, dtype=torch.float16)
GAb, GBb, GCb = GA.bfloat16(), GB.bfloat16(), GC.bfloat16()


def launch_one(path):
    f, b = kernel(path), os.path.basename(path)
    if "softmax" in b:
        return lambda: f(P(SMX), P(SMY), I(SMX.shape[0]), S())
    if "layernorm" in b:
        return lambda: f(P(LNX), P(LNG), P(LNB), P(LNY), I(LNX.shape[0]), S())
    if "gemmbf16" in b:
        return lambda: f(P(GAb), P(GBb), P(GCb), S())
    return lambda: f(P(GA), P(GB), P(GC), I(n), S())


if len(sys.argv) == 3 and sys.argv[1] == "--one":
    fn = launch_one(os.path.join(here, sys.argv[2]))
    fn(); torch.cuda.synchronize()
    sys.exit(0)

rows = []
def row(*cols):
    rows.append(cols)
    print("| " + " | ".join(str(c) for c in cols) + " |", flush=True)


src = torch.empty(2 ** 29, device=dev, dtype=torch.float16)
dst = torch.empty_like(src)
copy = lambda: 2 * src.numel() * 2 / bench(lambda: dst.copy_(src), 20) / 1e9
copy0 = copy()
flop = 2 * n ** 3
cub16 = lambda: flop / bench(lambda: torch.matmul(GA, GB, out=GC)) / 1e12
cub16b = lambda: flop / bench(lambda: torch.matmul(GAb, GBb.T, out=GCb)) / 1e12
c16, cb16 = cub16(), cub16b()
print(f"start: device copy 1 GiB {copy0:.0f} GB/s; cuBLAS fp16 {c16:.0f}, bf16 (B^T) {cb16:.0f} TFLOP/s", flush=True)
tsm = SMX.numel() * 4 / bench(lambda: torch.softmax(SMX, -1, out=SMY) if False else torch.softmax(SMX, -1)) / 1e9
tln = LNX.numel() * 4 / bench(lambda: F.layer_norm(LNX, (4096,), LNG, LNB, 1e-5)) / 1e9
print(f"torch softmax {tsm:.0f} GB/s, torch layer_norm {tln:.0f} GB/s", flush=True)

print("| kernel | variant | rel.err (ragged) | rate | % of copy / cuBLAS |\n| --- | --- | --- | --- | --- |")
for path in sorted(glob.glob(os.path.join(here, "*softmax*.so"))):
    b = os.path.basename(path)[:-3]
    f = kernel(path)
    X = torch.randn(1001, 1024, device=dev, dtype=torch.float16) * 4
    Y = torch.full_like(X, float("nan"))
    call(f, P(X), P(Y), I(1001), S())
    err = rel(Y, torch.softmax(X.double(), -1))
    t = bench(launch_one(path))
    gbs = SMX.numel() * 4 / t / 1e9
    row("softmax 65536x1024", b, f"{err:.1e}", f"{gbs:.0f} GB/s", f"{gbs / copy0 * 100:.1f}%")
for path in sorted(glob.glob(os.path.join(here, "*layernorm*.so"))):
    b = os.path.basename(path)[:-3]
    f = kernel(path)
    X = torch.randn(1001, 4096, device=dev, dtype=torch.float16)
    G = torch.randn(4096, device=dev, dtype=torch.float16)
    B = torch.randn(4096, device=dev, dtype=torch.float16)
    Y = torch.full_like(X, float("nan"))
    call(f, P(X), P(G), P(B), P(Y), I(1001), S())
    err = rel(Y, F.layer_norm(X.double(), (4096,), G.double(), B.double(), 1e-5))
    t = bench(launch_one(path))
    gbs = LNX.numel() * 4 / t / 1e9
    row("layernorm 16384x4096", b, f"{err:.1e}", f"{gbs:.0f} GB/s", f"{gbs / copy0 * 100:.1f}%")

for path in sorted(glob.glob(os.path.join(here, "gemmf16_*.so"))):
    b = os.path.basename(path)[:-3]
    f = kernel(path)
    A = torch.randn(1000, 4096, device=dev, dtype=torch.float16)
    C = torch.full((1000, 4096), float("nan"), device=dev, dtype=torch.float16)
    call(f, P(A), P(GB), P(C), I(1000), S())
    err = rel(C, A.float() @ GB.float())
    GC.fill_(float("nan"))
    call(f, P(GA), P(GB), P(GC), I(n), S())
    err = max(err, rel(GC, GA.float() @ GB.float()))
    t = bench(launch_one(path))
    row("GEMM fp16 4096^3 (M=1000 checked)", b[8:], f"{err:.1e}", f"{flop / t / 1e12:.0f} TFLOP/s", f"{flop / t / 1e12 / c16 * 100:.1f}%")
for path in sorted(glob.glob(os.path.join(here, "gemmbf16_*.so"))):
    b = os.path.basename(path)[:-3]
    f = kernel(path)
    fr = kernel(path.replace("gemmbf16_", "gemmbf16r_"))
    A = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
    B = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
    C = torch.full((1000, 1000), float("nan"), device=dev, dtype=torch.bfloat16)
    call(fr, P(A), P(B), P(C), S())
    err = rel(C, A.float() @ B.float().T)
    GCb.fill_(float("nan"))
    call(f, P(GAb), P(GBb), P(GCb), S())
    err = max(err, rel(GCb, GAb.float() @ GBb.float().T))
    t = bench(launch_one(path))
    row("GEMM bf16 B^T 4096^3 (1000^3 checked)", b[9:], f"{err:.1e}", f"{flop / t / 1e12:.0f} TFLOP/s", f"{flop / t / 1e12 / cb16 * 100:.1f}%")

# The hand-written CUDA C++ kernel (nvcc) with the same design, as a reference.
try:
    cu = ctypes.CDLL("libcuda.so.1")
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert cu.cuModuleLoad(ctypes.byref(mod), os.path.join(here, "gemm_mma.cubin").encode()) == 0
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"gemm_mma") == 0
    assert cu.cuFuncSetAttribute(fn, 8, 98304) == 0  # MAX_DYNAMIC_SHARED_SIZE_BYTES
    def hw(A, B, C, M):
        args = [ctypes.c_void_p(A.data_ptr()), ctypes.c_void_p(B.data_ptr()), ctypes.c_void_p(C.data_ptr()), ctypes.c_int64(M)]
        ptrs = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        rc = cu.cuLaunchKernel(fn, 32, (M + 127) // 128, 1, 128, 1, 1, 98304, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), ptrs, None)
        assert rc == 0, rc
    GC.fill_(float("nan"))
    hw(GA, GB, GC, n); torch.cuda.synchronize()
    err = rel(GC, GA.float() @ GB.float())
    t = bench(lambda: hw(GA, GB, GC, n))
    row("GEMM fp16 4096^3", "hand-written bench/gemm_mma.cu (nvcc)", f"{err:.1e}", f"{flop / t / 1e12:.0f} TFLOP/s", f"{flop / t / 1e12 / c16 * 100:.1f}%")
except Exception as ex:  # reference only
    print("hand-written reference failed:", ex)

# tilec's own cubins launched through the driver API (occupancy experiment, perf_kit.sh).
def load(cubin, name, smem):
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert cu.cuModuleLoad(ctypes.byref(mod), os.path.join(here, cubin).encode()) == 0
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, name) == 0
    assert cu.cuFuncSetAttribute(fn, 8, smem) == 0
    return fn
def desc(t, rows, cols):
    return [t.data_ptr(), t.data_ptr(), 0, rows, cols, cols, 1]
for cubin in ("tilec_t256.cubin", "tilec_t256_minct2.cubin"):
    try:
        fn = load(cubin, b"gemm", 98304)
        def tl(A, B, C, M):
            vals = desc(A, M, n) + desc(B, n, n) + desc(C, M, n) + [M]
            args = [ctypes.c_int64(v) for v in vals]
            ptrs = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
            rc = cu.cuLaunchKernel(fn, n // 128, (M + 127) // 128, 1, 256, 1, 1, 98304,
                                   ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), ptrs, None)
            assert rc == 0, rc
        A = torch.randn(1000, n, device=dev, dtype=torch.float16)
        C = torch.full((1000, n), float("nan"), device=dev, dtype=torch.float16)
        tl(A, GB, C, 1000); torch.cuda.synchronize()
        err = rel(C, A.float() @ GB.float())
        GC.fill_(float("nan"))
        tl(GA, GB, GC, n); torch.cuda.synchronize()
        err = max(err, rel(GC, GA.float() @ GB.float()))
        t = bench(lambda: tl(GA, GB, GC, n))
        row("GEMM fp16 4096^3 (M=1000 checked)", cubin, f"{err:.1e}", f"{flop / t / 1e12:.0f} TFLOP/s", f"{flop / t / 1e12 / c16 * 100:.1f}%")
    except Exception as ex:
        print(cubin, "failed:", ex)

copy1, c16e, cb16e = copy(), cub16(), cub16b()
print(f"end: device copy 1 GiB {copy1:.0f} GB/s; cuBLAS fp16 {c16e:.0f}, bf16 (B^T) {cb16e:.0f} TFLOP/s")
