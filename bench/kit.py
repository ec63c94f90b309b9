#!/usr/bin/env python3
"""tilec's GPU kit: builds the kernels here (tilec runs only where LLVM/MLIR is), then checks
and times them on a CUDA GPU (where only the CUDA driver, PyTorch and the kit folder are).

  python3 bench/kit.py build [--suites S,..] [--kit DIR] [--tilec PATH] [--jobs N]    (here)
  python3 bench/kit.py check|bench|sanitize|all [--suites S,..] [--kit DIR] [--small] (on the GPU)
  python3 bench/kit.py list                                              (the suites)
  python3 bench/kit.py compile-time [--tilec PATH]        (here: tilec vs nvcc wall time)

check: numerics of every build (fresh random inputs, outputs poisoned with NaN, ragged sizes,
float32/float64 references); bench: timing against the baselines in the same run (timing.py);
sanitize: compute-sanitizer memcheck and racecheck over `check --small`; all: check, sanitize,
bench, each suite in its own process under a timeout, and a summary last. The default kit
folder is build/gpu-kit; bench/device.sh is the entry script on the GPU machine.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)  # timing.py and suites/ (the device half)
DEFAULT_KIT = os.path.join(ROOT, "build", "gpu-kit")
ARCH = "sm_90a"

# Suites: what each builds (here) and where its device half lives (bench/suites/<module>.py).
SUITES = {
    "examples": "every example's numerics on sm_90a (the GEMM on sm_90 mma.sync too); GEMM 4096^3 vs cuBLAS",
    "bandwidth": "softmax and layernorm vs torch and the device copy (1 GiB and the kernels' bytes)",
    "suite": "every host-suite kernel (test/run) on sm_90a against its -target=host build",
    "gemm": "fp16/bf16 wgmma GEMM, 5 tile configs + split-K for M = 128, 14 shapes vs cuBLAS",
    "layouts": "fp16/bf16 wgmma GEMM in the four operand layouts (NN, NT, TN, TT), 4096^3 and 8192^3 vs cuBLAS",
    "fp8": "fp8 e4m3 GEMM, plain and promoted, 14 shapes vs torch._scaled_mm (cuBLASLt)",
    "splitk": "fp8 split-K at M = 128 vs the plain fp8 kernel and torch._scaled_mm",
    "int8": "int8 GEMM (exact) vs torch._int_mm",
    "fa": "FlashAttention forward vs torch SDPA (default, FlashAttention-2 and cuDNN backends)",
    "arch": "multi-architecture objects (sm_80 + sm_90a): which image the launcher runs; a cluster launch",
    "peak": "mma.sync instruction ceiling (hand-written CUDA, nvcc) vs cuBLAS",
    "compat": "tile-lang's own kernels (test/compat entries with a NumPy reference) on sm_90a vs the reference",
    "fuzz": "the differential fuzzer's generated kernels (test/fuzz/gpukit.py) on sm_90a vs their NumPy models",
}
MODULE = {"examples": "examples", "bandwidth": "examples", "suite": "hostsuite", "gemm": "gemm", "layouts": "gemm",
          "fp8": "gemm",
          "splitk": "gemm", "int8": "gemm", "fa": "fa", "arch": "arch", "peak": "arch",
          "compat": "compat", "fuzz": "fuzz"}
# Suites run under compute-sanitizer (small shapes).
SANITIZE = ["examples", "suite", "fa"]
# Wall-clock limits on the device, per suite and step (seconds).
LIMIT = {"check": 240, "sanitize": 400, "bench": 300}
# Suites whose check takes longer: compat runs ~200 entries, each with a NumPy reference; fuzz
# runs 300 (or --fuzz-count) generated cases.
SUITE_LIMIT = {("check", "compat"): 540, ("check", "fuzz"): 540}

# ----------------------------------------------------------------------------- build specs

# GEMM tile configurations: name -> -D constants (block_K = 64 for fp16/bf16, 128 for fp8/int8).
# The first of each family is the source file's own defaults.
def _cfg(bm, bn, th, st, **extra):
    d = {"block_M": bm, "block_N": bn, "threads": th, "num_stages": st}
    d.update(extra)
    return d


# `ws`: the same tile warp-specialized (tilec --hopper-ws=on: a producer warpgroup more, setmaxnreg),
# timed beside the one-role kernel in the same rounds.
# `tma`: C written by TMA stores (tilec --hopper-tma-store).
WS = {"hopper_ws": "on"}
TMA = {"hopper_tma_store": 1}
# `wsp`: the ws tile as a persistent kernel (tilec --hopper-persistent=on: one wave of blocks looping
# over the output tiles, the producer loading the next tile during the epilogue).
WSP = {"hopper_ws": "on", "hopper_persistent": "on"}
# `pp`: the one-warpgroup tile as a ping-pong kernel (tilec --hopper-persistent=pingpong: persistent,
# two consumer warpgroups on alternate tiles, one's epilogue under the other's wgmma loop).
PP = {"hopper_persistent": "pingpong"}
# `wspr`: wsp with the epilogue from registers (--hopper-persistent=on-registers: no f32 shared tile,
# every stage asked for).
WSPR = {"hopper_ws": "on", "hopper_persistent": "on-registers"}
GEMM16 = {"m128n128w1s3": _cfg(128, 128, 128, 3), "m128n256w2s4": _cfg(128, 256, 256, 4),
          "m64n128w1s4": _cfg(64, 128, 128, 4), "m64n64w1s6": _cfg(64, 64, 128, 6),
          "m64n256w1s4": _cfg(64, 256, 128, 4),
          "m128n128w1s3ws": _cfg(128, 128, 128, 3, **WS), "m128n256w2s4ws": _cfg(128, 256, 256, 4, **WS),
          "m64n128w1s4ws": _cfg(64, 128, 128, 4, **WS), "m128n128w1s3tma": _cfg(128, 128, 128, 3, **TMA),
          "m128n256w2s4wstma": _cfg(128, 256, 256, 4, **WS, **TMA),
          "m128n128w1s3wsp": _cfg(128, 128, 128, 3, **WSP), "m128n256w2s4wsp": _cfg(128, 256, 256, 4, **WSP),
          # M = 128 (memory-bound: B is read once, A from L2): deeper rings of small tiles
          "m64n64w1s8": _cfg(64, 64, 128, 8), "m64n128w1s6": _cfg(64, 128, 128, 6),
          "m64n64w1s6ws": _cfg(64, 64, 128, 6, **WS),
          "m128n128w1s4pp": _cfg(128, 128, 128, 4, **PP), "m128n128w1s5pp": _cfg(128, 128, 128, 5, **PP),
          "m64n256w1s4pp": _cfg(64, 256, 128, 4, **PP), "m128n256w2s4wspr": _cfg(128, 256, 256, 4, **WSPR)}
SPLITK16 = {"sk2-m64n128w1s4": _cfg(64, 128, 128, 4, split_k=2), "sk4-m64n128w1s4": _cfg(64, 128, 128, 4, split_k=4),
            "sk2-m128n128w1s4": _cfg(128, 128, 128, 4, split_k=2),
            "sk2-m128n256w2s4": _cfg(128, 256, 256, 4, split_k=2),
            "sk4-m128n256w2s4": _cfg(128, 256, 256, 4, split_k=4),
            "sk8-m128n256w2s4": _cfg(128, 256, 256, 4, split_k=8),
            "sk4-m128n128w1s4": _cfg(128, 128, 128, 4, split_k=4),
            "sk2-m64n64w1s6": _cfg(64, 64, 128, 6, split_k=2), "sk4-m64n64w1s6": _cfg(64, 64, 128, 6, split_k=4),
            "sk2-m64n128w1s6": _cfg(64, 128, 128, 6, split_k=2)}
# fp8: panel = T.use_swizzle panel size (p1: plain raster order, what the rasterisation buys).
FP8 = {"m128n256w2s4": _cfg(128, 256, 256, 4, panel=8), "m128n256w2s4p16": _cfg(128, 256, 256, 4, panel=16),
       "m128n256w2s4p1": _cfg(128, 256, 256, 4, panel=1), "m128n128w2s5": _cfg(128, 128, 256, 5, panel=8),
       "m64n128w1s6": _cfg(64, 128, 128, 6, panel=8), "m64n256w1s4": _cfg(64, 256, 128, 4, panel=8)}
# Promoted fp8 keeps two f32 accumulators per thread: no n256 config (it spills).
FP8P = {"prom-m128n128w2s5": _cfg(128, 128, 256, 5, panel=8), "prom-m128n128w2s6": _cfg(128, 128, 256, 6, panel=8),
        "prom-m64n128w1s6": _cfg(64, 128, 128, 6, panel=8), "prom-m128n192w2s4": _cfg(128, 192, 256, 4, panel=8)}
SPLITK8 = {"sk2-m64n128w1s4": _cfg(64, 128, 128, 4, split_k=2), "sk4-m64n128w1s4": _cfg(64, 128, 128, 4, split_k=4),
           "sk2-m64n256w1s4": _cfg(64, 256, 128, 4, split_k=2), "sk4-m64n256w1s4": _cfg(64, 256, 128, 4, split_k=4),
           "sk2-m128n128w2s5": _cfg(128, 128, 256, 5, split_k=2),
           "sk4-m128n128w2s5": _cfg(128, 128, 256, 5, split_k=4)}
INT8 = {"m128n256w2s4": _cfg(128, 256, 256, 4), "m64n128w1s6": _cfg(64, 128, 128, 6)}
NK = [(4096, 4096), (8192, 8192), (28672, 8192), (8192, 28672)]
NK_SPLITK8 = [(4096, 4096), (8192, 8192), (8192, 28672)]
RAGGED = {"gemm": (200, 136), "splitk16": (200, 512), "fp8": (200, 400), "splitk8": (200, 1024), "int8": (200, 400)}
DYN_M = 'M=T.dynamic("M")'
# examples/gemm/gemm_layouts.tile: layout -> (trans_A, trans_B); N = A M x K or B K x N, T = stored
# transposed (A K x M, B N x K). Static M, N, K (a MN-major A needs M's row stride for the TMA).
LAYOUTS = {"NN": (False, False), "NT": (False, True), "TN": (True, False), "TT": (True, True)}
LAYOUT16 = {"m128n128w1s3": _cfg(128, 128, 128, 3), "m128n256w2s4": _cfg(128, 256, 256, 4),
            "m256n128w2s4": _cfg(256, 128, 256, 4), "m128n128k32w1s4": _cfg(128, 128, 128, 4, block_K=32),
            "m128n128w1s3ws": _cfg(128, 128, 128, 3, **WS), "m128n256w2s4ws": _cfg(128, 256, 256, 4, **WS),
            "m128n256w2s4wstma": _cfg(128, 256, 256, 4, **WS, **TMA),
            "m128n128w1s3wsp": _cfg(128, 128, 128, 3, **WSP), "m128n256w2s4wsp": _cfg(128, 256, 256, 4, **WSP),
            "m128n128w1s4pp": _cfg(128, 128, 128, 4, **PP), "m128n128w1s5pp": _cfg(128, 128, 128, 5, **PP),
            "m64n256w1s4pp": _cfg(64, 256, 128, 4, **PP), "m128n256w2s4wspr": _cfg(128, 256, 256, 4, **WSPR)}
# KIT_CONFIGS=a,b,...: only these GEMM / layout configurations (build and device alike: a quick kit).
if os.environ.get("KIT_CONFIGS"):
    _keep = set(os.environ["KIT_CONFIGS"].split(","))
    GEMM16 = {k: v for k, v in GEMM16.items() if k in _keep}
    SPLITK16 = {k: v for k, v in SPLITK16.items() if k in _keep}
    LAYOUT16 = {k: v for k, v in LAYOUT16.items() if k in _keep}
LAYOUT_SIZES = [(4096, 4096, 4096), (8192, 8192, 8192)]
LAYOUT_RAGGED = (1000, 200, 136)  # M, N, K: ragged against every tile, rows still 16-byte aligned


class Job:
    """One tilec run: writes `out` (relative to the kit folder) from `src` with `flags`."""

    def __init__(self, out, src, flags, target=ARCH, emit=None):
        self.out, self.src, self.flags, self.target, self.emit = out, src, list(flags), target, emit

    def argv(self, tilec, kit):
        mode = [f"--emit={self.emit}"] if self.emit else ["-shared"]
        return [tilec, os.path.join(ROOT, self.src), f"-target={self.target}", *mode, *self.flags,
                "-o", os.path.join(kit, self.out)]


def defines(d):
    """-D NAME=VALUE per constant; the keys hopper_ws, hopper_persistent and hopper_tma_store are tilec's
    --hopper-ws, --hopper-persistent and --hopper-tma-store flags instead."""
    flags = [x for k, v in d.items() if not k.startswith("hopper_") for x in ("-D", f"{k}={v}")]
    return flags + ([f"--hopper-ws={d['hopper_ws']}"] if "hopper_ws" in d else []) + \
        ([f"--hopper-persistent={d['hopper_persistent']}"] if "hopper_persistent" in d else []) + \
        (["--hopper-tma-store"] if d.get("hopper_tma_store") else [])


def gemm_name(dt, n, k, cfg):
    """The .so of one GEMM build; the device half (suites/gemm.py) uses the same names."""
    return f"gemm_{dt}_{n}_{k}_{cfg}.so"


def layout_name(layout, dt, m, n, k, cfg):
    """The .so of one gemm_layouts.tile build (suites/gemm.py uses the same names)."""
    return f"gemm_{layout}_{dt}_{m}_{n}_{k}_{cfg}.so"


def jobs_layouts():
    src = "examples/gemm/gemm_layouts.tile"
    for layout, (ta, tb) in LAYOUTS.items():
        trans = ["-D", f"trans_A={ta}", "-D", f"trans_B={tb}"]
        for cfg, d in LAYOUT16.items():
            for dt in ("float16", "bfloat16"):
                for m, n, k in LAYOUT_SIZES + [LAYOUT_RAGGED]:
                    yield Job(layout_name(layout, dt, m, n, k, cfg), src,
                              trans + defines(d) + ["-D", f"dtype=T.{dt}", "-D", f"M={m}", "-D", f"N={n}", "-D", f"K={k}"])
            yield Job(f"cubin/gemm_{layout}_{cfg}.cubin", src, trans + defines(d), emit="cubin")


def jobs_examples():
    g, gb = "examples/gemm/gemm.tile", "examples/gemm/gemm_bf16.tile"
    yield Job("gemm.so", g, [])
    yield Job("cubin/gemm.cubin", g, [], emit="cubin")
    yield Job("gemm_mma.so", g, [], target="sm_90")
    yield Job("cubin/gemm_mma.cubin", g, [], target="sm_90", emit="cubin")
    yield Job("gemm_bf16_4096.so", gb, ["-D", "M=4096", "-D", "N=4096", "-D", "K=4096"])
    yield Job("gemm_bf16_ragged.so", gb, ["-D", "M=1000", "-D", "N=1000", "-D", "K=1000"])
    yield from jobs_bandwidth()
    yield Job("row_sum.so", "examples/reduction/row_sum.tile", [])
    yield Job("scale_bias_gelu.so", "examples/elementwise/scale_bias_gelu.tile", [])


def jobs_bandwidth():
    yield Job("softmax.so", "examples/softmax/softmax.tile", [])
    yield Job("layernorm.so", "examples/layernorm/layernorm.tile", [])


def jobs_gemm():
    for cfg, d in GEMM16.items():
        for dt in ("float16", "bfloat16"):
            for n, k in NK + [RAGGED["gemm"]]:
                yield Job(gemm_name(dt, n, k, cfg), "examples/gemm/gemm.tile",
                          defines(d) + ["-D", f"dtype=T.{dt}", "-D", f"N={n}", "-D", f"K={k}"])
        yield Job(f"cubin/gemm_{cfg}.cubin", "examples/gemm/gemm.tile", defines(d), emit="cubin")
    for cfg, d in SPLITK16.items():
        for dt in ("float16", "bfloat16"):
            for n, k in NK + [RAGGED["splitk16"]]:
                yield Job(gemm_name(dt, n, k, cfg), "examples/gemm/gemm_splitk.tile",
                          ["-D", DYN_M] + defines(d) + ["-D", f"dtype=T.{dt}", "-D", f"N={n}", "-D", f"K={k}"])
        yield Job(f"cubin/gemm_{cfg}.cubin", "examples/gemm/gemm_splitk.tile",
                  ["-D", DYN_M] + defines(d) + ["-D", "N=4096", "-D", "K=4096"], emit="cubin")


def _fp8_family(configs, src, shapes, ragged):
    for cfg, d in configs.items():
        for n, k in shapes + [ragged]:
            yield Job(gemm_name("fp8", n, k, cfg), src, ["-D", DYN_M] + defines(d) + ["-D", f"N={n}", "-D", f"K={k}"])
        yield Job(f"cubin/fp8_{cfg}.cubin", src, ["-D", DYN_M] + defines(d) + ["-D", "N=4096", "-D", "K=4096"],
                  emit="cubin")


def jobs_fp8():
    yield from _fp8_family(FP8, "examples/gemm/gemm_fp8.tile", NK, RAGGED["fp8"])
    yield from _fp8_family(FP8P, "examples/gemm/gemm_fp8_promoted.tile", NK, RAGGED["fp8"])


def jobs_splitk():
    plain = {c: FP8[c] for c in ("m128n256w2s4", "m64n128w1s6", "m64n256w1s4")}
    yield from _fp8_family(plain, "examples/gemm/gemm_fp8.tile", NK_SPLITK8, RAGGED["fp8"])
    yield from _fp8_family(SPLITK8, "examples/gemm/gemm_fp8_splitk.tile", NK_SPLITK8, RAGGED["splitk8"])


def jobs_int8():
    src = "examples/gemm/gemm_int8.tile"
    for n, k in [(4096, 4096), (8192, 8192), RAGGED["int8"]]:
        yield Job(gemm_name("int8", n, k, "m128n256w2s4"), src, ["-D", DYN_M, "-D", f"N={n}", "-D", f"K={k}"])
    n, k = RAGGED["int8"]
    yield Job(gemm_name("int8", n, k, "m64n128w1s6"), src,
              ["-D", DYN_M, "-D", f"N={n}", "-D", f"K={k}"] + defines(INT8["m64n128w1s6"]))
    yield Job("cubin/int8_m128n256w2s4.cubin", src, ["-D", DYN_M, "-D", "N=4096", "-D", "K=4096"], emit="cubin")


def jobs_fa():
    src = "examples/flash_attention/flash_attn.tile"
    yield Job("fa_big.so", src, [])
    yield Job("fa_small.so", src, ["-D", "batch=2", "-D", "heads=4", "-D", "seq_len=512"])
    yield Job("cubin/fa.cubin", src, [], emit="cubin")


def jobs_arch():
    g = "examples/gemm/gemm.tile"
    for name, target in (("gemm_sm80_sm90a", "sm_80,sm_90a"), ("gemm_sm90a_sm80", "sm_90a,sm_80"),
                         ("gemm_sm80", "sm_80"), ("gemm_sm90a", "sm_90a")):
        yield Job(f"{name}.so", g, [], target=target)
    yield Job("cluster_rank.so", "bench/cluster/cluster_rank.tile", [])
    # Beside the libraries: the SASS step wants matrix instructions in every cubin under cubin/.
    yield Job("cluster_rank.cubin", "bench/cluster/cluster_rank.tile", [], emit="cubin")


def host_suite_cases():
    """(name, tile file, tilec flags) of every host-suite kernel: test/run/kernels/*.tile with
    their defaults, and test/run/cases/*.cpp by their `// TILE:` line or embedded
    `/* TILE ... */` block (returned as source text), either with its `// TILEC-FLAGS:` line."""
    kernels = os.path.join(ROOT, "test/run/kernels")
    for f in sorted(os.listdir(kernels)):
        if f.endswith(".tile"):
            yield "kernel_" + f[:-5], os.path.join(kernels, f), None, []
    cases = os.path.join(ROOT, "test/run/cases")
    for f in sorted(os.listdir(cases)):
        if not f.endswith(".cpp"):
            continue
        text = open(os.path.join(cases, f)).read()
        more = re.search(r"// TILEC-FLAGS: ([^\n]*)", text)
        more = shlex.split(more.group(1)) if more else []
        m = re.search(r"// TILE: ([^\n]*)", text)
        if m:
            args = shlex.split(m.group(1))
            yield f[:-4], os.path.normpath(os.path.join(cases, args[0])), None, args[1:] + more
            continue
        begin = text.index("/* TILE\n") + 8
        yield f[:-4], None, text[begin:text.index("*/", begin)], more


