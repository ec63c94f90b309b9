"""Suites `gemm`, `layouts`, `fp8`, `splitk` and `int8`: the sm_90a wgmma GEMMs of examples/gemm
(`layouts`: gemm_layouts.tile in NN, NT, TN, TT against torch.matmul on the matching views).

Numerics: fresh random inputs (fp8: rounded to e4m3; int8: the full range), C poisoned (NaN;
split-K configs, which add into C after the C.zero_() that every call includes, with 7.0;
int8 with a sentinel), float32 references with TF32 off (int8: exact, int64 on the CPU),
error max |C - ref| / max |ref|; every configuration at ragged M (77, 1000) with ragged N and K
tiles, and at M = 200 at every benchmark (N, K).
Bounds: fp16/bf16 and promoted fp8 1e-2; split-K 2e-2 (C, in fp16/bf16, takes one rounding per
K slice: 8 slices in bf16 reach ~1e-2). Plain fp8 keeps the whole K sum in the tensor core's
fp8 accumulator (~14 mantissa bits in its partial sums, like cuBLASLt's fast accumulation): it
passes at max(1e-2, 1.25 x the error of _scaled_mm(use_fast_accum=True) on the same operands).
fp8 split-K: 2e-2.
Timing (timing.py, rotated rounds, back-to-back launches): per shape, a sweep of the candidate
configurations that passed and the baseline (5 rounds) picks the fastest ("chosen"); then
fresh operands and the chosen config, the source's default config and the baseline (fp8: also
the plain raster order p1, the best promoted config and _scaled_mm(use_fast_accum=True)) in
11 rounds. Ratios and geomeans come from that second measurement.
"""
import os
import json

import torch

import kit as K
import timing as T
from suites import row, table

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)] + [(m, n, k) for m in (128, 1024, 4096) for n, k in K.NK]
TOL, FP8_CLASS = 1e-2, 1.25
SPLITK_TOL = 2e-2  # split-K adds each K slice into the fp16/bf16 C: one rounding per slice


def failed_configs():
    """Configurations whose numerics failed in this run's check step (kit.py passes the file)."""
    path = os.environ.get("KIT_CHECKS")
    if not path or not os.path.exists(path):
        return set()
    return {r["name"] for r in json.load(open(path)) if not r["ok"]}


def symbol(cfg, dt):
    if dt == "int8":
        return "gemm_int8"
    if dt == "fp8":
        return "gemm_fp8_promoted" if cfg.startswith("prom-") else "gemm_fp8_splitk" if cfg.startswith("sk") else "gemm_fp8"
    return "gemm_splitk" if cfg.startswith("sk") else "gemm"


def tilec_call(kit, dt, n, k, cfg, a, b, c, m):
    """What one checked or timed tilec call runs: split-K configs zero C first (they add into
    it), so the comparison with the baseline, which writes C, counts the zeroing."""
    f = kit.fn(K.gemm_name(dt, n, k, cfg), symbol(cfg, dt))
    args = (T.ptr(a), T.ptr(b), T.ptr(c), T.dim(m))

    def go():
        return T.check_rc(f(*args, T.stream()))
    if cfg.startswith("sk"):
        def zero_and_go():
            c.zero_()
            return go()
        return zero_and_go
    return go


def operands(dt, m, n, k):
    """A (M x K); B (K x N) for fp16/bf16, (N x K) for fp8 and int8; C."""
    if dt == "fp8":
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        return a, b, torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    if dt == "int8":
        a = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
        b = torch.randint(-128, 128, (n, k), device="cuda", dtype=torch.int8)
        return a, b, torch.empty(m, n, device="cuda", dtype=torch.int32)
    d = torch.float16 if dt == "float16" else torch.bfloat16
    a = torch.randn(m, k, device="cuda").to(d)
    b = torch.randn(k, n, device="cuda").to(d)
    return a, b, torch.empty(m, n, device="cuda", dtype=d)


def scaled_mm(a, b, fast=False):
    """torch._scaled_mm e4m3 -> bf16 with unit scales (B given N x K)."""
    one = torch.ones((), device="cuda")
    extra = {"use_fast_accum": True} if fast else {}
    r = torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, **extra)
    return r[0] if isinstance(r, tuple) else r


