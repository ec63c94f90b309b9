/* TILE
# tile-lang's other loop forms: T.thread_binding as a value and as a loop,
# T.vectorized, T.Unroll with its hints, T.serial with a negative step, and
# T.Persistent spreading a ragged 2-D tile domain over a grid of 5 blocks.
import tilelang.language as T

M, N = 40, 56
bM, bN = 8, 8

@T.prim_func
def loop_forms(A: T.Tensor((64, 32), T.float32), B: T.Tensor((64, 32), T.float32), C: T.Tensor((9,), T.int32)):
    with T.Kernel(2, threads=(8, 2)) as bx:
        ty = T.thread_binding(2, "threadIdx.y")
        L = T.alloc_local((4,), T.float32)
        for tx in T.thread_binding(0, 8, thread="threadIdx.x"):
            for r in T.serial(bx * 32 + ty * 16, bx * 32 + ty * 16 + 16):
                for v in T.vectorized(4):
                    L[v] = A[r, tx * 4 + v]
                for v in T.Unroll(0, 4, explicit=True):
                    B[r, tx * 4 + v] = L[v] * 2.0 + T.cast(v, T.float32)
        if bx == 0:
            for i in T.serial(8, -1, -3):
                C[i] = i * 10
            for i in T.Serial(1, 8, 3):
                C[i] = i + 100

@T.prim_func
def persistent(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
    with T.Kernel(5, threads=64) as block_id:
        t = T.alloc_fragment((bM, bN), T.float32)
        for bi, bj in T.Persistent([T.ceildiv(M, bM), T.ceildiv(N, bN)], 5, block_id, group_size=3):
            T.copy(X[bi * bM, bj * bN], t)
            for i, j in T.Parallel(bM, bN):
                t[i, j] = t[i, j] + 1.0
            T.copy(t, Y[bi * bM, bj * bN])
*/
// Every element written once with its expected value; Persistent visits every
// tile of the 5x7 domain (panels of 3 columns, the last one narrower) once.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(loop_forms) {
  auto a = randomF32(64 * 32);
  std::vector<float> b(64 * 32, 42.0f), ref(64 * 32);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 32; ++c)
      ref[r * 32 + c] = a[r * 32 + c] * 2.0f + float(c % 4);
  std::vector<int32_t> c(9, -1), cref = {-1, 101, 20, -1, 104, 50, -1, 107, 80};
  expectStatus(loop_forms(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  expectEqual("B", b, ref);
  expectEqual("C", c, cref);

  auto x = randomF32(40 * 56);
  std::vector<float> y(40 * 56, 42.0f), yref(40 * 56);
  for (size_t i = 0; i < x.size(); ++i)
    yref[i] = x[i] + 1.0f;
  expectStatus(persistent(x.data(), y.data()), TILEC_SUCCESS);
  expectEqual("Y", y, yref);
}