def build_suite(tilec, kit, log):
    """The host suite: host -shared build and header, and the sm_90a -shared build of every
    case; a CUDA rejection is kept as suite/<name>.cuda.err (the device run lists it)."""
    os.makedirs(os.path.join(kit, "suite"), exist_ok=True)
    src_dir = tempfile.mkdtemp()
    todo = []
    for name, tile, text, flags in host_suite_cases():
        if text is not None:
            tile = os.path.join(src_dir, name + ".tile")
            open(tile, "w").write(text)
        cuda_flags = [f for i, f in enumerate(flags) if f != "-j" and (i == 0 or flags[i - 1] != "-j")]
        base = os.path.join(kit, "suite", name)
        todo.append((name, [tilec, tile, "-target=host", "-shared", *flags, "-o", base + ".host.so"], True))
        todo.append((name, [tilec, tile, "-target=host", "--emit=header", *flags, "-o", base + ".h"], True))
        todo.append((name, [tilec, tile, f"-target={ARCH}", "-shared", *cuda_flags, "-o", base + ".cuda.so"], False))
    return todo


JOBS = {"examples": jobs_examples, "bandwidth": jobs_bandwidth, "gemm": jobs_gemm, "layouts": jobs_layouts,
        "fp8": jobs_fp8,
        "splitk": jobs_splitk, "int8": jobs_int8, "fa": jobs_fa, "arch": jobs_arch}


