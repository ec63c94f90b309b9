"""Suites `arch` and `peak`.

arch: the GEMM example built for -target=sm_80,sm_90a and sm_90a,sm_80 (and the single-arch
sm_80 and sm_90a builds as references): C = A @ B checked against torch, each timed, and the
image that ran named by its speed (wgmma vs mma.sync); on compute capability 9.0 both
multi-arch builds must run the sm_90a image. The fatbins each library embeds are listed with
cuobjdump (ELF/PTX architectures, HGMMA = wgmma and HMMA = mma.sync counts in their SASS).
It also runs bench/cluster/cluster_rank.tile, a kernel in thread-block clusters of 2: its
cubin must carry the cluster attributes, a launch over 8 blocks must succeed (cuLaunchKernelEx
with the cluster dimension) and write every block's index and rank (and so must the 2-D
kernel in clusters of 2 x 2), and 7 blocks must return TILEC_ERROR_BAD_DIMENSION and leave
the output alone.

peak: the mma.sync instruction's ceiling (bench/cuda/mma_peak.cu: independent
mma.sync.m16n8k16 on register operands only, 8 to 32 warps per SM) next to cuBLAS bf16 4096^3.
"""
import ctypes
import shutil
import struct
import subprocess

import torch

import timing as T
from suites import row, table

M, N, K = 8192, 4096, 4096
NAMES = ["gemm_sm80", "gemm_sm90a", "gemm_sm80_sm90a", "gemm_sm90a_sm80"]


def fatbins(path):
    """The fatbins embedded in a library, found by the fatbin magic."""
    data, found = open(path, "rb").read(), []
    at = data.find(b"\x50\xed\x55\xba")
    while at >= 0:
        header, total = struct.unpack_from("<H", data, at + 6)[0], struct.unpack_from("<Q", data, at + 8)[0]
        found.append(data[at:at + header + total])
        at = data.find(b"\x50\xed\x55\xba", at + header + total)
    return found


