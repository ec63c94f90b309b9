"""Suites `examples` and `bandwidth`: every example's numerics against torch (regular and
ragged shapes, outputs poisoned with NaN, float64 references), the launchers' argument
checks, the 4096^3 GEMMs against cuBLAS, and softmax / layernorm against torch and the
device copy (1 GiB, and a copy of the kernels' own byte count)."""
import ctypes

import torch
import torch.nn.functional as F

import timing as T
from suites import row, table

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
P, I, S = T.ptr, T.dim, T.stream
N = 4096  # the fp16 GEMM example's N = K
SM_M, SM_N = 65536, 1024  # softmax timed shape
LN_M, LN_N = 16384, 4096  # layernorm timed shape


def gelu_ref(x, bias, scale):
    v = x.double() * scale + bias.double()
    return 0.5 * v * (1 + torch.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


def check_gemm(kit, name, small, rows, label):
    g = kit.fn(name, "gemm")
    for m in ([256, 130] if small else [4096, 1000]):
        a = torch.randn(m, N, device="cuda", dtype=torch.float16)
        b = torch.randn(N, N, device="cuda", dtype=torch.float16)
        c = T.poison(m, N, dtype=torch.float16)
        T.run(g, P(a), P(b), P(c), I(m), S())
        e = T.rel_norm(c, a.double() @ b.double())
        row(label, f"{m}x{N}x{N}", e, e < 1e-2, rows)


def check_softmax(kit, rows, ms):
    f = kit.fn("softmax.so", "softmax")
    for m in ms:
        x = torch.randn(m, SM_N, device="cuda", dtype=torch.float16) * 4
        y = T.poison(m, SM_N, dtype=torch.float16)
        T.run(f, P(x), P(y), I(m), S())
        e = T.rel_norm(y, torch.softmax(x.double(), -1))
        row("softmax", f"{m}x{SM_N}", e, e < 1e-2, rows)


def check_layernorm(kit, rows, ms):
    f = kit.fn("layernorm.so", "layernorm")
    for m in ms:
        x = torch.randn(m, LN_N, device="cuda", dtype=torch.float16) + 0.5
        g = torch.randn(LN_N, device="cuda", dtype=torch.float16)
        b = torch.randn(LN_N, device="cuda", dtype=torch.float16)
        y = T.poison(m, LN_N, dtype=torch.float16)
        T.run(f, P(x), P(g), P(b), P(y), I(m), S())
        e = T.rel_norm(y, F.layer_norm(x.double(), (LN_N,), g.double(), b.double(), 1e-5))
        row("layernorm", f"{m}x{LN_N}", e, e < 1e-2, rows)


def check_examples(kit, small):
    torch.manual_seed(0)
    rows = []
    check_gemm(kit, "gemm.so", small, rows, "gemm fp16 (sm_90a wgmma)")
    check_gemm(kit, "gemm_mma.so", small, rows, "gemm fp16 (sm_90 mma.sync)")
    for name, n in ([("gemm_bf16_ragged", 1000)] if small else [("gemm_bf16_4096", 4096), ("gemm_bf16_ragged", 1000)]):
        f = kit.fn(name + ".so", "gemm_bf16")
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        c = T.poison(n, n, dtype=torch.bfloat16)
        T.run(f, P(a), P(b), P(c), S())
        e = T.rel_norm(c, a.double() @ b.double().T)
        row("gemm bf16, B transposed", f"{n}^3", e, e < 1e-2, rows)
    check_softmax(kit, rows, [64, 9] if small else [8192, 1001])
    check_layernorm(kit, rows, [16, 7] if small else [8192, 1001])
    rs = kit.fn("row_sum.so", "row_sum")
    for m in ([16, 5] if small else [4096, 1001]):
        x = torch.randn(m, 8192, device="cuda", dtype=torch.float32)
        o = T.poison(m, dtype=torch.float32)
        T.run(rs, P(x), P(o), I(m), S())
        e = T.rel_norm(o, x.double().sum(1))
        row("row_sum fp32", f"{m}x8192", e, e < 1e-4, rows)
    sbg = kit.fn("scale_bias_gelu.so", "scale_bias_gelu")
    for m in ([64, 3] if small else [8192, 1001]):
        x = torch.randn(m, 4096, device="cuda", dtype=torch.float16)
        b = torch.randn(4096, device="cuda", dtype=torch.float16)
        y = T.poison(m, 4096, dtype=torch.float16)
        T.run(sbg, P(x), P(b), P(y), I(m), ctypes.c_float(0.75), S())
        e = T.rel_norm(y, gelu_ref(x, b, 0.75))
        row("scale_bias_gelu", f"{m}x4096", e, e < 1e-2, rows)
    # The launcher refuses null pointers (status 1) and a zero dynamic dimension (status 2).
    g = kit.fn("gemm.so", "gemm")
    a = torch.empty(16, device="cuda", dtype=torch.float16)
    rc_null, rc_dim = g(None, None, None, I(16), S()), g(P(a), P(a), P(a), I(0), S())
    row("launcher argument checks", "null / M = 0", f"{rc_null}/{rc_dim}", (rc_null, rc_dim) == (1, 2), rows)
    return rows


def check_bandwidth(kit, small):
    torch.manual_seed(0)
    rows = []
    check_softmax(kit, rows, [9] if small else [1001, 3, SM_M])
    check_layernorm(kit, rows, [7] if small else [1001, 3, LN_M])
    return rows


def pct(a, b):
    return f"{a.rate() / b.rate() * 100:.0f}%"


def bench_examples(kit):
    """The 4096^3 GEMMs against cuBLAS of the same dtype and layout, in the same rounds."""
    torch.manual_seed(0)
    flop = 2 * N ** 3
    a = torch.randn(N, N, device="cuda", dtype=torch.float16)
    b = torch.randn(N, N, device="cuda", dtype=torch.float16)
    c = torch.empty(N, N, device="cuda", dtype=torch.float16)
    ab, bb, cb = a.bfloat16(), b.bfloat16(), c.bfloat16()
    g, gm = kit.fn("gemm.so", "gemm"), kit.fn("gemm_mma.so", "gemm")
    fb = kit.fn("gemm_bf16_4096.so", "gemm_bf16")
    cf16 = T.Contender("cuBLAS fp16", lambda: torch.matmul(a, b, out=c), flop)
    cbf16 = T.Contender("cuBLAS bf16, B transposed", lambda: torch.matmul(ab, bb.T, out=cb), flop)
    rows = [(T.Contender("gemm.tile fp16 (sm_90a, wgmma)", lambda: g(P(a), P(b), P(c), I(N), S()), flop), cf16),
            (T.Contender("gemm_bf16.tile bf16, B transposed (sm_90a, wgmma)", lambda: fb(P(ab), P(bb), P(cb), S()), flop),
             cbf16),
            (T.Contender("gemm.tile fp16 (sm_90, mma.sync)", lambda: gm(P(a), P(b), P(c), I(N), S()), flop), cf16)]
    T.warm_clocks()
    T.measure([r[0] for r in rows] + [cf16, cbf16])
    lines = table(["GEMM 4096^3", "tilec TFLOP/s", "baseline TFLOP/s", "tilec / baseline"],
                  [(t.name, f"{t.rate() / 1e12:.0f}", f"{base.rate() / 1e12:.0f} ({base.name})", pct(t, base))
                   for t, base in rows])
    figures = {t.name: t.rate() / base.rate() for t, base in rows}
    summary = [f"{t.name}: {t.rate() / 1e12:.0f} TFLOP/s, {pct(t, base)} of {base.name}" for t, base in rows]
    return {"tables": lines, "summary": summary, "figures": figures}


def bench_bandwidth(kit):
    torch.manual_seed(0)
    sm, ln = kit.fn("softmax.so", "softmax"), kit.fn("layernorm.so", "layernorm")
    x = torch.randn(SM_M, SM_N, device="cuda", dtype=torch.float16) * 4
    y = torch.empty_like(x)
    xl = torch.randn(LN_M, LN_N, device="cuda", dtype=torch.float16)
    gl = torch.randn(LN_N, device="cuda", dtype=torch.float16)
    bl = torch.randn(LN_N, device="cuda", dtype=torch.float16)
    yl = torch.empty_like(xl)
    by = 2 * x.numel() * 2  # input read once + output written once: the same for both kernels
    src = torch.randn(2 ** 29, device="cuda", dtype=torch.float16)  # 1 GiB
    dst = torch.empty_like(src)
    src_s = torch.randn(by // 4, device="cuda", dtype=torch.float16)
    dst_s = torch.empty_like(src_s)
    copy = T.Contender("device copy 1 GiB (torch copy_)", lambda: dst.copy_(src), 2 * src.numel() * 2)
    copys = T.Contender(f"device copy {by >> 21} MiB (the kernels' bytes)", lambda: dst_s.copy_(src_s), by)
    rows = [(T.Contender(f"softmax.tile {SM_M}x{SM_N} fp16", lambda: sm(P(x), P(y), I(SM_M), S()), by),
             T.Contender("torch.softmax", lambda: torch.softmax(x, -1), by)),
            (T.Contender(f"layernorm.tile {LN_M}x{LN_N} fp16",
                         lambda: ln(P(xl), P(gl), P(bl), P(yl), I(LN_M), S()), by),
             T.Contender("torch layer_norm", lambda: F.layer_norm(xl, (LN_N,), gl, bl, 1e-5), by))]
    T.measure([copy, copys] + [c for r in rows for c in r])
    gbs = lambda c: f"{c.rate() / 1e9:.0f}"
    lines = table(["workload", "tilec GB/s", "% of 1 GiB copy", "% of same-bytes copy", "torch GB/s", "tilec / torch"],
                  [(t.name, gbs(t), pct(t, copy), pct(t, copys), f"{gbs(base)} ({base.name})",
                    f"{t.rate() / base.rate():.2f}") for t, base in rows] +
                  [(copy.name, gbs(copy), "100%", "", "", ""), (copys.name, gbs(copys), pct(copys, copy), "100%", "", "")])
    summary = [f"{t.name}: {gbs(t)} GB/s, {pct(t, copy)} of the 1 GiB copy ({gbs(copy)} GB/s), "
               f"{t.rate() / base.rate():.2f}x {base.name}" for t, base in rows]
    return {"tables": lines, "summary": summary,
            "figures": {t.name: t.rate() / copy.rate() for t, _ in rows}}
