#!/usr/bin/env python3
"""Issue-4 goal check on the device, one process. First every kernel that
perf_kit.sh built is checked against a float64 torch reference on fresh random
inputs, outputs poisoned with NaN: ragged shapes (softmax/layernorm M = 1001
and 3, GEMM M = 1000) and the timed shape itself. Then every contender that
passed -- tilec kernels, torch.softmax / F.layer_norm, cuBLAS (torch.matmul),
the device copy both as a 1 GiB copy_ and at the byte count of the bandwidth
kernels -- is timed the same way in rotated rounds (timing.py: one launch
between events, the kits' old method, and back-to-back launches / CUDA-graph
replay, the sound one), and the tables print last.
Usage: python3 perf_kit.py  |  python3 perf_kit.py --one FILE.so (one launch
of one kernel, for ncu). KIT_ROUNDS=N changes the number of rounds (15)."""
import ctypes, glob, json, os, sys
import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from timing import Contender, check_rc, measure  # noqa: E402

dev = torch.device("cuda")
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False
P = lambda t: ctypes.c_void_p(t.data_ptr())
I = lambda v: ctypes.c_int64(v)
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
SM_M, SM_N = int(os.environ.get("KIT_SM_M", 65536)), 1024
LN_M, LN_N = int(os.environ.get("KIT_LN_M", 16384)), 4096
n = 4096
ROUNDS = int(os.environ.get("KIT_ROUNDS", 15))


def rel(out, ref):
    out = out.double(); ref = ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


def call(fn, *args):
    check_rc(fn(*args))
    torch.cuda.synchronize()


def kernel(path):
    lib = ctypes.CDLL(path)
    for name in ("softmax", "layernorm", "gemm_bf16", "gemm"):
        if hasattr(lib, name):
            return getattr(lib, name)
    raise RuntimeError(os.path.basename(path))


# Timed inputs, shared by all variants (fp16, 128 MiB each for softmax and layernorm).
SMX = torch.randn(SM_M, SM_N, device=dev, dtype=torch.float16) * 4
SMY = torch.empty_like(SMX)
LNX = torch.randn(LN_M, LN_N, device=dev, dtype=torch.float16)
LNY = torch.empty_like(LNX)
LNG = torch.randn(LN_N, device=dev, dtype=torch.float16)
LNB = torch.randn(LN_N, device=dev, dtype=torch.float16)
SM_BYTES = 2 * SMX.numel() * 2  # input read once + output written once
LN_BYTES = 2 * LNX.numel() * 2  # (+ 16 KiB of gamma/beta, not counted)


def launch_one(path):
    f, b = kernel(path), os.path.basename(path)
    if "softmax" in b:
        return lambda: f(P(SMX), P(SMY), I(SM_M), S())
    if "layernorm" in b:
        return lambda: f(P(LNX), P(LNG), P(LNB), P(LNY), I(LN_M), S())
    if "gemmbf16" in b:
        return lambda: f(P(GAb), P(GBb), P(GCb), S())
    return lambda: f(P(GA), P(GB), P(GC), I(n), S())


paths = sorted(glob.glob(os.path.join(here, "*.so")))
gemm_paths = [p for p in paths if os.path.basename(p).startswith(("gemmf16_", "gemmbf16_"))]
if gemm_paths or os.path.exists(os.path.join(here, "gemm_mma.cubin")):
    GA = torch.randn(n, n, device=dev, dtype=torch.float16)
    GB = torch.randn(n, n, device=dev, dtype=torch.float16)
    GC = torch.empty(n, n, device=dev, dtype=torch.float16)
    GAb, GBb, GCb = GA.bfloat16(), GB.bfloat16(), GC.bfloat16()

if len(sys.argv) == 3 and sys.argv[1] == "--one":
    fn = launch_one(os.path.join(here, sys.argv[2]))
    check_rc(fn()); torch.cuda.synchronize()
    sys.exit(0)

# ---- numerics first ---------------------------------------------------------
errors, failed = {}, []


def record(b, err, tol=1e-2):
    errors[b] = err
    ok = err < tol
    if not ok:
        failed.append(b)
    print(f"check {b:32s} rel.err {err:.1e} {'PASS' if ok else 'FAIL'}", flush=True)


def check_softmax(f, M):
    X = torch.randn(M, SM_N, device=dev, dtype=torch.float16) * 4
    Y = torch.full_like(X, float("nan"))
    call(f, P(X), P(Y), I(M), S())
    return rel(Y, torch.softmax(X.double(), -1))


