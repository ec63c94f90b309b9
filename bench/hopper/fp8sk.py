#!/usr/bin/env python3
"""Device half of fp8sk_build.sh: fp8 split-K against the plain fp8 kernel and torch._scaled_mm
at the kit's M = 128 shapes (e4m3 A M x K and B N x K, bf16 C).
1. Numerics of every launcher: operands randn rounded to e4m3, float32 reference of the
   upcast operands (TF32 off), error max |C - ref| / max |ref| < 2e-2 (NaN: fail). Plain
   kernels get a NaN-poisoned C; split-K ones too, then run exactly what is timed: C.zero_()
   and the launch (a missing zero leaves NaN, a block added twice shows in the error). Each
   config at every shape of the kit with M = FP8SK_M, and its ragged build (N = 200, K = 400 or
   1024) at M = 100 and FP8SK_M.
2. Timing per shape, timing.py (rotated rounds; b2b: back-to-back launches between two events;
   graph: the same launches replayed from a CUDA graph, which keeps the host's enqueue cost out:
   a split-K zero+launch is two enqueues (~10 us of host time), as long as the whole kernel at
   N = K = 4096, so b2b may be host-bound there and graph is the device time; the 1-launch
   figure beside them): the configs that passed, torch._scaled_mm (scale 1.0
   tensors, bf16 out, default accumulation), and every split-K config twice: "zero+launch"
   (C.zero_() then the kernel, the honest cost of a split-K result: the figure the tables
   compare) and "launch only" (the kernel alone, C not zeroed: how much the zeroing costs).
   At N x K = 4096^2 and 8192^2 B (16 / 64 MB) stays in the 50 MB L2 (partly) between
   back-to-back launches for every contender alike; 8192 x 28672 (235 MB) does not.
Prints one table per shape and a summary: best plain, best split-K, _scaled_mm.
Usage: python3 build/fp8sk/fp8sk.py [LIBDIR]  (default: this script's folder; ROUNDS=n,
default 15; FP8SK_M=m, default 128; GRAPHS=0: no CUDA graphs; a copy of the output in
$OUT/fp8sk.txt when OUT is set)."""
import ctypes, glob, os, re, sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)  # timing.py beside this script (fp8sk_build.sh copies it)
import timing  # noqa: E402

libdir = sys.argv[1] if len(sys.argv) > 1 else here
out = os.environ.get("OUT")
M = int(os.environ.get("FP8SK_M", "128"))
ROUNDS = int(os.environ.get("ROUNDS", "15"))
GRAPHS = os.environ.get("GRAPHS", "1") != "0"
TOL = 2e-2
RAGGED = {"fp8": (200, 400), "fp8sk": (200, 1024)}  # N, K of the ragged builds (fp8sk_build.sh)
torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")
torch.manual_seed(0)
lines = []


def say(s=""):
    print(s, flush=True)
    lines.append(s)


def launcher(path, splitk):
    """The launcher of a .so as fn(A, B, C, m) -> status (0: launched)."""
    f = getattr(ctypes.CDLL(path), "gemm_fp8_splitk" if splitk else "gemm_fp8")
    f.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64, ctypes.c_void_p]
    f.restype = ctypes.c_int
    return lambda a, b, c, m: f(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, torch.cuda.current_stream().cuda_stream)


def call(f, splitk, a, b, c, m):
    """What is checked and timed: split-K adds into C, so C.zero_() first."""
    if splitk:
        return lambda: (c.zero_(), f(a, b, c, m))[1]
    return lambda: f(a, b, c, m)


_operands = {}


def operands(m, n, k):
    """A (m x k) and B (n x k) in e4m3 and the float32 reference (cached)."""
    if (m, n, k) not in _operands:
        a = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device=dev).to(torch.float8_e4m3fn)
        _operands[(m, n, k)] = a, b, a.float() @ b.float().T
    return _operands[(m, n, k)]


def scaled_mm(a, bt, one):
    """torch._scaled_mm, e4m3 -> bf16, scales 1.0 (older torch returns (C, amax))."""
    r = torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    return r[0] if isinstance(r, tuple) else r


def rel(c, ref):
    c = c.float()
    return float("inf") if torch.isnan(c).any() else ((c - ref).abs().max() / ref.abs().max()).item()


def check(f, splitk, m, n, k):
    a, b, ref = operands(m, n, k)
    c = torch.full((m, n), float("nan"), device=dev, dtype=torch.bfloat16)
    rc = call(f, splitk, a, b, c, m)()
    torch.cuda.synchronize()
    return float("inf") if rc != 0 else rel(c, ref)


# The kit: fp8[sk]_<N>_<K>_<config>.so and fp8[sk]_ragged_<config>.so.
kit = {}  # (family, config) -> {(n, k) or "ragged": path}
for path in sorted(glob.glob(os.path.join(libdir, "fp8*.so"))):
    m = re.fullmatch(r"(fp8|fp8sk)_(?:(\d+)_(\d+)|ragged)_(.+)\.so", os.path.basename(path))
    if m:
        key = (int(m.group(2)), int(m.group(3))) if m.group(2) else "ragged"
        kit.setdefault((m.group(1), m.group(4)), {})[key] = path
shapes = sorted({s for builds in kit.values() for s in builds if s != "ragged"}, key=lambda s: s[0] * s[1])
say(f"{torch.cuda.get_device_name()} torch {torch.__version__}; {len(kit)} configs, M = {M}, "
    f"N x K = {', '.join(f'{n}x{k}' for n, k in shapes)}")
