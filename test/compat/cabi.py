"""The C side of a host kernel: header parsing, element encodings, ctypes calls.

`parse_header(text)` reads a tilec-generated header (spec §8) into Kernel
records: each argument's kind (tensor, dynamic dimension, scalar, workspace),
dtype, shape expression and whether the kernel writes it. `encode`/`decode`
convert float64 NumPy arrays to and from the stored element bits (float16,
bfloat16, float8 e4m3/e5m2, packed int4 and float4_e2m1fn). `call(lib, kernel, values)` runs
one launcher through ctypes.
"""
import ctypes
import re

import numpy as np

DOC = re.compile(r"^\s*\*\s+(\w+): (\w+) tensor of shape \((.*)\), row-major, contiguous, (read|written)")
DIM = re.compile(r"^\s*\*\s+(\w+): dynamic dimension")
SCALAR = re.compile(r"^\s*\*\s+(\w+): (\w+) scalar")
HEAD = re.compile(r"^/\* (\w+): block of (\d+)x(\d+)x(\d+) threads")
PROTO = re.compile(r"^int (\w+)\((.*)\);")


class Arg:
    def __init__(self, name, kind, dtype=None, shape=None, written=False, ctype=""):
        self.name, self.kind, self.dtype, self.shape, self.written, self.ctype = \
            name, kind, dtype, shape, written, ctype

    def __repr__(self):
        return f"Arg({self.name}, {self.kind}, {self.dtype}, {self.shape}, w={self.written})"


class Kernel:
    def __init__(self, name, threads):
        self.name, self.threads, self.args, self.workspace = name, threads, [], False


def parse_header(text):
    """Kernels declared in a generated header, in order."""
    kernels, cur, docs = [], None, {}
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            cur = Kernel(m.group(1), tuple(int(m.group(i)) for i in (2, 3, 4)))
            docs = {}
            continue
        if cur is None:
            continue
        m = DOC.match(line)
        if m:
            shape = [s.strip() for s in m.group(3).split(",") if s.strip()]
            docs[m.group(1)] = Arg(m.group(1), "tensor", m.group(2), shape, m.group(4) == "written")
            continue
        m = DIM.match(line)
        if m:
            docs[m.group(1)] = Arg(m.group(1), "dim")
            continue
        m = SCALAR.match(line)
        if m:
            docs[m.group(1)] = Arg(m.group(1), "scalar", m.group(2))
            continue
        m = PROTO.match(line)
        if m and m.group(1) == cur.name:
            doc_list = list(docs.values())
            params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
            for i, p in enumerate(params):
                cname = re.split(r"[\s*]+", p)[-1]
                if "workspace" in cname and p.startswith("void"):
                    cur.workspace = True
                    cur.args.append(Arg(cname, "workspace", ctype=p))
                    continue
                if cname == "stream" or p.startswith("CUstream"):
                    continue
                a = docs.get(cname) or docs.get(cname.rstrip("_")) or (doc_list[i] if i < len(doc_list) else None)
                if a is None:
                    a = Arg(cname, "unknown")
                a.ctype = p
                cur.args.append(a)
            kernels.append(cur)
            cur = None
    return kernels


# ---- element encodings ------------------------------------------------------

STORAGE = {
    "float16": np.float16, "float32": np.float32, "float64": np.float64, "bfloat16": np.uint16,
    "float8_e4m3": np.uint8, "float8_e4m3fn": np.uint8, "float8_e5m2": np.uint8,
    "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint32": np.uint32, "bool": np.bool_, "int4": np.uint8, "uint4": np.uint8, "float4_e2m1fn": np.uint8,
}
FLOATS = ("float16", "bfloat16", "float32", "float64", "float8_e4m3", "float8_e4m3fn", "float8_e5m2",
          "float4_e2m1fn")
PACKED = ("int4", "uint4", "float4_e2m1fn")  # two elements a byte, low nibble first

# float4_e2m1fn: the 16 codes (sign bit 3; exponent bits 2-1, bias 1; mantissa bit 0; no inf or NaN).
FP4 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0])


def _fp4_encode(x):
    """Nearest code, ties to the even code, saturating at 6 (CUDA's satfinite conversion)."""
    x = np.asarray(x, np.float64).ravel()
    mag = np.minimum(np.abs(x), 6.0)
    pos = FP4[:8]
    idx = np.clip(np.searchsorted(pos, mag), 1, 7)
    lo, hi = pos[idx - 1], pos[idx]
    dl, dh = mag - lo, hi - mag
    code = np.where(dl < dh, idx - 1, np.where(dh < dl, idx, np.where((idx - 1) % 2 == 0, idx - 1, idx)))
    return np.where(np.signbit(x), code | 8, code).astype(np.uint8)


def _bf16_encode(x):
    b = np.asarray(x, np.float32).view(np.uint32)
    rounded = b + 0x7FFF + ((b >> 16) & 1)  # round to nearest even
    out = (rounded >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, np.float32))
    out[nan] = 0x7FC0
    return out


