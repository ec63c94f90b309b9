"""Suite `suite`: every host-suite kernel (test/run) that the CUDA target compiled runs through
both its -target=host and its -target=sm_90a shared library on the same random inputs (ragged
dynamic dimensions), and the written tensors are compared (fp16/bf16/fp8: rel. error < 1e-2,
fp32/fp64: < 1e-4, integers and bools: exact). Signatures come from the host headers; kernels
the CUDA target rejected are listed with the first line of the diagnostic."""
import ctypes
import os
import re

import torch

from suites import row

dev = torch.device("cuda")

DT = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
      "float8_e4m3": torch.float8_e4m3fn, "float8_e5m2": torch.float8_e5m2, "int8": torch.int8,
      "uint8": torch.uint8, "int16": torch.int16, "uint16": torch.uint16, "int32": torch.int32,
      "uint32": torch.uint32, "int64": torch.int64, "uint64": torch.uint64, "bool": torch.bool,
      "int4": "packed4", "uint4": "packed4"}
TOL = {torch.float16: 1e-2, torch.bfloat16: 1e-2, torch.float8_e4m3fn: 1e-2, torch.float8_e5m2: 1e-2,
       torch.float32: 1e-4, torch.float64: 1e-4}
SCALAR = {"float16": (ctypes.c_uint16, 0x3800), "bfloat16": (ctypes.c_uint16, 0x3f00),
          "float32": (ctypes.c_float, 0.75), "float64": (ctypes.c_double, 0.5), "int8": (ctypes.c_int8, 3),
          "uint8": (ctypes.c_uint8, 3), "int16": (ctypes.c_int16, 3), "int32": (ctypes.c_int32, 3),
          "uint32": (ctypes.c_uint32, 5), "int64": (ctypes.c_int64, 7), "uint64": (ctypes.c_uint64, 7),
          "bool": (ctypes.c_bool, True)}


def parse_header(path):
    """[(kernel, [(name, kind, dtype, shape)])] from a tilec header."""
    text = open(path).read()
    out = []
    for m in re.finditer(r"/\* (\w+): block of [^\n]*\n(.*?)\*/\s*int (\w+)\(", text, re.S):
        args = []
        for line in m.group(2).splitlines():
            a = re.match(r"\s*\*\s+(\w+): (\w+) tensor of shape \(([^)]*)\)(.*)", line)
            if a:
                shape = [s.strip() for s in a.group(3).split(",") if s.strip()]
                args.append((a.group(1), "tensor", a.group(2), shape, a.group(4)))
                continue
            a = re.match(r"\s*\*\s+(\w+): dynamic dimension", line)
            if a:
                args.append((a.group(1), "dim", None, None, ""))
                continue
            a = re.match(r"\s*\*\s+(\w+): (\w+) scalar", line)
            if a:
                args.append((a.group(1), "scalar", a.group(2), None, ""))
                continue
            if re.match(r"\s*\*\s+workspace: \w+_workspace_size\(", line):
                args.append(("workspace", "workspace", None, None, ""))
        out.append((m.group(3), args))
    return out


def random_tensor(dtype, shape, gen):
    if dtype == "packed4":  # two 4-bit values a byte; numel bytes is more than enough
        return torch.randint(0, 256, shape, generator=gen, dtype=torch.int64).to(torch.uint8)
    if dtype.is_floating_point:
        t = torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1
        return t.to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    lo, hi = (1, 16) if dtype in (torch.uint8, torch.uint16, torch.uint32, torch.uint64) else (-8, 9)
    t = torch.randint(lo, hi, shape, generator=gen, dtype=torch.int64)
    t[t == 0] = 1
    return t.to(dtype)


def rel(out, ref):
    if out.dtype == torch.bool or not out.dtype.is_floating_point:
        bad = (out.to(torch.int64) != ref.to(torch.int64)).sum().item()
        return 0.0 if bad == 0 else float(bad)
    o, r = out.double(), ref.double()
    same_nan = torch.isnan(o) & torch.isnan(r)
    o, r = torch.where(same_nan, 0, o), torch.where(same_nan, 0, r)
    if not torch.isfinite(o).eq(torch.isfinite(r)).all():
        return float("inf")
    fin = torch.isfinite(r)
    if not o[~fin].eq(r[~fin]).all():
        return float("inf")
    o, r = o[fin], r[fin]
    den = r.norm().item()
    return (o - r).norm().item() / den if den > 0 else (o - r).norm().item()


