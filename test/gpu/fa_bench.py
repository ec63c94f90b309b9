#!/usr/bin/env python3
"""Device half of fa_kit.sh: the FlashAttention example against torch. Numerics first
(NaN-poisoned output, float32 reference softmax(Q K^T / sqrt(d)) V, small and timed shapes),
then tilec and torch's scaled_dot_product_attention (its default backend choice, plus the
flash and cuDNN backends where they run) timed with timing.py in rotated rounds."""
import ctypes, os, sys
import torch
import torch.nn.functional as F
import timing

here = os.path.dirname(os.path.abspath(__file__))
out = os.environ.get("OUT")
lines = []
def say(s=""):
    print(s, flush=True); lines.append(s)

P = lambda t: ctypes.c_void_p(t.data_ptr())
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
torch.manual_seed(0)
bad = 0
fns = {}
for tag, (b, h, s, d) in {"small": (2, 4, 512, 128), "big": (4, 32, 4096, 128)}.items():
    f = ctypes.CDLL(os.path.join(here, f"fa_{tag}.so")).flash_attn
    q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.full((b, s, h, d), float("nan"), device="cuda", dtype=torch.float16)
    rc = f(P(q), P(k), P(v), P(o), S()); torch.cuda.synchronize()
    assert rc == 0, rc
    ref = F.scaled_dot_product_attention(*(t.transpose(1, 2).float() for t in (q, k, v)),
                                         dropout_p=0.0).transpose(1, 2)
    err = ((o.float() - ref).norm() / ref.norm()).item()
    ok = err < 1e-2 and not torch.isnan(o).any().item()
    bad += not ok
    say(f"check flash_attn {tag} B{b} H{h} S{s} D{d}: rel.err {err:.2e} {'PASS' if ok else 'FAIL'}")
    fns[tag] = (f, q, k, v, o)
f, q, k, v, o = fns["big"]
b, s, h, d = q.shape
flop = 4 * b * h * s * s * d
qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))  # torch's [B, H, S, D] views of the same data
conts = [timing.Contender("tilec flash_attn B4 H32 S4096 D128", lambda: f(P(q), P(k), P(v), P(o), S()), flop),
         timing.Contender("torch SDPA (default backend)", lambda: F.scaled_dot_product_attention(qt, kt, vt), flop)]
from torch.nn.attention import sdpa_kernel, SDPBackend
for name, be in (("flash", SDPBackend.FLASH_ATTENTION), ("cuDNN", SDPBackend.CUDNN_ATTENTION)):
    try:
        with sdpa_kernel(be):
            F.scaled_dot_product_attention(qt, kt, vt); torch.cuda.synchronize()
        def run(be=be):
            with sdpa_kernel(be):
                return F.scaled_dot_product_attention(qt, kt, vt)
        conts.append(timing.Contender(f"torch SDPA {name}", run, flop))
    except Exception as ex:  # backend not available for this input
        say(f"SDPA {name}: not run ({type(ex).__name__})")
timing.measure(conts, rounds=int(os.environ.get("ROUNDS", "9")), graphs=False, log=lambda s: None)
base = conts[1]
say("| kernel | TFLOP/s (b2b) | vs tilec | 1-launch TFLOP/s |")
say("| --- | --- | --- | --- |")
for c in conts:
    say(f"| {c.name} | {c.rate('b2b') / 1e12:.0f} | {c.rate('b2b') / conts[0].rate('b2b'):.2f} | {c.rate('single') / 1e12:.0f} |")
if out:
    open(os.path.join(out, "fa_bench.txt"), "w").write("\n".join(lines) + "\n")
sys.exit(1 if bad else 0)