def _bf16_decode(u):
    return (np.asarray(u, np.uint32) << 16).view(np.float32).astype(np.float64)


def _fp8_table(exp_bits, man_bits, fn):
    """All 256 values of an 8-bit float format."""
    bias = (1 << (exp_bits - 1)) - 1
    vals = np.zeros(256)
    for code in range(256):
        s = -1.0 if code & 0x80 else 1.0
        e = (code >> man_bits) & ((1 << exp_bits) - 1)
        m = code & ((1 << man_bits) - 1)
        if fn and e == (1 << exp_bits) - 1 and m == (1 << man_bits) - 1:
            vals[code] = np.nan
        elif not fn and e == (1 << exp_bits) - 1:
            vals[code] = np.nan if m else s * np.inf
        elif e == 0:
            vals[code] = s * m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            vals[code] = s * (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
    return vals


FP8 = {"float8_e4m3": _fp8_table(4, 3, True), "float8_e4m3fn": _fp8_table(4, 3, True),
       "float8_e5m2": _fp8_table(5, 2, False)}


def _fp8_encode(x, dtype):
    """Nearest representable value (saturating to the finite range)."""
    table = FP8[dtype]
    finite = np.where(np.isfinite(table), table, np.inf)
    order = np.argsort(finite[:128])
    pos = finite[:128][order]
    x = np.asarray(x, np.float64)
    mag = np.minimum(np.abs(x), pos[np.isfinite(pos)].max())
    idx = np.clip(np.searchsorted(pos, mag), 1, len(pos) - 1)
    lo, hi = pos[idx - 1], pos[idx]
    pick = np.where(np.abs(mag - lo) <= np.abs(hi - mag), idx - 1, idx)
    code = order[pick].astype(np.uint8)
    return np.where(x < 0, code | 0x80, code).astype(np.uint8)


def element_count(dtype, n):
    """Stored elements for n logical elements (int4 packs two a byte)."""
    return (n + 1) // 2 if dtype in PACKED else n


def encode(x, dtype):
    """float64/int array -> the stored representation of `dtype` (flat)."""
    x = np.asarray(x)
    if dtype == "bfloat16":
        return _bf16_encode(x).ravel()
    if dtype in FP8:
        return _fp8_encode(x, dtype).ravel()
    if dtype in PACKED:
        v = _fp4_encode(x) if dtype == "float4_e2m1fn" else (np.asarray(x, np.int64).ravel() & 0xF).astype(np.uint8)
        if v.size % 2:
            v = np.append(v, 0)
        return (v[0::2] | (v[1::2] << 4)).astype(np.uint8)
    return np.asarray(x, STORAGE[dtype]).ravel()


def decode(raw, dtype, n=None):
    """Stored representation -> float64 (floats) or int64 values (flat)."""
    if dtype == "bfloat16":
        return _bf16_decode(raw)
    if dtype in FP8:
        return FP8[dtype][np.asarray(raw, np.uint8)]
    if dtype in PACKED:
        lo, hi = raw & 0xF, raw >> 4
        v = np.stack([lo, hi], 1).ravel().astype(np.int64)
        if dtype == "float4_e2m1fn":
            v = FP4[v]
        elif dtype == "int4":
            v = np.where(v >= 8, v - 16, v)
        return v[:n] if n is not None else v
    if dtype in FLOATS:
        return np.asarray(raw, np.float64)
    return np.asarray(raw, np.int64)


def quantize(x, dtype):
    """x rounded to dtype's values, as float64 (what the kernel sees as input)."""
    if dtype in FLOATS or dtype in PACKED:
        return decode(encode(x, dtype), dtype, np.size(x)).reshape(np.shape(x))
    return np.asarray(x).astype(STORAGE[dtype]).astype(np.int64)


CTYPES = {
    "float": ctypes.c_float, "double": ctypes.c_double, "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8,
    "int16_t": ctypes.c_int16, "uint16_t": ctypes.c_uint16, "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64, "bool": ctypes.c_bool,
}


def scalar_ctype(decl):
    base = decl.replace("const", "").split()[0]
    return CTYPES.get(base, ctypes.c_int64)


def call(lib, kernel, values):
    """Calls `kernel` with `values[name]`: arrays for tensors (contiguous), numbers otherwise."""
    fn = getattr(lib, kernel.name)
    fn.restype = ctypes.c_int
    argv, keep = [], []
    for a in kernel.args:
        v = values[a.name]
        if a.kind in ("tensor", "workspace"):
            buf = np.ascontiguousarray(v)
            keep.append(buf)
            argv.append(ctypes.c_void_p(buf.ctypes.data))
        elif a.kind == "dim":
            argv.append(ctypes.c_int64(int(v)))
        else:
            argv.append(scalar_ctype(a.ctype)(v))
    return fn(*argv)
