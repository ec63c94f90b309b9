/* TILE
# Two runtime dimensions (M rows, N columns) and a tensor using both, plus
# one using N alone; block tiles overhang both edges.
import tilelang.language as T

M = T.dynamic("M")
N = T.symbolic("N")
bM, bN = 16, 32

@T.prim_func
def dynamic_dims(X: T.Tensor((M, N), T.float32), B: T.Tensor((N,), T.float32), Y: T.Tensor((M, N), T.float32),
                 alpha: T.float32):
    with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=128) as (bx, by):
        x = T.alloc_fragment((bM, bN), T.float32)
        b = T.alloc_fragment((bN,), T.float32)
        T.copy(X[by * bM, bx * bN], x)
        T.copy(B[bx * bN], b)
        for i, j in T.Parallel(bM, bN):
            x[i, j] = x[i, j] * alpha + b[j]
        T.copy(x, Y[by * bM, bx * bN])
*/
// Dynamic M and N, called with several shapes (none a multiple of the tile);
// Y's guard band past the end stays untouched.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(dynamic_dims) {
  const int shapes[][2] = {{1, 1}, {17, 33}, {50, 7}, {3, 100}};
  for (auto &shape : shapes) {
    int M = shape[0], N = shape[1];
    auto x = randomF32(size_t(M) * N), b = randomF32(N);
    std::vector<float> y(size_t(M) * N + 16, 42.0f);
    expectStatus(dynamic_dims(x.data(), b.data(), y.data(), M, N, 0.5f), TILEC_SUCCESS);
    std::vector<float> ref(y.size(), 42.0f);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        ref[size_t(i) * N + j] = x[size_t(i) * N + j] * 0.5f + b[j];
    expectEqual("Y", y, ref);
  }
}
