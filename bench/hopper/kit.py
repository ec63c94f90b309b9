"""Issue #6 (Hopper GEMM speed), one consolidated device run: tilec's sm_90a GEMMs in fp16,
bf16 (examples/gemm/gemm.tile) and fp8 e4m3 -> bf16 (examples/gemm/gemm_fp8.tile, and its
promoted form examples/gemm/gemm_fp8_promoted.tile: family fp8p, configs named prom-*)
against torch.matmul (cuBLAS) and torch._scaled_mm (cuBLASLt) at the 14 shapes of the issue.

Usage (GPU machine, repository root, after bench/hopper/kit_build.sh here):
  python3 bench/hopper/kit.py LIBDIR check [[FAMILY:]CONFIG..]  numerics; appends "family config PASS|FAIL"
                                                       lines to $KIT_PASS (default $OUT/kit-pass.txt)
  python3 bench/hopper/kit.py LIBDIR bench [DTYPE..]   sweep + final tables over the passed configs
                                                       (DTYPE: float16, bfloat16, fp8; default all)
bench/hopper/kit.sh runs both (checks under a timeout, per configuration after a hang).

Split-K (examples/gemm/gemm_splitk.tile, family fp16, configs named sk<split>-*, swept for
M <= 128): every checked or timed call is C.zero_() + the launch (the kernel adds into C);
C is poisoned with 7.0 instead of NaN, ragged N and K are 200 x 512.
Numerics: fresh random inputs (fp8: rounded to e4m3), C poisoned with NaN, float32
reference (TF32 off), err = max |C - ref| / max |ref| and no NaN left; ragged M (77,
200, 1000), ragged N and K (200 x 136, fp8 200 x 400) and M = 200 at every benchmark (N, K).
Thresholds: fp16/bf16 and the promoted fp8 kernel (fp8p): err <= 1e-2. Plain fp8 (gemm_fp8.tile,
whose wgmma loop keeps the whole K sum in the tensor core's fp8 accumulator, ~14 mantissa bits
in its partial sums, like cuBLASLt's fast accumulation): the errors of _scaled_mm (default,
partial sums promoted to f32) and _scaled_mm(use_fast_accum=True) on the same operands against
the same reference are printed beside tilec's, and a config passes when its err <= max(1e-2,
1.25 x the fast-accum error) (the same accuracy class as cuBLASLt's fast accumulation; the line
says "fp8 accuracy class" when only that bound holds).
Timing: CUDA events around back-to-back launches behind a sleep kernel (host launch cost
excluded), ~1 ms samples, candidates sampled in rotated order, median per candidate.
1. sweep: the candidate configurations of each shape (those that won before, see
   CANDIDATES) and the baseline, 5 rotated rounds; the fastest tilec config is "chosen".
2. final: fresh operands; chosen config, the source's default config and the baseline
   (fp8 also the plain-raster build p1, the fastest promoted config (fp8p) of the sweep, and
   _scaled_mm with use_fast_accum=True, shown beside the goal's default _scaled_mm) in 11
   rotated rounds; ratios and geomeans from here. fp8 ratios against both _scaled_mm (goal
   baseline) and _scaled_mm(use_fast_accum=True) (like-for-like for the plain kernel).
Families not in LIBDIR/configs.txt (kit_build.sh ONLY=fp8) are skipped.
"""
import json, os, sys, time
import torch
import gemmlib as G

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
LIBDIR = sys.argv[1]
NK = [(4096, 4096), (8192, 8192), (28672, 8192), (8192, 28672)]
# The 14 shapes: 4096^3, 8192^3, then M in {128, 1024, 4096} x NK (4096^3 comes
# twice, as the square case and as M = 4096 of the LLM set: timed twice, counted twice).
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)] + [(m, n, k) for m in (128, 1024, 4096) for n, k in NK]
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "fp8": torch.float8_e4m3fn}
# split-K: K a multiple of split x block_K (512 for every sk config of kit_build.sh)
RAGGED_NK = {"fp16": (200, 136), "fp8": (200, 400), "splitk": (200, 512)}
PASSFILE = os.environ.get("KIT_PASS") or os.path.join(os.environ.get("OUT", "/tmp"), "kit-pass.txt")


def family(dt):
    return "fp8" if dt == "fp8" else "fp16"


def read_configs():
    cfgs = {"fp16": [], "fp8": [], "fp8p": []}
    for line in open(os.path.join(LIBDIR, "configs.txt")):
        fam, spec = line.split()
        cfgs[fam].append(spec.split(":")[0])
    return cfgs


