#!/usr/bin/env python3
"""GPU kit, run on the device: loads the -shared builds of the examples with
ctypes, checks numerics against torch references (fresh random inputs,
poisoned outputs, regular and ragged shapes), then times tilec against
torch (cuBLAS, torch softmax/layer_norm) and the device copy rate.
Usage: python3 run.py [--sanitize] [--no-timing]   (in the kit folder)"""
import ctypes, os, sys, statistics
import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
SAN = "--sanitize" in sys.argv
TIMING = not SAN and "--no-timing" not in sys.argv
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
torch.manual_seed(0)
dev = torch.device("cuda")
rows = []


def lib(name):
    return ctypes.CDLL(os.path.join(here, name + ".so"))


def P(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def I(v):
    return ctypes.c_int64(v)


def rel(out, ref):
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def check(name, shape, out, ref, tol):
    err = rel(out, ref)
    ok = err < tol
    rows.append((name, shape, f"{err:.2e}", "PASS" if ok else "FAIL"))
    print(f"{name:24s} {shape:22s} rel.err {err:.2e} {'PASS' if ok else 'FAIL'}", flush=True)


def call(fn, *args):
    rc = fn(*args)
    if rc != 0:
        raise RuntimeError(f"launcher returned {rc}")
    torch.cuda.synchronize()


def bench(f, reps=50):
    for _ in range(5):
        f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts) / 1e3


def poison(*shape, dtype):
    return torch.full(shape, float("nan"), dtype=dtype, device=dev) if dtype.is_floating_point else \
        torch.full(shape, -7, dtype=dtype, device=dev)


# ---- GEMM fp16: C(M, 4096) = A(M, 4096) @ B(4096, 4096) -------------------
g = lib("gemm").gemm
for M in ([256, 130] if SAN else [4096, 1000]):
    A = torch.randn(M, 4096, device=dev, dtype=torch.float16)
    B = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
    C = poison(M, 4096, dtype=torch.float16)
    call(g, P(A), P(B), P(C), I(M), stream())
    check("gemm fp16", f"{M}x4096x4096", C, A.float() @ B.float(), 1e-2)

# ---- GEMM bf16, B transposed (factory; -D M N K) ---------------------------
for name, n in ([("gemm_bf16_ragged", 1000)] if SAN else [("gemm_bf16_4096", 4096), ("gemm_bf16_ragged", 1000)]):
    f = lib(name).gemm_bf16
    A = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    B = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    C = poison(n, n, dtype=torch.bfloat16)
    call(f, P(A), P(B), P(C), stream())
    check("gemm bf16 (B^T)", f"{n}^3", C, A.float() @ B.float().T, 1e-2)

# ---- softmax ---------------------------------------------------------------
sm = lib("softmax").softmax
for M in ([64, 9] if SAN else [8192, 1001]):
    X = torch.randn(M, 1024, device=dev, dtype=torch.float16) * 4
    Y = poison(M, 1024, dtype=torch.float16)
    call(sm, P(X), P(Y), I(M), stream())
    check("softmax", f"{M}x1024", Y, torch.softmax(X.double(), -1), 1e-2)

# ---- layernorm -------------------------------------------------------------
ln = lib("layernorm").layernorm
for M in ([16, 7] if SAN else [8192, 1001]):
    X = torch.randn(M, 4096, device=dev, dtype=torch.float16) + 0.5
    G = torch.randn(4096, device=dev, dtype=torch.float16)
    Bt = torch.randn(4096, device=dev, dtype=torch.float16)
    Y = poison(M, 4096, dtype=torch.float16)
    call(ln, P(X), P(G), P(Bt), P(Y), I(M), stream())
    ref = F.layer_norm(X.double(), (4096,), G.double(), Bt.double(), 1e-5)
    check("layernorm", f"{M}x4096", Y, ref, 1e-2)

# ---- row_sum (fp32) --------------------------------------------------------
rs = lib("row_sum").row_sum
for M in ([16, 5] if SAN else [4096, 1001]):
    X = torch.randn(M, 8192, device=dev, dtype=torch.float32)
    O = poison(M, dtype=torch.float32)
    call(rs, P(X), P(O), I(M), stream())
    check("row_sum fp32", f"{M}x8192", O, X.double().sum(1), 1e-4)

