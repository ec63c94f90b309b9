"""Suite `compat`: tile-lang's own kernels (test/compat's manifest entries that have a NumPy
reference) built for sm_90a, run on the GPU against the same reference the host target is
checked with (test/compat/numerics.py: same inputs, outputs poisoned, same tolerances).

Each entry runs in its own process under a time limit (a kernel that faults or hangs takes only
that process down). The kit folder holds compat/NAME/{k.so, k.h, entry.json}, written by
`test/compat/run.py --gpu-kit` (kit.py build --suites compat)."""
import ctypes
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPAT = os.path.join(HERE, "..", "..", "test", "compat")
LIMIT = 120  # seconds per entry


def call_cuda(lib, k, case):
    """Copies the case's arrays to the GPU, calls the launcher on torch's stream, copies back."""
    import numpy as np
    import torch
    import cabi
    fn = getattr(lib, k.name)
    fn.restype = ctypes.c_int
    argv, on_device = [], []
    for a in k.args:
        v = case.values[a.name]
        if a.kind in ("tensor", "workspace"):
            host = np.ascontiguousarray(v)
            d = torch.from_numpy(host.view(np.uint8).reshape(-1).copy()).to("cuda")
            on_device.append((a.name, host, d))
            argv.append(ctypes.c_void_p(d.data_ptr() if d.numel() else 0))
        elif a.kind == "dim":
            argv.append(ctypes.c_int64(int(v)))
        else:
            argv.append(cabi.scalar_ctype(a.ctype)(v))
    argv.append(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    status = fn(*argv)
    torch.cuda.synchronize()
    for name, host, d in on_device:
        if name in case.stored:
            case.stored[name].view(np.uint8).reshape(-1)[:] = d.cpu().numpy()
    return status


def run_one(folder):
    """(status, detail) of one entry on the GPU: in this process (the child)."""
    sys.path.insert(0, COMPAT)
    import numerics
    entry = json.load(open(os.path.join(folder, "entry.json")))
    k, err = numerics.kernel_of(open(os.path.join(folder, "k.h")).read(), entry)
    if k is None:
        return "ERROR", err
    lib = ctypes.CDLL(os.path.join(folder, "k.so"))
    case = numerics.Case(k, entry, lib)
    if case.error:
        return "ERROR", case.error
    status = call_cuda(lib, k, case)
    if status != 0:
        return "ERROR", f"launcher returned {status}"
    return case.verify()


def check_compat(kit, small):
    from suites import row
    here = kit.path("compat")
    rows = []
    names = sorted(os.listdir(here)) if os.path.isdir(here) else []
    for name in names:
        folder = os.path.join(here, name)
        entry = json.load(open(os.path.join(folder, "entry.json")))
        try:
            p = subprocess.run([sys.executable, os.path.abspath(__file__), folder], capture_output=True,
                               text=True, timeout=LIMIT)
            last = [l for l in p.stdout.splitlines() if l.startswith("{")]
            if p.returncode != 0 or not last:
                tail = (p.stderr.strip().splitlines() or [""])[-1]
                status, detail = "CRASH", f"exit {p.returncode}: {tail}"
            else:
                res = json.loads(last[-1])
                status, detail = res["status"], res["detail"]
        except subprocess.TimeoutExpired:
            status, detail = "TIMEOUT", f"over {LIMIT}s"
        ok = status == "ok"
        row(name, f"host {entry.get('host_numerics', '-')}", status, ok, rows)
        rows[-1]["host"] = entry.get("host_numerics", "-")
        if not ok:
            print(f"  {detail[:300]}", flush=True)
    host_ok = sum(1 for r in rows if r["host"] == "ok")
    both = sum(1 for r in rows if r["host"] == "ok" and r["ok"])
    print(f"compat on sm_90a: {sum(r['ok'] for r in rows)}/{len(rows)} entries match their reference "
          f"({both}/{host_ok} of those that match on the host)", flush=True)
    return rows


if __name__ == "__main__":
    st, det = run_one(sys.argv[1])
    print(json.dumps({"status": st, "detail": det}))
