"""Multi-arch CUDA objects on the device: which image each launcher runs.

Loads the GEMM example built for -target=sm_80,sm_90a and sm_90a,sm_80 (and the
single-arch sm_80 / sm_90a builds as references), checks C = A @ B against torch,
times each, and names the image that ran by its speed (wgmma vs mma.sync). The
fatbins embedded in each library are listed with cuobjdump (ELF/PTX archs and the
count of HGMMA = wgmma and HMMA = mma.sync instructions in their SASS).
"""
import ctypes, os, struct, subprocess, sys
import torch

here = os.path.dirname(os.path.abspath(__file__))
out = os.environ.get("OUT") or here
dev = torch.device("cuda")
major, minor = torch.cuda.get_device_capability()
print(f"device: {torch.cuda.get_device_name()} (compute capability {major}.{minor})")
torch.manual_seed(0)
M, N, K = 8192, 4096, 4096
A = torch.randn(M, K, device=dev, dtype=torch.float16)
B = torch.randn(K, N, device=dev, dtype=torch.float16)
ref = A.float() @ B.float()
P = lambda t: ctypes.c_void_p(t.data_ptr())
S = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def fatbins(path):
    """The fatbins embedded in a library: (offset, bytes) by the fatbin magic."""
    data = open(path, "rb").read()
    found, at = [], data.find(b"\x50\xed\x55\xba")
    while at >= 0:
        header, total = struct.unpack_from("<H", data, at + 6)[0], struct.unpack_from("<Q", data, at + 8)[0]
        found.append(data[at:at + header + total])
        at = data.find(b"\x50\xed\x55\xba", at + header + total)
    return found


def describe(name, blob, index):
    path = os.path.join(out, f"{name}.{index}.fatbin")
    open(path, "wb").write(blob)
    def run(*args):
        r = subprocess.run(["cuobjdump", *args, path], capture_output=True, text=True)
        return r.stdout + r.stderr
    listing = " ".join(l.split(":")[-1].strip() for l in run("-lelf", "-lptx").splitlines() if l.strip())
    sass = run("-sass")
    return f"{listing} | SASS: {sass.count('HGMMA')} HGMMA, {sass.count('HMMA')} HMMA"


def bench(fn):
    C = torch.full((M, N), float("nan"), device=dev, dtype=torch.float16)
    rc = fn(P(A), P(B), P(C), ctypes.c_int64(M), S())
    torch.cuda.synchronize()
    if rc != 0:
        return rc, float("nan"), float("nan")
    err = ((C.float() - ref).norm() / ref.norm()).item()
    for _ in range(3):
        fn(P(A), P(B), P(C), ctypes.c_int64(M), S())
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    iters = 20
    start.record()
    for _ in range(iters):
        fn(P(A), P(B), P(C), ctypes.c_int64(M), S())
    end.record()
    torch.cuda.synchronize()
    ms = start.elapsed_time(end) / iters
    return rc, err, 2 * M * N * K / ms / 1e9


results, ok = {}, True
for name in ["gemm_sm80", "gemm_sm90a", "gemm_sm80_sm90a", "gemm_sm90a_sm80"]:
    path = os.path.join(here, name + ".so")
    fn = ctypes.CDLL(path).gemm
    fn.restype = ctypes.c_int
    rc, err, tflops = bench(fn)
    results[name] = tflops
    good = rc == 0 and err < 1e-2
    ok &= good
    print(f"{name}: status {rc}, rel. error {err:.2e}, {tflops:.0f} TFLOP/s {'ok' if good else 'FAILED'}")
    for i, blob in enumerate(fatbins(path)):
        print(f"  image {i}: {describe(name, blob, i)}")
mma, wgmma = results["gemm_sm80"], results["gemm_sm90a"]
for name in ["gemm_sm80_sm90a", "gemm_sm90a_sm80"]:
    t = results[name]
    ran = "sm_90a image (wgmma)" if abs(t - wgmma) < abs(t - mma) else "sm_80 image (mma.sync)"
    print(f"{name} ran the {ran}: {t:.0f} TFLOP/s vs sm_90a-only {wgmma:.0f}, sm_80-only {mma:.0f}")
    if (major, minor) == (9, 0):
        ok &= "sm_90a" in ran
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