CONFIGS = read_configs()
DEFAULT = {fam: c[0] for fam, c in CONFIGS.items() if c}  # the source files' own tile constants
PROMOTED = "fp8p"  # family of gemm_fp8_promoted.tile; its configs are named prom-<tiles>


def candidates(dt, m, n, k):
    """Configurations swept per shape: the winners of the earlier sweeps
    (bench/hopper/device-log-3-sweep.txt, device-log-5-fp8.txt) and their runners-up."""
    if dt == PROMOTED:  # every promoted config that was built (few: register-bound)
        return CONFIGS[PROMOTED]
    if dt == "fp8":
        if m <= 128:
            return ["m64n256w1s4", "m64n128w1s6", "m128n256w2s4", "m128n128w2s5"]
        return ["m128n256w2s4", "m128n256w2s4p16", "m128n128w2s5"]
    if m <= 128:  # + the split-K configs (sk*) built into this kit
        return ["m64n128w1s4", "m64n64w1s6", "m128n256w2s4", "m128n128w1s3"] + splitk_configs()
    return ["m128n256w2s4", "m128n128w1s3"] + (["m64n256w1s4"] if k > 8192 else [])


def is_splitk(cfg):
    """examples/gemm/gemm_splitk.tile's configs: they add into C, which must be zeroed first."""
    return cfg.startswith("sk")


def splitk_configs():
    return [c for c in CONFIGS["fp16"] if is_splitk(c)]


def libname(dt, n, k, cfg):
    if is_splitk(cfg):
        return f"splitk_{dt}_{n}_{k}_{cfg}"
    if cfg.startswith("prom-"):
        return f"fp8prom_e4m3_bf16_{n}_{k}_{cfg[5:]}"
    return f"fp8_e4m3_bf16_{n}_{k}_{cfg}" if dt == "fp8" else f"gemm_{dt}_{n}_{k}_{cfg}"


def launcher(dt, n, k, cfg):
    sym = ("gemm_fp8_promoted" if cfg.startswith("prom-") else "gemm_fp8" if dt == "fp8" else
           "gemm_splitk" if is_splitk(cfg) else "gemm")
    return G.load(LIBDIR, libname(dt, n, k, cfg), sym)


def tilec_call(dt, n, k, cfg, a, b, c, m):
    """The function that one timed / checked tilec call runs: the launch, preceded for the
    split-K configs by C.zero_() (they add into C), so that the comparison with
    torch.matmul (which writes C) counts the zeroing."""
    f = launcher(dt, n, k, cfg)
    if is_splitk(cfg):
        def run():
            c.zero_()
            G.call(f, a, b, c, m)
        return run
    return lambda: G.call(f, a, b, c, m)


def operands(dt, m, n, k):
    """A (M x K); B (K x N) for fp16/bf16, (N x K) for fp8; C (M x N) in bf16 for fp8."""
    if dt == "fp8":
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        return a, b, torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    a = torch.randn(m, k, device="cuda").to(DTYPES[dt])
    b = torch.randn(k, n, device="cuda").to(DTYPES[dt])
    return a, b, torch.empty(m, n, device="cuda", dtype=DTYPES[dt])


def baseline(dt, a, b, c, fast_accum=False):
    """The issue's baseline; for fp8 optionally cuBLASLt's fast-accumulation kernel, which
    (like tilec's wgmma loop) never promotes the fp8 partial sums into a separate f32
    accumulator: reported beside the goal's baseline, not instead of it."""
    if dt == "fp8":
        one, bt = torch.ones((), device="cuda"), b.t()
        extra = {"use_fast_accum": True} if fast_accum else {}
        return lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16, **extra)
    return lambda: torch.matmul(a, b, out=c)


_fast_ok = []


def fast_accum_works(a, b, c):
    """Whether this torch takes _scaled_mm(use_fast_accum=True) (probed once)."""
    if not _fast_ok:
        try:
            baseline("fp8", a, b, c, fast_accum=True)()
            torch.cuda.synchronize()
            _fast_ok.append(True)
        except Exception as e:
            print(f"_scaled_mm(use_fast_accum=True) unavailable: {e}", flush=True)
            _fast_ok.append(False)
    return _fast_ok[0]


# ----------------------------------------------------------------------------- numerics

TOL = 1e-2         # fp16/bf16, promoted fp8
FP8_CLASS = 1.25   # plain fp8: at most this times _scaled_mm(use_fast_accum=True)'s error (or TOL)


def fp8_bound(fast_err):
    """The plain fp8 kernel's threshold: max(TOL, FP8_CLASS x fast-accum cuBLASLt error)."""
    return max(TOL, FP8_CLASS * fast_err) if fast_err is not None else TOL