def build(args):
    tilec = os.path.abspath(args.tilec)
    kit = os.path.abspath(args.kit)
    suites = args.suites
    if os.path.exists(kit):
        subprocess.run(["rm", "-rf", kit], check=True)
    os.makedirs(os.path.join(kit, "cubin"))
    runs = {}  # output path -> (argv, fatal)
    for s in suites:
        for j in JOBS.get(s, lambda: [])():
            runs.setdefault(j.out, (j.argv(tilec, kit), True))
    suite_runs = build_suite(tilec, kit, print) if "suite" in suites else []
    failures, rejected = [], []

    def one(argv):
        p = subprocess.run(argv, capture_output=True, text=True)
        return p.returncode, p.stderr

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(one, argv): (out, argv, True) for out, (argv, _) in runs.items()}
        futs.update({pool.submit(one, argv): (name, argv, fatal) for name, argv, fatal in suite_runs})
        for f in concurrent.futures.as_completed(futs):
            what, argv, fatal = futs[f]
            rc, err = f.result()
            if rc == 0:
                continue
            if fatal:
                failures.append(f"FAILED: {shlex.join(argv)}\n{err}")
            else:  # the CUDA target rejected a host-suite kernel: recorded, listed on the device
                open(os.path.join(kit, "suite", what + ".cuda.err"), "w").write(err)
                rejected.append(what)
    peak = "peak" in suites and build_peak(kit, failures)
    if "compat" in suites:
        build_compat(args, tilec, kit, failures)
    if "fuzz" in suites:
        build_fuzz(args, tilec, kit, failures)
    for f in os.listdir(kit):  # launcher headers of the -shared builds are not needed there
        if f.endswith(".h"):
            os.remove(os.path.join(kit, f))
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cI"], capture_output=True,
                          text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "lib", "include", "tools"],
                           capture_output=True, text=True).stdout.count("\n")
    manifest = {"suites": suites, "tree": head, "uncommitted_lib_files": dirty, "tilec": tilec,
                "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rejected": sorted(rejected),
                "peak": bool(peak)}
    json.dump(manifest, open(os.path.join(kit, "kit.json"), "w"), indent=1)
    for s in suites:
        if s not in JOBS and s not in ("suite", "peak", "compat", "fuzz"):
            print(f"kit: unknown suite {s}", file=sys.stderr)
    size = subprocess.run(["du", "-sh", kit], capture_output=True, text=True).stdout.split()[0]
    print(f"kit: {len(runs) + len(suite_runs)} tilec runs in {time.time() - t0:.0f} s, {size} in {kit}; tree {head}"
          + (f"; CUDA rejected {len(rejected)} suite kernels: {' '.join(sorted(rejected))}" if rejected else ""))
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(f"kit: {len(failures)} builds FAILED", file=sys.stderr)
        return 1
    return 0


