"""sm_90a int8 GEMM (tilec, TMA + k32 s8 WGMMA) against torch._int_mm, and the fp8
default config at the 28672 shapes against torch._scaled_mm, in one process.

Usage (GPU machine, after bench/hopper/int8_build.sh): python3 bench/hopper/int8_run.py LIBDIR
Numerics: int8 inputs in [-128, 127], C poisoned with a sentinel, exact comparison
against an int32 reference (torch int64 matmul on the CPU for the small cases,
torch._int_mm otherwise; ragged M, N, K). Timing: CUDA events around 5 launches,
rounds alternating tilec and baseline (tilec, baseline, tilec, ...), median per side.
"""
import sys, statistics
import torch
import gemmlib as G

LIBDIR = sys.argv[1]


def lib(name, fn):
    return G.load(LIBDIR, name, fn)


call = G.call


def i8(*shape):
    return torch.randint(-128, 128, shape, device="cuda", dtype=torch.int8)


def check(name, m, n, k):
    a, b = i8(m, k), i8(n, k)
    c = torch.full((m, n), -0x5A5A5A5A, device="cuda", dtype=torch.int32)
    call(lib(name, "gemm_int8"), a, b, c, m)
    torch.cuda.synchronize()
    ref = (a.cpu().long() @ b.cpu().long().t()).to(torch.int32).cuda() if m * n * k < 2e9 else torch._int_mm(a, b.t())
    bad = (c != ref).sum().item()
    print(f"check {name:32s} M={m:5d} N={n:5d} K={k:5d} mismatches={bad} {'ok' if bad == 0 else 'FAIL'}", flush=True)
    return bad == 0


def rotated(fa, fb, rounds, per=5):
    for _ in range(3):
        fa(); fb()
    ta, tb = [], []
    for _ in range(rounds):
        for f, ts in ((fa, ta), (fb, tb)):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(per):
                f()
            e.record(); e.synchronize()
            ts.append(s.elapsed_time(e) / per)
    return statistics.median(ta), statistics.median(tb)


def main():
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    ok = True
    for m in (77, 1000):
        ok &= check("int8_200_400_m128n256w2s4", m, 200, 400)
        ok &= check("int8_200_400_m64n128w1s6", m, 200, 400)
    for n, k in ((4096, 4096), (8192, 8192)):
        ok &= check(f"int8_{n}_{k}_m128n256w2s4", 1000, n, k)
    print("int8 numerics:", "PASS" if ok else "FAIL", flush=True)
    rows = []
    for kind, shapes in (("int8", [(m, n, k) for m in (1024, 4096) for n, k in ((4096, 4096), (8192, 8192))]),
                         ("fp8", [(m, n, k) for m in (1024, 4096) for n, k in ((28672, 8192), (8192, 28672))])):
        for m, n, k in shapes:
            if kind == "int8":
                if not ok:
                    continue
                a, b = i8(m, k), i8(n, k)
                c = torch.empty(m, n, device="cuda", dtype=torch.int32)
                f = lib(f"int8_{n}_{k}_m128n256w2s4", "gemm_int8")
                bt = b.t()
                fa, fb = (lambda: call(f, a, b, c, m)), (lambda: torch._int_mm(a, bt))
            else:
                a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
                b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
                c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
                f = lib(f"fp8_e4m3_bf16_{n}_{k}_m128n256w2s4", "gemm_fp8")
                one = torch.ones((), device="cuda")
                bt = b.t()
                fa = lambda: call(f, a, b, c, m)
                fb = lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            ta, tb = rotated(fa, fb, 7 if m * n * k > 5e11 else 11)
            t, base = 2.0 * m * n * k / ta / 1e9, 2.0 * m * n * k / tb / 1e9
            rows.append((kind, m, n, k, t, base))
            print(f"bench {kind} {m:5d} {n:5d} {k:5d} tilec {t:7.1f} baseline {base:7.1f} ratio {t/base:.3f}", flush=True)
    print("\n| dtype | M | N | K | tilec TOP/s | baseline TOP/s | ratio |\n|---|---|---|---|---|---|---|")
    for kind, m, n, k, t, base in rows:
        print(f"| {kind} | {m} | {n} | {k} | {t:.1f} | {base:.1f} | {t/base:.3f} |")
    for kind in ("int8", "fp8"):
        r = [x[4] / x[5] for x in rows if x[0] == kind]
        if r:
            print(f"geomean {kind} tilec/baseline over {len(r)} shapes: {G.geomean(r):.3f}")


main()