def check_one(dt, cfg, m, n, k, fam):
    a, b, c = operands(dt, m, n, k)
    # Poison C: NaN; split-K configs zero C inside the call and then add into it, so their C
    # is poisoned with 7.0 (a missing C.zero_() or a block added twice shows in the error).
    c.fill_(7.0 if is_splitk(cfg) else float("nan"))
    tilec_call(dt, n, k, cfg, a, b, c, m)()
    torch.cuda.synchronize()
    ref = a.float() @ (b.float().t() if dt == "fp8" else b.float())
    err, nan = G.rel_err(c, ref)
    line = f"check {fam:5s} {cfg:20s} M={m:5d} N={n:5d} K={k:5d} rel.err={err:.2e}{' NaN' if nan else ''}"
    if dt != "fp8":
        ok = err <= TOL and not nan
        print(f"{line} {'ok' if ok else 'FAIL'}", flush=True)
        return ok
    # The same operands through cuBLASLt, both accumulation modes, against the same reference
    # (cuBLASLt takes fp8 only with N and K multiples of 16: the ragged shapes keep the plain
    # bound, their K is small).
    cublas_err = fast_err = None
    if n % 16 == 0 and k % 16 == 0:
        try:
            cublas_err = G.rel_err(baseline(dt, a, b, c)(), ref)[0]
            fast_err = G.rel_err(baseline(dt, a, b, c, fast_accum=True)(), ref)[0] if fast_accum_works(a, b, c) else None
        except RuntimeError as e:  # a shape cuBLASLt refuses: the plain bound
            print(f"  _scaled_mm refused M={m} N={n} K={k}: {e}", flush=True)
    fmt = lambda e: f"{e:.2e}" if e is not None else "n/a"
    line += f"  _scaled_mm {fmt(cublas_err)}  fast-accum {fmt(fast_err)}"
    bound = TOL if fam == PROMOTED else fp8_bound(fast_err)
    ok = err <= bound and not nan
    why = ""
    if ok and err > TOL:
        why = f" (fp8 accuracy class: <= {FP8_CLASS} x fast-accum = {bound:.2e})"
    elif not ok:
        why = f" (bound {bound:.2e}" + (", promoted: plain 1e-2)" if fam == PROMOTED else ")")
    print(f"{line} {'ok' if ok else 'FAIL'}{why}", flush=True)
    return ok


def check(only):
    want = os.environ.get("KIT_DTYPES", "").split()  # kit.sh's dtype selection (empty: all)
    for fam, cfgs in CONFIGS.items():
        if want and not any(family(dt) == ("fp8" if fam.startswith("fp8") else "fp16") for dt in want):
            continue
        for cfg in cfgs:
            if only and cfg not in only and f"{fam}:{cfg}" not in only:
                continue
            rn, rk = RAGGED_NK["fp8" if fam.startswith("fp8") else "splitk" if is_splitk(cfg) else "fp16"]
            ok = True
            for dt in (("fp8",) if fam.startswith("fp8") else ("float16", "bfloat16")):
                try:
                    for m in (77, 1000):
                        ok &= check_one(dt, cfg, m, rn, rk, fam)
                    for n, k in NK:
                        ok &= check_one(dt, cfg, 200, n, k, fam)
                except Exception as e:
                    # A failed launch may leave the CUDA context unusable: record this
                    # config as failed and stop; kit.sh checks the rest in fresh processes.
                    print(f"check {dt} {cfg}: {e}", flush=True)
                    verdict(fam, cfg, False)
                    sys.exit(3)
            verdict(fam, cfg, ok)


def verdict(fam, cfg, ok):
    print(f"numerics {fam} {cfg}: {'PASS' if ok else 'FAIL'}", flush=True)
    with open(PASSFILE, "a") as f:
        f.write(f"{fam} {cfg} {'PASS' if ok else 'FAIL'}\n")


# ----------------------------------------------------------------------------- timing

def measure(fns, m, n, k, rounds):
    per = G.launches_per_sample(fns[-1])
    return [G.tflops(m, n, k, t) for t in G.rotated(fns, rounds, per)]