def baseline(dt, a, b, c, fast=False):
    if dt == "fp8":
        return lambda: scaled_mm(a, b, fast)
    if dt == "int8":
        bt = b.t()
        return lambda: torch._int_mm(a, bt)
    return lambda: torch.matmul(a, b, out=c)


# ----------------------------------------------------------------------------- numerics

def check_one(kit, dt, cfg, m, n, k, rows, fam, bound=None):
    a, b, c = operands(dt, m, n, k)
    c.fill_(7.0 if cfg.startswith("sk") else float("nan"))
    tilec_call(kit, dt, n, k, cfg, a, b, c, m)()
    torch.cuda.synchronize()
    ref = a.float() @ (b.float().t() if dt == "fp8" else b.float())
    err = T.rel_max(c, ref)
    if dt == "fp8" and bound is None and not cfg.startswith("prom-"):
        bound = TOL
        if n % 16 == 0 and k % 16 == 0:  # cuBLASLt takes fp8 only with N, K multiples of 16
            try:
                bound = max(TOL, FP8_CLASS * T.rel_max(scaled_mm(a, b, fast=True), ref))
            except RuntimeError as e:
                print(f"  _scaled_mm(use_fast_accum=True) refused M={m} N={n} K={k}: {e}", flush=True)
    if bound is None and cfg.startswith("sk") and dt != "fp8":
        bound = SPLITK_TOL
    return row(f"{fam} {cfg}", f"{dt} {m}x{n}x{k}", err, err <= (bound or TOL), rows)


def check_family(kit, fam, dts, configs, ragged, small, rows, shapes=K.NK, ms=(77, 1000), bound=None):
    for cfg in configs:
        for dt in dts:
            rn, rk = ragged(cfg)
            try:
                for m in ms[:1] if small else ms:
                    check_one(kit, dt, cfg, m, rn, rk, rows, fam, bound)
                if not small:
                    for n, k in shapes:
                        check_one(kit, dt, cfg, 200, n, k, rows, fam, bound)
            except Exception as e:  # a failed launch: this config fails, the next one runs
                torch.cuda.synchronize()
                row(f"{fam} {cfg}", f"{dt}", f"ERROR {e}"[:40], False, rows)
    return rows


def check_gemm(kit, small):
    torch.manual_seed(0)
    ragged = lambda cfg: K.RAGGED["splitk16" if cfg.startswith("sk") else "gemm"]
    return check_family(kit, "gemm", ("float16", "bfloat16"), list(K.GEMM16) + list(K.SPLITK16), ragged, small, [])


def check_fp8(kit, small):
    torch.manual_seed(0)
    return check_family(kit, "fp8", ("fp8",), list(K.FP8) + list(K.FP8P), lambda cfg: K.RAGGED["fp8"], small, [])


def check_splitk(kit, small):
    torch.manual_seed(0)
    ragged = lambda cfg: K.RAGGED["splitk8" if cfg.startswith("sk") else "fp8"]
    plain = ["m128n256w2s4", "m64n128w1s6", "m64n256w1s4"]
    return check_family(kit, "splitk", ("fp8",), plain + list(K.SPLITK8), ragged, small, [], K.NK_SPLITK8,
                        (100, 128), bound=2e-2)


def check_int8(kit, small):
    torch.manual_seed(0)
    rows = []
    cases = [("m128n256w2s4", m, *K.RAGGED["int8"]) for m in (77, 1000)] + \
            [("m64n128w1s6", m, *K.RAGGED["int8"]) for m in (77, 1000)] + \
            ([] if small else [("m128n256w2s4", 1000, n, k) for n, k in ((4096, 4096), (8192, 8192))])
    for cfg, m, n, k in cases:
        a, b, c = operands("int8", m, n, k)
        c.fill_(-0x5A5A5A5A)
        tilec_call(kit, "int8", n, k, cfg, a, b, c, m)()
        torch.cuda.synchronize()
        if m * n * k < 2e9:  # int64 on the CPU: exact by construction
            ref = (a.cpu().long() @ b.cpu().long().t()).to(torch.int32).cuda()
        else:  # too slow there: cuBLAS's int8 GEMM (exact as well)
            ref = torch._int_mm(a, b.t())
        bad = (c != ref).sum().item()
        row(f"int8 {cfg}", f"{m}x{n}x{k}", f"{bad} wrong", bad == 0, rows)
    return rows


