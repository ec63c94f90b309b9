"""sm_90a GEMM (tilec, TMA + WGMMA) against torch.matmul (cuBLAS) in one process.

Usage (on the GPU machine):
  python3 bench/hopper/run.py LIBDIR check CONFIG   numerics of one tile configuration
  python3 bench/hopper/run.py LIBDIR bench CONFIG.. sweep, re-time the best, print tables
  python3 bench/hopper/run.py LIBDIR final DEFAULT  chosen configs vs cuBLAS, rotated order
LIBDIR holds gemm_<dtype>_<N>_<K>_<config>.so (tilec -shared builds of
examples/gemm/gemm.tile, bench/hopper/build_libs.sh). Numerics: fresh random
inputs, C poisoned with NaN, float32 reference, ragged shapes. Timing: CUDA
events, median of the repetitions after a warm-up; cuBLAS timed in the same
process right after tilec on the same buffers.
"""
import sys, statistics
import torch
import gemmlib as G
from gemmlib import geomean, timeit

LIBDIR = sys.argv[1]
DT = {"float16": torch.float16, "bfloat16": torch.bfloat16}
NK = [(4096, 4096), (8192, 8192), (28672, 8192), (8192, 28672)]
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
SHAPES += [(m, n, k) for m in (128, 1024, 4096) for n, k in NK]


def lib(name):
    return G.load(LIBDIR, name, "gemm")


call = G.call


def check(name, dt, m, n, k):
    a = torch.randn(m, k, device="cuda").to(DT[dt])
    b = torch.randn(k, n, device="cuda").to(DT[dt])
    c = torch.full((m, n), float("nan"), device="cuda", dtype=DT[dt])
    call(lib(name), a, b, c, m)
    torch.cuda.synchronize()
    err, nan = G.rel_err(c, a.float() @ b.float())
    ok = err < 1e-2 and not nan
    print(f"check {name:36s} M={m:5d} N={n:5d} K={k:5d} rel.err={err:.2e} {'ok' if ok else 'FAIL'}", flush=True)
    return ok


def check_config(cfg):
    ok = True
    for dt in DT:
        for m in (77, 1000):
            ok &= check(f"gemm_{dt}_200_136_{cfg}", dt, m, 200, 136)
        for n, k in NK:
            ok &= check(f"gemm_{dt}_{n}_{k}_{cfg}", dt, 128 if k > 4096 else 1000, n, k)
            ok &= check(f"gemm_{dt}_{n}_{k}_{cfg}", dt, 200, n, k)
    print(f"config {cfg}:", "PASS" if ok else "FAIL", flush=True)
    return ok


def operands(dt, m, n, k):
    a = torch.randn(m, k, device="cuda").to(DT[dt])
    b = torch.randn(k, n, device="cuda").to(DT[dt])
    return a, b, torch.empty(m, n, device="cuda", dtype=DT[dt])


def tflops(fn, m, n, k):
    reps = 10 if m * n * k > 1e11 else 30
    return 2.0 * m * n * k / timeit(fn, reps) / 1e9