def check_layernorm(f, M):
    X = torch.randn(M, LN_N, device=dev, dtype=torch.float16) + 0.5
    G = torch.randn(LN_N, device=dev, dtype=torch.float16)
    B = torch.randn(LN_N, device=dev, dtype=torch.float16)
    Y = torch.full_like(X, float("nan"))
    call(f, P(X), P(G), P(B), P(Y), I(M), S())
    return rel(Y, F.layer_norm(X.double(), (LN_N,), G.double(), B.double(), 1e-5))


for path in paths:
    b = os.path.basename(path)[:-3]
    if "softmax" in b:
        f = kernel(path)
        record(b, max(check_softmax(f, m) for m in (1001, 3, SM_M)))
    elif "layernorm" in b:
        f = kernel(path)
        record(b, max(check_layernorm(f, m) for m in (1001, 3, LN_M)))
    elif b.startswith("gemmf16_"):
        f = kernel(path)
        A = torch.randn(1000, n, device=dev, dtype=torch.float16)
        C = torch.full((1000, n), float("nan"), device=dev, dtype=torch.float16)
        call(f, P(A), P(GB), P(C), I(1000), S())
        err = rel(C, A.float() @ GB.float())
        GC.fill_(float("nan"))
        call(f, P(GA), P(GB), P(GC), I(n), S())
        record(b, max(err, rel(GC, GA.float() @ GB.float())))
    elif b.startswith("gemmbf16_"):
        f, fr = kernel(path), kernel(path.replace("gemmbf16_", "gemmbf16r_"))
        A = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
        B = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
        C = torch.full((1000, 1000), float("nan"), device=dev, dtype=torch.bfloat16)
        call(fr, P(A), P(B), P(C), S())
        err = rel(C, A.float() @ B.float().T)
        GCb.fill_(float("nan"))
        call(f, P(GAb), P(GBb), P(GCb), S())
        record(b, max(err, rel(GCb, GAb.float() @ GBb.float().T)))

