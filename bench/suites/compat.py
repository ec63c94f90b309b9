"""Suite `compat`: tile-lang's own kernels (test/compat's manifest entries that have a NumPy
reference) built for sm_90a, run on the GPU against the same reference the host target is
checked with (test/compat/numerics.py: same inputs, outputs poisoned, same tolerances).

Each entry runs in its own process under a time limit (a kernel that faults or hangs takes only
that process down). The kit folder holds compat/NAME/{k.so, k.h, entry.json}, written by
`test/compat/run.py --gpu-kit` (kit.py build --suites compat)."""
import ctypes
import json
import os
import select
import subprocess
import sys
import time

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


class Worker:
    """One child process that imports torch once and runs entries one after another (a fresh
    process per entry spent ~4 s each on torch and the CUDA context: the suite outran its limit).
    A child that crashes, hangs past LIMIT or reports a CUDA error (the context is lost) is
    replaced by a fresh one for the next entry."""

    def __init__(self, script=__file__):
        self.p, self.script = None, os.path.abspath(script)

    def start(self):
        self.p = subprocess.Popen([sys.executable, self.script, "--worker"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)

    def stop(self):
        if self.p:
            self.p.kill()
            self.p.wait()
            self.p = None

    def run(self, folder):
        """(status, detail) of one entry."""
        if self.p is None:
            self.start()
        self.p.stdin.write(folder + "\n")
        self.p.stdin.flush()
        deadline = time.time() + LIMIT
        while True:
            left = deadline - time.time()
            ready = select.select([self.p.stdout], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self.stop()
                return "TIMEOUT", f"over {LIMIT}s"
            line = self.p.stdout.readline()
            if not line:  # the child died
                self.p.wait()
                tail = (self.p.stderr.read().strip().splitlines() or [""])[-1]
                rc, self.p = self.p.returncode, None
                return "CRASH", f"exit {rc}: {tail}"
            if line.startswith("{"):
                res = json.loads(line)
                if res.get("fatal"):
                    self.stop()
                return res["status"], res["detail"]


def check_compat(kit, small):
    from suites import row
    here = kit.path("compat")
    rows = []
    names = sorted(os.listdir(here)) if os.path.isdir(here) else []
    worker = Worker()
    t0 = time.time()
    for name in names:
        folder = os.path.join(here, name)
        entry = json.load(open(os.path.join(folder, "entry.json")))
        status, detail = worker.run(folder)
        ok = status == "ok"
        row(name, f"host {entry.get('host_numerics', '-')}", status, ok, rows)
        rows[-1]["host"] = entry.get("host_numerics", "-")
        if not ok:
            print(f"  {detail[:300]}", flush=True)
    worker.stop()
    host_ok = sum(1 for r in rows if r["host"] == "ok")
    both = sum(1 for r in rows if r["host"] == "ok" and r["ok"])
    print(f"compat on sm_90a: {sum(r['ok'] for r in rows)}/{len(rows)} entries match their reference "
          f"({both}/{host_ok} of those that match on the host) in {time.time() - t0:.0f} s", flush=True)
    return rows


def serve(run=None):
    """The worker's loop: one entry folder per stdin line, one JSON result per stdout line
    (`run` gives a folder's (status, detail): run_one here, another suite's own)."""
    for line in sys.stdin:
        fatal = False
        try:
            st, det = (run or run_one)(line.strip())
        except Exception as e:  # a CUDA error poisons the context: report it, then exit
            st, det, fatal = "ERROR", f"{type(e).__name__}: {e}", "CUDA" in str(e) or "cuda" in str(e)
        print(json.dumps({"status": st, "detail": str(det), "fatal": fatal}), flush=True)
        if fatal:
            return


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        serve()
    else:
        st, det = run_one(sys.argv[1])
        print(json.dumps({"status": st, "detail": det}))
