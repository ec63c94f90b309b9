#!/usr/bin/env python3
"""The differential fuzzer's GPU half: cases built here for sm_90a, run on the H200.

  gpukit.py --tilec build/bin/tilec --kit DIR [--seed S] [--count N] [--jobs J]

Case i is seed S+i of the fuzzer's generator (families.py), as `difffuzz.py --seed S+i`
builds it. For each case DIR/seedN/ holds k.so + k.h (the -target=sm_90a -shared build),
raw.npz (the stored bits of every tensor: inputs encoded, outputs poisoned or zeroed as on
the host) and case.pkl (the case: its model outputs and tolerances). A case sm_90a rejects
with a located diagnostic is recorded in DIR/rejected.txt (the GPU cannot run it; the fuzzer's
compile-only sm_90a target counts it as unsupported); an unlocated rejection, a crash or a
hang of tilec is a failure (exit 1). The device half is bench/suites/fuzz.py (kit suite `fuzz`)."""
import argparse
import concurrent.futures
import os
import pickle
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import difffuzz  # noqa: E402  (re-executes under /usr/bin/python3 where NumPy is)
from difffuzz import compile_failure, generate, np, raw_tensors, run  # noqa: E402


def build_case(seed, tilec, kit):
    """(seed, status, detail) of building case `seed` into kit/seedN."""
    case = generate(seed, None)
    work = os.path.join(kit, f"seed{seed}")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "k.tile"), "w") as f:
        f.write(case.source)
    flags = [f"-D{d}" for d in case.defines]
    # three times the fuzzer's limit: ptxas alone takes 8 s of CPU on the largest cases (a 64x64
    # accumulator on one warp) and the kit is built on a machine other jobs share
    st, rc, out = run([tilec, "k.tile", "-target=sm_90a", "-shared", "-o", "k.so"] + flags,
                      3 * difffuzz.COMPILE_TIMEOUT, cwd=work)
    if st != "ok":
        status, detail = compile_failure(st, rc, out, internal_only=True)
        if status == "unsupported" and not difffuzz.LOCATED.search(out):
            status = "UNLOCATED"
        return seed, status, detail
    np.savez(os.path.join(work, "raw.npz"), **raw_tensors(case))
    with open(os.path.join(work, "case.pkl"), "wb") as f:
        pickle.dump(case, f)
    return seed, "ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default="build/bin/tilec")
    ap.add_argument("--kit", required=True)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    tilec, kit = os.path.abspath(args.tilec), os.path.abspath(args.kit)
    os.makedirs(kit, exist_ok=True)
    built, rejected, failed = 0, [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        seeds = range(args.seed, args.seed + args.count)
        for seed, status, detail in pool.map(lambda s: build_case(s, tilec, kit), seeds):
            if status == "ok":
                built += 1
                continue
            shutil.rmtree(os.path.join(kit, f"seed{seed}"), ignore_errors=True)
            line = f"seed{seed}: {status}: {detail.strip().splitlines()[0][:300] if detail.strip() else ''}"
            (rejected if status == "unsupported" else failed).append(line)
    with open(os.path.join(kit, "rejected.txt"), "w") as f:
        f.write("".join(l + "\n" for l in rejected))
    print(f"fuzz kit: {built} cases built for sm_90a (seeds {args.seed}..{args.seed + args.count - 1}), "
          f"{len(rejected)} rejected with a located diagnostic, {len(failed)} failures")
    for line in failed:
        print("  FAILED " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