def run_case(name, lib_host, lib_cuda, kernel, args, dim):
    gen = torch.Generator().manual_seed(hash((name, kernel, dim)) & 0xffffffff)
    dims = {a[0]: dim for a in args if a[1] == "dim"}
    host_args, cuda_args, tensors = [], [], []
    for n, kind, dt, shape, access in args:
        if kind == "tensor":
            shp = [int(s) if s.isdigit() else dims[s] for s in shape]
            t = random_tensor(DT[dt], shp, gen).contiguous()
            d = t.to(dev)
            tensors.append((n, t, d, "written" in access))
            host_args.append(ctypes.c_void_p(t.data_ptr()))
            cuda_args.append(ctypes.c_void_p(d.data_ptr()))
        elif kind == "dim":
            host_args.append(ctypes.c_int64(dims[n]))
            cuda_args.append(ctypes.c_int64(dims[n]))
        elif kind == "workspace":  # T.alloc_global buffers: NAME_workspace_size(dims...) bytes
            size = getattr(lib_host, kernel + "_workspace_size")
            size.restype = ctypes.c_size_t
            nbytes = size(*[ctypes.c_int64(dims[a[0]]) for a in args if a[1] == "dim"])
            hw = torch.empty(nbytes, dtype=torch.uint8)
            dw = torch.empty(nbytes, dtype=torch.uint8, device=dev)
            tensors.append((n, hw, dw, False))  # kept alive for the calls, not compared
            host_args.append(ctypes.c_void_p(hw.data_ptr()))
            cuda_args.append(ctypes.c_void_p(dw.data_ptr()))
        else:
            ct, v = SCALAR[dt]
            host_args.append(ct(v))
            cuda_args.append(ct(v))
    fh, fc = getattr(lib_host, kernel), getattr(lib_cuda, kernel)
    fh.restype = fc.restype = ctypes.c_int
    rh = fh(*host_args)
    rc = fc(*cuda_args, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    torch.cuda.synchronize()
    worst, detail = 0.0, []
    ok = rh == rc
    if rh != rc:
        detail.append(f"status host {rh} cuda {rc}")
    for n, t, d, written in tensors:
        if not written:
            continue
        e = rel(d.cpu(), t)
        tol = TOL.get(t.dtype, 0.0)
        good = e <= tol if tol == 0.0 else e < tol
        ok &= good
        worst = max(worst, e)
        detail.append(f"{n} {e:.1e}" + ("" if good else " FAIL"))
    return ok, worst, ", ".join(detail)


def check_suite(kit, small):
    here = kit.path("suite")
    dims = [37] if small else [100, 37]
    rows = []
    names = sorted({f.split(".")[0] for f in os.listdir(here) if f.endswith(".h")})
    for name in names:
        err = os.path.join(here, name + ".cuda.err")
        if os.path.exists(err):
            msg = open(err).read().strip().splitlines()
            first = next((l for l in msg if "error" in l), msg[0] if msg else "")
            print(f"suite {name}: rejected by the CUDA target: {re.sub(r'^.*?error: ', '', first)[:150]}")
            rows.append({"name": name, "shape": "-", "err": "rejected", "ok": True, "rejected": True})
            continue
        lh = ctypes.CDLL(os.path.join(here, name + ".host.so"))
        lc = ctypes.CDLL(os.path.join(here, name + ".cuda.so"))
        for kernel, args in parse_header(os.path.join(here, name + ".h")):
            has_dim = any(a[1] == "dim" for a in args)
            for d in (dims if has_dim else dims[:1]):
                shape = f"dims={d}" if has_dim else "static"
                try:
                    ok, worst, detail = run_case(name, lh, lc, kernel, args, d)
                except Exception as ex:  # a CUDA error poisons the context: reported, then on
                    torch.cuda.synchronize()
                    row(f"{name}:{kernel}", shape, f"ERROR {ex}"[:60], False, rows)
                    continue
                row(f"{name}:{kernel}", shape, f"{worst:.1e}", ok, rows)
                if not ok:
                    print(f"  {detail}", flush=True)
    return rows