def build_compat(args, tilec, kit, failures):
    """The compat suite: test/compat/run.py over a tile-lang checkout (--tilelang or $TILELANG_SRC),
    host numerics here, each referenced entry's sm_90a build into kit/compat/."""
    src = args.tilelang or os.environ.get("TILELANG_SRC")
    if not src:
        failures.append("compat: needs a tile-lang checkout (--tilelang DIR or TILELANG_SRC)")
        return
    argv = [sys.executable, os.path.join(ROOT, "test", "compat", "run.py"), "--tilelang", src, "--tilec", tilec,
            "--targets", "host,sm_90a", "--jobs", str(args.jobs), "--gpu-kit", os.path.join(kit, "compat"),
            # the host-side verdicts and the ranked failure causes, for reading here
            "--json", os.path.join(kit, "compat-here.json"), "--triage", os.path.join(kit, "compat-triage.md")]
    p = subprocess.run(argv, capture_output=True, text=True)
    lines = p.stdout.strip().splitlines()
    print("compat (here): " + (lines[-1] if lines else "no output"), flush=True)
    if p.returncode:
        failures.append(f"FAILED: {shlex.join(argv)}\n{p.stderr[-2000:]}")


def build_fuzz(args, tilec, kit, failures):
    """The fuzz suite: test/fuzz/gpukit.py builds the fuzzer's cases for sm_90a into kit/fuzz/."""
    argv = [sys.executable, os.path.join(ROOT, "test", "fuzz", "gpukit.py"), "--tilec", tilec, "--kit",
            os.path.join(kit, "fuzz"), "--seed", str(args.fuzz_seed), "--count", str(args.fuzz_count),
            "--jobs", str(args.jobs)]
    p = subprocess.run(argv, capture_output=True, text=True)
    lines = p.stdout.strip().splitlines()
    print("fuzz (here): " + (lines[0] if lines else "no output"), flush=True)
    if p.returncode:
        failures.append(f"FAILED: {shlex.join(argv)}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")