# ---- scale_bias_gelu -------------------------------------------------------
sbg = lib("scale_bias_gelu").scale_bias_gelu
for M in ([64, 3] if SAN else [8192, 1001]):
    X = torch.randn(M, 4096, device=dev, dtype=torch.float16)
    Bs = torch.randn(4096, device=dev, dtype=torch.float16)
    Y = poison(M, 4096, dtype=torch.float16)
    call(sbg, P(X), P(Bs), P(Y), I(M), ctypes.c_float(0.75), stream())
    v = X.double() * 0.75 + Bs.double()
    ref = 0.5 * v * (1 + torch.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    check("scale_bias_gelu", f"{M}x4096", Y, ref, 1e-2)

# ---- launcher argument checks ----------------------------------------------
rc_null = g(None, None, None, I(16), stream())
rc_dim = g(P(A), P(A), P(A), I(0), stream())
ok = rc_null == 1 and rc_dim == 2
rows.append(("launcher checks", "null / M=0", f"{rc_null}/{rc_dim}", "PASS" if ok else "FAIL"))
print("launcher checks", rc_null, rc_dim, "PASS" if ok else "FAIL")

print("\n| kernel | shape | rel. error | result |\n| --- | --- | --- | --- |")
for r in rows:
    print("| " + " | ".join(r) + " |")
if SAN or not TIMING:
    sys.exit(0 if all(r[3] == "PASS" for r in rows) else 1)

# ---- timing ----------------------------------------------------------------
tim = []
n = 4096
flop = 2 * n ** 3
for dt, name in ((torch.float16, "fp16"), (torch.bfloat16, "bf16")):
    A = torch.randn(n, n, device=dev, dtype=dt)
    B = torch.randn(n, n, device=dev, dtype=dt)
    C = torch.empty(n, n, device=dev, dtype=dt)
    if dt == torch.float16:
        t = bench(lambda: g(P(A), P(B), P(C), I(n), stream()))
        tb = bench(lambda: torch.matmul(A, B, out=C))
    else:
        f = lib("gemm_bf16_4096").gemm_bf16
        t = bench(lambda: f(P(A), P(B), P(C), stream()))
        tb = bench(lambda: torch.matmul(A, B.T, out=C))
    tim.append((f"GEMM {name} 4096^3", f"{flop / t / 1e12:.0f} TFLOP/s", f"{flop / tb / 1e12:.0f} TFLOP/s (cuBLAS)",
                f"{tb / t * 100:.0f}%"))
# GEMM tile-shape variants (bf16, B^T; timing only, checked once at 4096^3).
A = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
B = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
C = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
tb = bench(lambda: torch.matmul(A, B.T, out=C))
ref = A.float() @ B.float().T
for f_ in sorted(os.listdir(here)):
    if not f_.startswith("gemmv_") or not f_.endswith(".so"):
        continue
    f = lib(f_[:-3]).gemm_bf16
    C.fill_(float("nan"))
    call(f, P(A), P(B), P(C), stream())
    err = rel(C, ref)
    t = bench(lambda: f(P(A), P(B), P(C), stream()))
    tim.append((f"GEMM bf16 4096^3 {f_[6:-3]} (err {err:.1e})", f"{flop / t / 1e12:.0f} TFLOP/s",
                f"{flop / tb / 1e12:.0f} TFLOP/s (cuBLAS)", f"{tb / t * 100:.0f}%"))
src = torch.empty(2 ** 29, device=dev, dtype=torch.float16)
dst = torch.empty_like(src)
tc = bench(lambda: dst.copy_(src), 20)
copy_rate = 2 * src.numel() * 2 / tc / 1e9
tim.append(("device copy 1 GiB", f"{copy_rate:.0f} GB/s", "torch copy_", "100%"))
M = 65536
X = torch.randn(M, 1024, device=dev, dtype=torch.float16)
Y = torch.empty_like(X)
t = bench(lambda: sm(P(X), P(Y), I(M), stream()))
tb = bench(lambda: torch.softmax(X, -1, out=Y) if False else torch.softmax(X, -1))
by = 2 * X.numel() * 2
tim.append(("softmax 65536x1024 fp16", f"{by / t / 1e9:.0f} GB/s", f"{by / tb / 1e9:.0f} GB/s (torch)",
            f"{by / t / 1e9 / copy_rate * 100:.0f}% of copy"))
M = 16384
X = torch.randn(M, 4096, device=dev, dtype=torch.float16)
G = torch.randn(4096, device=dev, dtype=torch.float16)
Bt = torch.randn(4096, device=dev, dtype=torch.float16)
Y = torch.empty_like(X)
t = bench(lambda: ln(P(X), P(G), P(Bt), P(Y), I(M), stream()))
tb = bench(lambda: F.layer_norm(X, (4096,), G, Bt, 1e-5))
by = 2 * X.numel() * 2
tim.append(("layernorm 16384x4096 fp16", f"{by / t / 1e9:.0f} GB/s", f"{by / tb / 1e9:.0f} GB/s (torch)",
            f"{by / t / 1e9 / copy_rate * 100:.0f}% of copy"))
print("\n| workload | tilec | baseline | ratio |\n| --- | --- | --- | --- |")
for r in tim:
    print("| " + " | ".join(r) + " |")
print(torch.cuda.get_device_name(), torch.__version__)
sys.exit(0 if all(r[3] == "PASS" for r in rows) else 1)
