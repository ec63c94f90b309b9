"""Timing for the GPU kits (run.py, perf_kit.py), the same for every contender:
a tilec launcher, a torch op (cuBLAS, softmax, layer_norm) or the device copy.

Contenders are timed in rounds; the order rotates from round to round (and
reverses every other round), so that no contender always follows the same
neighbour or always runs first. Each round takes, for every contender:

  single  one launch between two CUDA events (the kits' method up to
          2026-11-29). For a ~70 us kernel this counts the host's launch
          latency and the event granularity: a bias of a few % against short
          kernels, which the 1 GiB copy (~500 us) does not have.
  b2b     n launches back to back between two events, the start event queued
          behind a launch already running, so that the device never waits for
          the host inside the timed region; time / n.
  graph   the same n launches captured once in a CUDA graph, replayed (after
          one replay that keeps the device busy); time / n. A cross-check of
          b2b without host launches; None where capture fails.

n is chosen so that one b2b sample lasts about 2 ms. The figure of each
method is the median over all rounds; spread is (max - min) / median of the
b2b samples."""
import math
import statistics

import torch


def check_rc(r):
    """tilec launchers return an int status (0 = launched); torch ops return tensors."""
    if isinstance(r, int) and r != 0:
        raise RuntimeError(f"launcher returned {r}")


class Contender:
    """name: row label; fn: launches the work once on the current stream;
    work: bytes moved (or FLOP) per launch, for rates."""

    def __init__(self, name, fn, work):
        self.name, self.fn, self.work = name, fn, work
        self.single, self.b2b, self.graph = [], [], []
        self.n = 1
        self.cuda_graph = None

    def rate(self, method):
        """work per second, from the median of the method's samples (None if none)."""
        ts = getattr(self, method)
        return self.work / statistics.median(ts) if ts else None

    def spread(self):
        return (max(self.b2b) - min(self.b2b)) / statistics.median(self.b2b) if self.b2b else float("nan")


def _events():
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def _single(c):
    s, e = _events()
    s.record(); check_rc(c.fn()); e.record(); e.synchronize()
    c.single.append(s.elapsed_time(e) / 1e3)


def _b2b(c):
    s, e = _events()
    check_rc(c.fn())  # keeps the device busy while the timed launches are queued
    s.record()
    for _ in range(c.n):
        check_rc(c.fn())
    e.record(); e.synchronize()
    c.b2b.append(s.elapsed_time(e) / 1e3 / c.n)


def _graph(c):
    s, e = _events()
    c.cuda_graph.replay()
    s.record(); c.cuda_graph.replay(); e.record(); e.synchronize()
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
    except Exception as ex:  # noqa: BLE001 - reported, the graph column is then n/a
        log(f"timing: no CUDA graph for {c.name}: {ex}")
        torch.cuda.synchronize()
        return None


def measure(contenders, rounds=15, singles=50, sample_s=2e-3, graphs=True, log=print):
    """Times every contender with the three methods in `rounds` rotated rounds;
    `singles` single-launch samples in all (spread over the rounds)."""
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


def bench_single(f, reps=50, warmup=5):
    """The old method alone (one launch between events, median of reps), for quick looks."""
    for _ in range(warmup):
        check_rc(f())
    torch.cuda.synchronize()
    c = Contender("", f, 1.0)
    for _ in range(reps):
        _single(c)
    return statistics.median(c.single)
