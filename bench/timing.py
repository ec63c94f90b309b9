"""The GPU kit's one timing module, and the device helpers every suite shares.

Timing: every contender (a tilec launcher, a torch op such as cuBLAS or SDPA, the device
copy) is timed the same way, in rounds whose order rotates and reverses every other round,
so that clock drift under sustained load favours nobody. Each round takes, per contender:

  b2b     n launches back to back between two CUDA events, queued behind a sleep kernel so
          that the device never waits for the host inside the timed region; time / n.
          The figure every table reports.
  single  one launch between two events (host launch latency included; shown for short
          kernels, where it differs).
  graph   the same n launches captured in a CUDA graph and replayed (optional; None where
          capture fails): b2b without any host enqueue cost.

n is chosen so that one b2b sample lasts about 2 ms. A method's figure is the median of its
samples; spread is (max - min) / median of the b2b samples.

Helpers: tilec's `-shared` launchers through ctypes (status 0 = launched), NaN-poisoned
outputs, and the two error measures the suites use.
"""
import ctypes
import math
import os
import statistics

import torch

# ----------------------------------------------------------------------------- launchers


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def dim(v):
    return ctypes.c_int64(v)


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


_libs = {}


def load(path, symbol):
    """The launcher `symbol` of the shared library at `path` (cached), returning int."""
    key = (path, symbol)
    if key not in _libs:
        f = getattr(ctypes.CDLL(path), symbol)
        f.restype = ctypes.c_int
        _libs[key] = f
    return _libs[key]


def check_rc(r):
    """tilec launchers return an int status (0 = launched); torch ops return tensors."""
    if isinstance(r, int) and r != 0:
        raise RuntimeError(f"launcher returned {r}")
    return r


def run(fn, *args):
    """One checked launch, then a device synchronize (numerics)."""
    check_rc(fn(*args))
    torch.cuda.synchronize()


def poison(*shape, dtype):
    """An output tensor that a kernel must overwrite: NaN for floats, -7 otherwise."""
    fill = float("nan") if dtype.is_floating_point else -7
    return torch.full(shape, fill, dtype=dtype, device="cuda")


def rel_norm(out, ref):
    """||out - ref|| / ||ref|| in float64; inf when out holds a NaN or an infinity."""
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def rel_max(out, ref):
    """max |out - ref| / max |ref| (the GEMM suites' measure); inf when out holds a NaN."""
    out = out.float()
    if torch.isnan(out).any():
        return float("inf")
    return ((out - ref).abs().max() / ref.abs().max()).item()


def tflops(flop, seconds):
    return flop / seconds / 1e12


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


# ----------------------------------------------------------------------------- timing


class Contender:
    """name: row label; fn: launches the work once on the current stream; work: FLOP or
    bytes per launch, for rates."""

    def __init__(self, name, fn, work):
        self.name, self.fn, self.work = name, fn, work
        self.single, self.b2b, self.graph = [], [], []
        self.n = 1
        self.cuda_graph = None

    def rate(self, method="b2b"):
        """work per second from the median of the method's samples (None if none)."""
        ts = getattr(self, method)
        return self.work / statistics.median(ts) if ts else None

    def seconds(self, method="b2b"):
        ts = getattr(self, method)
        return statistics.median(ts) if ts else None

    def spread(self):
        return (max(self.b2b) - min(self.b2b)) / statistics.median(self.b2b) if self.b2b else float("nan")


def _events():
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def _single(c):
    s, e = _events()
    s.record()
    check_rc(c.fn())
    e.record()
    e.synchronize()
    c.single.append(s.elapsed_time(e) / 1e3)


def _b2b(c):
    s, e = _events()
    if hasattr(torch.cuda, "_sleep"):  # ~30 us of device time per launch to enqueue
        torch.cuda._sleep(min(60_000 * c.n, 6_000_000))
    else:
        check_rc(c.fn())
    s.record()
    for _ in range(c.n):
        check_rc(c.fn())
    e.record()
    e.synchronize()
    c.b2b.append(s.elapsed_time(e) / 1e3 / c.n)


def _graph(c):
    s, e = _events()
    c.cuda_graph.replay()
    s.record()
    c.cuda_graph.replay()
    e.record()
    e.synchronize()
    c.graph.append(s.elapsed_time(e) / 1e3 / c.n)


def _capture(c, log):
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(c.n):
                check_rc(c.fn())
        g.replay()
        torch.cuda.synchronize()
        return g
    except Exception as ex:  # noqa: BLE001 - reported; the graph column is then n/a
        log(f"timing: no CUDA graph for {c.name}: {ex}")
        torch.cuda.synchronize()
        return None


def measure(contenders, rounds=None, singles=20, sample_s=2e-3, graphs=False, log=print):
    """Times every contender in `rounds` rotated rounds (KIT_ROUNDS overrides the default
    of 11); `singles` one-launch samples in all, spread over the rounds."""
    rounds = rounds or int(os.environ.get("KIT_ROUNDS", "11"))
    per_round = max(1, math.ceil(singles / rounds))
    for c in contenders:  # warm-up: module load, allocator, clocks; then the launch count
        for _ in range(3):
            check_rc(c.fn())
        torch.cuda.synchronize()
        _single(c)
        est = c.single.pop()
        c.n = max(4, min(200, math.ceil(sample_s / max(est, 1e-6))))
    if graphs:
        for c in contenders:
            c.cuda_graph = _capture(c, log)
    k = len(contenders)
    for r in range(rounds):
        order = contenders[r % k:] + contenders[:r % k]
        if r % 2:
            order = order[::-1]
        for c in order:
            for _ in range(per_round):
                _single(c)
            _b2b(c)
            if c.cuda_graph is not None:
                _graph(c)
    for c in contenders:
        c.cuda_graph = None
    torch.cuda.synchronize()
    return contenders


def warm_clocks(seconds=2.0):
    """Settles the clocks under load before the first figure (bf16 GEMMs for `seconds`)."""
    import time
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    end = time.time() + seconds
    while time.time() < end:
        for _ in range(10):
            torch.matmul(x, x)
        torch.cuda.synchronize()