def build_peak(kit, failures):
    nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
    argv = [nvcc, "-arch=sm_90", "-O3", "-cubin", os.path.join(ROOT, "bench/cuda/mma_peak.cu"),
            "-o", os.path.join(kit, "cubin/mma_peak.cubin")]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        failures.append(f"FAILED: {shlex.join(argv)}\n{p.stderr}")
    return p.returncode == 0


def compile_time(args):
    """Wall time (median of 5) of tilec end to end and of nvcc on the hand-written equivalent."""
    def median(argv):
        ts = []
        for _ in range(5):
            t = time.time()
            subprocess.run(argv, check=True, capture_output=True)
            ts.append(time.time() - t)
        return sorted(ts)[2]
    nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
    with tempfile.TemporaryDirectory() as tmp:
        a = median([args.tilec, os.path.join(ROOT, "examples/gemm/gemm.tile"), "-target=sm_90a", "-o",
                    os.path.join(tmp, "gemm.o")])
        b = median([nvcc, "-cubin", "-arch=sm_90a", os.path.join(ROOT, "bench/cuda/gemm_mma.cu"), "-o",
                    os.path.join(tmp, "gemm_mma.cubin")])
    print(f"tilec examples/gemm/gemm.tile -target=sm_90a -o gemm.o: {a:.2f} s (median of 5)")
    print(f"nvcc -cubin -arch=sm_90a bench/cuda/gemm_mma.cu: {b:.2f} s (median of 5)")
    return 0


