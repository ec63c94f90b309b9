"""sm_90a GEMM (tilec, TMA + WGMMA) against torch.matmul (cuBLAS) in one process.

Usage (on the GPU machine): python3 bench/hopper/run.py LIBDIR [--quick]
Loads LIBDIR/gemm_<dtype>_<N>_<K>.so (tilec -shared builds of
examples/gemm/gemm.tile) with ctypes; checks numerics (ragged shapes too,
outputs poisoned with NaN first), then times both with CUDA events (median of
the repetitions after a warm-up) and prints a table with TFLOP/s, the ratios
and their geometric mean.
"""
import ctypes, math, os, sys, statistics
import torch

LIBDIR = sys.argv[1]
QUICK = "--quick" in sys.argv
DT = {"float16": torch.float16, "bfloat16": torch.bfloat16}
_libs = {}


def lib(name):
    if name not in _libs:
        l = ctypes.CDLL(os.path.join(LIBDIR, name + ".so"))
        l.gemm.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64, ctypes.c_void_p]
        l.gemm.restype = ctypes.c_int
        _libs[name] = l
    return _libs[name]


def call(l, a, b, c, m):
    rc = l.gemm(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, torch.cuda.current_stream().cuda_stream)
    if rc != 0:
        raise RuntimeError(f"launcher returned {rc}")


def check(name, dt, m, n, k):
    a = torch.randn(m, k, device="cuda").to(DT[dt])
    b = torch.randn(k, n, device="cuda").to(DT[dt])
    c = torch.full((m, n), float("nan"), device="cuda", dtype=DT[dt])
    call(lib(name), a, b, c, m)
    torch.cuda.synchronize()
    ref = a.float() @ b.float()
    err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
    ok = err < 1e-2 and not torch.isnan(c).any().item()
    print(f"check {name:32s} M={m:5d} N={n:5d} K={k:5d} rel.err={err:.2e} {'ok' if ok else 'FAIL'}", flush=True)
    return ok


def timeit(fn, reps):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts)


def bench(name, dt, m, n, k):
    a = torch.randn(m, k, device="cuda").to(DT[dt])
    b = torch.randn(k, n, device="cuda").to(DT[dt])
    c = torch.empty(m, n, device="cuda", dtype=DT[dt])
    l = lib(name)
    reps = 10 if m * n * k > 1e11 else 30
    t_tilec = timeit(lambda: call(l, a, b, c, m), reps)
    t_torch = timeit(lambda: torch.matmul(a, b, out=c), reps)
    fl = 2.0 * m * n * k
    return fl / t_tilec / 1e9, fl / t_torch / 1e9


def main():
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    ok = True
    for dt in DT:
        ok &= check(f"gemm_{dt}_200_136", dt, 77, 200, 136)
        ok &= check(f"gemm_{dt}_200_136", dt, 1000, 200, 136)
        ok &= check(f"gemm_{dt}_4096_4096", dt, 1000, 4096, 4096)
    ok &= check("gemm_mmasync_float16_4096_4096", "float16", 1000, 4096, 4096)
    if QUICK:
        print("quick:", "PASS" if ok else "FAIL")
        return
    if "--smallm" in sys.argv:
        return small_m()
    for dt in DT:
        for n, k in [(8192, 8192), (28672, 8192), (8192, 28672)]:
            ok &= check(f"gemm_{dt}_{n}_{k}", dt, 128, n, k)
    rows = []
    shapes = [(4096, 4096, 4096), (8192, 8192, 8192)]
    shapes += [(m, n, k) for m in (128, 1024, 4096) for n, k in [(4096, 4096), (8192, 8192), (28672, 8192), (8192, 28672)]]
    for dt in DT:
        for m, n, k in shapes:
            tt, tb = bench(f"gemm_{dt}_{n}_{k}", dt, m, n, k)
            rows.append((dt, m, n, k, tt, tb))
            print(f"bench {dt:8s} {m:5d} {n:5d} {k:5d} tilec {tt:7.1f} cuBLAS {tb:7.1f} ratio {tt/tb:.3f}", flush=True)
    tt, tb = bench("gemm_mmasync_float16_4096_4096", "float16", 4096, 4096, 4096)
    print(f"mma.sync path (sm_90 build) float16 4096^3: {tt:.1f} TFLOP/s vs cuBLAS {tb:.1f} ({tt/tb:.3f})")
    print("\n| dtype | M | N | K | tilec TFLOP/s | cuBLAS TFLOP/s | ratio |\n|---|---|---|---|---|---|---|")
    for dt, m, n, k, tt, tb in rows:
        print(f"| {dt} | {m} | {n} | {k} | {tt:.1f} | {tb:.1f} | {tt/tb:.3f} |")
    for dt in DT:
        r = [tt / tb for d, m, n, k, tt, tb in rows if d == dt]
        print(f"geomean ratio {dt}: {math.exp(sum(map(math.log, r)) / len(r)):.3f} over {len(r)} shapes")
    print("numerics:", "PASS" if ok else "FAIL")


def small_m():
    """M = 128 with the block_M = 64 tile configurations (gemm_*_bm64_bn*.so)."""
    ok = True
    for dt in DT:
        for bn in (128, 64):
            ok &= check(f"gemm_{dt}_4096_4096_bm64_bn{bn}", dt, 77, 4096, 4096)
    print("| dtype | M | N | K | config | tilec TFLOP/s | cuBLAS TFLOP/s | ratio |\n|---|---|---|---|---|---|---|---|")
    for dt in DT:
        for n, k in [(4096, 4096), (8192, 8192), (28672, 8192), (8192, 28672)]:
            for bn in (128, 64):
                tt, tb = bench(f"gemm_{dt}_{n}_{k}_bm64_bn{bn}", dt, 128, n, k)
                print(f"| {dt} | 128 | {n} | {k} | 64x{bn}x64 | {tt:.1f} | {tb:.1f} | {tt/tb:.3f} |", flush=True)
    print("numerics:", "PASS" if ok else "FAIL")


if __name__ == "__main__":
    main()