if os.path.exists(os.path.join(libdir, "built-from.txt")):
    say("kit: " + open(os.path.join(libdir, "built-from.txt")).read().strip())

say("== numerics (max |C - ref| / max |ref|, limit 2e-2)")
passed, failed = {}, []
one = torch.ones((), device=dev)
for shape in shapes:
    a, b, ref = operands(M, *shape)
    try:
        e = rel(scaled_mm(a, b.T, one), ref)
        say(f"_scaled_mm {M}x{shape[0]}x{shape[1]}: {e:.1e}")
    except Exception as ex:  # noqa: BLE001 - reported, the timing below then fails too
        say(f"_scaled_mm {M}x{shape[0]}x{shape[1]}: refused ({ex})")
for (fam, cfg), builds in sorted(kit.items()):
    splitk = fam == "fp8sk"
    fns = {s: launcher(p, splitk) for s, p in builds.items()}
    errs = []
    for s, f in fns.items():
        if s == "ragged":
            rn, rk = RAGGED[fam]
            errs += [(f"ragged {mm}x{rn}x{rk}", check(f, splitk, mm, rn, rk)) for mm in (100, M)]
        else:
            errs.append((f"{M}x{s[0]}x{s[1]}", check(f, splitk, M, *s)))
    ok = len(errs) == len(shapes) + 2 and all(e < TOL for _, e in errs)
    say(f"check {fam} {cfg}: " + "  ".join(f"{w} {e:.1e}" for w, e in errs) + (" PASS" if ok else " FAIL"))
    if ok:
        passed[(fam, cfg)] = fns
    else:
        failed.append(f"{fam} {cfg}")

def us(x, method):
    """Microseconds per launch by `method` (b2b, graph, single), or n/a."""
    r = x.rate(method)
    return f"{1e6 * x.work / r:.1f}" if r else "n/a"


def vs(x, base, method):
    """Speed of x relative to base (base time / x time) by `method`, or n/a."""
    rx, rb = x.rate(method), base.rate(method)
    return f"{rx / rb:.3f}" if rx and rb else "n/a"


say("== timing (b2b: back-to-back launches; split-K zero+launch = C.zero_() and the kernel, "
    "the figure compared; launch only = the kernel alone, C not zeroed)")
summary = []
for shape in shapes:
    n, k = shape
    a, b, _ = operands(M, n, k)
    c = torch.empty(M, n, device=dev, dtype=torch.bfloat16)
    flop = 2 * M * n * k
    conts = []
    for (fam, cfg), fns in passed.items():
        if shape not in fns:
            continue
        if fam == "fp8sk":
            conts.append(timing.Contender(f"split-K {cfg} zero+launch", call(fns[shape], True, a, b, c, M), flop))
            conts.append(timing.Contender(f"split-K {cfg} launch only", call(fns[shape], False, a, b, c, M), flop))
        else:
            conts.append(timing.Contender(f"plain {cfg}", call(fns[shape], False, a, b, c, M), flop))
    bt = b.T
    conts.append(timing.Contender(
        "_scaled_mm", lambda: scaled_mm(a, bt, one), flop))
    timing.measure(conts, rounds=ROUNDS, graphs=GRAPHS, log=say)
    ref = conts[-1]
    say(f"\n### M = {M}, N = {n}, K = {k}")
    say("| contender | us (b2b) | TFLOP/s (b2b) | speed vs _scaled_mm (b2b) | us (graph) | speed vs _scaled_mm "
        "(graph) | us (1 launch) | b2b spread |")
    say("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for x in conts:
        say(f"| {x.name} | {us(x, 'b2b')} | {x.rate('b2b') / 1e12:.0f} | {vs(x, ref, 'b2b')} | {us(x, 'graph')} | "
            f"{vs(x, ref, 'graph')} | {us(x, 'single')} | {x.spread() * 100:.1f}% |")
    best = lambda pre, post="": max((x for x in conts if x.name.startswith(pre) and x.name.endswith(post)),
                                    key=lambda x: x.rate("b2b"), default=None)
    summary.append((shape, best("plain "), best("split-K ", " zero+launch"), ref))
    say()

say(f"### Summary, M = {M}: best by b2b; split-K timed as C.zero_() + launch; speed = _scaled_mm time / time "
    "(b2b, graph in parentheses)")
say("| N | K | best plain | us | speed vs _scaled_mm | best split-K (zero+launch) | us | speed vs _scaled_mm | "
    "split-K speed / plain | _scaled_mm us |")
say("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for (n, k), p, s, ref in summary:
    cell = lambda x: (f"{x.name.split()[1]} | {us(x, 'b2b')} ({us(x, 'graph')}) | {vs(x, ref, 'b2b')} "
                      f"({vs(x, ref, 'graph')})") if x else "none passed | - | -"
    ratio = f"{vs(s, p, 'b2b')} ({vs(s, p, 'graph')})" if p and s else "-"
    say(f"| {n} | {k} | {cell(p)} | {cell(s)} | {ratio} | {us(ref, 'b2b')} ({us(ref, 'graph')}) |")
say(f"numerics: {len(passed)} configs PASS, {len(failed)} FAIL" + (": " + ", ".join(failed) if failed else ""))
if out:
    open(os.path.join(out, "fp8sk.txt"), "w").write("\n".join(lines) + "\n")
sys.exit(1 if failed else 0)
