/* TILE
# Block buffers past the host's stack budget (256 KiB) live on the heap:
# a 512 KiB fragment and a 64 KiB shared tile per block, blocks on 2 threads.
import tilelang.language as T

M = T.dynamic("M")
N = 512
bM = 256

@T.prim_func
def big_buffers(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32), S: T.Tensor((M,), T.float32)):
    with T.Kernel(T.ceildiv(M, bM), threads=256) as bx:
        x = T.alloc_fragment((bM, N), T.float32)
        s = T.alloc_shared((bM, 64), T.float32)
        r = T.alloc_fragment((bM,), T.float32)
        T.copy(X[bx * bM, 0], x)
        for i, j in T.Parallel(bM, N):
            x[i, j] = x[i, j] + 1.0
        T.copy(x[0:bM, 0:64], s)
        T.reduce_sum(s, r, dim=1)
        T.copy(x, Y[bx * bM, 0])
        T.copy(r, S[bx * bM])
*/
// TILEC-FLAGS: -j 2
#include "harness.h"
#include "kernel.h"

TILEC_TEST(big_buffers) {
  const int M = 600, N = 512;
  auto x = randomF32(size_t(M) * N);
  auto y = zeros<float>(size_t(M) * N), s = zeros<float>(M);
  expectStatus(big_buffers(x.data(), y.data(), s.data(), M), TILEC_SUCCESS);
  std::vector<float> ry(size_t(M) * N);
  std::vector<double> rs(M, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      ry[size_t(i) * N + j] = x[size_t(i) * N + j] + 1.0f;
      if (j < 64)
        rs[i] += ry[size_t(i) * N + j];
    }
  expectEqual("Y", y, ry);
  expectClose("S", s, rs, 1e-5, 1e-5);
}