# ----------------------------------------------------------------------------- timing

def candidates(dt, m, n, k):
    """Configurations swept per shape: the winners of earlier sweeps and their runners-up."""
    if dt == "fp8p":
        return list(K.FP8P)
    if dt == "fp8":
        if m <= 128:
            return ["m64n256w1s4", "m64n128w1s6", "m128n256w2s4", "m128n128w2s5"]
        return ["m128n256w2s4", "m128n256w2s4p16", "m128n128w2s5"]
    if m <= 128:
        names = ["m64n128w1s4", "m64n64w1s6", "m128n256w2s4", "m128n128w1s3", "m64n128w1s4ws",
                 "m128n128w1s3ws", "m64n64w1s8", "m64n128w1s6", "m64n64w1s6ws", "m128n128w1s4pp"] + list(K.SPLITK16)
    else:
        names = ["m128n256w2s4", "m128n128w1s3", "m128n256w2s4ws", "m128n128w1s3ws", "m128n128w1s3tma",
                 "m128n256w2s4wstma", "m128n256w2s4wsp", "m128n128w1s3wsp", "m128n128w1s4pp", "m128n128w1s5pp",
                 "m64n256w1s4pp", "m128n256w2s4wspr"] + (["m64n256w1s4"] if k > 8192 else [])
    # A kit built with KIT_CONFIGS holds only some of them.
    return [c for c in names if c in K.GEMM16 or c in K.SPLITK16]


def rates(fns, m, n, k, rounds):
    cs = [T.Contender(str(i), f, 2.0 * m * n * k) for i, f in enumerate(fns)]
    T.measure(cs, rounds=rounds)
    return [c.rate() / 1e12 for c in cs]


def bench_shape(kit, dt, m, n, k, bad):
    fam = "fp8" if dt == "fp8" else "gemm"
    default = "m128n256w2s4" if dt == "fp8" else "m128n128w1s3"
    ok = lambda cfg: f"{fam} {cfg}" not in bad
    cands = [c for c in candidates(dt, m, n, k) if ok(c)]
    pcands = [c for c in candidates("fp8p", m, n, k) if ok(c)] if dt == "fp8" else []
    if not cands:
        print(f"sweep {dt} {m}x{n}x{k}: no candidate passed the numerics", flush=True)
        return None
    a, b, c = operands(dt, m, n, k)
    got = rates([tilec_call(kit, dt, n, k, cfg, a, b, c, m) for cfg in cands + pcands] + [baseline(dt, a, b, c)],
                m, n, k, 5)
    sweep = dict(zip(cands + pcands, got[:-1]))
    chosen = max(cands, key=sweep.get)
    pchosen = max(pcands, key=sweep.get) if pcands else None
    print(f"sweep {dt:8s} {m:5d} {n:5d} {k:5d} baseline {got[-1]:7.1f} " +
          " ".join(f"{cfg}={t:.1f}" for cfg, t in sweep.items()) + f" -> {chosen}", flush=True)
    del a, b, c
    a, b, c = operands(dt, m, n, k)
    names = [chosen] + ([default] if default != chosen and ok(default) else [])
    if dt == "fp8" and m > 128 and ok("m128n256w2s4p1"):
        names.append("m128n256w2s4p1")
    if pchosen:
        names.append(pchosen)
    fns = [tilec_call(kit, dt, n, k, cfg, a, b, c, m) for cfg in names]
    if dt == "fp8":
        fns.append(baseline(dt, a, b, c, fast=True))
    got = rates(fns + [baseline(dt, a, b, c)], m, n, k, 11)
    res, base = dict(zip(names, got)), got[-1]
    r = {"dt": dt, "M": m, "N": n, "K": k, "chosen": chosen, "tilec": res[chosen], "base": base,
         "default": res.get(default), "raster": res.get("m128n256w2s4p1"), "fast": got[-2] if dt == "fp8" else None,
         "promoted_cfg": pchosen, "promoted": res.get(pchosen)}
    print(f"final {dt:8s} {m:5d} {n:5d} {k:5d} {chosen:18s} {r['tilec']:7.1f} baseline {base:7.1f} "
          f"ratio {r['tilec'] / base:.3f}", flush=True)
    return r