# Raw cubins launched through the driver API (perf_kit.sh, full kit only): the hand-written
# CUDA C++ GEMM (nvcc) and tilec's 8-warp GEMM with and without .minnctapersm 2.
raw = {}
if os.path.exists(os.path.join(here, "gemm_mma.cubin")):
    cu = ctypes.CDLL("libcuda.so.1")

    def load(cubin, name, smem):
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        assert cu.cuModuleLoad(ctypes.byref(mod), os.path.join(here, cubin).encode()) == 0
        assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, name) == 0
        assert cu.cuFuncSetAttribute(fn, 8, smem) == 0  # MAX_DYNAMIC_SHARED_SIZE_BYTES
        return fn

    def launcher(fn, grid, threads, args):
        def go(A, B, C, M):
            vals = [ctypes.c_int64(v) for v in args(A, B, C, M)]
            ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in vals])
            gx, gy = grid(M)
            return cu.cuLaunchKernel(fn, gx, gy, 1, threads, 1, 1, 98304, S(), ptrs, None)
        return go

    desc = lambda t, r, c: [t.data_ptr(), t.data_ptr(), 0, r, c, c, 1]
    for name, cubin, sym, grid, threads, args in (
            ("hand-written bench/gemm_mma.cu (nvcc)", "gemm_mma.cubin", b"gemm_mma",
             lambda M: (32, (M + 127) // 128), 128, lambda A, B, C, M: [A.data_ptr(), B.data_ptr(), C.data_ptr(), M]),
            ("tilec_t256.cubin", "tilec_t256.cubin", b"gemm", lambda M: (n // 128, (M + 127) // 128), 256,
             lambda A, B, C, M: desc(A, M, n) + desc(B, n, n) + desc(C, M, n) + [M]),
            ("tilec_t256_minct2.cubin", "tilec_t256_minct2.cubin", b"gemm", lambda M: (n // 128, (M + 127) // 128),
             256, lambda A, B, C, M: desc(A, M, n) + desc(B, n, n) + desc(C, M, n) + [M])):
        try:
            go = launcher(load(cubin, sym, 98304), grid, threads, args)
            if name.startswith("hand"):
                A, C = GA, torch.full((n, n), float("nan"), device=dev, dtype=torch.float16)
                check_rc(go(A, GB, C, n)); torch.cuda.synchronize()
                err = rel(C, A.float() @ GB.float())
            else:
                A = torch.randn(1000, n, device=dev, dtype=torch.float16)
                C = torch.full((1000, n), float("nan"), device=dev, dtype=torch.float16)
                check_rc(go(A, GB, C, 1000)); torch.cuda.synchronize()
                err = rel(C, A.float() @ GB.float())
                GC.fill_(float("nan"))
                check_rc(go(GA, GB, GC, n)); torch.cuda.synchronize()
                err = max(err, rel(GC, GA.float() @ GB.float()))
            record(name, err)
            raw[name] = go
        except Exception as ex:  # a reference only
            print(name, "failed:", ex)

# ---- timing: every contender the same way, rotated rounds -------------------
src = torch.randn(2 ** 29, device=dev, dtype=torch.float16)  # 1 GiB
dst = torch.empty_like(src)
src_s = torch.randn(SM_BYTES // 4, device=dev, dtype=torch.float16)  # half of the bytes moved
dst_s = torch.empty_like(src_s)
bw = [Contender("device copy 1 GiB (torch copy_)", lambda: dst.copy_(src), 2 * src.numel() * 2),
      Contender(f"device copy {src_s.numel() * 2 >> 20} MiB (same bytes)", lambda: dst_s.copy_(src_s), SM_BYTES),
      Contender("torch.softmax", lambda: torch.softmax(SMX, -1), SM_BYTES),
      Contender("torch layer_norm", lambda: F.layer_norm(LNX, (LN_N,), LNG, LNB, 1e-5), LN_BYTES)]
assert SM_BYTES == LN_BYTES or os.environ.get("KIT_SM_M"), "one same-bytes copy serves both kernels"
flop = 2 * n ** 3
gemm = []
if gemm_paths or raw:
    gemm = [Contender("cuBLAS fp16", lambda: torch.matmul(GA, GB, out=GC), flop),
            Contender("cuBLAS bf16 (B^T)", lambda: torch.matmul(GAb, GBb.T, out=GCb), flop)]
for path in paths:
    b = os.path.basename(path)[:-3]
    if b in errors and b not in failed:
        (gemm if b.startswith("gemm") else bw).append(
            Contender(b, launch_one(path), flop if b.startswith("gemm") else SM_BYTES if "softmax" in b else LN_BYTES))
for name, go in raw.items():
    if name not in failed:
        gemm.append(Contender(name, lambda go=go: go(GA, GB, GC, n), flop))
print(f"timing {len(bw) + len(gemm)} contenders, {ROUNDS} rounds", flush=True)
measure(bw + gemm, rounds=ROUNDS)

pct = lambda a, b: f"{a / b * 100:.1f}%" if a and b else "n/a"
fmt = lambda r, s: f"{r / s:.0f}" if r else "n/a"
copy1g, copys = bw[0], bw[1]
print(f"\n{torch.cuda.get_device_name()}, torch {torch.__version__}; rates: median over {ROUNDS} rounds; "
      "1 launch = one launch between two events (old method), b2b = back-to-back launches between two events, "
      "graph = CUDA-graph replay of the same launches; same-bytes copy = copy_ moving the kernel's byte count")
print("\n| bandwidth | rel.err | 1 launch GB/s | 1 launch % of 1 GiB copy | b2b GB/s | b2b % of 1 GiB copy "
      "| b2b % of same-bytes copy | graph GB/s | graph % of same-bytes copy | b2b spread |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for c in bw:
    e = f"{errors[c.name]:.1e}" if c.name in errors else ""
    r1, rb, rg = c.rate("single"), c.rate("b2b"), c.rate("graph")
    print(f"| {c.name} | {e} | {fmt(r1, 1e9)} | {pct(r1, copy1g.rate('single'))} | {fmt(rb, 1e9)} "
          f"| {pct(rb, copy1g.rate('b2b'))} | {pct(rb, copys.rate('b2b'))} | {fmt(rg, 1e9)} "
          f"| {pct(rg, copys.rate('graph'))} | {c.spread() * 100:.1f}% |")
if gemm:
    print("\n| GEMM 4096^3 | rel.err | 1 launch TFLOP/s | 1 launch % of cuBLAS | b2b TFLOP/s | b2b % of cuBLAS "
          "| graph TFLOP/s | b2b spread |\n| --- | --- | --- | --- | --- | --- | --- | --- |")
    for c in gemm:
        ref = gemm[1] if "bf16" in c.name else gemm[0]
        e = f"{errors[c.name]:.1e}" if c.name in errors else ""
        r1, rb, rg = c.rate("single"), c.rate("b2b"), c.rate("graph")
        print(f"| {c.name} | {e} | {fmt(r1, 1e12)} | {pct(r1, ref.rate('single'))} | {fmt(rb, 1e12)} "
              f"| {pct(rb, ref.rate('b2b'))} | {fmt(rg, 1e12)} | {c.spread() * 100:.1f}% |")
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "perf_kit_samples.json"), "w") as fh:
        json.dump({c.name: {"work": c.work, "launches": c.n, "single": c.single, "b2b": c.b2b, "graph": c.graph,
                            "rel_err": errors.get(c.name)} for c in bw + gemm}, fh, indent=1)
if failed:
    print("FAILED numerics (not timed):", ", ".join(failed))
sys.exit(1 if failed else 0)