# ----------------------------------------------------------------------------- device side

class Kit:
    """The kit folder on the GPU machine."""

    def __init__(self, path):
        self.dir = os.path.abspath(path)
        self.manifest = json.load(open(os.path.join(self.dir, "kit.json")))

    def path(self, name):
        return os.path.join(self.dir, name)

    def has(self, name):
        return os.path.exists(self.path(name))

    def fn(self, name, symbol):
        import timing
        return timing.load(self.path(name), symbol)


def suite_module(s):
    import importlib
    return importlib.import_module(f"suites.{MODULE[s]}")


def device_step(args):
    """check / bench of the given suites in this process; results to --json."""
    import torch
    kit = Kit(args.kit)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, kit of tree {kit.manifest['tree']}",
          flush=True)
    results = {}
    for s in args.suites:
        mod = suite_module(s)
        if args.cmd == "check":
            rows = getattr(mod, "check_" + s)(kit, args.small)
            results[s] = {"checks": rows}
        else:
            results[s] = getattr(mod, "bench_" + s)(kit)
        if args.json:  # written after every suite: a later crash keeps what came before
            json.dump(results, open(args.json, "w"), indent=1)
    ok = all(isinstance(r, dict) and r["ok"] for v in results.values() for r in v.get("checks", []))
    return 0 if ok else 1