def bench_dtypes(kit, dts):
    T.warm_clocks()
    bad = failed_configs()
    tables, summary, figures = [], [], {}
    for dt in dts:
        rows = []
        for m, n, k in SHAPES[:3] if os.environ.get("KIT_QUICK") else SHAPES:
            try:
                r = bench_shape(kit, dt, m, n, k, bad)
            except Exception as e:  # a failed launch: reported, then the next shape
                print(f"bench {dt} {m}x{n}x{k}: {e}", flush=True)
                r = None
            if r:
                rows.append(r)
        if not rows:
            continue
        fp8 = dt == "fp8"
        base = "torch._scaled_mm" if fp8 else "cuBLAS"
        cells = []
        default = "m128n256w2s4" if fp8 else "m128n128w1s3"
        for r in rows:
            d = r["default"] if r["default"] is not None else r["tilec"] if r["chosen"] == default else None
            c = [r["M"], r["N"], r["K"], r["chosen"], f"{r['tilec']:.0f}", f"{r['base']:.0f}",
                 f"{r['tilec'] / r['base']:.3f}", f"{d / r['base']:.3f}" if d else "n/a"]
            if fp8:
                c += [f"{r['tilec'] / r['fast']:.3f}" if r["fast"] else "n/a",
                      f"{r['raster'] / r['base']:.3f}" if r["raster"] else "",
                      f"{r['promoted'] / r['base']:.3f} ({r['promoted_cfg']})" if r["promoted"] else ""]
            cells.append(c)
        head = ["M", "N", "K", "chosen config", "tilec TFLOP/s", f"{base} TFLOP/s", "ratio", "default config ratio"]
        if fp8:
            head += ["vs fast-accum _scaled_mm", "plain raster (p1) ratio", "promoted ratio"]
        tables += ["", f"### {dt} vs {base}"] + table(head, cells)
        gc = T.geomean(r["tilec"] / r["base"] for r in rows)
        gd = T.geomean((r["default"] or r["tilec"]) / r["base"] for r in rows
                       if r["default"] is not None or r["chosen"] == default)
        figures[dt] = {"geomean": gc, "default": gd, "shapes": len(rows)}
        line = f"{dt}: geomean over {len(rows)} shapes {gc:.3f} of {base} (default config alone {gd:.3f})"
        if fp8:
            gp = T.geomean(r["promoted"] / r["base"] for r in rows if r["promoted"])
            gf = T.geomean(r["tilec"] / r["fast"] for r in rows if r["fast"])
            line += f"; vs fast-accum _scaled_mm {gf:.3f}; promoted kernel {gp:.3f}"
            figures[dt].update(promoted=gp, fast=gf)
        summary.append(line)
    return {"tables": tables, "summary": summary, "figures": figures}


def bench_gemm(kit):
    return bench_dtypes(kit, ["float16", "bfloat16"])


def bench_fp8(kit):
    return bench_dtypes(kit, ["fp8"])


