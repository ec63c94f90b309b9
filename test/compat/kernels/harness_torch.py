# A tile-lang example's shape: torch at module level and in the config
# helper, a version check, a torch dtype, Python true division of two
# compile-time ints in a shape. Compiles as it is (mode py): the module-level
# harness binds harness values no kernel uses, the device capability is the
# target's, torch.float32 is float32.
import math

import torch
import tilelang
import tilelang.language as T
from packaging import version

torch.manual_seed(0)
if version.parse(torch.__version__) >= version.parse("2.4"):
    amp = torch.amp.custom_fwd
else:
    amp = torch.cuda.amp.custom_fwd

M = T.dynamic("M")
N = 96


def get_configs():
    sm_major, sm_minor = torch.cuda.get_device_capability()
    if sm_major * 10 + sm_minor >= 90:
        return {"block_M": 16, "threads": 128}
    return {"block_M": 8, "threads": 64}


@tilelang.jit
def scale_rows(block_N=32, dtype=torch.float32):
    cfg = get_configs()
    block_M, threads = cfg["block_M"], cfg["threads"]
    n_blocks = math.ceil(N / block_N)

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype), alpha: T.float32):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, n_blocks * block_N), dtype)
            T.copy(X[bx * block_M, 0], x)
            for i, j in T.Parallel(block_M, int(N / block_N) * block_N):
                x[i, j] = x[i, j] * alpha + 1.0
            T.copy(x, Y[bx * block_M, 0])

    return main


def main():
    x = torch.randn(37, N, device="cuda")
    y = scale_rows()(x, 0.75)
    torch.testing.assert_close(y, x * 0.75 + 1.0)


if __name__ == "__main__":
    main()
