"""References of the self-test's region kernels (kernels/regions.py)."""
import numpy as np

from refs import ref, f32


@ref
def selftest_regions_gemm(ins, p):
    a = np.asarray(ins["A"], np.float64)
    b = np.asarray(ins["B"], np.float64)
    return {"C": f32(a @ b)}


@ref
def selftest_regions_rows(ins, p):
    x = np.asarray(ins["X"], np.float64)
    bm = 32
    s = np.stack([x.max(axis=1), x[:, 0:32].sum(axis=1)], axis=1)
    z = x.copy()
    z[:, 0:16] = np.cumsum(z[:, 0:16], axis=1)
    z[:, 48:64] = 2.5
    z[::bm, :] = 0.0
    return {"S": f32(s), "Z": f32(z)}


@ref
def selftest_regions_atomic(ins, p):
    x = np.asarray(ins["X"], np.float64)
    o = np.zeros((2, x.shape[0], 3, 32))
    o[1] = 2 * x[:, None, :]
    return {"O": f32(o)}
