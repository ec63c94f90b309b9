"""Shared helpers of the sm_90a GEMM benchmarks (run.py, fp8_run.py, int8_run.py, kit.py):
loading the tilec `-shared` launchers with ctypes, calling them on torch tensors, the
numerics check against a float32 reference, and CUDA-event timing (plain median, and
rotated order across several candidates so that clock drift biases nobody).

Every launcher tilec emits for these kernels has the C signature
    int NAME(void *A, void *B, void *C, int64_t M, CUstream stream)
(M dynamic; 0 on success, a CUresult otherwise).
"""
import ctypes, math, os, statistics
import torch

_libs = {}


def load(libdir, name, symbol):
    """The launcher `symbol` of LIBDIR/name.so, with its argument types set (cached)."""
    key = (libdir, name, symbol)
    if key not in _libs:
        f = getattr(ctypes.CDLL(os.path.join(libdir, name + ".so")), symbol)
        f.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64, ctypes.c_void_p]
        f.restype = ctypes.c_int
        _libs[key] = f
    return _libs[key]


def call(f, a, b, c, m):
    """Launches f(A, B, C, M) on torch's current stream; raises on a failed launch."""
    rc = f(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, torch.cuda.current_stream().cuda_stream)
    if rc != 0:
        raise RuntimeError(f"launcher returned CUresult {rc}")


def rel_err(c, ref):
    """max |c - ref| / max |ref|, and whether C holds a NaN (poisoned and not written)."""
    err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
    return err, bool(torch.isnan(c.float()).any().item())


def timeit(fn, reps):
    """Median of `reps` single-launch CUDA-event samples after 3 warm-ups (ms)."""
    for _ in range(3):
        fn()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts)


def tflops(m, n, k, ms):
    return 2.0 * m * n * k / ms / 1e9


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def _sample(fn, per):
    """One sample: `per` back-to-back launches between two events (ms per launch). A
    sleep kernel ahead of the start event keeps the GPU busy while the host enqueues,
    so the host's launch cost (ctypes or torch dispatch) stays out of the figure."""
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if hasattr(torch.cuda, "_sleep"):
        torch.cuda._sleep(min(60_000 * per, 6_000_000))  # ~30 us of GPU time per launch to enqueue
    s.record()
    for _ in range(per):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / per


def launches_per_sample(fn, target_ms=1.0, cap=64):
    """How many launches make one sample of about target_ms (one warm launch measured)."""
    fn()
    t = _sample(fn, 1)
    return max(2, min(cap, math.ceil(target_ms / max(t, 1e-3))))


def rotated(fns, rounds, per, warm=2):
    """Median ms per launch of each of `fns`, sampled in `rounds` rounds whose order
    rotates (round r starts with fns[r % n]): under sustained load the clocks drift,
    so a fixed order would favour whoever runs first."""
    n = len(fns)
    for _ in range(warm):
        for f in fns:
            f()
    got = [[] for _ in fns]
    for r in range(rounds):
        for j in range(n):
            i = (j + r) % n
            got[i].append(_sample(fns[i], per))
    return [statistics.median(g) for g in got]
