/* TILE
# Conditions and loop bounds computed from T.get_thread_binding around plain
# statements: every thread runs them with its own index (spec §6), so the
# even threads write Y and the first 64 threads add to Z a thread-dependent
# number of times. A condition the block's threads agree on (from bx) may
# hold tile operations.
import tilelang.language as T

M = T.dynamic("M")


@T.prim_func
def thread_cond(X: T.Tensor((M,), T.float32), Y: T.Tensor((M,), T.float32), Z: T.Tensor((M,), T.float32),
                W: T.Tensor((M,), T.float32)):
    with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((64,), T.float32)
        T.copy(X[bx * 64], s)
        if tx % 2 == 0:
            Y[bx * 64 + tx // 2] = s[tx // 2] * 2.0
        if tx < 64:
            for k in range(tx % 3 + 2):
                Z[bx * 64 + tx] = Z[bx * 64 + tx] + 1.0
        if bx % 2 == 1:
            T.copy(s, W[bx * 64])
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(thread_condition) {
  const int M = 200;
  auto x = randomF32(M);
  std::vector<float> y(M, -7.0f), z(M, 0.5f), w(M, -3.0f);
  expectStatus(thread_cond(x.data(), y.data(), z.data(), w.data(), M), TILEC_SUCCESS);
  std::vector<float> refY(M), refZ(M), refW(M);
  for (int i = 0; i < M; ++i) {
    refY[i] = 2.0f * x[i];
    refZ[i] = 0.5f + float(i % 64 % 3 + 2);
    refW[i] = (i / 64) % 2 == 1 ? x[i] : -3.0f;
  }
  expectClose("Y", y, refY, 0, 0);
  expectClose("Z", z, refZ, 0, 0);
  expectClose("W", w, refW, 0, 0);
}