def child(step, suite, kitdir, small, tool=None, checks=None):
    """One suite's step in its own process (a broken CUDA context stays there), under a timeout."""
    fd, js = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    argv = [sys.executable, os.path.abspath(__file__), step, "--suites", suite, "--kit", kitdir, "--json", js]
    if small:
        argv.append("--small")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if checks is not None:  # the check step's verdicts: bench leaves out what failed
        fd, env["KIT_CHECKS"] = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(checks, f)
    if tool:
        san = os.environ.get("SANITIZER") or cuda_tool("compute-sanitizer")
        argv = [san, "--tool", tool, "--print-limit", "5", *argv]
        env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
    t0 = time.time()
    try:
        limit = LIMIT["sanitize"] if tool else SUITE_LIMIT.get((step, suite), LIMIT[step])
        p = subprocess.run(argv, env=env, timeout=limit, capture_output=bool(tool), text=True)
        rc, text = p.returncode, (p.stdout or "") + (p.stderr or "")
    except subprocess.TimeoutExpired as e:
        rc, text = "timeout", str(e.stdout or "")
    try:
        res = json.load(open(js)).get(suite, {})
    except (OSError, ValueError):
        res = {}
    os.remove(js)
    return rc, res, text, time.time() - t0


def run_all(args):
    """check, sanitize and bench of every suite in the kit, each in its own process; summary last."""
    kit = Kit(args.kit)
    suites = [s for s in args.suites if s in kit.manifest["suites"]]
    summary, ok = [], True
    out = os.environ.get("OUT")
    results = {"kit": kit.manifest, "check": {}, "sanitize": {}, "bench": {}}
    steps = [s for s in ("check", "sanitize", "bench") if s in args.steps]
    if "check" in steps:
        lines, bad = sass_report(kit)
        print("\n".join(lines), flush=True)
        ok &= not bad
        summary.append(f"sass: {len(lines)} cubins, " + (f"MISSING matrix instructions: {' '.join(bad)}" if bad
                                                          else "every one with its matrix instructions"))
    for step in steps:
        for s in suites:
            if step == "sanitize" and s not in SANITIZE:
                continue
            if step == "bench" and not hasattr(suite_module(s), "bench_" + s):
                continue
            tools = ["memcheck", "racecheck"] if step == "sanitize" else [None]
            for tool in tools:
                print(f"\n===== {step} {s}" + (f" ({tool})" if tool else ""), flush=True)
                checks = results["check"].get(s, {}).get("checks", []) if step == "bench" else None
                rc, res, text, secs = child("check" if tool else step, s, kit.dir, args.small or bool(tool), tool,
                                            checks)
                key = f"{s}:{tool}" if tool else s
                if tool:
                    verdict = sanitizer_verdict(text, rc)
                    ok &= verdict.startswith("clean")
                    results["sanitize"][key] = {"rc": rc, "verdict": verdict}
                    summary.append(f"sanitize {s} {tool}: {verdict} ({secs:.0f} s)")
                    if out:
                        with open(os.path.join(out, "sanitizer.txt"), "a") as f:
                            f.write(f"===== {s} {tool} rc {rc}\n{text}\n")
                    continue
                results[step][s] = dict(res, rc=rc)
                if step == "check":
                    rows = [r if isinstance(r, dict) else {"name": str(r), "shape": "", "ok": False}
                            for r in res.get("checks", [])]
                    bad = [r for r in rows if not r["ok"]]
                    ok &= rc == 0 and not bad and bool(rows)
                    summary.append(f"check {s}: {len(rows) - len(bad)} pass, {len(bad)} fail, rc {rc} ({secs:.0f} s)"
                                   + (": " + ", ".join(f"{r['name']} {r['shape']}" for r in bad[:8]) if bad else ""))
                else:
                    ok &= rc == 0
                    summary += [f"bench {s}: {line}" for line in res.get("summary", [])] or [f"bench {s}: rc {rc}"]
            if out:
                json.dump(results, open(os.path.join(out, "kit-results.json"), "w"), indent=1)
    print("\n==================== tables")
    for s, res in results["bench"].items():
        for line in res.get("tables", []):
            print(line)
    print("\n==================== summary")
    print(f"kit of tree {kit.manifest['tree']} built {kit.manifest['built']}")
    for line in summary:
        print(line)
    print("ALL PASS" if ok else "SOME FAILED")
    return 0 if ok else 1


