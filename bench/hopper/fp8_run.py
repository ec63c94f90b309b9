"""sm_90a fp8 GEMM (tilec, TMA + k32 WGMMA) against torch._scaled_mm (cuBLASLt) in one process.

Usage (on the GPU machine, after bench/hopper/fp8_build.sh):
  python3 bench/hopper/fp8_run.py LIBDIR
LIBDIR holds fp8_<in>_<out>_<N>_<K>_<config>.so (tilec -shared builds of
examples/gemm/gemm_fp8.tile, M dynamic; B is N x K). Numerics: random inputs
rounded to fp8, C poisoned with NaN, float32 reference of the dequantized
inputs (TF32 off), ragged M, N and K. Timing: CUDA events, median of the
repetitions after a warm-up; torch._scaled_mm (scales 1.0, bf16 out) timed
in the same process on the same operands, right after tilec.
"""
import math, os, sys
import torch
import gemmlib as G
from gemmlib import timeit

torch.backends.cuda.matmul.allow_tf32 = False
LIBDIR = sys.argv[1]
FP8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
OUT = {"bf16": torch.bfloat16, "f32": torch.float32}
CONFIGS = open(os.path.join(LIBDIR, "configs.txt")).read().split()
SHAPES = [(m, n, k) for m in (128, 1024, 4096) for n, k in ((4096, 4096), (8192, 8192))] + [(8192, 8192, 8192)]


def lib(name):
    return G.load(LIBDIR, name, "gemm_fp8")


call = G.call


def operands(fp8, m, n, k):
    a = torch.randn(m, k, device="cuda").to(FP8[fp8])
    b = torch.randn(n, k, device="cuda").to(FP8[fp8])
    return a, b


def check(fp8, out, n, k, cfg, m):
    name = f"fp8_{fp8}_{out}_{n}_{k}_{cfg}"
    a, b = operands(fp8, m, n, k)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=OUT[out])
    call(lib(name), a, b, c, m)
    torch.cuda.synchronize()
    err, nan = G.rel_err(c, a.float() @ b.float().t())
    ok = err < 1e-2 and not nan
    print(f"check {name:40s} M={m:5d} rel.err={err:.2e} {'ok' if ok else 'FAIL'}", flush=True)
    return ok


def tflops(fn, m, n, k):
    return 2.0 * m * n * k / timeit(fn, 10 if m * n * k > 1e11 else 30) / 1e9


def main():
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    ok = {}
    for cfg in CONFIGS:
        good = True
        for m in (77, 1000):
            good &= check("e4m3", "bf16", 200, 400, cfg, m)
        for n, k in ((4096, 4096), (8192, 8192)):
            good &= check("e4m3", "bf16", n, k, cfg, 1000)
        ok[cfg] = good
    d = CONFIGS[0]
    for fp8, out in (("e5m2", "bf16"), ("e4m3", "f32")):
        for n, k, m in ((200, 400, 77), (4096, 4096, 1000)):
            ok[d] &= check(fp8, out, n, k, d, m)
    print("numerics:", " ".join(f"{c}={'PASS' if v else 'FAIL'}" for c, v in ok.items()), flush=True)
    good = [c for c in CONFIGS if ok[c]]
    one = torch.ones((), device="cuda")
    rows = []
    for m, n, k in SHAPES:
        a, b = operands("e4m3", m, n, k)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        res = {cfg: tflops(lambda l=lib(f"fp8_e4m3_bf16_{n}_{k}_{cfg}"): call(l, a, b, c, m), m, n, k) for cfg in good}
        bt = b.t()
        tb = tflops(lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), m, n, k)
        win = max(res, key=res.get) if res else None
        rows.append((m, n, k, res, win, tb))
        print(f"bench {m:5d} {n:5d} {k:5d} cuBLASLt {tb:7.1f} " + " ".join(f"{c}={t:7.1f}" for c, t in res.items()),
              flush=True)
    print(f"\n| M | N | K | best config | tilec TFLOP/s | {d} TFLOP/s | _scaled_mm TFLOP/s | best/cuBLASLt | {d}/cuBLASLt |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m, n, k, res, win, tb in rows:
        if win:
            print(f"| {m} | {n} | {k} | {win} | {res[win]:.1f} | {res.get(d, float('nan')):.1f} | {tb:.1f} | "
                  f"{res[win]/tb:.3f} | {res.get(d, float('nan'))/tb:.3f} |")
    if rows and all(r[4] for r in rows):
        g = math.exp(sum(math.log(r[3][r[4]] / r[5]) for r in rows) / len(rows))
        print(f"geomean best/cuBLASLt over {len(rows)} shapes: {g:.3f}")


main()
