"""Host numerics of one compiled entry, in a child process (a crashing kernel takes only it down).

`check(entry, host_dir)` runs this file as a child on `host_dir/k.so` + `k.h`:
it builds random inputs for every tensor the header lists (sizes from the
entry's defines and `dims`), poisons the written tensors (zeros where the entry
says `zero = [...]`), calls the launcher, and compares each tensor that the
reference returns with the kernel's result: max |out - ref| / max |ref| within
the dtype's bound (`tol` overrides), integers exactly. Returns (status, detail):
status is "ok", "MISMATCH", "CRASH", "ERROR" (launcher status, bad setup).
"""
import ast
import ctypes
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-4, "float64": 1e-9, "float8_e4m3": 1.5e-1,
       "float8_e4m3fn": 1.5e-1, "float8_e5m2": 2.5e-1}
RUN_TIMEOUT = 300


def check(entry, host_dir):
    cmd = [sys.executable, os.path.abspath(__file__), host_dir, json.dumps(entry)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", f"host run over {RUN_TIMEOUT}s"
    last = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not last:
        sig = f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}"
        err = (p.stderr.strip().splitlines() or [""])[-1]
        return "CRASH", f"host run died ({sig}) {err}"[:300]
    res = json.loads(last[-1])
    return res["status"], res["detail"]


