#!/usr/bin/env python3
"""Device half of ab_build.sh (old vs new tilec on the sm_90a wgmma path): every
launcher checked against torch (C poisoned with NaN, float32 reference with TF32 off,
norm-relative error < 1e-2; the 4096 builds at M = 4096 and at a ragged M = 1000, the
ragged builds at their shape), then the 4096^3 builds of both tags and cuBLAS (torch
matmul for f16/bf16 and bf16 B^T, torch._scaled_mm for fp8 e4m3 -> bf16) timed in
rotated rounds (timing.py: back-to-back launches, the one-launch figure beside it).
Prints the table of every contender and the new/old ratio of each kernel.
Usage: python3 ab.py  (ROUNDS=n, default 20; a copy of the output to $OUT/ab.txt; AB_N=n
for test/gpu/dryrun.py on host builds of N = K = n instead of 4096)"""
import ctypes, glob, os, sys
import torch
import timing

here = os.path.dirname(os.path.abspath(__file__))
out = os.environ.get("OUT")
torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")
torch.manual_seed(0)
n = int(os.environ.get("AB_N", "4096"))
lines = []


def say(s=""):
    print(s, flush=True)
    lines.append(s)


def rel(o, r):
    o, r = o.double(), r.double()
    return float("inf") if torch.isnan(o).any() else ((o - r).norm() / r.norm()).item()


def launcher(path, kind):
    """The .so's launcher as fn(A, B, C, M): the static-shape bf16t one takes no M."""
    sym = {"fp8": "gemm_fp8", "bf16t": "gemm_bf16"}.get(kind, "gemm")
    f = getattr(ctypes.CDLL(path), sym)
    f.restype = ctypes.c_int
    P = lambda t: ctypes.c_void_p(t.data_ptr())
    S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    if kind == "bf16t":
        return lambda a, b, c, m: f(P(a), P(b), P(c), S())
    return lambda a, b, c, m: f(P(a), P(b), P(c), ctypes.c_int64(m), S())


def operands(kind, m, nn, k):
    """A (m x k), B (k x nn, or nn x k for the B^T kinds), the C dtype and the float32 reference."""
    if kind == "fp8":
        a = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(nn, k, device=dev).to(torch.float8_e4m3fn)
        return a, b, torch.bfloat16, a.float() @ b.float().T
    dt = torch.float16 if kind == "f16" else torch.bfloat16
    a = torch.randn(m, k, device=dev, dtype=dt)
    if kind == "bf16t":
        b = torch.randn(nn, k, device=dev, dtype=dt)
        return a, b, dt, a.float() @ b.float().T
    b = torch.randn(k, nn, device=dev, dtype=dt)
    return a, b, dt, a.float() @ b.float()


def check(f, kind, m, nn, k):
    a, b, cdt, ref = operands(kind, m, nn, k)
    c = torch.full((m, nn), float("nan"), device=dev, dtype=cdt)
    rc = f(a, b, c, m)
    torch.cuda.synchronize()
    return float("inf") if rc != 0 else rel(c, ref)


say(f"{torch.cuda.get_device_name()} torch {torch.__version__}")
paths = [p for p in sorted(glob.glob(os.path.join(here, "*__*.so"))) if not p.endswith("__ragged.so")]
kind_of = lambda path: os.path.basename(path).split("__")[1].split("_")[0]
big = {}  # kind: the timed operands A, B, C
for kind in sorted({kind_of(p) for p in paths}):
    a, b, cdt, _ = operands(kind, n, n, n)
    big[kind] = a, b, torch.empty(n, n, device=dev, dtype=cdt)
conts, bad = [], []
for path in paths:
    tag, rest = os.path.basename(path)[:-3].split("__")
    kind = kind_of(path)
    f, fr = launcher(path, kind), launcher(path[:-3] + "__ragged.so", kind)
    errs = [check(fr, kind, 1000, 1000, 1040 if kind == "fp8" else 1000), check(f, kind, n, n, n)]
    if kind != "bf16t":
        errs.append(check(f, kind, 1000, n, n))
    ok = max(errs) < 1e-2
    say(f"check {tag} {rest}: rel.err " + " ".join(f"{e:.1e}" for e in errs) + (" PASS" if ok else " FAIL"))
    a, b, c = big[kind]
    fn = (lambda f, a, b, c: lambda: f(a, b, c, n))(f, a, b, c)
    (conts if ok else bad).append(timing.Contender(f"{tag} {rest}", fn, 2 * n ** 3))
one = torch.ones((), device=dev)
cublas = {
    "f16": lambda a, b, c: torch.matmul(a, b, out=c),
    "bf16": lambda a, b, c: torch.matmul(a, b, out=c),
    "bf16t": lambda a, b, c: torch.matmul(a, b.T, out=c),
    "fp8": lambda a, b, c: torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
}
for kind, g in cublas.items():
    if kind not in big:
        continue
    a, b, c = big[kind]
    conts.append(timing.Contender(f"cuBLAS {kind}_ref", (lambda g, a, b, c: lambda: g(a, b, c))(g, a, b, c), 2 * n ** 3))
timing.measure(conts, rounds=int(os.environ.get("ROUNDS", "20")), graphs=False, log=say)

by = {c.name: c for c in conts}
base = {c.name.split()[1].split("_")[0]: c for c in conts if c.name.startswith("cuBLAS")}
say("| build | kernel | TFLOP/s (b2b) | % of cuBLAS | 1-launch TFLOP/s | % | b2b spread |")
say("| --- | --- | --- | --- | --- | --- | --- |")
for c in conts:
    cb = base[c.name.split()[1].split("_")[0]]
    say(f"| {c.name.split()[0]} | {c.name.split()[1]} | {c.rate('b2b') / 1e12:.0f} | "
        f"{c.rate('b2b') / cb.rate('b2b') * 100:.1f}% | {c.rate('single') / 1e12:.0f} | "
        f"{c.rate('single') / cb.rate('single') * 100:.1f}% | {c.spread() * 100:.1f}% |")
say()
say("| kernel | old TFLOP/s | new TFLOP/s | new / old (b2b) | new / old (1-launch) |")
say("| --- | --- | --- | --- | --- |")
for name in sorted({c.name.split()[1] for c in conts if not c.name.startswith("cuBLAS")}):
    o, w = by.get(f"old {name}"), by.get(f"new {name}")
    if o and w:
        say(f"| {name} | {o.rate('b2b') / 1e12:.0f} | {w.rate('b2b') / 1e12:.0f} | "
            f"{w.rate('b2b') / o.rate('b2b'):.3f} | {w.rate('single') / o.rate('single'):.3f} |")
if out:
    open(os.path.join(out, "ab.txt"), "w").write("\n".join(lines) + "\n")
sys.exit(1 if bad else 0)