def bench_splitk(kit):
    """fp8 split-K at M = 128 against the plain kernel and _scaled_mm. Split-K is timed as
    C.zero_() + launch; back-to-back launches of _scaled_mm are host-bound at these sizes, so
    the CUDA-graph replay column is the device-time comparison."""
    T.warm_clocks()
    bad = failed_configs()
    m, tables, summary, figures = 128, [], [], {}  # figures: speed vs _scaled_mm by N x K
    plain = ["m128n256w2s4", "m64n128w1s6", "m64n256w1s4"]
    for n, k in K.NK_SPLITK8:
        a, b, c = operands("fp8", m, n, k)
        cs = [T.Contender(("plain " if not cfg.startswith("sk") else "split-K ") + cfg,
                          tilec_call(kit, "fp8", n, k, cfg, a, b, c, m), 2.0 * m * n * k)
              for cfg in plain + list(K.SPLITK8) if f"splitk {cfg}" not in bad]
        ref = T.Contender("_scaled_mm", baseline("fp8", a, b, c), 2.0 * m * n * k)
        T.measure(cs + [ref], graphs=True, log=lambda s: None)
        sp = lambda x, meth: ref.seconds(meth) / x.seconds(meth) if x.seconds(meth) and ref.seconds(meth) else None
        f2 = lambda v: f"{v:.2f}" if v else "n/a"
        tables += ["", f"### fp8 e4m3 split-K, M = {m}, N = {n}, K = {k} (speed = _scaled_mm time / time)"]
        tables += table(["contender", "us (graph)", "speed (graph)", "us (b2b)", "speed (b2b)"],
                        [(x.name, f"{(x.seconds('graph') or 0) * 1e6:.1f}", f2(sp(x, "graph")),
                          f"{x.seconds() * 1e6:.1f}", f2(sp(x, "b2b"))) for x in cs + [ref]])
        best = lambda pre: max((x for x in cs if x.name.startswith(pre)), key=lambda x: sp(x, "graph") or 0,
                               default=None)
        bp, bs = best("plain"), best("split-K")
        figures[f"{n}x{k}"] = {"plain": sp(bp, "graph") if bp else None, "splitk": sp(bs, "graph") if bs else None}
        summary.append(f"M=128 N={n} K={k}: best plain {bp.name.split()[1] if bp else '-'} "
                       f"{f2(sp(bp, 'graph') if bp else None)}, best split-K {bs.name.split()[1] if bs else '-'} "
                       f"{f2(sp(bs, 'graph') if bs else None)} of _scaled_mm (graph replay)")
    return {"tables": tables, "summary": summary, "figures": figures}


def bench_int8(kit):
    T.warm_clocks()
    rows = []
    for m, n, k in [(m, n, k) for m in (1024, 4096) for n, k in ((4096, 4096), (8192, 8192))]:
        a, b, c = operands("int8", m, n, k)
        t, base = rates([tilec_call(kit, "int8", n, k, "m128n256w2s4", a, b, c, m), baseline("int8", a, b, c)],
                        m, n, k, 11)
        rows.append((m, n, k, f"{t:.0f}", f"{base:.0f}", f"{t / base:.3f}"))
        print(f"bench int8 {m}x{n}x{k}: {t:.0f} vs {base:.0f} TOP/s", flush=True)
    g = T.geomean(float(r[5]) for r in rows)
    return {"tables": ["", "### int8 vs torch._int_mm"] +
            table(["M", "N", "K", "tilec TOP/s", "torch._int_mm TOP/s", "ratio"], rows),
            "summary": [f"int8: geomean over {len(rows)} shapes {g:.3f} of torch._int_mm"],
            "figures": {"int8": g}}


# ----------------------------------------------------------------------------- operand layouts

def layout_operands(layout, dt, m, n, k):
    """A and B stored as gemm_layouts.tile takes them (A K x M for TN/TT, B N x K for NT/TT), the
    (M x K, K x N) views of them that cuBLAS and the reference multiply, and C."""
    ta, tb = K.LAYOUTS[layout]
    d = torch.float16 if dt == "float16" else torch.bfloat16
    a = torch.randn(*((k, m) if ta else (m, k)), device="cuda").to(d)
    b = torch.randn(*((n, k) if tb else (k, n)), device="cuda").to(d)
    return a, b, (a.t() if ta else a), (b.t() if tb else b), torch.empty(m, n, device="cuda", dtype=d)


def layout_call(kit, layout, dt, m, n, k, cfg, a, b, c):
    f = kit.fn(K.layout_name(layout, dt, m, n, k, cfg), "gemm")
    args = (T.ptr(a), T.ptr(b), T.ptr(c))
    return lambda: T.check_rc(f(*args, T.stream()))