def meta_value(text):
    """A -D value as a Python number where it is one (else the text)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def params_of(entry):
    p = {}
    for d in entry.get("defines", []):
        k, _, v = d.partition("=")
        p[k.strip()] = meta_value(v.strip())
    p.update(entry.get("dims", {}))
    p.update(entry.get("scalars", {}))
    return p


def eval_shape(shape, p):
    out = []
    for s in shape:
        try:
            out.append(int(eval(s, {"__builtins__": {}}, dict(p))))
        except Exception:
            raise ValueError(f"shape {tuple(shape)}: cannot size '{s}' (give it in dims or defines)")
    return tuple(out)


def default_input(dtype, shape, rng):
    if dtype in ("int4",):
        return rng.integers(-8, 8, shape)
    if dtype in ("uint4",):
        return rng.integers(0, 16, shape)
    if dtype in ("int8", "uint8", "int16", "int32", "int64", "uint32"):
        lo = 0 if dtype.startswith("u") else -8
        return rng.integers(lo, 8, shape)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.uniform(-1, 1, shape)


def poison(dtype, n):
    import cabi
    if dtype in ("float16", "float32", "float64"):
        return np.full(n, np.nan, cabi.STORAGE[dtype])
    if dtype == "bfloat16":
        return np.full(n, 0x7FC0, np.uint16)
    if dtype.startswith("float8"):
        return np.full(n, 0x7F, np.uint8)
    return np.full(cabi.element_count(dtype, n), 0x5A, cabi.STORAGE[dtype])


def compare(name, dtype, got, ref, tol):
    ref = np.asarray(ref, np.float64).ravel()
    got = np.asarray(got, np.float64).ravel()[:ref.size]
    if got.size != ref.size:
        return False, f"{name}: {got.size} elements, reference has {ref.size}"
    bad = ~np.isfinite(got) & np.isfinite(ref)
    if bad.any():
        return False, f"{name}: {int(bad.sum())}/{ref.size} elements not written or not finite (first at {int(np.argmax(bad))})"
    fin = np.isfinite(ref)
    if not np.array_equal(np.isfinite(got), fin) or not np.array_equal(got[~fin], ref[~fin]):
        return False, f"{name}: infinities differ from the reference"
    if not fin.any():
        return True, ""
    scale = max(np.abs(ref[fin]).max(), 1e-6)
    err = np.abs(got[fin] - ref[fin]).max() / scale
    if err > tol:
        i = int(np.argmax(np.abs(got - ref) * fin))
        return False, f"{name}: rel err {err:.3g} > {tol:g} (at {i}: {got[i]:.6g} vs {ref[i]:.6g})"
    return True, f"{name} {err:.2g}"


def kernel_of(header, entry):
    """The header's declaration of the entry's kernel, or an error string."""
    import cabi
    kernels = cabi.parse_header(header)
    want = entry.get("export", entry["kernel"])
    ks = [k for k in kernels if k.name == want] or (kernels if len(kernels) == 1 else [])
    if not ks:
        return None, f"header declares {[k.name for k in kernels]}, none is '{want}'"
    return ks[0], ""


class Case:
    """One entry's inputs, poisoned outputs and reference, ready to call on any target.

    values[name]: what the launcher takes (raw element arrays for tensors and the workspace,
    numbers otherwise); stored[name]: the raw array of each tensor, read back after the call."""

    def __init__(self, k, entry, lib):
        import cabi
        import refs
        self.k, self.entry, self.error = k, entry, ""
        ref_fn = refs.REFS.get(entry["ref"])
        if ref_fn is None:
            self.error = f"no reference '{entry['ref']}' in refs.py"
            return
        p = params_of(entry)
        rng = np.random.default_rng(entry.get("seed", 2026))
        gens = getattr(ref_fn, "gen", {})
        zero = set(entry.get("zero", [])) | set(getattr(ref_fn, "zero", ()))
        inout = set(entry.get("inout", [])) | set(getattr(ref_fn, "inout", ()))
        self.values, ins, self.stored = {}, {}, {}
        for a in k.args:
            if a.kind == "dim":
                if a.name not in p:
                    self.error = f"dynamic dimension '{a.name}' has no value (dims in the manifest)"
                    return
                self.values[a.name] = int(p[a.name])
            elif a.kind == "scalar":
                self.values[a.name] = p.get(a.name, getattr(ref_fn, "scalars", {}).get(a.name, 1))
                p.setdefault(a.name, self.values[a.name])
            elif a.kind == "workspace":
                size_fn = getattr(lib, k.name + "_workspace_size")
                size_fn.restype = ctypes.c_size_t
                dims = [ctypes.c_int64(self.values[b.name]) for b in k.args if b.kind == "dim"]
                self.values[a.name] = np.zeros(size_fn(*dims) + 64, np.uint8)
            elif a.kind == "tensor":
                shape = eval_shape(a.shape, p)
                n = int(np.prod(shape))
                if a.written and a.name not in inout:
                    raw = np.zeros(cabi.element_count(a.dtype, n), cabi.STORAGE[a.dtype]) if a.name in zero \
                        else poison(a.dtype, n)
                else:
                    x = gens[a.name](shape, rng, p) if a.name in gens else default_input(a.dtype, shape, rng)
                    raw = cabi.encode(x, a.dtype)
                self.stored[a.name] = raw
                self.values[a.name] = raw
                ins[a.name] = cabi.decode(raw, a.dtype, n).reshape(shape)
            else:
                self.error = f"argument '{a.name}' of unknown kind in the header"
                return
        self.expected = ref_fn(ins, p)

    def verify(self):
        """(status, detail) of the tensors in `stored` against the reference."""
        import cabi
        k, entry = self.k, self.entry
        details, ok = [], True
        written = [a for a in k.args if a.kind == "tensor" and a.written]
        names = {a.name for a in k.args}
        for pos, (name, ref) in enumerate(self.expected.items()):
            arg = next((a for a in k.args if a.name == name), None)
            if arg is None and pos < len(written) and all(n not in names for n in self.expected):
                arg = written[pos]  # outputs named otherwise in the header: match them by order
                details.append(f"({name} is {arg.name})")
            if arg is None:
                return "ERROR", f"reference returns '{name}', the kernel has no such tensor"
            n = int(np.prod(np.shape(ref)))
            got = cabi.decode(self.stored[arg.name], arg.dtype, n)
            tol = entry.get("tol", TOL.get(arg.dtype, 0))
            good, msg = compare(name, arg.dtype, got, ref, tol)
            ok &= good
            details.append(msg)
        return ("ok" if ok else "MISMATCH"), "; ".join(d for d in details if d)


def child(host_dir, entry):
    import cabi
    k, err = kernel_of(open(os.path.join(host_dir, "k.h")).read(), entry)
    if k is None:
        return "ERROR", err
    lib = ctypes.CDLL(os.path.join(host_dir, "k.so"))
    case = Case(k, entry, lib)
    if case.error:
        return "ERROR", case.error
    status = cabi.call(lib, k, case.values)
    if status != 0:
        return "ERROR", f"launcher returned {status}"
    return case.verify()


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    status, detail = child(sys.argv[1], json.loads(sys.argv[2]))
    print(json.dumps({"status": status, "detail": detail}))
