#!/usr/bin/env python3
"""Robustness sweep: variants of the project's kernels on every target.

  scripts/sweep.py [--tilec build/bin/tilec] [--targets host,sm_80,...] [--sample N] [--seed S]
                   [--jobs 1] [--time-limit 20] [--mem-limit-gb 4] [--out sweep-failures] [--full]

Variants of every examples/**/*.tile: each module constant or factory parameter with an int value
set by -D to odd, tiny, negative and huge values (thread counts to 1, 16, 32, 33, 64, 96, 384, 1024,
2048), bad -D values (not a number, an unknown name, an unsupported dtype), and exported names that
collide with something (--kernel-name main, exp, memcpy, cuInit, _init; C, WGSL and MSL keywords).
Each variant is compiled for each target under a CPU-time and address-space limit. A result is bad
when tilec
  - dies by a signal (CRASH), runs over the time limit (SLOW) or over the memory limit (MEMORY),
  - rejects without a located diagnostic: every `error:` must read `file:line:col: error:` with the
    source line and a caret line under it (UNLOCATED),
  - exits 0 with an empty output (EMPTY).
Prints a table and the bad results (saved as RUN lines in --out); exit 1 if any.
sm_* targets stop at PTX unless --full (then ptxas runs too); with --kernel-name they write the
launchers' header, where the exported names are.
"""
import argparse
import glob
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["host", "sm_80", "sm_90a", "vulkan", "metal", "webgpu", "ascend"]
INT_VALUES = ["0", "1", "3", "7", "33", "1000", "100000", "-1", "-64", "2**31", "2**62"]
THREAD_VALUES = ["1", "16", "32", "33", "64", "96", "384", "1024", "2048"]
BAD = [("N=abc", None), ("nonexistent_name=1", None), ("dtype=T.float8_e4m3", None), ("dtype=T.int4", None),
       ("block_M=block_N", None), ("threads=(1, 2, 3, 4)", None), ("M=T.dynamic('M')", None)]
# --kernel-name values: the C entry point, libm / libc / <cuda.h> functions, an ELF section
# function, a C keyword, WGSL and MSL keywords. Each must compile (renamed in the target's
# output where needed) or be rejected with a located diagnostic.
NAMES = ["main", "exp", "memcpy", "cuInit", "_init", "int", "fn", "kernel", "half"]
LOCATED = re.compile(r"^(.+?):(\d+):(\d+): error: ")


def int_names(text):
    """Module constants and factory parameters that the file gives an int value."""
    names = []
    for m in re.finditer(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*=\s*([-\d][\d_, ]*)\s*(?:#.*)?$", text, re.M):
        lhs = [s.strip() for s in m.group(1).split(",")]
        rhs = [s.strip() for s in m.group(2).split(",") if s.strip()]
        if len(lhs) == len(rhs):
            names += lhs
    for m in re.finditer(r"^def \w+\(([^)]*)\)", text, re.M):
        for p in m.group(1).split(","):
            k, _, v = p.partition("=")
            if re.fullmatch(r"\s*-?\d+\s*", v or "x"):
                names.append(k.strip())
    return list(dict.fromkeys(names))


def required_params(text):
    """Factory parameters without a default: they need a -D (a middling value)."""
    req = []
    for m in re.finditer(r"^def \w+\(([^)]*)\)", text, re.M):
        if text[:m.start()].rstrip().endswith("@T.prim_func"):
            continue  # a kernel: its parameters are tensors
        for p in m.group(1).split(","):
            p = p.strip()
            if re.fullmatch(r"[A-Za-z_]\w*", p):
                req.append(p)
    return req


def variants(path):
    """The command-line options of each variant of the file."""
    text = open(path).read()
    base = [f"{p}=256" for p in required_params(text)]
    out = []
    for name in int_names(text) + [p for p in required_params(text) if p not in int_names(text)]:
        values = THREAD_VALUES if "thread" in name.lower() else INT_VALUES
        for v in values:
            out.append([b for b in base if not b.startswith(name + "=")] + [f"{name}={v}"])
    for d, _ in BAD:
        out.append(base + [d])
    out = [[f"-D{d}" for d in defines] for defines in out]
    for name in NAMES:
        out.append([f"-D{d}" for d in base] + ["--kernel-name", name])
    return out


def limits(cpu_s, mem):
    def set_limits():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        os.nice(10)
    return set_limits


def target_flags(t, full, flags):
    if t.startswith("sm_") and "--kernel-name" in flags:
        return [f"-target={t}", "--emit=header"]  # the exported names: the launchers' header
    if t.startswith("sm_") and not full:
        return [f"-target={t}", "--emit=ptx"]
    return [f"-target={t}"]


def run(cmd, args, work):
    """Runs one compile: (exit status, stdout + stderr, CPU seconds), status None past the wall limit."""
    with open(os.path.join(work, "stdout"), "w+") as fo, open(os.path.join(work, "stderr"), "w+") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL,
                             preexec_fn=limits(args.time_limit, args.mem_limit_gb << 30))
        # The CPU limit is the bound; the wall limit only catches a compile that blocks
        # (on a shared machine a compile of 2 s of CPU can take 40 s of wall time).
        expired = threading.Event()
        timer = threading.Timer(args.time_limit * 10, lambda: (expired.set(), p.kill()))
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)  # this child's own rusage, whatever runs beside it
        p.returncode = os.waitstatus_to_exitcode(status)
        timer.cancel()
        fo.seek(0)
        fe.seek(0)
        text = fo.read() + fe.read()
    return None if expired.is_set() else p.returncode, text, ru.ru_utime + ru.ru_stime


