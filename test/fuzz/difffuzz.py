#!/usr/bin/env python3
"""Differential fuzzer: random .tile kernels against their NumPy models, on host and Vulkan.

  difffuzz.py --tilec build/bin/tilec [--seed S] [--count N | --minutes T] [--targets host,vulkan]
              [--vk-run build/bin/tilec-vk-run] [--out DIR] [--keep] [--family NAME] [--fail-fast]

Case i of a run is seed S+i; the generator (kernels.py, families.py, expr.py) is
deterministic, so `--seed S+i --count 1` replays it. Every case is compiled for
each target (host: -shared .so called through ctypes with the header read by
test/compat/cabi.py; vulkan: --vk-preset=lavapipe SPIR-V run by tilec-vk-run
with the validation layer), run on the case's inputs and compared with the
model. A failure -- MISMATCH, CRASH (a signal in tilec or in the kernel), HANG
(over the time limit), COMPILE (a host rejection of a valid kernel; on Vulkan a
rejection is counted as `unsupported` unless it is an internal error), MEMORY
(tilec over the memory limit) -- is saved under --out as a standalone .tile with
its RUN line, the inputs and the expected outputs. Exit status 1 when any case
failed (the ctest smoke run relies on it).
"""
import argparse
import json
import os
import pickle
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:  # the system interpreter has python3-numpy (scripts/setup.sh), as test/compat/run.py
    if os.path.exists("/usr/bin/python3") and not os.environ.get("TILEC_FUZZ_REEXEC"):
        os.environ["TILEC_FUZZ_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("difffuzz.py: needs NumPy (apt-get install python3-numpy)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "compat"))
import cabi  # noqa: E402  (test/compat: header parsing, encodings, ctypes calls)
import numerics  # noqa: E402
from families import generate  # noqa: E402

COMPILE_TIMEOUT, RUN_TIMEOUT, MEM_LIMIT = 60, 60, 4 << 30
INTERNAL = ("internal error", "LLVM Translation failed", "unrealized_conversion_cast", "failed to legalize", "LLVM ERROR", "Assertion", "UNREACHABLE", "Stack dump", "PLEASE submit",
            "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def limit_memory():
    if MEM_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))
    os.nice(5)