def bench(passed, dtypes):
    t0 = time.time()
    # Settle the clocks under load before the first figure (a fixed 2 s of bf16 GEMMs).
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    end = time.time() + 2.0
    while time.time() < end:
        for _ in range(10):
            torch.matmul(x, x)
        torch.cuda.synchronize()
    del x
    results = {}
    for dt in dtypes:
        if not CONFIGS[family(dt)]:
            print(f"bench {dt}: not in this kit (configs.txt)", flush=True)
            continue
        rows = []
        for m, n, k in SHAPES:
            try:
                row = bench_shape(dt, m, n, k, passed)
            except Exception as e:  # a failed launch: report it, go on with the next shape
                print(f"bench {dt} {m} {n} {k}: {e}", flush=True)
                row = None
            if row:
                rows.append(row)
        results[dt] = rows
    print(f"\nbench time {time.time() - t0:.1f} s")
    tables(results)
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, f"kit-results-{'-'.join(dtypes)}.json"), "w") as f:
            json.dump(results, f, indent=1)


def bench_shape(dt, m, n, k, passed):
    """Sweep, then final re-timing, of one shape; the row of the final table."""
    fam = family(dt)
    base_name = "_scaled_mm" if dt == "fp8" else "cuBLAS"
    default = DEFAULT[fam]
    # 1. sweep (fp8: the promoted configs too, chosen among themselves)
    cands = [c for c in candidates(dt, m, n, k) if c in passed[fam]]
    pcands = [c for c in candidates(PROMOTED, m, n, k) if c in passed[PROMOTED]] if dt == "fp8" else []
    if not cands and pcands:  # no plain fp8 config passed: the promoted one is the row's tilec figure
        cands, pcands = pcands, []
    if not cands:
        print(f"sweep {dt} {m} {n} {k}: no candidate passed the numerics", flush=True)
        return None
    a, b, c = operands(dt, m, n, k)
    fns = [tilec_call(dt, n, k, cfg, a, b, c, m) for cfg in cands + pcands] + [baseline(dt, a, b, c)]
    got = measure(fns, m, n, k, 5)
    sweep = dict(zip(cands + pcands, got[:-1]))
    chosen = max(cands, key=sweep.get)
    pchosen = max(pcands, key=sweep.get) if pcands else None
    print(f"sweep {dt:8s} {m:5d} {n:5d} {k:5d} {base_name} {got[-1]:7.1f} " +
          " ".join(f"{cfg}={t:7.1f}" for cfg, t in sweep.items()) + f"  -> {chosen}" +
          (f", promoted {pchosen}" if pchosen else ""), flush=True)
    del a, b, c, fns
    # 2. final: fresh operands, chosen + default (+ fp8 plain raster, promoted) + baseline, rotated
    a, b, c = operands(dt, m, n, k)
    names = [chosen] + ([default] if default != chosen and default in passed[fam] else [])
    if dt == "fp8" and m > 128 and "m128n256w2s4p1" in passed[fam]:
        names.append("m128n256w2s4p1")
    if pchosen:
        names.append(pchosen)
    fns = [tilec_call(dt, n, k, cfg, a, b, c, m) for cfg in names]
    fast = dt == "fp8" and fast_accum_works(a, b, c)
    if fast:
        fns.append(baseline(dt, a, b, c, fast_accum=True))
    fns.append(baseline(dt, a, b, c))
    got = measure(fns, m, n, k, 11)
    res = dict(zip(names, got))
    tb = got[-1]
    row = {"dtype": dt, "M": m, "N": n, "K": k, "chosen": chosen, "tilec": res[chosen], "base": tb,
           "default": res.get(default), "raster": res.get("m128n256w2s4p1"), "sweep": sweep,
           "base_fast_accum": got[-2] if fast else None,
           "promoted_cfg": pchosen, "promoted": res.get(pchosen) if pchosen else None}
    print(f"final {dt:8s} {m:5d} {n:5d} {k:5d} {chosen:16s} {res[chosen]:7.1f} {base_name} {tb:7.1f} "
          f"ratio {res[chosen] / tb:.3f}" +
          (f"  default {row['default']:7.1f} ({row['default'] / tb:.3f})" if row["default"] else "") +
          (f"  raster-p1 {row['raster']:7.1f} ({row['raster'] / tb:.3f})" if row["raster"] else "") +
          (f"  fast-accum {row['base_fast_accum']:7.1f}" if row["base_fast_accum"] else "") +
          (f"  promoted {pchosen} {row['promoted']:7.1f} ({row['promoted'] / tb:.3f})" if pchosen else ""),
          flush=True)
    return row


