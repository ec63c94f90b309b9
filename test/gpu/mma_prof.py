#!/usr/bin/env python3
"""Device half of mma_prof.sh. `python3 mma_prof.py once TAG`: one warm launch of
the fp16 mma.sync build TAG (or of cuBLAS for TAG=cublas) at 4096^3, for ncu.
`python3 mma_prof.py soak TAG SECONDS`: back-to-back launches for SECONDS, for
nvidia-smi clock/power sampling; prints the achieved TFLOP/s."""
import ctypes, os, sys, time
import torch

here = os.path.dirname(os.path.abspath(__file__))
mode, tag = sys.argv[1], sys.argv[2]
n = 4096
torch.manual_seed(0)
A = torch.randn(n, n, device="cuda", dtype=torch.float16)
B = torch.randn(n, n, device="cuda", dtype=torch.float16)
C = torch.empty(n, n, device="cuda", dtype=torch.float16)
P = lambda t: ctypes.c_void_p(t.data_ptr())
S = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
if tag == "cublas":
    fn = lambda: torch.matmul(A, B, out=C)
else:
    f = ctypes.CDLL(os.path.join(here, f"{tag}.so")).gemm
    fn = lambda: f(P(A), P(B), P(C), ctypes.c_int64(n), S)
fn(); torch.cuda.synchronize()
err = ((C.double() - (A.double() @ B.double())).norm() / (A.double() @ B.double()).norm()).item()
assert err < 1e-2, err
if mode == "once":
    fn(); torch.cuda.synchronize()
    print(f"{tag}: rel.err {err:.1e}")
else:
    secs = float(sys.argv[3])
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0, k = time.time(), 0
    s.record()
    while time.time() - t0 < secs:
        for _ in range(50):
            fn()
        k += 50
        torch.cuda.synchronize()
    e.record(); e.synchronize()
    print(f"soak {tag}: {k} launches, {2 * n**3 * k / (s.elapsed_time(e) / 1e3) / 1e12:.0f} TFLOP/s")