def cuda_tool(name):
    """A CUDA toolkit program: on the PATH, else in /usr/local/cuda/bin."""
    import shutil
    return shutil.which(name) or os.path.join("/usr/local/cuda/bin", name)


def sass_report(kit):
    """Matrix instructions and registers / stack of every cubin in the kit (cuobjdump): the
    sm_90a GEMMs must show warpgroup MMAs (HGMMA, QGMMA for fp8, IGMMA for int8), the mma.sync
    builds HMMA. Returns (lines, failures)."""
    lines, bad = [], []
    cubins = os.path.join(kit.dir, "cubin")
    for f in sorted(os.listdir(cubins)) if os.path.isdir(cubins) else []:
        path = os.path.join(kit.dir, "cubin", f)
        cuobjdump = cuda_tool("cuobjdump")
        sass = subprocess.run([cuobjdump, "--dump-sass", path], capture_output=True, text=True).stdout
        use = subprocess.run([cuobjdump, "--dump-resource-usage", path], capture_output=True, text=True).stdout
        reg = re.search(r"REG:(\d+) STACK:(\d+)", use)
        counts = {i: len(re.findall(rf"\b{i}\b", sass)) for i in ("HGMMA", "QGMMA", "IGMMA")}
        counts["HMMA"] = len(re.findall(r"\bHMMA\.", sass))
        name = f[:-6]
        want = "HMMA" if name in ("gemm_mma", "fa", "mma_peak") else ("HGMMA", "QGMMA", "IGMMA")
        ok = counts[want] > 0 if isinstance(want, str) else any(counts[w] for w in want)
        lines.append(f"sass {name:24s} " + " ".join(f"{i} {n:3d}" for i, n in counts.items()) +
                     (f"  REG {reg.group(1)} STACK {reg.group(2)}" if reg else "") + ("" if ok else "  MISSING " + str(want)))
        if not ok:
            bad.append(name)
    return lines, bad


def sanitizer_verdict(text, rc):
    errors = re.findall(r"ERROR SUMMARY: (\d+) error", text)
    hazards = re.findall(r"RACECHECK SUMMARY: (\d+) hazard", text)
    n = sum(map(int, errors)) + sum(map(int, hazards))
    if rc == "timeout":
        return "TIMEOUT"
    if not errors and not hazards:
        return f"NO SUMMARY (rc {rc})"
    return ("clean" if n == 0 and rc == 0 else f"FOUND {n} errors/hazards (rc {rc})")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cmd", choices=["build", "check", "bench", "sanitize", "all", "list", "compile-time"])
    p.add_argument("--suites", default=None, help="comma-separated suites (default: all, or the kit's)")
    p.add_argument("--kit", default=DEFAULT_KIT)
    p.add_argument("--tilec", default=os.path.join(ROOT, "build", "bin", "tilec"))
    p.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    p.add_argument("--small", action="store_true", help="small shapes only (what sanitize runs)")
    p.add_argument("--steps", default="check,sanitize,bench", help="what `all` runs (default: every step)")
    p.add_argument("--json", default=None)
    p.add_argument("--tilelang", default=None, help="build: a tile-lang checkout for the compat suite "
                   "(default $TILELANG_SRC)")
    p.add_argument("--fuzz-seed", type=int, default=20000, help="build: the fuzz suite's first seed")
    p.add_argument("--fuzz-count", type=int, default=300, help="build: how many fuzzer cases the fuzz suite holds")
    args = p.parse_args()
    if args.cmd == "list":
        for s, what in SUITES.items():
            print(f"{s:10s} {what}")
        return 0
    if args.cmd == "compile-time":
        return compile_time(args)
    if args.suites:
        args.suites = args.suites.split(",")
    elif args.cmd == "build":  # compat only with a tile-lang checkout to build it from
        args.suites = [s for s in SUITES if s != "compat" or args.tilelang or os.environ.get("TILELANG_SRC")]
    else:
        args.suites = Kit(args.kit).manifest["suites"]
    unknown = [s for s in args.suites if s not in SUITES]
    if unknown:
        p.error(f"unknown suites {unknown}; known: {', '.join(SUITES)}")
    if args.cmd == "build":
        return build(args)
    if args.cmd in ("check", "bench") and args.json:
        return device_step(args)
    args.steps = args.steps.split(",") if args.cmd == "all" else (args.cmd,)
    return run_all(args)


if __name__ == "__main__":
    sys.exit(main())