def tables(results):
    for dt, rows in results.items():
        if not rows:
            continue
        fam = family(dt)
        base = "torch._scaled_mm (cuBLASLt)" if dt == "fp8" else "torch.matmul (cuBLAS)"
        d = DEFAULT[fam]
        raster = dt == "fp8"
        print(f"\n### {dt}{' e4m3 -> bf16' if dt == 'fp8' else ''} vs {base}\n")
        prom = raster and any(r.get("promoted") for r in rows)
        print(f"| M | N | K | chosen config | tilec TFLOP/s | baseline TFLOP/s | ratio | default {d} TFLOP/s | default ratio |"
              + (" raster p1 TFLOP/s | raster ratio | fast-accum _scaled_mm TFLOP/s | chosen / fast-accum |" if raster else "")
              + (" promoted config | promoted TFLOP/s | promoted / _scaled_mm | promoted / fast-accum |" if prom else ""))
        print("|---|---|---|---|---|---|---|---|---|" + ("---|---|---|---|" if raster else "") + ("---|---|---|---|" if prom else ""))
        for r in rows:
            dflt = r["default"] if r["default"] is not None else (r["tilec"] if r["chosen"] == d else None)
            cells = [r["M"], r["N"], r["K"], r["chosen"], f"{r['tilec']:.1f}", f"{r['base']:.1f}",
                     f"{r['tilec'] / r['base']:.3f}",
                     f"{dflt:.1f}" if dflt else "n/a", f"{dflt / r['base']:.3f}" if dflt else "n/a"]
            if raster:
                cells += [f"{r['raster']:.1f}", f"{r['raster'] / r['base']:.3f}"] if r["raster"] else ["", ""]
                cells += ([f"{r['base_fast_accum']:.1f}", f"{r['tilec'] / r['base_fast_accum']:.3f}"]
                          if r["base_fast_accum"] else ["n/a", "n/a"])
            if prom:
                p, fa = r.get("promoted"), r["base_fast_accum"]
                cells += ([r["promoted_cfg"], f"{p:.1f}", f"{p / r['base']:.3f}", f"{p / fa:.3f}" if fa else "n/a"]
                          if p else ["", "", "", ""])
            print("| " + " | ".join(map(str, cells)) + " |")
        gc = G.geomean(r["tilec"] / r["base"] for r in rows)
        dv = [(r["default"] if r["default"] is not None else r["tilec"]) / r["base"]
              for r in rows if r["default"] is not None or r["chosen"] == d]
        goal = 0.9 if dt == "fp8" else 0.95
        print(f"\ngeomean {dt} over {len(rows)} shapes: chosen configs {gc:.3f} "
              f"({'meets' if gc >= goal and len(rows) == len(SHAPES) else 'MISSES'} the {goal}x goal), "
              f"default {d} alone {G.geomean(dv):.3f} over {len(dv)} shapes")
        if raster:
            ff = [r for r in rows if r["base_fast_accum"]]
            print(f"  fp8 chosen vs _scaled_mm(use_fast_accum=True): "
                  f"{G.geomean(r['tilec'] / r['base_fast_accum'] for r in ff):.3f} over {len(ff)} shapes")
            pp = [r for r in rows if r.get("promoted")]
            if pp:
                print(f"  fp8 promoted (gemm_fp8_promoted.tile) vs _scaled_mm: "
                      f"{G.geomean(r['promoted'] / r['base'] for r in pp):.3f}, vs fast-accum: " +
                      (f"{G.geomean(r['promoted'] / r['base_fast_accum'] for r in pp if r['base_fast_accum']):.3f}"
                       if any(r["base_fast_accum"] for r in pp) else "n/a") + f" over {len(pp)} shapes; "
                      f"faster of plain and promoted per shape vs _scaled_mm: "
                      f"{G.geomean(max(r['tilec'], r['promoted'] or 0) / r['base'] for r in rows):.3f} over {len(rows)} shapes")
            rr = [r for r in rows if r["raster"]]
            if rr:
                print(f"  fp8 M >= 1024: chosen {G.geomean(r['tilec'] / r['base'] for r in rr):.3f} vs plain raster "
                      f"order (p1) {G.geomean(r['raster'] / r['base'] for r in rr):.3f} over {len(rr)} shapes")
        used = {}
        for r in rows:
            used.setdefault(r["chosen"], []).append(f"{r['M']}x{r['N']}x{r['K']}")
        for cfg, shapes in used.items():
            print(f"  {cfg}: {', '.join(shapes)}")


def read_passed():
    passed = {"fp16": set(), "fp8": set(), PROMOTED: set()}
    if os.path.exists(PASSFILE):
        for line in open(PASSFILE):
            fam, cfg, verdict = line.split()
            if verdict == "PASS":
                passed[fam].add(cfg)
    return passed


if __name__ == "__main__":
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    if sys.argv[2] == "check":
        check(set(sys.argv[3:]))
    else:
        p = read_passed()
        print("configs that passed the numerics:", {f: sorted(c) for f, c in p.items()}, flush=True)
        bench(p, sys.argv[3:] or list(DTYPES))
