/* TILE
# Conditions and loop bounds computed from T.get_thread_binding around tile
# operations. The body runs once per block (spec §6) with the thread index 0:
# `tx % 2 == 0` holds, `tx >= 1` does not, `range(tx % 3 + 2)` runs twice. GPU
# targets run such a branch or loop as thread 0 decides (its value broadcast
# through shared memory), so the block stays converged around the copies'
# barriers and the T.Parallel loops spread over all threads.
import tilelang.language as T

M = T.dynamic("M")


@T.prim_func
def thread_cond(X: T.Tensor((M,), T.float32), Y: T.Tensor((M,), T.float32), Z: T.Tensor((M,), T.float32)):
    with T.Kernel(T.ceildiv(M, 64), threads=128) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((64,), T.float32)
        if tx % 2 == 0:
            T.copy(X[bx * 64], s)
            for i in T.Parallel(64):
                Y[bx * 64 + i] = s[i] * 2.0
        if tx >= 1:
            for i in T.Parallel(64):
                Y[bx * 64 + i] = -1.0
        for k in range(tx % 3 + 2):
            for i in T.Parallel(64):
                Z[bx * 64 + i] = Z[bx * 64 + i] + 1.0
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(thread_condition) {
  const int M = 200;
  auto x = randomF32(M);
  std::vector<float> y(M, -7.0f), z(M, 0.5f);
  expectStatus(thread_cond(x.data(), y.data(), z.data(), M), TILEC_SUCCESS);
  std::vector<float> refY(M), refZ(M);
  for (int i = 0; i < M; ++i) {
    refY[i] = 2.0f * x[i];
    refZ[i] = 2.5f;
  }
  expectClose("Y", y, refY, 0, 0);
  expectClose("Z", z, refZ, 0, 0);
}
