#!/usr/bin/env python3
"""Device half of mma_ab.sh: every build checked against torch (fp16: M = 1000
and 4096; bf16 B^T: ragged 1000^3 and 4096^3; C poisoned with NaN, float32
references), then all builds and cuBLAS (torch.matmul, fp16 and bf16 B^T) timed
at 4096^3 in rotated rounds (timing.py: back-to-back launches; the one-launch
figure beside it). Prints one table: TFLOP/s and % of cuBLAS of the same dtype."""
import ctypes, glob, os, sys
import torch
import timing

here = os.path.dirname(os.path.abspath(__file__))
out = os.environ.get("OUT")
dev = torch.device("cuda")
torch.manual_seed(0)
P = lambda t: ctypes.c_void_p(t.data_ptr())
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
n = 4096
A16, B16 = torch.randn(n, n, device=dev, dtype=torch.float16), torch.randn(n, n, device=dev, dtype=torch.float16)
C16 = torch.empty(n, n, device=dev, dtype=torch.float16)
Ab, Bb, Cb = A16.bfloat16(), B16.bfloat16(), C16.bfloat16()
lines = []
def say(s=""):
    print(s, flush=True); lines.append(s)

def rel(o, r):
    o = o.double(); r = r.double()
    return float("inf") if torch.isnan(o).any() else ((o - r).norm() / r.norm()).item()

def lib(path, name):
    return getattr(ctypes.CDLL(path), name)

def run(f, *a):
    rc = f(*a); torch.cuda.synchronize(); assert rc == 0, rc

conts, bad = [], []
for path in sorted(glob.glob(os.path.join(here, "*__*.so"))):
    tag, rest = os.path.basename(path)[:-3].split("__")
    if rest.startswith("bf16r_"):
        continue
    if rest.startswith("f16_"):
        f = lib(path, "gemm")
        A = torch.randn(1000, n, device=dev, dtype=torch.float16)
        C = torch.full((1000, n), float("nan"), device=dev, dtype=torch.float16)
        run(f, P(A), P(B16), P(C), ctypes.c_int64(1000), S())
        err = rel(C, A.float() @ B16.float())
        C16.fill_(float("nan")); run(f, P(A16), P(B16), P(C16), ctypes.c_int64(n), S())
        err = max(err, rel(C16, A16.float() @ B16.float()))
        fn = (lambda f: lambda: f(P(A16), P(B16), P(C16), ctypes.c_int64(n), S()))(f)
    else:
        f = lib(path, "gemm_bf16")
        fr = lib(path.replace("__bf16_", "__bf16r_"), "gemm_bf16")
        A = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
        B = torch.randn(1000, 1000, device=dev, dtype=torch.bfloat16)
        C = torch.full((1000, 1000), float("nan"), device=dev, dtype=torch.bfloat16)
        run(fr, P(A), P(B), P(C), S())
        err = rel(C, A.float() @ B.float().T)
        Cb.fill_(float("nan")); run(f, P(Ab), P(Bb), P(Cb), S())
        err = max(err, rel(Cb, Ab.float() @ Bb.float().T))
        fn = (lambda f: lambda: f(P(Ab), P(Bb), P(Cb), S()))(f)
    ok = err < 1e-2
    say(f"check {tag} {rest}: rel.err {err:.1e} {'PASS' if ok else 'FAIL'}")
    (conts if ok else bad).append(timing.Contender(f"{tag} {rest}", fn, 2 * n ** 3))
conts.append(timing.Contender("cuBLAS f16", lambda: torch.matmul(A16, B16, out=C16), 2 * n ** 3))
conts.append(timing.Contender("cuBLAS bf16", lambda: torch.matmul(Ab, Bb.T, out=Cb), 2 * n ** 3))
timing.measure(conts, rounds=int(os.environ.get("ROUNDS", "15")), graphs=False, log=say)
base = {c.name.split()[1]: c for c in conts if c.name.startswith("cuBLAS")}
say("| build | dtype_config | TFLOP/s (b2b) | % of cuBLAS | 1-launch TFLOP/s | % | b2b spread |")
say("| --- | --- | --- | --- | --- | --- | --- |")
for c in conts:
    dt = "f16" if "f16" in c.name.split()[-1][:4] and "bf16" not in c.name else "bf16"
    cb = base[dt]
    say(f"| {c.name.split()[0]} | {c.name.split()[-1]} | {c.rate('b2b') / 1e12:.0f} | {c.rate('b2b') / cb.rate('b2b') * 100:.1f}% "
        f"| {c.rate('single') / 1e12:.0f} | {c.rate('single') / cb.rate('single') * 100:.1f}% | {c.spread() * 100:.1f}% |")
if out:
    open(os.path.join(out, "mma_ab.txt"), "w").write("\n".join(lines) + "\n")
sys.exit(1 if bad else 0)
