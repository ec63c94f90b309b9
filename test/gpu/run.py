#!/usr/bin/env python3
"""GPU kit, run on the device: loads the -shared builds of the examples with
ctypes, checks numerics against torch references (fresh random inputs,
poisoned outputs, regular and ragged shapes), then times tilec against
torch (cuBLAS, torch softmax/layer_norm) and the device copy rate (1 GiB and
at the bandwidth kernels' byte count), every contender the same way (timing.py:
rotated rounds, back-to-back launches; the old one-launch figure beside it).
Usage: python3 run.py [--sanitize] [--no-timing]   (in the kit folder)"""
import ctypes, os, sys
import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from timing import Contender, measure  # noqa: E402
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

# ---- GEMM fp16 on the mma.sync path (-target=sm_90: TMA + ldmatrix + mma.sync) --
gm = lib("gemm_mma").gemm
for M in ([256, 130] if SAN else [4096, 1000]):
    A = torch.randn(M, 4096, device=dev, dtype=torch.float16)
    B = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
    C = poison(M, 4096, dtype=torch.float16)
    call(gm, P(A), P(B), P(C), I(M), stream())
    check("gemm fp16 mma.sync (sm_90)", f"{M}x4096x4096", C, A.float() @ B.float(), 1e-2)

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

# ---- timing (timing.py: every contender the same way, in rotated rounds) ----
n = 4096
flop = 2 * n ** 3
tim = []
A = torch.randn(n, n, device=dev, dtype=torch.float16)
B = torch.randn(n, n, device=dev, dtype=torch.float16)
C = torch.empty(n, n, device=dev, dtype=torch.float16)
Ab, Bb, Cb = A.bfloat16(), B.bfloat16(), C.bfloat16()
fb = lib("gemm_bf16_4096").gemm_bf16
gemm_rows = [(Contender("GEMM fp16 4096^3", lambda: g(P(A), P(B), P(C), I(n), stream()), flop),
              Contender("cuBLAS fp16", lambda: torch.matmul(A, B, out=C), flop)),
             (Contender("GEMM bf16 4096^3", lambda: fb(P(Ab), P(Bb), P(Cb), stream()), flop),
              Contender("cuBLAS bf16 (B^T)", lambda: torch.matmul(Ab, Bb.T, out=Cb), flop))]
gemm_rows.append((Contender("GEMM fp16 4096^3 mma.sync (sm_90)", lambda: gm(P(A), P(B), P(C), I(n), stream()), flop),
                  gemm_rows[0][1]))
# GEMM tile-shape variants (bf16, B^T; checked once at 4096^3 before timing).
ref = Ab.float() @ Bb.float().T
for f_ in sorted(os.listdir(here)):
    if not f_.startswith("gemmv_") or not f_.endswith(".so"):
        continue
    f = lib(f_[:-3]).gemm_bf16
    Cb.fill_(float("nan"))
    call(f, P(Ab), P(Bb), P(Cb), stream())
    gemm_rows.append((Contender(f"GEMM bf16 4096^3 {f_[6:-3]} (err {rel(Cb, ref):.1e})",
                                lambda f=f: f(P(Ab), P(Bb), P(Cb), stream()), flop), gemm_rows[1][1]))
del ref
src = torch.randn(2 ** 29, device=dev, dtype=torch.float16)
dst = torch.empty_like(src)
Xs = torch.randn(65536, 1024, device=dev, dtype=torch.float16)
Ys = torch.empty_like(Xs)
Xl = torch.randn(16384, 4096, device=dev, dtype=torch.float16)
Gl = torch.randn(4096, device=dev, dtype=torch.float16)
Bl = torch.randn(4096, device=dev, dtype=torch.float16)
Yl = torch.empty_like(Xl)
by = 2 * Xs.numel() * 2  # input read once + output written once; the same for both kernels
src_s = torch.randn(by // 4, device=dev, dtype=torch.float16)
dst_s = torch.empty_like(src_s)
copy1g = Contender("device copy 1 GiB", lambda: dst.copy_(src), 2 * src.numel() * 2)
copys = Contender(f"device copy {by >> 21} MiB", lambda: dst_s.copy_(src_s), by)
bw_rows = [(Contender("softmax 65536x1024 fp16", lambda: sm(P(Xs), P(Ys), I(65536), stream()), by),
            Contender("torch softmax", lambda: torch.softmax(Xs, -1), by)),
           (Contender("layernorm 16384x4096 fp16", lambda: ln(P(Xl), P(Gl), P(Bl), P(Yl), I(16384), stream()), by),
            Contender("torch layer_norm", lambda: F.layer_norm(Xl, (4096,), Gl, Bl, 1e-5), by))]
everyone = [c for r in gemm_rows for c in r[:1]] + [gemm_rows[0][1], gemm_rows[1][1], copy1g, copys] + \
    [c for r in bw_rows for c in r]
measure(everyone, rounds=10)
pct = lambda a, b: f"{a.rate('b2b') / b.rate('b2b') * 100:.0f}%"
pct1 = lambda a, b: f"{a.rate('single') / b.rate('single') * 100:.0f}%"
for t, base in gemm_rows:
    tim.append((t.name, f"{t.rate('b2b') / 1e12:.0f} TFLOP/s", f"{base.rate('b2b') / 1e12:.0f} TFLOP/s ({base.name})",
                pct(t, base), pct1(t, base)))
tim.append(("device copy 1 GiB", f"{copy1g.rate('b2b') / 1e9:.0f} GB/s", "torch copy_", "100%", "100%"))
tim.append((copys.name + " (the kernels' bytes)", f"{copys.rate('b2b') / 1e9:.0f} GB/s", "torch copy_",
            f"{pct(copys, copy1g)} of 1 GiB copy", f"{pct1(copys, copy1g)} of 1 GiB copy"))
for t, base in bw_rows:
    tim.append((t.name, f"{t.rate('b2b') / 1e9:.0f} GB/s", f"{base.rate('b2b') / 1e9:.0f} GB/s ({base.name})",
                f"{pct(t, copy1g)} of 1 GiB copy, {pct(t, copys)} of {by >> 21} MiB copy",
                f"{pct1(t, copy1g)} of 1 GiB copy"))
print("\n| workload | tilec | baseline | ratio (back-to-back launches) | ratio (one launch between events, old) |"
      "\n| --- | --- | --- | --- | --- |")
for r in tim:
    print("| " + " | ".join(r) + " |")
print(torch.cuda.get_device_name(), torch.__version__, "timing: median of 10 rotated rounds (timing.py)")
sys.exit(0 if all(r[3] == "PASS" for r in rows) else 1)
