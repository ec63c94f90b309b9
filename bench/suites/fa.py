"""Suite `fa`: examples/flash_attention against torch. Numerics: NaN-poisoned output against
a float32 softmax(Q K^T / sqrt(d)) V, at B2 H4 S512 D128 and at the timed B4 H32 S4096 D128.
Timing: tilec and torch's scaled_dot_product_attention (its default backend choice, and the
FlashAttention-2 and cuDNN backends where they run), timing.py's rotated rounds."""
import torch
import torch.nn.functional as F

import timing as T
from suites import row, table

SHAPES = {"fa_small.so": (2, 4, 512, 128), "fa_big.so": (4, 32, 4096, 128)}


def operands(b, h, s, d):
    q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.float16) for _ in range(3))
    return q, k, v, T.poison(b, s, h, d, dtype=torch.float16)


def reference(q, k, v):
    """softmax(Q K^T / sqrt(d)) V in float32 with plain matmuls ([B, S, H, D] in and out; no
    SDPA kernel, so that compute-sanitizer's racecheck sees only tilec's kernel and cuBLAS)."""
    qf, kf, vf = (t.transpose(1, 2).float() for t in (q, k, v))
    s = torch.softmax(qf @ kf.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
    return (s @ vf).transpose(1, 2)


def check_fa(kit, small):
    torch.manual_seed(0)
    rows = []
    for name in (["fa_small.so"] if small else list(SHAPES)):
        f = kit.fn(name, "flash_attn")
        b, h, s, d = SHAPES[name]
        q, k, v, o = operands(b, h, s, d)
        T.run(f, T.ptr(q), T.ptr(k), T.ptr(v), T.ptr(o), T.stream())
        ref = reference(q, k, v)
        e = T.rel_norm(o, ref)
        row("flash_attn", f"B{b} H{h} S{s} D{d}", e, e < 1e-2, rows)
    return rows


def bench_fa(kit):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    torch.manual_seed(0)
    f = kit.fn("fa_big.so", "flash_attn")
    b, h, s, d = SHAPES["fa_big.so"]
    q, k, v, o = operands(b, h, s, d)
    flop = 4 * b * h * s * s * d
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))  # torch's [B, H, S, D] views of the same data
    cs = [T.Contender(f"tilec flash_attn.tile B{b} H{h} S{s} D{d}",
                      lambda: f(T.ptr(q), T.ptr(k), T.ptr(v), T.ptr(o), T.stream()), flop),
          T.Contender("torch SDPA (default backend)", lambda: F.scaled_dot_product_attention(qt, kt, vt), flop)]
    for name, be in (("FlashAttention-2", SDPBackend.FLASH_ATTENTION), ("cuDNN", SDPBackend.CUDNN_ATTENTION)):
        try:
            with sdpa_kernel(be):
                F.scaled_dot_product_attention(qt, kt, vt)
            torch.cuda.synchronize()
        except Exception as ex:  # backend not available for this input
            print(f"SDPA {name}: not run ({type(ex).__name__})", flush=True)
            continue

        def go(be=be):
            with sdpa_kernel(be):
                return F.scaled_dot_product_attention(qt, kt, vt)
        cs.append(T.Contender(f"torch SDPA, {name} backend", go, flop))
    T.warm_clocks()
    T.measure(cs, rounds=9)
    t = cs[0]
    lines = table(["attention forward fp16", "TFLOP/s", "relative to tilec"],
                  [(c.name, f"{c.rate() / 1e12:.0f}", f"{c.rate() / t.rate():.2f}") for c in cs])
    return {"tables": lines,
            "summary": [f"flash_attn {t.rate() / 1e12:.0f} TFLOP/s; " +
                        ", ".join(f"{c.name} {c.rate() / t.rate():.2f}x" for c in cs[1:])],
            "figures": {c.name: c.rate() / 1e12 for c in cs}}