def bench(cfgs):
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    default = cfgs[0]
    best, rows = {}, []
    # 1. Sweep: every configuration at every shape, cuBLAS once per shape.
    for dt in DT:
        for m, n, k in SHAPES:
            a, b, c = operands(dt, m, n, k)
            tb = tflops(lambda: torch.matmul(a, b, out=c), m, n, k)
            res = {}
            for cfg in cfgs:
                l = lib(f"gemm_{dt}_{n}_{k}_{cfg}")
                res[cfg] = tflops(lambda: call(l, a, b, c, m), m, n, k)
            win = max(res, key=res.get)
            best[(dt, m, n, k)] = win
            print(f"sweep {dt:8s} {m:5d} {n:5d} {k:5d} cuBLAS {tb:6.1f} " +
                  " ".join(f"{c}={t:6.1f}" for c, t in res.items()) + f" best={win}", flush=True)
            rows.append((dt, m, n, k, res, tb))
    # 2. Re-time the chosen configuration and the default one against cuBLAS
    #    (fresh operands: the table does not reuse the sweep's maxima).
    final = []
    for dt in DT:
        for m, n, k in SHAPES:
            a, b, c = operands(dt, m, n, k)
            win = best[(dt, m, n, k)]
            lw, ld = lib(f"gemm_{dt}_{n}_{k}_{win}"), lib(f"gemm_{dt}_{n}_{k}_{default}")
            tw = tflops(lambda: call(lw, a, b, c, m), m, n, k)
            tb = tflops(lambda: torch.matmul(a, b, out=c), m, n, k)
            td = tflops(lambda: call(ld, a, b, c, m), m, n, k)
            final.append((dt, m, n, k, win, tw, td, tb))
    print(f"\n| dtype | M | N | K | best config | tilec best TFLOP/s | tilec {default} TFLOP/s | cuBLAS TFLOP/s | best/cuBLAS | {default}/cuBLAS |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dt, m, n, k, win, tw, td, tb in final:
        print(f"| {dt} | {m} | {n} | {k} | {win} | {tw:.1f} | {td:.1f} | {tb:.1f} | {tw/tb:.3f} | {td/tb:.3f} |")
    for dt in DT:
        sel = [r for r in final if r[0] == dt]
        print(f"geomean {dt}: best-config {geomean([r[5]/r[7] for r in sel]):.3f}, "
              f"{default} alone {geomean([r[6]/r[7] for r in sel]):.3f} over {len(sel)} shapes")
        for cfg in cfgs:
            print(f"  sweep geomean {dt} {cfg}: {geomean([r[4][cfg]/r[5] for r in rows if r[0] == dt]):.3f}")


def pick(m, n, k):
    """The tile configuration the sweep (device-log-3-sweep.txt) chose: 64x128
    for M = 128 (more blocks), 128x256 with two warpgroups otherwise; both
    measured at every shape in the sweep."""
    return "m64n128w1s4" if m <= 128 and (n, k) != (28672, 8192) else "m128n256w2s4"


def final(default):
    """Chosen configuration, the example's default one and cuBLAS at every
    shape, in 3 rounds whose order rotates (clocks drift under sustained
    load, so whoever runs first would gain); the median over the rounds."""
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    out = []
    for dt in DT:
        for m, n, k in SHAPES:
            a, b, c = operands(dt, m, n, k)
            cfg = pick(m, n, k)
            lw, ld = lib(f"gemm_{dt}_{n}_{k}_{cfg}"), lib(f"gemm_{dt}_{n}_{k}_{default}")
            fns = [lambda: call(lw, a, b, c, m), lambda: torch.matmul(a, b, out=c), lambda: call(ld, a, b, c, m)]
            got = [[], [], []]
            for r in range(3):
                for j in range(3):
                    i = (j + r) % 3
                    got[i].append(tflops(fns[i], m, n, k))
            tw, tb, td = (statistics.median(g) for g in got)
            out.append((dt, m, n, k, cfg, tw, td, tb))
            print(f"final {dt:8s} {m:5d} {n:5d} {k:5d} {cfg} {tw:6.1f} default {td:6.1f} cuBLAS {tb:6.1f} "
                  f"ratio {tw/tb:.3f} default {td/tb:.3f}", flush=True)
    print(f"\n| dtype | M | N | K | config | tilec TFLOP/s | cuBLAS TFLOP/s | ratio | default {default} TFLOP/s | default ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dt, m, n, k, cfg, tw, td, tb in out:
        print(f"| {dt} | {m} | {n} | {k} | {cfg} | {tw:.1f} | {tb:.1f} | {tw/tb:.3f} | {td:.1f} | {td/tb:.3f} |")
    for dt in DT:
        sel = [r for r in out if r[0] == dt]
        print(f"geomean {dt}: chosen configs {geomean([r[5]/r[7] for r in sel]):.3f}, "
              f"default {default} {geomean([r[6]/r[7] for r in sel]):.3f}, "
              f"m128n256w2s4 alone {geomean([r[5]/r[7] for r in sel if r[4] == 'm128n256w2s4']):.3f} (its shapes)")


if __name__ == "__main__":
    mode, cfgs = sys.argv[2], sys.argv[3:]
    if mode == "check":
        sys.exit(0 if check_config(cfgs[0]) else 1)
    if mode == "final":
        final(cfgs[0])
    else:
        bench(cfgs)