def check(args, path, flags, target, work):
    out = os.path.join(work, "out." + target)
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.tilec, path, "-o", out] + target_flags(target, args.full, flags) + flags
    code, text, dt = run(cmd, args, work)
    if code is None:
        return "SLOW", f"over {args.time_limit * 10} s wall (blocked?)", cmd, dt
    if code == -9 or code == -24 or code == 128 + 24:
        return "SLOW", f"killed by the CPU limit ({args.time_limit} s)", cmd, dt
    if code < 0:
        return "CRASH", f"signal {-code}: {text[-400:]}", cmd, dt
    if "bad_alloc" in text or "out of memory" in text.lower() or "Cannot allocate memory" in text:
        return "MEMORY", text[-400:], cmd, dt
    if code == 0:
        if not os.path.exists(out) or os.path.getsize(out) == 0:
            return "EMPTY", "exit 0, no output", cmd, dt
        return "ok", "", cmd, dt
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if " error: " in line or line.startswith("error:"):
            m = LOCATED.match(line)
            caret = i + 2 < len(lines) and re.fullmatch(r"\s*\^[~^]*\s*", lines[i + 2])
            if not m or not caret:
                return "UNLOCATED", "\n".join(lines[i:i + 3])[:400], cmd, dt
    if not any(" error: " in l for l in lines):
        return "UNLOCATED", f"exit {code} without an error line: {text[-300:]}", cmd, dt
    return "rejected", "", cmd, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default=os.path.join(ROOT, "build", "bin", "tilec"))
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--files", default=os.path.join(ROOT, "examples", "**", "*.tile"))
    ap.add_argument("--sample", type=int, default=0, help="compile N random (variant, target) pairs (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=int, default=20, help="CPU seconds per compile")
    ap.add_argument("--mem-limit-gb", type=int, default=4)
    ap.add_argument("--full", action="store_true", help="sm_* targets through ptxas")
    ap.add_argument("--out", default="sweep-failures")
    ap.add_argument("--jobs", type=int, default=1, help="compiles at a time (default 1)")
    args = ap.parse_args()
    args.tilec = os.path.abspath(args.tilec)
    files = sorted(glob.glob(args.files, recursive=True))
    jobs = [(f, v, t) for f in files for v in variants(f) for t in args.targets.split(",")]
    if args.sample and args.sample < len(jobs):
        jobs = random.Random(args.seed).sample(jobs, args.sample)
    work = tempfile.mkdtemp(prefix="sweep-")
    local = threading.local()

    def one(job):
        if not hasattr(local, "work"):
            local.work = tempfile.mkdtemp(dir=work)
        return check(args, *job, local.work)

    counts, bad, slowest = {}, [], (0.0, "")
    start = time.time()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (f, v, t), (status, detail, cmd, dt) in zip(jobs, pool.map(one, jobs)):
            counts.setdefault(t, {}).setdefault(status, 0)
            counts[t][status] += 1
            if dt > slowest[0]:
                slowest = (dt, " ".join(cmd[1:]))
            if status not in ("ok", "rejected"):
                bad.append((status, detail, cmd))
                print(f"{status}: {' '.join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c for c in cmd)}\n"
                      f"  {detail}", flush=True)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"sweep: {len(jobs)} compiles of {len(files)} files, {time.time() - start:.0f} s wall, "
          f"{ru.ru_utime + ru.ru_stime:.0f} s CPU, peak RSS {ru.ru_maxrss // 1024} MB, slowest {slowest[0]:.1f} s CPU "
          f"({os.path.relpath(slowest[1].split()[0], ROOT) if slowest[1] else ''} {' '.join(slowest[1].split()[1:])})")
    for t in sorted(counts):
        print(f"  {t:8} " + ", ".join(f"{k} {v}" for k, v in sorted(counts[t].items())))
    kinds = ["CRASH", "SLOW", "MEMORY", "UNLOCATED", "EMPTY"]
    print("  bad      " + ", ".join(f"{k} {sum(1 for b in bad if b[0] == k)}" for k in kinds))
    if bad:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "sweep-failures.txt"), "w") as fh:
            for status, detail, cmd in bad:
                fh.write(f"# {status}: {detail.splitlines()[0] if detail else ''}\nRUN: {' '.join(cmd)}\n")
        print(f"{len(bad)} bad results (RUN lines in {args.out}/sweep-failures.txt)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
