"""Suite `fuzz`: the differential fuzzer's kernels on the GPU (sm_90a) against their NumPy models.

The kit folder holds fuzz/seedN/{k.so, k.h, raw.npz, case.pkl}, written by test/fuzz/gpukit.py
(kit.py build --suites fuzz). Each case runs in one worker process (compat.Worker: a case that
faults, hangs or loses the CUDA context takes only that worker down), its outputs poisoned as
on the host, and is compared with the model with the fuzzer's own tolerances (difffuzz.compare)."""
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, "..", "..", "test", "fuzz")
COMPAT = os.path.join(HERE, "..", "..", "test", "compat")


def run_one(folder):
    """(status, detail) of one case on the GPU, in the worker process."""
    import ctypes
    import pickle
    sys.path[:0] = [FUZZ, COMPAT]
    import numpy as np
    import cabi
    from difffuzz import compare, decode_outputs
    from compat import call_cuda
    with open(os.path.join(folder, "case.pkl"), "rb") as f:
        case = pickle.load(f)
    k = next(k for k in cabi.parse_header(open(os.path.join(folder, "k.h")).read()) if k.name == "fz")
    raw = dict(np.load(os.path.join(folder, "raw.npz")))
    values = dict(raw, **case.dims, **case.scalars)
    call = types.SimpleNamespace(values=values, stored={t.name: raw[t.name] for t in case.tensors if t.written})
    status = call_cuda(ctypes.CDLL(os.path.join(folder, "k.so")), k, call)
    if status != 0:
        return "ERROR", f"launcher returned {status}"
    ok, detail = compare(case, decode_outputs(case, raw))
    return ("ok" if ok else "MISMATCH"), f"[{case.family}] {detail}"


def check_fuzz(kit, small):
    from suites import row
    from suites.compat import Worker
    here = kit.path("fuzz")
    names = sorted((n for n in os.listdir(here) if n.startswith("seed")), key=lambda n: int(n[4:])) \
        if os.path.isdir(here) else []
    rows, worker, t0 = [], Worker(__file__), time.time()
    for name in names:
        status, detail = worker.run(os.path.join(here, name))
        row(name, detail.split("]")[0].lstrip("[") if detail.startswith("[") else "", status, status == "ok", rows)
        if status != "ok":
            print(f"  {detail[:400]}", flush=True)
    worker.stop()
    rejected = open(os.path.join(here, "rejected.txt")).read().count("\n") if names else 0
    bad = {}
    for r in rows:
        if not r["ok"]:
            bad[r["status"]] = bad.get(r["status"], 0) + 1
    print(f"fuzz on sm_90a: {sum(r['ok'] for r in rows)}/{len(rows)} cases match their model "
          f"({', '.join(f'{v} {k}' for k, v in sorted(bad.items())) or 'no failures'}; {rejected} more rejected "
          f"at compile time) in {time.time() - t0:.0f} s", flush=True)
    return rows


if __name__ == "__main__":
    from compat import serve
    serve(run_one)