def run(cmd, timeout, env=None, cwd=None):
    """(status, rc, output): status is ok, fail (rc != 0), signal, hang."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, preexec_fn=limit_memory, env=env,
                           cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return "hang", None, (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else ""
    out = p.stdout + p.stderr
    if p.returncode < 0:
        return "signal", p.returncode, out
    return ("ok" if p.returncode == 0 else "fail"), p.returncode, out


def raw_tensors(case):
    """The stored bits of every tensor: encoded inputs, poisoned (NaN / 0x5A) or zeroed outputs."""
    raw = {}
    for t in case.tensors:
        n = int(np.prod(t.shape))
        if t.written:
            raw[t.name] = np.zeros(n, cabi.STORAGE[t.dtype]) if t.init == "zero" else numerics.poison(t.dtype, n)
        else:
            raw[t.name] = cabi.encode(t.value, t.dtype)
    return raw


def compare(case, got):
    """(ok, detail) of the outputs `got` (decoded float64 / int64) against the model."""
    details = []
    for name, ref in case.expected.items():
        g = got.get(name)
        ref = np.asarray(ref, np.float64).ravel()
        if g is None or g.size < ref.size:
            return False, f"{name}: not read back"
        g = np.asarray(g, np.float64).ravel()[:ref.size]
        atol = np.broadcast_to(np.asarray(case.atol[name], np.float64), np.shape(case.expected[name])).ravel()
        bad = ~np.isfinite(g) | (np.abs(g - ref) > atol)
        if bad.any():
            i = int(np.argmax(bad))
            idx = np.unravel_index(i, np.shape(case.expected[name]))
            return False, (f"{name}: {int(bad.sum())}/{ref.size} elements differ; first at {tuple(map(int, idx))}: "
                           f"got {g[i]:.7g}, model {ref[i]:.7g} (tolerance {atol[i]:.3g})")
        details.append(f"{name} ok")
    return True, "; ".join(details)


def decode_outputs(case, raw):
    out = {}
    for t in case.tensors:
        if t.written and t.name in raw:
            out[t.name] = cabi.decode(raw[t.name], t.dtype, int(np.prod(t.shape)))
    return out


def child_host(work):
    """In a child process: call the host launcher of work/host.so on work/raw.npz, save work/out.npz."""
    import ctypes
    meta = json.load(open(os.path.join(work, "case.json")))
    kernels = cabi.parse_header(open(os.path.join(work, "host.h")).read())
    k = next(k for k in kernels if k.name == "fz")
    lib = ctypes.CDLL(os.path.join(work, "host.so"))
    raw = dict(np.load(os.path.join(work, "raw.npz")))
    values = dict(raw)
    values.update(meta["dims"])
    values.update(meta["scalars"])
    status = cabi.call(lib, k, values)
    np.savez(os.path.join(work, "out.npz"), **raw)
    print(json.dumps({"status": status}))


def host_target(case, work, args):
    flags = [f"-D{d}" for d in case.defines]
    st, rc, out = run([args.tilec, "k.tile", "-shared", "-o", "host.so"] + flags, COMPILE_TIMEOUT, cwd=work)
    if st != "ok":
        return compile_failure(st, rc, out, internal_only=False)
    st, rc, out = run([sys.executable, os.path.abspath(__file__), "--child-host", work], RUN_TIMEOUT)
    if st == "hang":
        return "HANG", f"host run over {RUN_TIMEOUT} s"
    if st != "ok":
        return "CRASH", f"host run: {'signal %d' % -rc if st == 'signal' else 'exit %s' % rc}: {out[-600:]}"
    res = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    if res["status"] != 0:
        return "ERROR", f"launcher returned {res['status']}"
    raw = dict(np.load(os.path.join(work, "out.npz")))
    ok, detail = compare(case, decode_outputs(case, raw))
    return ("ok" if ok else "MISMATCH"), detail


def compile_failure(st, rc, out, internal_only):
    if st == "signal":
        return "CRASH", f"tilec died with signal {-rc}: {out[-800:]}"
    if st == "hang":
        return "HANG", f"tilec over {COMPILE_TIMEOUT} s"
    if "std::bad_alloc" in out or "out of memory" in out.lower():
        return "MEMORY", out[-800:]
    if internal_only and not any(s in out for s in INTERNAL):
        errs = [l for l in out.splitlines() if ": error: " in l] or out.strip().splitlines() or ["rejected"]
        first = errs[0]
        return "unsupported", re.sub(r"^\S*:\d+:\d+: ", "", first)[:300]
    return "COMPILE", out[-1500:]


def vulkan_target(case, work, args):
    flags = [f"-D{d}" for d in case.defines]
    st, rc, out = run([args.tilec, "k.tile", "-target=vulkan", "--vk-preset=lavapipe", "-o", "vk.spv"] + flags,
                      COMPILE_TIMEOUT, cwd=work)
    if st != "ok":
        return compile_failure(st, rc, out, internal_only=True)
    raw = raw_tensors(case)
    cmd = [args.vk_run, "vk.h", "--spv", "vk.spv", "--kernel", "fz"]
    for k, v in list(case.dims.items()) + list(case.scalars.items()):
        cmd += ["--set", f"{k}={v}"]
    for t in case.tensors:
        raw[t.name].tofile(os.path.join(work, f"in_{t.name}.bin"))
        cmd += ["--input", f"{t.name}=in_{t.name}.bin"]
        if t.written:
            cmd += ["--output", f"{t.name}=out_{t.name}.bin"]
    env = dict(os.environ, XDG_RUNTIME_DIR=args.xdg)
    st, rc, out = run(cmd, RUN_TIMEOUT, env=env, cwd=work)
    if st == "hang":
        return "HANG", f"vulkan run over {RUN_TIMEOUT} s"
    if st == "signal":
        return "CRASH", f"tilec-vk-run died with signal {-rc}: {out[-600:]}"
    if st != "ok":
        return "ERROR", f"tilec-vk-run exit {rc}: {out[-600:]}"
    if "VUID" in out or "Validation Error" in out:
        return "VALIDATION", out[-1500:]
    got = {}
    for t in case.tensors:
        if t.written:
            got[t.name] = np.fromfile(os.path.join(work, f"out_{t.name}.bin"), cabi.STORAGE[t.dtype])
    ok, detail = compare(case, decode_outputs(case, got))
    return ("ok" if ok else "MISMATCH"), detail


# Targets that cannot run here: compiled only (a signal, a hang, the memory limit or a diagnostic
# without a file:line:col location is a failure; a located rejection counts as unsupported).
COMPILE_ONLY = {"sm_80": ["-target=sm_80", "--emit", "ptx"], "sm_90a": ["-target=sm_90a", "--emit", "ptx"],
                "metal": ["-target=metal"], "webgpu": ["-target=webgpu"], "ascend": ["-target=ascend"],
                "vulkan-desktop": ["-target=vulkan"]}
LOCATED = re.compile(r"^\S+:\d+:\d+: error: .*\n.*\n\s*\^", re.M)


def compile_only(target):
    def go(case, work, args):
        flags = [f"-D{d}" for d in case.defines]
        st, rc, out = run([args.tilec, "k.tile", "-o", f"co_{target}.out"] + COMPILE_ONLY[target] + flags,
                          COMPILE_TIMEOUT, cwd=work)
        if st == "ok":
            return "ok", "compiled"
        res = compile_failure(st, rc, out, internal_only=True)
        if res[0] == "unsupported" and not LOCATED.search(out):
            return "UNLOCATED", out[-1500:]
        return res
    return go


TARGETS = {"host": host_target, "vulkan": vulkan_target}
TARGETS.update({t: compile_only(t) for t in COMPILE_ONLY})


def save_failure(case, work, target, status, detail, args):
    dest = os.path.join(args.out, f"{status.lower()}-{target}-seed{case.seed}")
    os.makedirs(dest, exist_ok=True)
    flags = " ".join(f"-D {d}" for d in case.defines)
    tflags = "-shared -o k.so" if target == "host" else "-target=vulkan --vk-preset=lavapipe -o k.spv" \
        if target == "vulkan" else " ".join(COMPILE_ONLY[target]) + " -o k.out"
    me = os.path.relpath(os.path.abspath(__file__), os.getcwd())
    lines = [f"# RUN: tilec %s {tflags} {flags}".rstrip(),
             f"# REPLAY: python3 {me} --tilec tilec --targets {target} --replay {dest}"
             f"  (generator of today: --seed {case.seed} --count 1)",
             f"# {status} on {target}: " + detail.strip().splitlines()[0][:300] if detail.strip() else f"# {status}"]
    if case.dims or case.scalars:
        lines.append("# launch: " + ", ".join(f"{k}={v}" for k, v in {**case.dims, **case.scalars}.items()))
    with open(os.path.join(dest, "k.tile"), "w") as f:
        f.write("\n".join(lines) + "\n" + case.source)
    with open(os.path.join(dest, "detail.txt"), "w") as f:
        f.write(detail + "\n")
    np.savez(os.path.join(dest, "case.npz"), **{f"in_{t.name}": t.value for t in case.tensors if not t.written},
             **{f"expected_{k}": v for k, v in case.expected.items()})
    with open(os.path.join(dest, "case.pkl"), "wb") as f:
        pickle.dump(case, f)  # --replay DEST runs this case again, whatever the generator has become
    return dest


def one_case(seed, args, stats, case=None):
    case = case or generate(seed, args.family)
    work = tempfile.mkdtemp(prefix=f"fz{seed}-", dir=args.work)
    with open(os.path.join(work, "k.tile"), "w") as f:
        f.write(case.source)
    with open(os.path.join(work, "case.json"), "w") as f:
        json.dump({"dims": case.dims, "scalars": case.scalars, "defines": case.defines}, f)
    np.savez(os.path.join(work, "raw.npz"), **raw_tensors(case))
    failed = False
    for target in args.targets:
        t0 = time.time()
        status, detail = TARGETS[target](case, work, args)
        if status == "HANG" and not args.no_retry:
            # a machine shared with other jobs can stall a run: once more with three times the time
            global COMPILE_TIMEOUT, RUN_TIMEOUT
            saved = COMPILE_TIMEOUT, RUN_TIMEOUT
            COMPILE_TIMEOUT, RUN_TIMEOUT = 3 * COMPILE_TIMEOUT, 3 * RUN_TIMEOUT
            t0 = time.time()
            status, detail = TARGETS[target](case, work, args)
            COMPILE_TIMEOUT, RUN_TIMEOUT = saved
            if status != "HANG":
                stats["slow"].append(f"seed {seed} {target}: {time.time() - t0:.0f} s on the retry ({status})")
                print(f"seed {seed} [{case.family}] {target}: over the time limit once, {time.time() - t0:.0f} s "
                      f"on the retry: {status}", flush=True)
        key = f"{target}:{status}"
        stats["outcomes"][key] = stats["outcomes"].get(key, 0) + 1
        if status == "unsupported":
            stats["unsupported"][detail] = stats["unsupported"].get(detail, 0) + 1
        if status not in ("ok", "unsupported"):
            failed = True
            dest = save_failure(case, work, target, status, detail, args)
            print(f"seed {seed} [{case.family}] {target}: {status}: {detail.strip()[:400]}\n  saved {dest}",
                  flush=True)
        elif args.verbose:
            print(f"seed {seed} [{case.family}] {target}: {status} {detail[:100]}", flush=True)
    stats["families"][case.family] = stats["families"].get(case.family, 0) + 1
    for f in case.features:
        stats["features"][f] = stats["features"].get(f, 0) + 1
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return failed


def main():
    global MEM_LIMIT
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default="build/bin/tilec")
    ap.add_argument("--vk-run", default=None, help="tilec-vk-run (default: beside tilec)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--targets", default="host",
                    help="comma list of host, vulkan (both run) and " + ", ".join(COMPILE_ONLY) + " (compiled only)")
    ap.add_argument("--family", default=None, help="elementwise, reduce, gemm or atomic only")
    ap.add_argument("--out", default="fuzz-failures")
    ap.add_argument("--work", default=None, help="scratch folder (default: the system's)")
    ap.add_argument("--keep", action="store_true", help="keep every case's scratch folder")
    ap.add_argument("--fail-fast", action="store_true")
    ap.add_argument("--print", type=int, default=None, metavar="SEED", help="print the case of SEED and exit")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--replay", default=None, metavar="DIR", help="run the saved case DIR/case.pkl again")
    ap.add_argument("--no-retry", action="store_true", help="a time-out is a HANG at once (no second try)")
    ap.add_argument("--mem-limit-gb", type=float, default=MEM_LIMIT / (1 << 30),
                    help="address-space limit of tilec and the runners (0: none, for an ASan build of tilec, "
                         "whose shadow memory needs terabytes of address space)")
    ap.add_argument("--child-host", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    MEM_LIMIT = int(args.mem_limit_gb * (1 << 30))
    if args.child_host:
        return child_host(args.child_host)
    if args.print is not None:
        c = generate(args.print, args.family)
        print(c.source)
        print("# defines", c.defines, "dims", c.dims, "scalars", c.scalars, "features", sorted(c.features))
        return 0
    args.tilec = os.path.abspath(args.tilec)
    args.vk_run = os.path.abspath(args.vk_run or os.path.join(os.path.dirname(args.tilec), "tilec-vk-run"))
    args.targets = [t for t in args.targets.split(",") if t]
    args.out = os.path.abspath(args.out)
    args.xdg = tempfile.mkdtemp(prefix="fz-xdg-")
    os.chmod(args.xdg, 0o700)
    if args.count is None and args.minutes is None:
        args.count = 20
    stats = {"outcomes": {}, "families": {}, "features": {}, "unsupported": {}, "slow": []}
    start, n, failures = time.time(), 0, 0
    if args.replay:
        with open(os.path.join(args.replay, "case.pkl"), "rb") as f:
            case = pickle.load(f)
        args.count, args.seed = 0, case.seed
        n, failures = 1, int(one_case(case.seed, args, stats, case))
    while True:
        if args.count is not None and n >= args.count:
            break
        if args.minutes is not None and time.time() - start > args.minutes * 60:
            break
        failures += one_case(args.seed + n, args, stats)
        n += 1
        if failures and args.fail_fast:
            break
    me, ch = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime
    print(f"difffuzz: {n} kernels (seeds {args.seed}..{args.seed + n - 1}), targets {','.join(args.targets)}, "
          f"{time.time() - start:.0f} s wall, {cpu:.0f} s CPU, {failures} failing")
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(stats["outcomes"].items())))
    print("  families: " + ", ".join(f"{k} {v}" for k, v in sorted(stats["families"].items())))
    print("  features: " + ", ".join(f"{k} {v}" for k, v in sorted(stats["features"].items())))
    for line in stats["slow"]:
        print("  slow: " + line)
    for msg, c in sorted(stats["unsupported"].items(), key=lambda x: -x[1])[:10]:
        print(f"  unsupported x{c}: {msg}")
    shutil.rmtree(args.xdg, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