def describe(blob, tmp):
    open(tmp, "wb").write(blob)

    def cuobjdump(*args):
        r = subprocess.run([shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump", *args, tmp],
                           capture_output=True, text=True)
        return r.stdout + r.stderr
    listing = " ".join(l.split(":")[-1].strip() for l in cuobjdump("-lelf", "-lptx").splitlines() if l.strip())
    sass = cuobjdump("-sass")
    return f"{listing} | SASS: {sass.count('HGMMA')} HGMMA, {sass.count('HMMA')} HMMA"


def check_arch(kit, small):
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = T.poison(M, N, dtype=torch.float16)
    ref = a.float() @ b.float()
    rows, speed = [], {}
    for name in NAMES:
        f = kit.fn(name + ".so", "gemm")
        c.fill_(float("nan"))
        T.run(f, T.ptr(a), T.ptr(b), T.ptr(c), T.dim(M), T.stream())
        row(name, f"{M}x{N}x{K}", T.rel_norm(c, ref), T.rel_norm(c, ref) < 1e-2, rows)
        ct = T.Contender(name, lambda f=f: f(T.ptr(a), T.ptr(b), T.ptr(c), T.dim(M), T.stream()), 2 * M * N * K)
        T.measure([ct], rounds=3)
        speed[name] = ct.rate() / 1e12
        for i, blob in enumerate(fatbins(kit.path(name + ".so"))):
            print(f"  {name} image {i}: {describe(blob, f'/tmp/kit-{name}.{i}.fatbin')}", flush=True)
    mma, wgmma = speed["gemm_sm80"], speed["gemm_sm90a"]
    hopper = torch.cuda.get_device_capability() == (9, 0)
    for name in NAMES[2:]:
        ran = "sm_90a" if abs(speed[name] - wgmma) < abs(speed[name] - mma) else "sm_80"
        row(f"{name} runs the {ran} image", f"{speed[name]:.0f} TFLOP/s",
            f"sm_90a {wgmma:.0f} / sm_80 {mma:.0f}", ran == "sm_90a" or not hopper, rows)
    check_cluster(kit, rows)
    return rows


def check_cluster(kit, rows):
    """The cluster kernel: its cubin's cluster attributes, a launch, a refused ragged grid."""
    r = subprocess.run([shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump", "-elf",
                        kit.path("cluster_rank.cubin")], capture_output=True, text=True)
    attrs = sorted({w for w in (r.stdout + r.stderr).split() if w.startswith("EIATTR_") and "CLUSTER" in w})
    print(f"  cluster_rank.cubin: {' '.join(attrs) or 'no cluster attributes'}", flush=True)
    row("cluster_rank cubin has clusters", "-", " ".join(attrs) or "none", bool(attrs), rows)
    f = kit.fn("cluster_rank.so", "cluster_rank")
    y = T.poison(8, 2, dtype=torch.int32)
    rc = f(T.ptr(y), T.dim(8), T.stream())
    torch.cuda.synchronize()
    want = torch.tensor([[b, b % 2] for b in range(8)], dtype=torch.int32, device="cuda")
    row("cluster_rank launch (2x1x1)", "8 blocks", f"status {rc}", rc == 0 and torch.equal(y, want), rows)
    f2 = kit.fn("cluster_rank.so", "cluster_rank_2d")
    z = T.poison(6, 4, dtype=torch.int32)
    rc = f2(T.ptr(z), T.dim(6), T.stream())
    torch.cuda.synchronize()
    want2 = torch.tensor([[c % 2 + (r % 2) * 2 for c in range(4)] for r in range(6)], dtype=torch.int32, device="cuda")
    row("cluster_rank_2d launch (2x2x1)", "4x6 blocks", f"status {rc}", rc == 0 and torch.equal(z, want2), rows)
    y7 = T.poison(7, 2, dtype=torch.int32)
    rc = f(T.ptr(y7), T.dim(7), T.stream())
    torch.cuda.synchronize()
    row("cluster_rank ragged grid refused", "7 blocks", f"status {rc}", rc == 2 and bool((y7 == -7).all()), rows)


def check_peak(kit, small):
    rows = []
    row("mma_peak.cubin built", "-", "-", kit.has("cubin/mma_peak.cubin"), rows)
    return rows


def bench_peak(kit):
    cu = ctypes.CDLL("libcuda.so.1")
    torch.zeros(1, device="cuda")
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert cu.cuModuleLoad(ctypes.byref(mod), kit.path("cubin/mma_peak.cubin").encode()) == 0
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"mma_peak") == 0
    out = torch.empty(132 * 16 * 256, device="cuda")
    iters = 4096
    vals = [ctypes.c_void_p(out.data_ptr()), ctypes.c_int(iters)]
    params = (ctypes.c_void_p * 2)(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])

    def launcher(blocks, threads):
        return lambda: cu.cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0, T.stream(), params, None)
    cs = []
    for per_sm, threads in ((2, 128), (1, 256), (4, 128), (2, 256), (4, 256)):
        blocks = 132 * per_sm
        flop = blocks * threads // 32 * iters * 8 * 2 * 16 * 8 * 16
        cs.append(T.Contender(f"mma.sync only, {per_sm} blocks/SM x {threads} threads "
                              f"({per_sm * threads // 32} warps/SM)", launcher(blocks, threads), flop))
    n = 4096
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    cs.append(T.Contender("cuBLAS bf16 4096^3 (torch.matmul, wgmma)", lambda: torch.matmul(a, b.T, out=c), 2 * n ** 3))
    T.measure(cs, rounds=9)
    cb = cs[-1].rate()
    return {"tables": table(["kernel", "TFLOP/s", "/ cuBLAS"],
                            [(c.name, f"{c.rate() / 1e12:.0f}", f"{c.rate() / cb:.2f}") for c in cs]),
            "summary": [f"mma.sync ceiling {max(c.rate() for c in cs[:-1]) / 1e12:.0f} TFLOP/s, "
                        f"cuBLAS bf16 {cb / 1e12:.0f}"],
            "figures": {c.name: c.rate() / 1e12 for c in cs}}