def check_layouts(kit, small):
    """Every layout x configuration x dtype: the ragged build (M, N, K = 1000, 200, 136) and,
    unless small, 4096^3 and 8192^3; C poisoned with NaN, float32 reference (TF32 off)."""
    torch.manual_seed(0)
    rows = []
    sizes = [K.LAYOUT_RAGGED] + ([] if small else K.LAYOUT_SIZES)
    for layout in K.LAYOUTS:
        for cfg in K.LAYOUT16:
            for dt in ("float16", "bfloat16"):
                for m, n, k in sizes:
                    try:
                        a, b, av, bv, c = layout_operands(layout, dt, m, n, k)
                        c.fill_(float("nan"))
                        layout_call(kit, layout, dt, m, n, k, cfg, a, b, c)()
                        torch.cuda.synchronize()
                        err = T.rel_max(c, av.float() @ bv.float())
                        row(f"layouts {layout} {cfg}", f"{dt} {m}x{n}x{k}", err, err <= TOL, rows)
                    except Exception as e:  # a failed launch: this case fails, the next one runs
                        torch.cuda.synchronize()
                        row(f"layouts {layout} {cfg}", f"{dt} {m}x{n}x{k}", f"ERROR {e}"[:40], False, rows)
    return rows


def bench_layouts(kit):
    """Per dtype, layout and size: every configuration that passed and cuBLAS (torch.matmul on
    the same transposed views, so that it takes its own transposed kernels) in the same 11
    rounds; the fastest configuration and the file's default (m128n128w1s3) against cuBLAS."""
    T.warm_clocks()
    bad = failed_configs()
    cells, summary, figures = [], [], {}
    for dt in ("float16", "bfloat16"):
        ratios, defaults = [], []
        for layout in K.LAYOUTS:
            for m, n, k in K.LAYOUT_SIZES:
                cfgs = [cfg for cfg in K.LAYOUT16 if f"layouts {layout} {cfg}" not in bad]
                if not cfgs:
                    print(f"bench layouts {dt} {layout} {m}^3: no configuration passed the numerics", flush=True)
                    continue
                try:
                    a, b, av, bv, c = layout_operands(layout, dt, m, n, k)
                    fns = [layout_call(kit, layout, dt, m, n, k, cfg, a, b, c) for cfg in cfgs]
                    got = rates(fns + [lambda: torch.matmul(av, bv, out=c)], m, n, k, 11)
                except Exception as e:  # a failed launch: reported, then the next shape
                    print(f"bench layouts {dt} {layout} {m}^3: {e}", flush=True)
                    continue
                res, base = dict(zip(cfgs, got[:-1])), got[-1]
                best = max(cfgs, key=res.get)
                d = res.get("m128n128w1s3")
                ratios.append(res[best] / base)
                if d:
                    defaults.append(d / base)
                cells.append([dt, layout, f"{m}x{n}x{k}", best, f"{res[best]:.0f}", f"{base:.0f}",
                              f"{res[best] / base:.3f}", f"{d / base:.3f}" if d else "n/a"] +
                             [f"{res[c]:.0f}" if c in res else "-" for c in K.LAYOUT16])
                print(f"final layouts {dt:8s} {layout} {m:5d} {best:14s} {res[best]:7.1f} cuBLAS {base:7.1f} "
                      f"ratio {res[best] / base:.3f}", flush=True)
                del a, b, av, bv, c
        if ratios:
            g, gd = T.geomean(ratios), T.geomean(defaults) if defaults else None
            figures[dt] = {"geomean": g, "default": gd, "min": min(ratios), "shapes": len(ratios)}
            summary.append(f"layouts {dt}: geomean over {len(ratios)} layout x size {g:.3f} of cuBLAS, lowest "
                           f"{min(ratios):.3f}" + (f" (default config alone {gd:.3f})" if gd else ""))
    head = ["dtype", "layout", "M x N x K", "fastest config", "tilec TFLOP/s", "cuBLAS TFLOP/s", "ratio",
            "default config ratio"] + [f"{c} TFLOP/s" for c in K.LAYOUT16]
    return {"tables": ["", "### fp16/bf16 operand layouts vs cuBLAS"] + table(head, cells), "summary": summary,
            "figures": figures}
